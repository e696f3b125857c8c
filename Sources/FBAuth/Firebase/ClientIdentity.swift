/// Who is calling, sent with every Identity Toolkit and securetoken request as Firebase's own
/// SDKs send it (firebase-js-sdk `packages/auth/src/api/index.ts`, `HttpHeader`;
/// firebase-ios-sdk `FirebaseAuth/Sources/Swift/Backend/AuthBackend.swift`):
/// - `X-Client-Version`: `fbauth/VERSION`;
/// - `X-Firebase-Locale`: the language for provider pages and Firebase's emails;
/// - `X-Firebase-gmpid`: the app id, when the app config names one;
/// - what an API key restricted to an app or to web sites requires: `X-Ios-Bundle-Identifier`,
///   `X-Android-Package` with `X-Android-Cert` (SHA-1), or a `Referer`.
package struct ClientIdentity: Sendable, Equatable {
    package var iosBundleId: String?
    package var androidPackage: String?
    /// SHA-1 of the app's signing certificate, hex without separators.
    package var androidCert: String?
    package var referer: String?
    package var language: String?
    package var appId: String?

    package init(iosBundleId: String? = nil, androidPackage: String? = nil, androidCert: String? = nil, referer: String? = nil,
                language: String? = nil, appId: String? = nil) {
        self.iosBundleId = iosBundleId
        self.androidPackage = androidPackage
        self.androidCert = androidCert
        self.referer = referer
        self.language = language
        self.appId = appId
    }

    internal static let clientVersion = "fbauth/\(FBAuthVersion.current)"

    internal var headers: [String: String] {
        var headers = ["X-Client-Version": Self.clientVersion]
        if let language { headers["X-Firebase-Locale"] = language }
        if let appId { headers["X-Firebase-gmpid"] = appId }
        if let iosBundleId { headers["X-Ios-Bundle-Identifier"] = iosBundleId }
        if let androidPackage { headers["X-Android-Package"] = androidPackage }
        if let androidCert { headers["X-Android-Cert"] = androidCert }
        if let referer { headers["Referer"] = referer }
        return headers
    }

    /// The user's language from the POSIX locale variables, in the order the C library reads
    /// them: `fr_FR.UTF-8` → `fr`, `pt_BR` → `pt-BR`; nil for `C`, `POSIX` or nothing.
    package static func language(fromEnvironment environment: [String: String]) -> String? {
        guard let value = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty }) else {
            return nil
        }
        let name = value.prefix { $0 != "." && $0 != "@" }
        guard name != "C", name != "POSIX", let language = name.split(separator: "_").first, (2...3).contains(language.count),
            language.allSatisfy(\.isLetter)
        else { return nil }
        let region = name.split(separator: "_").dropFirst().first
        // Chinese and Portuguese differ by region in Firebase's templates; for others the language is enough.
        if let region, ["zh", "pt"].contains(language.lowercased()) { return "\(language.lowercased())-\(region.uppercased())" }
        return language.lowercased()
    }
}

/// A Web API key: printable ASCII without spaces, as Google's keys are (`AIza…`, 39
/// characters); an Auth emulator takes any such string. It goes into URLs, the store and
/// messages.
internal enum APIKey {
    internal static func isValid(_ key: String) -> Bool {
        (1...200).contains(key.utf8.count) && key.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    internal static func problem(_ key: String, named name: String) -> FBAuthError? {
        isValid(key) ? nil : .usage("\(name) is not an API key: it must be 1 to 200 printable characters without spaces (Firebase console → Project settings → General → Web API key)")
    }
}

/// The library's version, sent in `X-Client-Version` (and printed by `fbauth --version`).
package enum FBAuthVersion {
    /// The one place the version is written: Scripts/release.sh and the Homebrew formula read
    /// it from this line.
    package static let current = "0.1.0"
    /// The commit of a release build (`fbauth --version` says it); nil in other builds.
    nonisolated(unsafe) package static var commit: String?
}
