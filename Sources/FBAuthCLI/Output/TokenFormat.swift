#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthSupport

/// The shapes `fbauth token --format` prints the ID token in, each as the program that reads it
/// expects: a bare token, fbauth's JSON, a header line for `curl -H @-`, a Kubernetes
/// client-go `ExecCredential`, and the executable-sourced response of Google's external-account
/// credentials (Workload Identity Federation).
enum TokenFormat: String, CaseIterable, Equatable {
    case raw
    case json
    case header
    case execCredential = "exec-credential"
    case googleExecutable = "google-executable"

    static let names = allCases.map(\.rawValue)

    /// The format `--format` names; nil when it is not given.
    static func named(_ name: String?) throws(FBAuthError) -> TokenFormat? {
        guard let name else { return nil }
        guard let format = TokenFormat(rawValue: name) else {
            throw .usage("--format '\(TerminalText.safe(String(name.prefix(40))))' is not one of \(names.joined(separator: ", "))")
        }
        return format
    }

    /// The output for `token`, read from `environment` where the reading program says what it
    /// wants (`KUBERNETES_EXEC_INFO`, `GOOGLE_EXTERNAL_ACCOUNT_TOKEN_TYPE`).
    func render(_ token: FreshIDToken, environment: [String: String]) throws(FBAuthError) -> String {
        switch self {
        case .raw:
            return token.idToken + "\n"
        case .json:
            return JSONOutput.render([
                "idToken": JSONValue.string(token.idToken), "expirationTime": .string(Timestamp.string(token.expirationTime)),
                "uid": .string(token.uid), "projectId": IDTokenDetails(idToken: token.idToken)?.projectID.map(JSONValue.string) ?? .null,
            ])
        case .header:
            // A header line, for `curl -H @-`: the token never in argv or the process list.
            return "Authorization: Bearer \(token.idToken)\n"
        case .execCredential:
            return JSONOutput.render(JSONValue.object([
                "apiVersion": .string(try KubernetesExecInfo.apiVersion(environment["KUBERNETES_EXEC_INFO"])),
                "kind": .string("ExecCredential"),
                "status": .object([
                    "token": .string(token.idToken),
                    "expirationTimestamp": .string(Timestamp.string(token.expirationTime)),
                ]),
            ]))
        case .googleExecutable:
            return JSONOutput.render(JSONValue.object([
                "version": .integer(1),
                "success": .bool(true),
                "token_type": .string(GoogleExecutableResponse.tokenType(environment)),
                "id_token": .string(token.idToken),
                "expiration_time": .integer(Int64(token.expirationTime.timeIntervalSince1970.rounded(.down))),
            ]))
        }
    }
}

/// `KUBERNETES_EXEC_INFO`, which client-go sets for an exec credential plugin: the ExecCredential
/// it sends, whose `apiVersion` the answer must repeat. Without it (an older client, or a
/// person running the command), the answer is `v1`.
enum KubernetesExecInfo {
    static let versions = ["client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1"]

    static func apiVersion(_ info: String?) throws(FBAuthError) -> String {
        guard let info, !info.isEmpty else { return versions[0] }
        guard case .object(let object)? = JSONValue.parse(info), case .string(let version)? = object["apiVersion"] else {
            throw .usage("KUBERNETES_EXEC_INFO is not an ExecCredential with an apiVersion")
        }
        guard versions.contains(version) else {
            throw .usage("KUBERNETES_EXEC_INFO asks for \(TerminalText.safe(String(version.prefix(80)))); fbauth answers \(versions.joined(separator: " or "))")
        }
        return version
    }
}

/// Google's executable-sourced credentials: the response, the error response, and the output
/// file the auth library reads before it runs the executable again (Google Cloud's
/// "Workload Identity Federation with other providers: executable-sourced credentials").
enum GoogleExecutableResponse {
    static let idToken = "urn:ietf:params:oauth:token-type:id_token"
    static let jwt = "urn:ietf:params:oauth:token-type:jwt"

    /// The token type the credential configuration asks for (`subject_token_type`, passed as
    /// `GOOGLE_EXTERNAL_ACCOUNT_TOKEN_TYPE`) when it is one a Firebase ID token is; else id_token.
    static func tokenType(_ environment: [String: String]) -> String {
        environment["GOOGLE_EXTERNAL_ACCOUNT_TOKEN_TYPE"] == jwt ? jwt : idToken
    }

    /// The response for an error: `success` false, a code and a message, on stdout.
    static func failure(_ error: FBAuthError) -> String {
        JSONOutput.render(JSONValue.object([
            "version": .integer(1),
            "success": .bool(false),
            "code": .string(error.code.rawValue),
            "message": .string(error.message),
        ]))
    }

    /// Writes a successful response to `GOOGLE_EXTERNAL_ACCOUNT_OUTPUT_FILE` when it is set
    /// (mode 0600, replaced atomically), so the auth library reuses it until it expires; the
    /// session remembers it, so that signing out removes it (google-auth would go on handing
    /// out the signed-out user's token).
    static func writeOutputFile(_ response: String, for uid: String, auth: AuthService, environment: [String: String]) throws(FBAuthError) {
        guard let path = environment["GOOGLE_EXTERNAL_ACCOUNT_OUTPUT_FILE"], !path.isEmpty else { return }
        do {
            try auth.writeFile(response, to: path, forSessionOf: uid)
        } catch {
            throw .store("cannot write GOOGLE_EXTERNAL_ACCOUNT_OUTPUT_FILE: \(error.message)")
        }
    }
}
