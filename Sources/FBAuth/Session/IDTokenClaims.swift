#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport

/// What fbauth reads from a Firebase ID token without verifying it (it came from Firebase over
/// TLS, and the server verifies it on every use): the `aud` claim is the project id
/// (Firebase documentation, "Verify ID tokens": `aud` must be the Firebase project ID).
internal enum IDTokenClaims {
    internal static func projectId(of idToken: String) -> String? {
        payload(of: idToken)?["aud"]?.stringValue.flatMap { isProjectID($0) ? $0 : nil }
    }

    /// How the token's sign-in was made (`firebase.sign_in_provider`: `anonymous`, `custom`,
    /// `password`, `yahoo.com`, …).
    internal static func signInProvider(of idToken: String) -> String? {
        payload(of: idToken)?["firebase"]?["sign_in_provider"]?.stringValue
    }

    /// A Google Cloud project id (`TextChecks.isProjectID`).
    internal static func isProjectID(_ text: String) -> Bool { TextChecks.isProjectID(text) }
}

extension IDTokenClaims {
    /// The token's payload, decoded (not verified).
    internal static func payload(of idToken: String) -> [String: JSONValue]? {
        let parts = idToken.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var base64 = String(parts[1]).replacing("-", with: "+").replacing("_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { return nil }
        return try? JSONDecoder().decode([String: JSONValue].self, from: data)
    }

    /// Whole seconds since 1970 within the years fbauth accepts (1970–2200).
    static func seconds(_ value: JSONValue?) -> Date? {
        guard case .integer(let seconds)? = value, (0...7_258_118_400).contains(seconds) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
