#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

/// Replaces secrets — tokens, codes, passwords, secrets, refresh tokens, the API key — with a
/// marker before anything is logged. Works on structure (JSON keys, form and query names) and
/// then, as a safety net, on anything shaped like a JWT.
internal enum Redaction {
    static let marker = "[REDACTED]"

    /// Query and form parameters that carry secrets.
    static let secretParameters: Set<String> = [
        "key", "code", "oauth_verifier", "oauth_token", "oauth_token_secret", "id_token", "access_token",
        "refresh_token", "token", "password", "client_secret", "nonce", "oobCode", "pendingToken", "captchaResponse", "captchaResp",
    ]

    /// Whether a JSON member holds a secret: any *token*, *secret*, *password* or *code* field
    /// (but not the token's type, a plain label).
    static func isSecretKey(_ key: String) -> Bool {
        let lower = key.lowercased()
        guard lower != "token_type" && lower != "tokentype" else { return false }
        return lower.contains("token") || lower.contains("secret") || lower.contains("password")
            || lower == "code" || lower.hasSuffix("code") || lower == "mfapendingcredential" || lower == "key"
    }

    /// A server's error message with what it echoed of the request made safe to show: the
    /// values of secret parameters and anything shaped like a JWT. Production's
    /// `INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: http://localhost?id_token=…`
    /// repeats the credential it refused.
    internal static func serverMessage(_ text: String) -> String {
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            guard word.contains("=") else { return String(word) }
            return word.contains("?") ? url(String(word)) : form(String(word))
        }
        return scrubJWTs(words.joined(separator: " "))
    }

    internal static func url(_ text: String) -> String {
        guard let question = text.firstIndex(of: "?") else { return text }
        let query = String(text[text.index(after: question)...])
        return String(text[..<question]) + "?" + form(query)
    }

    static func form(_ text: String) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            return secretParameters.contains(FormEncoding.percentDecode(name)) ? "\(name)=\(marker)" : String(pair)
        }.joined(separator: "&")
    }

    /// A request or response body for the log.
    internal static func body(_ data: Data?, contentType: String?) -> String {
        guard let data, !data.isEmpty else { return "(empty)" }
        let type = contentType?.lowercased() ?? ""
        if type.contains("json") || data.first == UInt8(ascii: "{") || data.first == UInt8(ascii: "["),
            let object = JSONValue.parse(data)
        {
            return scrubJWTs(String(decoding: json(object).sortedData(escapingSlashes: false), as: UTF8.self))
        }
        if type.contains("x-www-form-urlencoded") {
            return scrubJWTs(form(String(decoding: data, as: UTF8.self)))
        }
        return "(\(data.count) bytes of \(contentType ?? "unknown type"))"
    }

    static func json(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            var result: [String: JSONValue] = [:]
            for (key, member) in object {
                if isSecretKey(key), case .string = member {
                    result[key] = .string(marker)
                } else if case .string(let text) = member, text.contains("?") || key == "postBody" {
                    result[key] = .string(key == "postBody" ? form(text) : url(text))
                } else {
                    result[key] = json(member)
                }
            }
            return .object(result)
        case .array(let array):
            return .array(array.map(json))
        default:
            return value
        }
    }

    /// Anything that looks like a JWT (three base64url segments) becomes the marker.
    static func scrubJWTs(_ text: String) -> String {
        text.replacing(/[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/, with: marker)
    }
}
