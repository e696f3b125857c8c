#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthHTTP
import FBAuthSupport

/// Who the Admin API's requests are made as (firebase-admin's `Credential`): what
/// `accounts:lookup` needs to tell whether a user is disabled or their tokens revoked.
enum AdminCredentials: Sendable {
    /// An Auth emulator's administrator: `Authorization: Bearer owner`, as firebase-admin sends.
    case emulatorOwner
    /// A service account's key file (`"type": "service_account"`): a JWT it signs is exchanged
    /// for an access token (RFC 7523).
    case serviceAccount(ServiceAccountKey)
    /// gcloud's application default credentials (`"type": "authorized_user"`): a refresh
    /// token exchanged for an access token.
    case authorizedUser(AuthorizedUser)
    /// The metadata server of Google's clouds (Compute Engine, Cloud Run, Cloud Functions,
    /// GKE), which gives the attached service account's access tokens to whoever runs there:
    /// `host[:port]`.
    case metadataServer(String)
    /// Workload identity federation (`"type": "external_account"`): another provider's token
    /// exchanged at Google's Security Token Service.
    case externalAccount(ExternalAccount)

    struct ServiceAccountKey: Sendable {
        let clientEmail: String
        let privateKeyID: String?
        let privateKey: RSAPrivateKey
        let tokenURI: URL
        let projectID: String?
    }

    struct AuthorizedUser: Sendable {
        let clientID: String
        let clientSecret: String
        let refreshToken: String
        let tokenURI: URL
        /// Whose quota the calls count against (`x-goog-user-project`): a user's credentials
        /// belong to no project of their own.
        let quotaProjectID: String?
    }

    static let googleTokenURI = URL(string: "https://oauth2.googleapis.com/token")!

    /// Application Default Credentials, found as Google's auth libraries find them: the file
    /// `GOOGLE_APPLICATION_CREDENTIALS` names, else gcloud's
    /// (`$CLOUDSDK_CONFIG`, or `~/.config/gcloud`, `/application_default_credentials.json`),
    /// else, on Google's clouds, their metadata server.
    static func applicationDefault(environment: [String: String], dmiDirectory: String = "/sys/class/dmi/id",
                                   purpose: String = "Checking for revocation") throws(TokenRefusal) -> AdminCredentials {
        if let path = environment["GOOGLE_APPLICATION_CREDENTIALS"], !path.isEmpty {
            return try file(path)
        }
        let gcloud = environment["CLOUDSDK_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["HOME"].flatMap { $0.isEmpty ? nil : $0 + "/.config/gcloud" }
        if let gcloud, let found = try gcloudsFile(in: gcloud) {
            return found
        }
        if let host = try metadataServer(environment: environment, dmiDirectory: dmiDirectory) {
            return .metadataServer(host)
        }
        throw TokenRefusal("\(purpose) needs the Admin API's credentials, and none were found: no GOOGLE_APPLICATION_CREDENTIALS, no gcloud application default credentials (\(gcloud.map { $0 + "/application_default_credentials.json" } ?? "no HOME")), and no metadata server (not on Google's clouds): set GOOGLE_APPLICATION_CREDENTIALS to a service account's key file, or run `gcloud auth application-default login`.",
                           code: "app/invalid-credential")
    }

    /// Where the metadata server answers, when this runs on Google's clouds, told as Google's
    /// libraries tell it (gcp-metadata's residency checks, Go's `metadata.OnGCE`):
    /// `GCE_METADATA_HOST` names it; Cloud Run and Cloud Functions set `K_SERVICE`,
    /// `CLOUD_RUN_JOB` or `FUNCTION_NAME`; a Compute Engine VM's firmware says Google. Its
    /// address is then 169.254.169.254, which needs no DNS. Nil elsewhere, without a request.
    static func metadataServer(environment: [String: String], dmiDirectory: String) throws(TokenRefusal) -> String? {
        if let host = environment["GCE_METADATA_HOST"], !host.isEmpty {
            // host[:port] only: it becomes the authority of an http URL.
            guard host.utf8.count <= 255, host.utf8.allSatisfy({ RevocationCheck.isIDCharacter($0) || [UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]")].contains($0) }) else {
                throw TokenRefusal("GCE_METADATA_HOST is not a host[:port].", code: "app/invalid-credential")
            }
            return host
        }
        let serverless = ["K_SERVICE", "CLOUD_RUN_JOB", "FUNCTION_NAME"].contains { environment[$0].map { !$0.isEmpty } ?? false }
        let firmware = ["bios_vendor", "product_name"].contains { name in
            (try? Platform.readUserFile(dmiDirectory + "/" + name)).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self).contains("Google") } ?? false
        }
        return serverless || firmware ? "169.254.169.254" : nil
    }

    /// gcloud's `application_default_credentials.json`, read through its directory opened as
    /// fbauth opens its own (`TrustedDirectory`): the user's alone, under ancestors no other user
    /// can change, the file theirs (or root's) and writable by no one else. Another user who
    /// could plant or swap it (their refresh token) would choose who the Admin API is called
    /// as: such a file is refused, naming where. Nil when there is none.
    static func gcloudsFile(in directory: String) throws(TokenRefusal) -> AdminCredentials? {
        let name = "application_default_credentials.json"
        func refuse(_ why: String) -> TokenRefusal {
            TokenRefusal("gcloud's application default credentials are not used: \(why); set GOOGLE_APPLICATION_CREDENTIALS to a service account's key file, or use a gcloud configuration directory of your own (CLOUDSDK_CONFIG).",
                         code: "app/invalid-credential")
        }
        let opened: TrustedDirectory
        do throws(TrustedDirectory.OpenProblem) {
            guard let found = try TrustedDirectory.open(directory), found.holdsFile(name) else { return nil }
            opened = found
        } catch {
            switch error {
            case .untrusted(let untrusted): throw refuse(untrusted.description)
            case .file: return nil
            }
        }
        let bytes: Data
        do throws(Platform.FileProblem) {
            guard let read = try opened.read(name, limit: 64 * 1024) else { return nil }
            bytes = read
        } catch {
            throw refuse(error.description)
        }
        return try parse(bytes, source: directory + "/" + name)
    }

    /// A credentials file: a regular file or a pipe (`<(vault read …)`) of at most 64 KiB.
    static func file(_ path: String) throws(TokenRefusal) -> AdminCredentials {
        let bytes: Data
        do {
            bytes = try Platform.readInput(path, limit: 64 * 1024)
        } catch {
            throw TokenRefusal("Failed to read credentials from file \(error.description)", code: "app/invalid-credential")
        }
        return try parse(bytes, source: path)
    }

    /// The JSON of a credentials file, each value checked before it is used or sent.
    static func parse(_ bytes: Data, source: String) throws(TokenRefusal) -> AdminCredentials {
        func refuse(_ message: String) -> TokenRefusal { TokenRefusal(message, code: "app/invalid-credential") }
        guard let json = JSONValue.decoded(bytes), case .object(let fields) = json else {
            throw refuse("Failed to parse contents of the credentials file \(source) as an object.")
        }
        func text(_ name: String, kind: String) throws(TokenRefusal) -> String {
            guard let value = fields[name]?.stringValue, !value.isEmpty else {
                throw refuse("\(kind) object must contain a string \"\(name)\" property (\(source)).")
            }
            return value
        }
        func tokenURI() throws(TokenRefusal) -> URL {
            guard let value = fields["token_uri"]?.stringValue else { return googleTokenURI }
            // The assertion or refresh token goes there: TLS only.
            guard let url = URL(string: value), url.scheme == "https", url.host?.isEmpty == false, TextChecks.isVisibleASCII(value) else {
                throw refuse("The \"token_uri\" of \(source) is not an https URL.")
            }
            return url
        }
        switch fields["type"]?.stringValue {
        case "service_account":
            let email = try text("client_email", kind: "Service account")
            let pem = try text("private_key", kind: "Service account")
            let key: RSAPrivateKey
            do {
                key = try RSAPrivateKey(pem: pem)
            } catch {
                throw refuse("Failed to parse private key of \(source): \(error).")
            }
            let keyID = fields["private_key_id"]?.stringValue
            guard TextChecks.isVisibleASCII(email), keyID.map(TextChecks.isVisibleASCII) ?? true else {
                throw refuse("The \"client_email\" or \"private_key_id\" of \(source) is not visible ASCII text.")
            }
            return .serviceAccount(ServiceAccountKey(clientEmail: email, privateKeyID: keyID, privateKey: key, tokenURI: try tokenURI(),
                                                     projectID: fields["project_id"]?.stringValue.flatMap { TextChecks.isVisibleASCII($0) ? $0 : nil }))
        case "authorized_user":
            return .authorizedUser(AuthorizedUser(clientID: try text("client_id", kind: "Refresh token"), clientSecret: try text("client_secret", kind: "Refresh token"),
                                                  refreshToken: try text("refresh_token", kind: "Refresh token"), tokenURI: try tokenURI(),
                                                  quotaProjectID: fields["quota_project_id"]?.stringValue.flatMap { TextChecks.isVisibleASCII($0) ? $0 : nil }))
        case "external_account":
            return .externalAccount(try ExternalAccount.parse(fields, source: source))
        case let type?:
            throw refuse("Credentials of type \"\(type)\" (\(source)) are not supported: use a service account's key file (\"service_account\"), gcloud's application default credentials (\"authorized_user\") or workload identity federation's (\"external_account\").")
        case nil:
            throw refuse("The credentials file \(source) has no \"type\".")
        }
    }
}
