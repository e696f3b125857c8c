#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An error answered by Identity Toolkit or securetoken, either as the error envelope
/// `{"error": {"code": 400, "message": "CODE : detail", "errors": [...]}}` or as an HTTP-200
/// `errorMessage` (the Firebase Auth REST API reference, "Error responses"; firebase-js-sdk
/// packages/auth/src/api/errors.ts).
package struct ServerError: Error, Sendable, Equatable {
    /// The HTTP status (200 for `errorMessage` answers).
    package var httpStatus: Int
    /// The message exactly as the server sent it.
    package var message: String
    /// `errors[].reason` values, e.g. `keyInvalid`.
    package var reasons: [String]
    /// The host that answered.
    package var host: String

    package init(httpStatus: Int, message: String, reasons: [String] = [], host: String) {
        self.httpStatus = httpStatus
        self.message = message
        self.reasons = reasons
        self.host = host
    }

    /// The leading code, e.g. `INVALID_IDP_RESPONSE` in `INVALID_IDP_RESPONSE : bad code`, or
    /// `USER_NOT_FOUND` in the emulator's `USER_NOT_FOUND ((note))`. Nil for free text such as
    /// "API key not valid. Please pass a valid API key."
    package var code: String? {
        let scalars = message.unicodeScalars
        let token = scalars.prefix { ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
        guard token.count >= 3, token.first.map({ ("A"..."Z").contains($0) }) == true else { return nil }
        let rest = String(String.UnicodeScalarView(scalars.dropFirst(token.count)))
        guard rest.isEmpty || rest.hasPrefix(":") || rest.hasPrefix(" :") || rest.hasPrefix(" (") else { return nil }
        return String(String.UnicodeScalarView(token))
    }

    /// What follows the code (`CODE : detail`), if anything.
    package var detail: String? {
        guard let code else { return message }
        var rest = message.dropFirst(code.count).drop(while: { $0 == " " })
        if rest.hasPrefix(":") { rest = rest.dropFirst().drop(while: { $0 == " " }) }
        return rest.isEmpty ? nil : String(rest)
    }

    /// What a blocking function said: the `error.message` of the JSON it answered, which the
    /// server embeds in `BLOCKING_FUNCTION_ERROR_RESPONSE : ((… returned an error: {JSON}))`.
    package var blockingFunctionMessage: String? {
        guard let detail, let start = detail.firstIndex(of: "{"), let end = detail.lastIndex(of: "}") else { return detail }
        return JSONValue.parse(String(detail[start...end]))?["error"]?["message"]?.stringValue ?? detail
    }

    /// 500, 502, 503, 504 and 429: worth one retry, and reported as a network problem (exit 6).
    /// A 501 (not implemented) will not change on a second try.
    package var isTransient: Bool { [500, 502, 503, 504, 429].contains(httpStatus) }
}
