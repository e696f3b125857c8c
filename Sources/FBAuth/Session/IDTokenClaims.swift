#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What fbauth reads from a Firebase ID token without verifying it (it came from Firebase over
/// TLS, and the server verifies it on every use): the `aud` claim is the project id
/// (Firebase documentation, "Verify ID tokens": `aud` must be the Firebase project ID).
package enum IDTokenClaims {
    package static func projectId(of idToken: String) -> String? {
        let parts = idToken.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var base64 = String(parts[1]).replacing("-", with: "+").replacing("_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
            let claims = try? JSONDecoder().decode([String: JSONValue].self, from: data)
        else { return nil }
        return claims["aud"]?.stringValue.flatMap { isProjectID($0) ? $0 : nil }
    }

    /// A Google Cloud project id: lower-case letters, digits and hyphens (6 to 30 of them;
    /// older projects may also hold `.` and `:`, as `example.com:project`). Anything else in an
    /// `aud` claim or an app config is not saved or shown.
    package static func isProjectID(_ text: String) -> Bool {
        (1...100).contains(text.utf8.count) && text.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
        }
    }
}
