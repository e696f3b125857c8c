#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

/// Where Identity Toolkit and securetoken live: Google's production hosts, or an Auth
/// emulator (`FIREBASE_AUTH_EMULATOR_HOST=host:port`), which serves both under
/// `http://HOST/<production host>/…` (firebase-tools src/emulator/auth, README.md and server.ts).
package struct FirebaseEndpoints: Sendable, Equatable {
    /// `host:port` of the emulator, or nil for production.
    package let emulatorHost: String?

    package static let production = FirebaseEndpoints(emulatorHost: nil)

    package static func emulator(_ hostAndPort: String) -> FirebaseEndpoints {
        FirebaseEndpoints(emulatorHost: hostAndPort)
    }

    /// Reads `FIREBASE_AUTH_EMULATOR_HOST`; a value with a scheme or path is a usage error.
    package static func from(environment: [String: String]) throws(FBAuthError) -> FirebaseEndpoints {
        guard let value = environment["FIREBASE_AUTH_EMULATOR_HOST"], !value.isEmpty else { return .production }
        guard !value.contains("/"), !value.contains("@"), !value.contains("?"), value.contains(":"),
            URL(string: "http://\(value)/")?.port != nil
        else {
            throw .usage("FIREBASE_AUTH_EMULATOR_HOST must be host:port (e.g. 127.0.0.1:9099), not '\(value)'")
        }
        return .emulator(value)
    }

    package var isEmulator: Bool { emulatorHost != nil }

    /// `…/v1/accounts:METHOD?key=KEY`
    package func accounts(_ method: String, apiKey: String) -> URL {
        url(host: "identitytoolkit.googleapis.com", path: "/v1/accounts:\(method)", apiKey: apiKey)
    }

    /// `…/v1/projects?key=KEY`: the project configuration (project id, authorized domains).
    package func projectConfig(apiKey: String) -> URL {
        url(host: "identitytoolkit.googleapis.com", path: "/v1/projects", apiKey: apiKey)
    }

    /// `…/v1/token?key=KEY` (securetoken).
    package func token(apiKey: String) -> URL {
        url(host: "securetoken.googleapis.com", path: "/v1/token", apiKey: apiKey)
    }

    /// The Identity Toolkit host as named in errors.
    package var identityToolkitHost: String { emulatorHost ?? "identitytoolkit.googleapis.com" }

    /// The host named in errors: the emulator's `host:port`, or the production host.
    package func displayHost(for url: URL) -> String {
        emulatorHost ?? url.host ?? "the server"
    }

    private func url(host: String, path: String, apiKey: String) -> URL {
        let base = emulatorHost.map { "http://\($0)/\(host)" } ?? "https://\(host)"
        return URL(string: base + path + "?key=" + FormEncoding.percentEncode(apiKey))!
    }
}
