#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthHTTP
import FBAuthSupport
import FBAuthVerification

/// The Admin SDK's errors: firebase-admin-node's `FirebaseAuthError` (`auth/CODE` and its
/// message, from the generated `AdminErrorTable`).
package enum AdminErrors {
    /// The client error `key` (`USER_NOT_FOUND`), with `message` in place of the SDK's own.
    package static func client(_ key: String, message: String? = nil) -> TokenRefusal {
        let (code, words) = AdminErrorTable.client[key] ?? AdminErrorTable.client["INTERNAL_ERROR"]!
        return TokenRefusal(message ?? words, code: code)
    }

    /// An Identity Toolkit refusal (`{"error": {"message": "CODE : detail"}}`) as
    /// `FirebaseAuthError.fromServerError` words it: the detail, where there is one, is the
    /// message; an unknown code is `auth/internal-error`.
    package static func fromServer(status: Int, answer: JSONValue?) -> TokenRefusal {
        let text = answer?["error"]?["message"]?.stringValue ?? ""
        let (code, detail): (String, String?)
        if let colon = text.firstIndex(of: ":") {
            code = String(text[..<colon]).trimmed()
            let rest = String(text[text.index(after: colon)...]).trimmed()
            detail = rest.isEmpty ? nil : rest
        } else {
            code = text.trimmed()
            detail = nil
        }
        guard let key = AdminErrorTable.server[code] else {
            let shown = code.isEmpty ? "HTTP \(status)" : TerminalText.safe(String(text.prefix(200)))
            return client("INTERNAL_ERROR", message: "An internal error has occurred. Raw server response: \(shown)")
        }
        return client(key, message: detail.map { TerminalText.safe(String($0.prefix(500))) })
    }
}
