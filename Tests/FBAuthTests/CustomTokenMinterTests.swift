import FBAuthHTTP
import FBAuthSupport
@testable import FBAuthVerification
import Foundation
import Testing

/// Issue 50, item 3: the custom tokens `fbauth signin --as` mints are firebase-admin's
/// `createCustomToken`'s: its header and claims, signed by the service account's key (checked
/// here with its public key and against the real firebase-admin's token for the same key), or
/// by IAM signBlob for the metadata server's account, or unsigned against an emulator.
@Suite struct CustomTokenMinterTests {
    typealias FixedClock = FirebaseTokenVerifierTests.FixedClock
    static let now: Int64 = 1_795_000_000

    func parts(_ token: String) throws -> (header: [String: Any], payload: [String: Any], signature: [UInt8], input: String) {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(segments.count == 3)
        func object(_ segment: String) throws -> [String: Any] {
            try #require(DecodedJWT.bytes(Substring(segment)).flatMap { try? JSONSerialization.jsonObject(with: Data($0)) } as? [String: Any])
        }
        return (try object(segments[0]), try object(segments[1]), DecodedJWT.bytes(Substring(segments[2])) ?? [], segments[0] + "." + segments[1])
    }

    @Test func aServiceAccountSignsWhatFirebaseAdminWouldMint() throws {
        let minter = CustomTokenMinter(emulator: false, credentials: .file(RevocationCheckTests.keyFile), transport: ScriptedTransport([]), clock: FixedClock(Self.now))
        let (token, signer) = try minter.mint(uid: "uid-7", claims: ["admin": .bool(true)], tenantId: "tenant-a", markedWith: "fbauth_impersonated_by")
        let email = RevocationCheckTests.clientEmail
        #expect(signer == email)
        let (header, payload, signature, input) = try parts(token)
        #expect(header as NSDictionary == ["alg": "RS256", "typ": "JWT", "kid": RevocationCheckTests.keyID])
        #expect(payload as NSDictionary == ["aud": CustomTokenMinter.audience, "iat": Self.now, "exp": Self.now + 3600, "iss": email, "sub": email,
                                             "uid": "uid-7", "tenant_id": "tenant-a",
                                             "claims": ["admin": true, "fbauth_impersonated_by": email]] as NSDictionary)
        guard case .serviceAccount(let key) = try AdminCredentials.file(RevocationCheckTests.keyFile) else { Issue.record("not a service account"); return }
        #expect(RS256.verify(signature, of: Array(input.utf8), with: key.privateKey.publicKey))
    }

    /// The real firebase-admin (PyPI) mints for the same key: the same header and claims (its
    /// own times), each signature good for the key (their JSON is spaced otherwise, so the
    /// signed bytes differ).
    @Test(.enabled(if: EmulatorAdminSDK.installed, "firebase-admin is not installed (pip install firebase-admin)"))
    func firebaseAdminMintsTheSameToken() throws {
        let script = """
        import sys, json, firebase_admin
        from firebase_admin import auth, credentials
        app = firebase_admin.initialize_app(credentials.Certificate(sys.argv[1]))
        print(auth.create_custom_token("uid-7", {"admin": True}, app).decode())
        """
        let result = try Process.capture("/usr/bin/env", ["python3", "-c", script, RevocationCheckTests.keyFile])
        let theirs = try parts(result.trimmingCharacters(in: .whitespacesAndNewlines))
        let issued = try #require(theirs.payload["iat"] as? Int)
        let minter = CustomTokenMinter(emulator: false, credentials: .file(RevocationCheckTests.keyFile), transport: ScriptedTransport([]), clock: FixedClock(Int64(issued)))
        let (token, _) = try minter.mint(uid: "uid-7", claims: ["admin": .bool(true)], tenantId: nil)
        let ours = try parts(token)
        #expect(ours.header as NSDictionary == theirs.header as NSDictionary, "\(theirs.header)")
        #expect(ours.payload as NSDictionary == theirs.payload as NSDictionary, "\(theirs.payload)")
        guard case .serviceAccount(let key) = try AdminCredentials.file(RevocationCheckTests.keyFile) else { Issue.record("not a service account"); return }
        #expect(RS256.verify(ours.signature, of: Array(ours.input.utf8), with: key.privateKey.publicKey))
        #expect(RS256.verify(theirs.signature, of: Array(theirs.input.utf8), with: key.privateKey.publicKey))
    }

    @Test func onGooglesCloudsIAMSignsAsTheAttachedAccount() throws {
        let email = "runner@proj-1.iam.gserviceaccount.com"
        let signature = Data((0..<256).map { UInt8($0) })
        let transport = ScriptedTransport([
            .success(HTTPClientResponse(status: 200, headers: ["Metadata-Flavor": "Google"], body: Data((email + "\n").utf8))),
            .success(HTTPClientResponse(status: 200, headers: ["Metadata-Flavor": "Google", "Content-Type": "application/json"],
                                        body: Data(#"{"access_token":"ya29.metadata","expires_in":3599,"token_type":"Bearer"}"#.utf8))),
            ScriptedTransport.json(200, #"{"keyId":"k1","signedBlob":"\#(signature.base64EncodedString())"}"#),
        ])
        let minter = CustomTokenMinter(emulator: false, credentials: .applicationDefault(environment: ["GCE_METADATA_HOST": "metadata.test:8080", "HOME": "/nonexistent"]),
                                       transport: transport, clock: FixedClock(Self.now))
        let (token, signer) = try minter.mint(uid: "u", claims: [:], tenantId: nil)
        #expect(signer == email)
        let (_, payload, signed, input) = try parts(token)
        #expect(payload["iss"] as? String == email && payload["sub"] as? String == email && payload["claims"] == nil)
        #expect(signed == Array(signature))
        #expect(transport.requests.map(\.url.absoluteString) == [
            "http://metadata.test:8080/computeMetadata/v1/instance/service-accounts/default/email",
            "http://metadata.test:8080/computeMetadata/v1/instance/service-accounts/default/token",
            "https://iamcredentials.googleapis.com/v1/projects/-/serviceAccounts/\(email):signBlob",
        ])
        let sign = transport.requests[2]
        #expect(sign.headers["Authorization"] == "Bearer ya29.metadata")
        let body = try #require(try? JSONSerialization.jsonObject(with: sign.body ?? Data()) as? [String: Any])
        #expect(body["payload"] as? String == Data(input.utf8).base64EncodedString())
    }

    @Test func anEmulatorsTokenIsUnsignedByItsSigner() throws {
        let minter = CustomTokenMinter(emulator: true, credentials: .applicationDefault(environment: [:]), transport: ScriptedTransport([]), clock: FixedClock(Self.now))
        let (token, signer) = try minter.mint(uid: "u", claims: [:], tenantId: nil, markedWith: "fbauth_impersonated_by")
        #expect(signer == "firebase-auth-emulator@example.com" && token.hasSuffix("."))
        let (header, payload, _, _) = try parts(token)
        #expect(header as NSDictionary == ["alg": "none", "typ": "JWT"])
        #expect((payload["claims"] as? [String: Any])?["fbauth_impersonated_by"] as? String == signer)
    }

    @Test func whatCannotMintIsRefusedInOneLine() throws {
        func refusal(_ credentials: AdminCredentialsSource, claims: [String: JSONValue] = [:], uid: String = "u") -> String {
            do {
                _ = try CustomTokenMinter(emulator: false, credentials: credentials, transport: ScriptedTransport([]), clock: FixedClock(Self.now))
                    .mint(uid: uid, claims: claims, tenantId: nil)
                return "minted"
            } catch {
                return error.message
            }
        }
        let home = NSTemporaryDirectory() + "fbauth-minter-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }
        #expect(refusal(.applicationDefault(environment: ["HOME": home])) == "Signing in as another user needs the Admin API's credentials, and none were found: no GOOGLE_APPLICATION_CREDENTIALS, no gcloud application default credentials (\(home)/.config/gcloud/application_default_credentials.json), and no metadata server (not on Google's clouds): set GOOGLE_APPLICATION_CREDENTIALS to a service account's key file, or run `gcloud auth application-default login`.")
        let user = home + "/user.json"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try #"{"type": "authorized_user", "client_id": "c", "client_secret": "s", "refresh_token": "r"}"#.write(toFile: user, atomically: true, encoding: .utf8)
        #expect(refusal(.file(user)) == "gcloud's application default credentials are a user's, which cannot sign a custom token: set GOOGLE_APPLICATION_CREDENTIALS to a service account's key file.")
        #expect(refusal(.file(RevocationCheckTests.keyFile), claims: ["firebase": .bool(true)]) == "Developer claim \"firebase\" is reserved and cannot be specified.")
        #expect(refusal(.file(RevocationCheckTests.keyFile), uid: String(repeating: "u", count: 129)) == "`uid` argument must be a non-empty string uid with at most 128 characters.")
        // UTF-16 units, as firebase-admin-node counts: 65 emoji are 130 (issue 56, item 5).
        #expect(refusal(.file(RevocationCheckTests.keyFile), uid: String(repeating: "😀", count: 65)) == "`uid` argument must be a non-empty string uid with at most 128 characters.")
    }
}

enum EmulatorAdminSDK {
    static let installed: Bool = (try? Process.capture("/usr/bin/env", ["python3", "-c", "import firebase_admin; print('yes')"]))?.contains("yes") == true
}

extension Process {
    /// Runs a program and returns its stdout.
    static func capture(_ path: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
