#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthHTTP
import FBAuthSupport

/// Workload identity federation's credentials (`"type": "external_account"`), as Google's auth
/// libraries read them (google-auth `identity_pool.Credentials`): a token another identity
/// provider gave this machine (a file, or a URL such as Azure's metadata service), exchanged at
/// Google's Security Token Service for an access token, then, where the file says so, for a
/// service account's through IAM's `generateAccessToken`.
struct ExternalAccount: Sendable {
    enum Source: Sendable {
        case file(String)
        case url(URL, headers: [String: String])
    }

    let audience: String
    let subjectTokenType: String
    let tokenURL: URL
    let source: Source
    /// The subject token is the text, or a field of the JSON (`format.subject_token_field_name`).
    let jsonField: String?
    let impersonationURL: URL?
    let quotaProjectID: String?
    /// A workforce pool's billing project (`workforce_pool_user_project`), sent as `options`.
    let workforceUserProject: String?

    static func parse(_ fields: [String: JSONValue], source: String) throws(TokenRefusal) -> ExternalAccount {
        func refuse(_ message: String) -> TokenRefusal { TokenRefusal(message, code: "app/invalid-credential") }
        func text(_ name: String) throws(TokenRefusal) -> String {
            guard let value = fields[name]?.stringValue, !value.isEmpty, TextChecks.isVisibleASCII(value) else {
                throw refuse("External account credentials must contain a string \"\(name)\" property (\(source)).")
            }
            return value
        }
        let tokenURL = try Self.endpoint(try text("token_url"), "token_url", source: source)
        let impersonation = try fields["service_account_impersonation_url"]?.stringValue.map { (url: String) throws(TokenRefusal) -> URL in
            try Self.endpoint(url, "service_account_impersonation_url", source: source)
        }
        guard case .object(let credential)? = fields["credential_source"] else {
            throw refuse("External account credentials must contain a \"credential_source\" object (\(source)).")
        }
        let found: Source
        if let path = credential["file"]?.stringValue, !path.isEmpty {
            found = .file(path)
        } else if let address = credential["url"]?.stringValue {
            var headers: [String: String] = [:]
            if case .object(let given)? = credential["headers"] {
                for (name, value) in given {
                    guard let value = value.stringValue, HeaderValue.isSafe(name), HeaderValue.isSafe(value) else {
                        throw refuse("The credential_source headers of \(source) must be printable text.")
                    }
                    headers[name] = value
                }
            }
            found = .url(try Self.endpoint(address, "credential_source.url", source: source, metadataAllowed: true), headers: headers)
        } else if credential["executable"] != nil || credential["environment_id"] != nil {
            throw refuse("External account credentials from an executable or AWS (\(source)) are not supported: use a credential_source file or url.")
        } else {
            throw refuse("The credential_source of \(source) names no file or url.")
        }
        var field: String?
        if case .object(let format)? = credential["format"], format["type"]?.stringValue == "json" {
            guard let name = format["subject_token_field_name"]?.stringValue, !name.isEmpty else {
                throw refuse("A json credential_source format of \(source) must name its subject_token_field_name.")
            }
            field = name
        }
        let visible = { (value: JSONValue?) in value?.stringValue.flatMap { TextChecks.isVisibleASCII($0) ? $0 : nil } }
        return ExternalAccount(audience: try text("audience"), subjectTokenType: try text("subject_token_type"), tokenURL: tokenURL, source: found,
                               jsonField: field, impersonationURL: impersonation, quotaProjectID: visible(fields["quota_project_id"]),
                               workforceUserProject: visible(fields["workforce_pool_user_project"]))
    }

    /// Where a token goes: https, or http on this machine (a test's stand-in) — and, for the
    /// subject token's URL, the link-local metadata address Azure and others serve it at.
    static func endpoint(_ text: String, _ name: String, source: String, metadataAllowed: Bool = false) throws(TokenRefusal) -> URL {
        guard TextChecks.isVisibleASCII(text), let url = URL(string: text), let host = url.host?.lowercased(), !host.isEmpty,
              url.scheme == "https" || (url.scheme == "http" && (["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) || (metadataAllowed && host == "169.254.169.254")))
        else { throw TokenRefusal("The \"\(name)\" of \(source) is not an https URL.", code: "app/invalid-credential") }
        return url
    }

    /// The subject token, read anew for each exchange (the other provider rotates it).
    func subjectToken(transport: HTTPTransport) throws(TokenRefusal) -> String {
        let raw: Data
        switch source {
        case .file(let path):
            do { raw = try Platform.readInput(path, limit: 64 * 1024) } catch {
                throw TokenRefusal("Failed to read the external account's subject token: \(error.description)", code: "app/invalid-credential")
            }
        case .url(let url, let headers):
            let response: HTTPClientResponse
            do { response = try transport.send(HTTPClientRequest(method: "GET", url: url, headers: headers, timeout: 10)) } catch {
                throw TokenRefusal("Failed to fetch the external account's subject token from \(url.absoluteString): \(error.message)", code: "app/network-error")
            }
            guard response.status == 200 else {
                throw TokenRefusal("Failed to fetch the external account's subject token from \(url.absoluteString): HTTP \(response.status).", code: "app/invalid-credential")
            }
            raw = response.body
        }
        let token: String?
        if let jsonField {
            token = JSONValue.decoded(raw)?[jsonField]?.stringValue
        } else {
            // As it is, line break and all, as google-auth sends a text file's token.
            token = String(decoding: raw, as: UTF8.self)
        }
        // Text only: it is form-encoded, so a line break in it is sent as %0A, never as a new field.
        guard let token, !token.trimmed().isEmpty, token.utf8.count <= 16 * 1024,
              token.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F || ["\n", "\r", "\t"].contains($0) }) else {
            throw TokenRefusal("The external account's subject token is empty or not text" + (jsonField.map { " (no \"\($0)\" field)" } ?? "") + ".", code: "app/invalid-credential")
        }
        return token
    }

    /// The Security Token Service's form (RFC 8693), as google-auth sends it: with
    /// impersonation the token only needs IAM's scope.
    func exchangeForm(subjectToken: String, scopes: String) -> [(name: String, value: String)] {
        var form: [(name: String, value: String)] = [
            ("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange"), ("audience", audience),
            ("scope", impersonationURL == nil ? scopes : "https://www.googleapis.com/auth/iam"),
            ("requested_token_type", "urn:ietf:params:oauth:token-type:access_token"), ("subject_token", subjectToken), ("subject_token_type", subjectTokenType),
        ]
        if let workforceUserProject, impersonationURL == nil { form.append(("options", JSONValue.object(["userProject": .string(workforceUserProject)]).compactText)) }
        return form
    }
}
