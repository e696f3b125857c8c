import FBAuth
import FBAuthStandIn
import FBAuthSupport
import LoopbackHTTP
@testable import FBAuthVerification
import Foundation
import Testing

/// Issue 42, item 5: `checkRevoked` as firebase-admin does it, through Google's production
/// endpoints (the token endpoint, the Admin API's accounts:lookup), which the stand-in serves
/// here at the same paths. The service account's key was made by OpenSSL
/// (Scripts/gen-service-account-fixture.py); fbauth's signatures must be OpenSSL's bytes.
@Suite struct RevocationCheckTests {
    struct Facts: Decodable {
        var modulusHex: String
        var exponent: UInt64
        var pkcs1: String
        var signatures: [String: String]
    }

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/ServiceAccount")
    static let keyFile = directory.appendingPathComponent("service-account.json").path
    static let facts: Facts = try! JSONDecoder().decode(Facts.self, from: Data(contentsOf: directory.appendingPathComponent("facts.json")))
    static var account: [String: Any] { try! JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: keyFile))) as! [String: Any] }
    static let clientEmail = "firebase-adminsdk-test@proj-1.iam.gserviceaccount.com"
    static let keyID = "0123456789abcdef0123456789abcdef01234567"
    static let tokens = FirebaseTokenVerifierTests.fixture

    // MARK: - Signing

    @Test func signaturesAreOpenSSLsBytesFromPKCS8AndPKCS1() throws {
        let pkcs8 = try RSAPrivateKey(pem: try #require(Self.account["private_key"] as? String))
        let pkcs1 = try RSAPrivateKey(pem: Self.facts.pkcs1)
        for (message, expected) in Self.facts.signatures {
            #expect(pkcs8.signRS256(Array(message.utf8)).map(DecodedJWT.base64URL) == expected, "\(message)")
            #expect(pkcs1.signRS256(Array(message.utf8)).map(DecodedJWT.base64URL) == expected, "\(message)")
        }
    }

    /// The ladder a private key is raised with gives what plain square-and-multiply gives.
    @Test func theSecretLadderAgreesWithSquareAndMultiply() throws {
        let key = try RSAPrivateKey(pem: Self.facts.pkcs1)
        var generator = SystemRandomNumberGenerator()
        let limbs = key.publicKey.arithmetic.modulus.count
        for _ in 0..<8 {
            var base = (0..<limbs).map { _ in UInt64.random(in: 0...UInt64.max, using: &generator) }
            base[limbs - 1] >>= 8  // below the modulus
            let exponent = (0..<Int.random(in: 1...limbs, using: &generator)).map { _ in UInt64.random(in: 0...UInt64.max, using: &generator) }
            #expect(key.publicKey.arithmetic.secretPower(base, exponentLimbs: exponent) == key.publicKey.arithmetic.power(base, exponentLimbs: exponent))
        }
    }

    @Test func privateKeysThatAreNotRSAKeysAreRefused() throws {
        let pem = try #require(Self.account["private_key"] as? String)
        #expect(throws: KeyProblem.notAPrivateKey) { try RSAPrivateKey(pem: "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----") }
        #expect(throws: KeyProblem.notAPrivateKey) { try RSAPrivateKey(pem: pem.replacingOccurrences(of: "PRIVATE KEY", with: "PUBLIC KEY")) }
        // A byte of the base64 changed in the middle of the key: DER that no longer adds up, or
        // a private exponent that no longer belongs to the modulus (and cannot sign).
        var lines = pem.split(separator: "\n").map(String.init)
        lines[5] = String(lines[5].reversed())
        if let key = try? RSAPrivateKey(pem: lines.joined(separator: "\n")) {
            #expect(key.signRS256(Array("abc".utf8)) == nil)
        }
    }

    // MARK: - Credentials files

    @Test func credentialsFilesAreCheckedBeforeAnythingIsSent() throws {
        func refusal(_ json: String) -> String? {
            do {
                _ = try AdminCredentials.parse(Data(json.utf8), source: "key.json")
                return nil
            } catch {
                return error.code + " " + error.message
            }
        }
        var account = Self.account
        guard case .serviceAccount(let key) = try AdminCredentials.file(Self.keyFile) else { Issue.record("not a service account"); return }
        #expect(key.clientEmail == Self.clientEmail && key.projectID == "proj-1" && key.tokenURI.absoluteString == "https://oauth2.googleapis.com/token")
        // The project firebase-admin verifies for when it is given none.
        #expect(AdminCredentialsSource.file(Self.keyFile).serviceAccountProjectID == "proj-1")
        #expect(AdminCredentialsSource.applicationDefault(environment: ["HOME": "/nonexistent"]).serviceAccountProjectID == nil)
        account["token_uri"] = "http://oauth2.example/token"
        #expect(refusal(String(decoding: try JSONSerialization.data(withJSONObject: account), as: UTF8.self)) == "app/invalid-credential The \"token_uri\" of key.json is not an https URL.")
        account["token_uri"] = nil
        account["client_email"] = nil
        #expect(refusal(String(decoding: try JSONSerialization.data(withJSONObject: account), as: UTF8.self)) == "app/invalid-credential Service account object must contain a string \"client_email\" property (key.json).")
        #expect(refusal(#"{"type": "impersonated_service_account"}"#) == "app/invalid-credential Credentials of type \"impersonated_service_account\" (key.json) are not supported: use a service account's key file (\"service_account\"), gcloud's application default credentials (\"authorized_user\") or workload identity federation's (\"external_account\").")
        #expect(refusal(#"{"type": "external_account"}"#) == "app/invalid-credential External account credentials must contain a string \"token_url\" property (key.json).")
        #expect(refusal("[]") == "app/invalid-credential Failed to parse contents of the credentials file key.json as an object.")
        #expect(refusal(#"{"type": "authorized_user", "client_id": "c", "client_secret": "s"}"#) == "app/invalid-credential Refresh token object must contain a string \"refresh_token\" property (key.json).")
        #expect(refusal(#"{"type": "service_account", "client_email": "a@b", "private_key": "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"}"#)?.hasPrefix("app/invalid-credential Failed to parse private key of key.json: ") == true)
    }

    @Test func applicationDefaultCredentialsAreFoundWhereGooglesLibrariesLook() throws {
        let home = NSTemporaryDirectory() + "fbauth-adc-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }
        try FileManager.default.createDirectory(atPath: home + "/.config/gcloud", withIntermediateDirectories: true)
        #expect(throws: TokenRefusal("Checking for revocation needs the Admin API's credentials, and none were found: no GOOGLE_APPLICATION_CREDENTIALS, no gcloud application default credentials (\(home)/.config/gcloud/application_default_credentials.json), and no metadata server (not on Google's clouds): set GOOGLE_APPLICATION_CREDENTIALS to a service account's key file, or run `gcloud auth application-default login`.", code: "app/invalid-credential")) {
            try AdminCredentials.applicationDefault(environment: ["HOME": home])
        }
        try #"{"type": "authorized_user", "client_id": "c", "client_secret": "s", "refresh_token": "r", "quota_project_id": "proj-1"}"#
            .write(toFile: home + "/.config/gcloud/application_default_credentials.json", atomically: true, encoding: .utf8)
        guard case .authorizedUser(let user) = try AdminCredentials.applicationDefault(environment: ["HOME": home]) else { Issue.record("gcloud's file not found"); return }
        #expect(user.quotaProjectID == "proj-1" && user.refreshToken == "r")
        // GOOGLE_APPLICATION_CREDENTIALS comes first.
        guard case .serviceAccount = try AdminCredentials.applicationDefault(environment: ["HOME": home, "GOOGLE_APPLICATION_CREDENTIALS": Self.keyFile]) else { Issue.record("the variable was not read first"); return }
    }

    /// gcloud's file where Google's libraries look is taken only if it is the user's own:
    /// another local user who plants one there (their refresh token) is not who the Admin API is
    /// called as.
    @Test(.enabled(if: getuid() == 0, "needs root to give the file to another user"))
    func gcloudsFileOfAnotherUserIsNotTaken() throws {
        let home = NSTemporaryDirectory() + "fbauth-adc-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }
        try FileManager.default.createDirectory(atPath: home + "/.config/gcloud", withIntermediateDirectories: true)
        let file = home + "/.config/gcloud/application_default_credentials.json"
        try #"{"type": "authorized_user", "client_id": "c", "client_secret": "s", "refresh_token": "someone-elses"}"#.write(toFile: file, atomically: true, encoding: .utf8)
        guard case .authorizedUser = try AdminCredentials.applicationDefault(environment: ["HOME": home], dmiDirectory: home) else {
            Issue.record("the user's own file was not taken (the control)")
            return
        }
        chown(file, 65534, 65534)
        #expect(throws: TokenRefusal("gcloud's application default credentials are not used: \(file) is owned by another user (uid 65534), so it is not trusted; set GOOGLE_APPLICATION_CREDENTIALS to a service account's key file, or use a gcloud configuration directory of your own (CLOUDSDK_CONFIG).", code: "app/invalid-credential")) {
            try AdminCredentials.applicationDefault(environment: ["HOME": home], dmiDirectory: home)
        }
        // Issue 47: the user's own file, but in a folder above that another user may write
        // (and so swap the gcloud directory for theirs between a check and the read).
        chown(file, 0, 0)
        chmod(home + "/.config", 0o777)
        #expect(throws: TokenRefusal("gcloud's application default credentials are not used: \(home)/.config, above \(home)/.config/gcloud, can be written by other users (mode 0777); set GOOGLE_APPLICATION_CREDENTIALS to a service account's key file, or use a gcloud configuration directory of your own (CLOUDSDK_CONFIG).", code: "app/invalid-credential")) {
            try AdminCredentials.applicationDefault(environment: ["HOME": home], dmiDirectory: home)
        }
    }

    /// Issue 47: a credentials file the user names (GOOGLE_APPLICATION_CREDENTIALS) is judged on
    /// what was opened: another user's (their refresh token) or one others may write is refused.
    @Test(.enabled(if: getuid() == 0, "needs root to give the file to another user"))
    func aNamedCredentialsFileOfAnotherUserIsRefused() throws {
        let directory = NSTemporaryDirectory() + "fbauth-adc-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/key.json"
        try #"{"type": "authorized_user", "client_id": "c", "client_secret": "s", "refresh_token": "someone-elses"}"#.write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o600)
        guard case .authorizedUser = try AdminCredentials.file(file) else { Issue.record("the user's own file was not taken (the control)"); return }
        chown(file, 65534, 65534)
        #expect(throws: TokenRefusal("Failed to read credentials from file \(file) is owned by another user (uid 65534), so it is not trusted", code: "app/invalid-credential")) {
            try AdminCredentials.applicationDefault(environment: ["GOOGLE_APPLICATION_CREDENTIALS": file])
        }
        chown(file, 0, 0)
        chmod(file, 0o666)
        #expect(throws: TokenRefusal("Failed to read credentials from file \(file) can be written by other users (mode 0666), so it is not trusted", code: "app/invalid-credential")) {
            try AdminCredentials.file(file)
        }
    }

    // MARK: - Through the production endpoints

    /// The stand-in, in production's place: the project of the fixture's tokens, their
    /// certificates, the service account's key, and uid-1, whose tokens are valid since before
    /// the fixture's tokens were issued. Its clock stands at the fixture's now.
    func production(_ change: (inout StandInConfiguration) -> Void = { _ in }) throws -> (StandIn, ProductionToStandIn) {
        var configuration = StandInConfiguration()
        configuration.projectId = Self.tokens.project
        configuration.publishedCertificates = Self.tokens.certificates
        configuration.serviceAccounts = [Self.clientEmail: ServiceAccountPublicKey(modulusHex: Self.facts.modulusHex, exponent: Self.facts.exponent)]
        change(&configuration)
        let standIn = try StandIn(configuration: configuration)
        standIn.start()
        standIn.advanceClock(by: TimeInterval(Self.tokens.now) - Date().timeIntervalSince1970)
        let transport = ProductionToStandIn(standIn: standIn.hostAndPort)
        try transport.admin(standIn, "accounts", ["localId": "uid-1", "email": "ada@example.com"])
        try transport.admin(standIn, "accounts:update", ["localId": "uid-1", "validSince": String(Self.tokens.now - 3600)])
        return (standIn, transport)
    }

    static func requests(_ standIn: StandIn, _ path: String) -> [RecordedRequest] {
        standIn.requests.filter { $0.path == path }
    }

    func verifier(_ transport: ProductionToStandIn, _ kind: FirebaseTokenKind = .idToken, credentials: AdminCredentialsSource = .file(keyFile)) -> FirebaseTokenVerifier {
        FirebaseTokenVerifier(projectId: Self.tokens.project, kind: kind, transport: transport, clock: FirebaseTokenVerifierTests.FixedClock(Self.tokens.now), credentials: credentials)
    }

    @Test func aServiceAccountsSignedJWTBuysTheAccessTokenTheLookupIsMadeWith() throws {
        let (standIn, transport) = try production()
        defer { standIn.stop() }
        let verifier = verifier(transport)
        let token = try #require(Self.tokens.tokens["valid"])
        #expect(try verifier.verify(token, checkRevoked: true).uid == "uid-1")
        #expect(try verifier.verify(token, checkRevoked: true).uid == "uid-1")
        #expect(try verifier.verify(token).uid == "uid-1")

        let grants = Self.requests(standIn, "/oauth2.googleapis.com/token")
        #expect(grants.count == 1, "the access token is kept for the next lookup")
        let form = Dictionary(uniqueKeysWithValues: FormEncoding.decode(try #require(grants.first?.body)).map { ($0.name, $0.value) })
        #expect(form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer" && Set(form.keys) == ["grant_type", "assertion"])
        let assertionText = try #require(form["assertion"])
        let assertion = try #require(DecodedJWT(assertionText))
        let header: [String: JSONValue] = ["alg": "RS256", "typ": "JWT", "kid": .string(Self.keyID)]
        #expect(assertion.header == header)
        let claims: [String: JSONValue] = ["iss": .string(Self.clientEmail), "aud": "https://oauth2.googleapis.com/token", "scope": .string(AdminAccessTokens.scopes),
                                           "iat": .integer(Self.tokens.now), "exp": .integer(Self.tokens.now + 3600)]
        #expect(assertion.payload == claims)

        let lookups = Self.requests(standIn, "/identitytoolkit.googleapis.com/v1/projects/proj-1/accounts:lookup")
        #expect(lookups.count == 2, "two with checkRevoked, none without")
        #expect(lookups.allSatisfy { $0.headers["authorization"]?.hasPrefix("Bearer ya29.stand-in.") == true && $0.body == #"{"localId":["uid-1"]}"# && $0.headers["x-goog-user-project"] == nil })
        #expect(transport.sent.allSatisfy { $0.hasPrefix("https://") } && Set(transport.sent.compactMap { URL(string: $0)?.host }) == ["oauth2.googleapis.com", "identitytoolkit.googleapis.com", "www.googleapis.com"])
    }

    @Test func disabledRevokedAndDeletedUsersAreRefusedInFirebaseAdminsWords() throws {
        let (standIn, transport) = try production()
        defer { standIn.stop() }
        let cookies = verifier(transport, .sessionCookie)
        let verifier = verifier(transport)
        let token = try #require(Self.tokens.tokens["valid"]), cookie = try #require(Self.tokens.tokens["session cookie"])
        let authTime = Self.tokens.now - 600  // the fixture's

        try transport.admin(standIn, "accounts:update", ["localId": "uid-1", "disableUser": true])
        #expect(throws: TokenRefusal("The user record is disabled.", code: "auth/user-disabled")) { try verifier.verify(token, checkRevoked: true) }
        #expect(try verifier.verify(token).uid == "uid-1", "without checkRevoked, nothing is looked up")
        try transport.admin(standIn, "accounts:update", ["localId": "uid-1", "disableUser": false])

        // Revoked at the second the user signed in: still valid (auth_time is not before it).
        try transport.admin(standIn, "accounts:update", ["localId": "uid-1", "validSince": String(authTime)])
        #expect(try verifier.verify(token, checkRevoked: true).uid == "uid-1")
        try transport.admin(standIn, "accounts:update", ["localId": "uid-1", "validSince": String(authTime + 1)])
        #expect(throws: TokenRefusal("The Firebase ID token has been revoked.", code: "auth/id-token-revoked")) { try verifier.verify(token, checkRevoked: true) }
        #expect(throws: TokenRefusal("The Firebase session cookie has been revoked.", code: "auth/session-cookie-revoked")) { try cookies.verify(cookie, checkRevoked: true) }

        standIn.deleteUser(uid: "uid-1")
        #expect(throws: TokenRefusal("There is no user record corresponding to the provided identifier.", code: "auth/user-not-found")) { try verifier.verify(token, checkRevoked: true) }
    }

    @Test func aGcloudUsersRefreshTokenWorksAndBillsItsQuotaProject() throws {
        let (standIn, transport) = try production { $0.authorizedUsers = [AuthorizedUserGrant(clientID: "client-1", clientSecret: "secret-1", refreshToken: "refresh-1")] }
        defer { standIn.stop() }
        let file = NSTemporaryDirectory() + "fbauth-adc-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try #"{"type": "authorized_user", "client_id": "client-1", "client_secret": "secret-1", "refresh_token": "refresh-1", "quota_project_id": "billing-1"}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try verifier(transport, credentials: .applicationDefault(environment: ["GOOGLE_APPLICATION_CREDENTIALS": file])).verify(try #require(Self.tokens.tokens["valid"]), checkRevoked: true).uid == "uid-1")
        let grant = try #require(Self.requests(standIn, "/oauth2.googleapis.com/token").first)
        #expect(FormEncoding.decode(grant.body).map { "\($0.name)=\($0.value)" }.sorted() == ["client_id=client-1", "client_secret=secret-1", "grant_type=refresh_token", "refresh_token=refresh-1"])
        #expect(Self.requests(standIn, "/identitytoolkit.googleapis.com/v1/projects/proj-1/accounts:lookup").first?.headers["x-goog-user-project"] == "billing-1")

        try #"{"type": "authorized_user", "client_id": "client-1", "client_secret": "secret-1", "refresh_token": "revoked", "quota_project_id": "billing-1"}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        #expect(throws: TokenRefusal("Failed to fetch a valid Google OAuth2 access token from https://oauth2.googleapis.com/token: HTTP 400 (invalid_grant: Bad Request).", code: "app/invalid-credential")) {
            try verifier(transport, credentials: .file(file)).verify(try #require(Self.tokens.tokens["valid"]), checkRevoked: true)
        }
    }

    /// On Google's clouds, the metadata server's token (here the stand-in plays it, at
    /// GCE_METADATA_HOST); what answers there without saying it is one is not believed.
    @Test func onGooglesCloudsTheMetadataServersTokenIsUsed() throws {
        let (standIn, transport) = try production()
        defer { standIn.stop() }
        let environment = ["GCE_METADATA_HOST": standIn.hostAndPort, "HOME": "/nonexistent"]
        let token = try #require(Self.tokens.tokens["valid"])
        #expect(try verifier(transport, credentials: .applicationDefault(environment: environment)).verify(token, checkRevoked: true).uid == "uid-1")
        let asked = Self.requests(standIn, "/computeMetadata/v1/instance/service-accounts/default/token")
        #expect(asked.count == 1 && asked.first?.method == "GET" && asked.first?.headers["metadata-flavor"] == "Google", "\(asked)")
        #expect(Self.requests(standIn, "/identitytoolkit.googleapis.com/v1/projects/proj-1/accounts:lookup").first?.headers["authorization"]?.hasPrefix("Bearer ya29.c.stand-in.") == true)

        standIn.inject(Fault("/computeMetadata/v1/instance/service-accounts/default/token", .raw(status: 200, contentType: "application/json", body: #"{"access_token": "ya29.someone-elses", "expires_in": 3599}"#)))
        #expect(throws: TokenRefusal("Failed to fetch a valid Google OAuth2 access token from http://\(standIn.hostAndPort)/computeMetadata/v1/instance/service-accounts/default/token: the answer is not the metadata server's (no Metadata-Flavor: Google).", code: "app/invalid-credential")) {
            try verifier(transport, credentials: .applicationDefault(environment: environment)).verify(token, checkRevoked: true)
        }
        #expect(!standIn.requests.contains { $0.headers["authorization"] == "Bearer ya29.someone-elses" })
    }

    /// Where the metadata server is asked: as Google's libraries tell they run on its clouds,
    /// without a request anywhere else.
    @Test func theMetadataServerIsAskedOnlyOnGooglesClouds() throws {
        let dmi = NSTemporaryDirectory() + "fbauth-dmi-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dmi) }
        try FileManager.default.createDirectory(atPath: dmi, withIntermediateDirectories: true)
        func found(_ environment: [String: String]) -> String {
            do {
                guard case .metadataServer(let host) = try AdminCredentials.applicationDefault(environment: environment.merging(["HOME": "/nonexistent"]) { $1 }, dmiDirectory: dmi) else { return "other" }
                return host
            } catch {
                return error.message
            }
        }
        let none = "Checking for revocation needs the Admin API's credentials, and none were found: no GOOGLE_APPLICATION_CREDENTIALS, no gcloud application default credentials (/nonexistent/.config/gcloud/application_default_credentials.json), and no metadata server (not on Google's clouds): set GOOGLE_APPLICATION_CREDENTIALS to a service account's key file, or run `gcloud auth application-default login`."
        #expect(found([:]) == none)
        #expect(found(["K_SERVICE": "api"]) == "169.254.169.254" && found(["FUNCTION_NAME": "f"]) == "169.254.169.254" && found(["CLOUD_RUN_JOB": "j"]) == "169.254.169.254")
        #expect(found(["GCE_METADATA_HOST": "metadata.internal:8080"]) == "metadata.internal:8080")
        #expect(found(["GCE_METADATA_HOST": "evil.example/@x"]) == "GCE_METADATA_HOST is not a host[:port].")
        try "SeaBIOS\n".write(toFile: dmi + "/bios_vendor", atomically: true, encoding: .utf8)
        #expect(found([:]) == none)
        try "Google\n".write(toFile: dmi + "/bios_vendor", atomically: true, encoding: .utf8)
        #expect(found([:]) == "169.254.169.254", "a Compute Engine VM")
    }

    /// A token endpoint that quotes what it was sent does not get a credential into the message.
    @Test func anAnswerThatQuotesTheRefreshTokenIsNotShown() throws {
        let (standIn, transport) = try production { $0.authorizedUsers = [AuthorizedUserGrant(clientID: "client-1", clientSecret: "secret-1", refreshToken: "1//refresh-token-of-ada")] }
        defer { standIn.stop() }
        let file = NSTemporaryDirectory() + "fbauth-adc-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try #"{"type": "authorized_user", "client_id": "client-1", "client_secret": "secret-1", "refresh_token": "1//refresh-token-of-ada"}"#.write(toFile: file, atomically: true, encoding: .utf8)
        standIn.inject(Fault("/oauth2.googleapis.com/token", .raw(status: 400, contentType: "application/json", body: #"{"error": "invalid_request", "error_description": "bad token 1//refresh-token-of-ada"}"#)))
        #expect(throws: TokenRefusal("Failed to fetch a valid Google OAuth2 access token from https://oauth2.googleapis.com/token: HTTP 400 (an answer that quotes the request, not shown).", code: "app/invalid-credential")) {
            try verifier(transport, credentials: .file(file)).verify(try #require(Self.tokens.tokens["valid"]), checkRevoked: true)
        }
    }

    /// Twenty servers' threads checking at once buy one access token between them.
    @Test func concurrentChecksMakeOneTokenExchange() async throws {
        let (standIn, transport) = try production()
        defer { standIn.stop() }
        let verifier = verifier(transport)
        let token = try #require(Self.tokens.tokens["valid"])
        let uids = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<20 { group.addTask { try? verifier.verify(token, checkRevoked: true).uid } }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(uids.count == 20 && uids.allSatisfy { $0 == "uid-1" })
        #expect(Self.requests(standIn, "/oauth2.googleapis.com/token").count == 1)
        #expect(Self.requests(standIn, "/identitytoolkit.googleapis.com/v1/projects/proj-1/accounts:lookup").count == 20)
    }

    /// A key Google does not know (here: the stand-in holds another public key for the
    /// account) is refused by the token endpoint, and said so; nothing is looked up.
    @Test func aKeyTheTokenEndpointRefusesIsAnInvalidCredential() throws {
        let other = String(Self.facts.modulusHex.reversed())  // odd? any other number will do
        let (standIn, transport) = try production { $0.serviceAccounts = [Self.clientEmail: ServiceAccountPublicKey(modulusHex: other)] }
        defer { standIn.stop() }
        #expect(throws: TokenRefusal("Failed to fetch a valid Google OAuth2 access token from https://oauth2.googleapis.com/token: HTTP 400 (invalid_grant: Invalid JWT Signature.).", code: "app/invalid-credential")) {
            try verifier(transport).verify(try #require(Self.tokens.tokens["valid"]), checkRevoked: true)
        }
        #expect(Self.requests(standIn, "/identitytoolkit.googleapis.com/v1/projects/proj-1/accounts:lookup").isEmpty)
    }

    /// A tenant's user is looked up in the tenant the token names (which Google signed); ids
    /// that would change the URL are refused before anything is sent.
    @Test func aTenantsUserIsLookedUpInTheirTenant() throws {
        let (standIn, transport) = try production()
        defer { standIn.stop() }
        let tenantUser = try #require(try transport.adminCreating(standIn, tenant: "tenant-1", ["email": "grace@example.com"]))
        let verifier = verifier(transport)
        func token(_ uid: String, tenant: String) -> VerifiedFirebaseToken {
            VerifiedFirebaseToken(uid: uid, claims: ["sub": .string(uid), "auth_time": .integer(Self.tokens.now), "firebase": .object(["tenant": .string(tenant)])])
        }
        try verifier.revocation.check(token(tenantUser, tenant: "tenant-1"))
        #expect(Self.requests(standIn, "/identitytoolkit.googleapis.com/v1/projects/proj-1/tenants/tenant-1/accounts:lookup").count == 1)
        #expect(throws: RevocationCheck.userNotFound) { try verifier.revocation.check(token("uid-1", tenant: "tenant-1")) }
        #expect(throws: TokenRefusal("The Firebase ID token names a tenant that is not a tenant id.", code: "auth/argument-error")) {
            try verifier.revocation.check(token(tenantUser, tenant: "tenant-1/../../other"))
        }
        let odd = FirebaseTokenVerifier(projectId: "proj-1/../other", transport: transport, clock: FirebaseTokenVerifierTests.FixedClock(Self.tokens.now), credentials: .file(Self.keyFile))
        #expect(throws: TokenRefusal("\"proj-1/../other\" is not a project id the Admin API can be asked about.", code: "app/invalid-credential")) {
            try odd.revocation.check(token("uid-1", tenant: "tenant-1"))
        }
        #expect(standIn.requests.filter { $0.path.contains("..") }.isEmpty)
    }

    /// An Admin API that answers another user's record, or is unreachable, never lets the
    /// token through.
    @Test func anAnswerForAnotherUserOrNoAnswerIsNotAPass() throws {
        let (standIn, transport) = try production()
        defer { standIn.stop() }
        let token = try #require(Self.tokens.tokens["valid"])
        let verifier = verifier(transport)
        standIn.inject(Fault("/accounts:lookup", .raw(status: 200, contentType: "application/json", body: #"{"users": [{"localId": "uid-2"}]}"#)))
        #expect(throws: TokenRefusal("accounts:lookup answered a record that is not the token's user's.", code: "auth/internal-error")) { try verifier.verify(token, checkRevoked: true) }
        standIn.inject(Fault("/accounts:lookup", .status(503, message: "The service is currently unavailable.")))
        #expect(throws: TokenRefusal("An internal error has occurred while looking the user up (HTTP 503 UNAVAILABLE).", code: "auth/internal-error")) { try verifier.verify(token, checkRevoked: true) }
        standIn.stop()
        let refused = #expect(throws: TokenRefusal.self) { try verifier.verify(token, checkRevoked: true) }
        #expect(refused?.code == "app/network-error" && refused?.message.hasPrefix("Error while making request to https://identitytoolkit.googleapis.com/v1/projects/proj-1/accounts:lookup: ") == true, "\(String(describing: refused))")
        #expect(try verifier.verify(token).uid == "uid-1", "the keys are kept, and without checkRevoked nothing else is asked")
    }
}

/// What fbauth sends to Google's production hosts, sent to the stand-in instead, at the same
/// path under its host (as an emulator host serves them); each production URL is recorded.
final class ProductionToStandIn: HTTPTransport, @unchecked Sendable {
    let standIn: String
    private let lock = NSLock()
    private(set) var sent: [String] = []

    init(standIn: String) { self.standIn = standIn }

    func send(_ request: HTTPClientRequest) throws(TransportError) -> HTTPClientResponse {
        lock.withLock { sent.append(request.url.absoluteString) }
        if request.url.scheme == "http" { return try CurlTransport().send(request) }  // a metadata server the test named
        guard request.url.scheme == "https", let host = request.url.host else { throw TransportError(.other, "not a production URL: \(request.url)") }
        var routed = request
        routed.url = URL(string: "http://\(standIn)/\(host)\(request.url.path)")!
        return try CurlTransport().send(routed)
    }

    /// A user made in `tenant` with the Admin API; their uid.
    func adminCreating(_ standIn: StandIn, tenant: String, _ body: [String: Any]) throws -> String? {
        let request = HTTPClientRequest(method: "POST", url: URL(string: "\(standIn.baseURL)/identitytoolkit.googleapis.com/v1/projects/proj-1/tenants/\(tenant)/accounts")!,
                                        headers: ["Authorization": "Bearer owner", "Content-Type": "application/json"], body: try JSONSerialization.data(withJSONObject: body))
        let response = try CurlTransport().send(request)
        return (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["localId"] as? String
    }

    /// An Admin API call as the emulator's owner, to set the test up.
    func admin(_ standIn: StandIn, _ method: String, _ body: [String: Any]) throws {
        let request = HTTPClientRequest(method: "POST", url: URL(string: "\(standIn.baseURL)/identitytoolkit.googleapis.com/v1/projects/proj-1/\(method)")!,
                                        headers: ["Authorization": "Bearer owner", "Content-Type": "application/json"], body: try JSONSerialization.data(withJSONObject: body))
        let response = try CurlTransport().send(request)
        #expect(response.status == 200, "\(method): \(String(decoding: response.body, as: UTF8.self))")
    }
}
