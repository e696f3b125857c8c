import FBAuthStandIn
import FirebaseAdminAuth
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Issue 57: FirebaseAdminAuth manages users as firebase-admin does. One scenario (create, the
/// four look-ups, update, claims, revocation, getUsers, the refusals, deleteUsers) runs through
/// Swift and through the real firebase-admin (PyPI, Scripts/admin-users-check.py) against the
/// same emulator, as `fbauth emulator` answers, and every step must come to the same.
@Suite struct AdminUserManagementTests {
    static let python: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import firebase_admin"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// A stand-in that answers as `fbauth emulator` does.
    static func emulator() throws -> StandIn {
        let standIn = try StandIn(configuration: .googleEmulator(projectId: "demo-fbauth"))
        standIn.start()
        return standIn
    }

    /// The fields of a UserRecord both SDKs have, the tag taken out (as the Python script does).
    static func record(_ user: UserRecord, tag: String) -> [String: Any] {
        func untag(_ text: String?) -> Any {
            text.map { $0.replacingOccurrences(of: tag, with: "TAG").replacingOccurrences(of: phone(tag), with: "PHONE") } ?? NSNull()
        }
        return [
            "uid": untag(user.uid), "email": untag(user.email), "emailVerified": user.emailVerified,
            "displayName": user.displayName ?? NSNull(), "photoURL": user.photoURL ?? NSNull(), "phoneNumber": untag(user.phoneNumber),
            "disabled": user.disabled, "customClaims": user.customClaims ?? NSNull(),
            "providers": user.providerData.map { "\(untag($0.providerId)):\(untag($0.uid))" }.sorted(),
            "hasCreationTime": user.metadata.creationTime != nil, "hasValidAfter": user.tokensValidAfterTime != nil,
        ]
    }

    /// `accounts:signInWithCustomToken` as an app calls it: the ID token.
    static func signInWithCustomToken(_ token: String, host: String) async throws -> String {
        var request = URLRequest(url: URL(string: "http://\(host)/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=fake-api-key")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: ["token": token, "returnSecureToken": true])
        let (data, _) = try await URLSession.shared.data(for: request)
        guard let idToken = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["idToken"] as? String else {
            throw URLError(.badServerResponse)
        }
        return idToken
    }

    /// The scenario's phone number, made from its tag as the Python script makes it.
    static func phone(_ tag: String) -> String {
        let digits = String(Int(tag, radix: 16)! % 10_000_000)
        return "+1555" + String(repeating: "0", count: 7 - digits.count) + digits
    }

    static func kind(_ error: Error) -> String {
        // Another refusal is "other" on both sides: the SDKs word and class those differently.
        guard let error = error as? AdminAuthError else { return "other" }
        switch error.code {
        case "auth/user-not-found", "auth/email-not-found", "auth/configuration-not-found": return "not found"
        case "auth/email-already-exists", "auth/uid-already-exists", "auth/phone-number-already-exists": return "already exists"
        case "auth/invalid-uid", "auth/invalid-password", "auth/invalid-email", "auth/invalid-phone-number", "auth/reserved-claim",
             "auth/claims-too-large", "auth/argument-error", "auth/invalid-session-cookie-duration", "auth/invalid-hash-rounds",
             "auth/maximum-user-count-exceeded", "auth/invalid-config":
            return "invalid argument"
        default: return "other"
        }
    }

    /// The scenario of Scripts/admin-users-check.py, through FirebaseAdminAuth, and what each
    /// refusal said (to be checked against firebase-admin-node's words).
    static func scenario(_ auth: AdminAuth, tag: String, host: String) async -> (results: [String: Any], errors: [String: AdminAuthError]) {
        var results: [String: Any] = [:]
        var errors: [String: AdminAuthError] = [:]
        func step(_ name: String, _ call: () async throws -> Any) async {
            do { results[name] = try await call() } catch {
                results[name] = "error: " + kind(error)
                errors[name] = error as? AdminAuthError
            }
        }
        let uid = "user-\(tag)", email = "ada-\(tag)@example.com"
        let phone = phone(tag)
        await step("create") {
            record(try await auth.createUser(CreateRequest(uid: uid, email: email, emailVerified: true, password: "correct horse", displayName: "Ada",
                                                           photoURL: "https://example.com/ada.png", phoneNumber: phone)), tag: tag)
        }
        await step("get") { record(try await auth.getUser(uid), tag: tag) }
        await step("getByEmail") { record(try await auth.getUserByEmail(email.uppercased()), tag: tag) }
        await step("getByPhone") { record(try await auth.getUserByPhoneNumber(phone), tag: tag) }
        await step("update") { record(try await auth.updateUser(uid, UpdateRequest(displayName: "Ada Lovelace", photoURL: .some(nil), disabled: true)), tag: tag) }
        await step("removePhone") { record(try await auth.updateUser(uid, UpdateRequest(phoneNumber: .some(nil))), tag: tag) }
        await step("claims") {
            try await auth.setCustomUserClaims(uid, ["admin": true, "level": 3])
            return record(try await auth.getUser(uid), tag: tag)
        }
        await step("revoke") {
            try await auth.revokeRefreshTokens(uid)
            return record(try await auth.getUser(uid), tag: tag)
        }
        await step("getUsers") {
            let found = try await auth.getUsers([.uid(uid), .email("nobody-\(tag)@example.com")])
            return ["users": found.users.map { $0.uid.replacingOccurrences(of: tag, with: "TAG") }.sorted(),
                    "notFound": found.notFound.map { identifier -> String in
                        switch identifier {
                        case .uid(let value), .email(let value), .phoneNumber(let value): value.replacingOccurrences(of: tag, with: "TAG")
                        case .provider(_, let value): value.replacingOccurrences(of: tag, with: "TAG")
                        }
                    }.sorted()]
        }
        await step("missing") { record(try await auth.getUser("missing-\(tag)"), tag: tag) }
        await step("duplicateEmail") { record(try await auth.createUser(CreateRequest(email: email)), tag: tag) }
        await step("duplicateUid") { record(try await auth.createUser(CreateRequest(uid: uid)), tag: tag) }
        await step("longUid") { record(try await auth.createUser(CreateRequest(uid: String(repeating: "u", count: 129))), tag: tag) }
        await step("shortPassword") { record(try await auth.createUser(CreateRequest(password: "12345")), tag: tag) }
        await step("badEmail") { record(try await auth.createUser(CreateRequest(email: "not-an-address")), tag: tag) }
        await step("badPhone") { record(try await auth.createUser(CreateRequest(phoneNumber: "5551234")), tag: tag) }
        await step("reservedClaim") { try await auth.setCustomUserClaims(uid, ["sub": "x"]); return NSNull() }
        await step("largeClaims") { try await auth.setCustomUserClaims(uid, ["blob": String(repeating: "x", count: 1000)]); return NSNull() }
        await step("clearClaims") {
            try await auth.setCustomUserClaims(uid, nil)
            return record(try await auth.getUser(uid), tag: tag)
        }
        func link(_ text: String) -> [String: Any] {
            let items = URLComponents(string: text)?.queryItems ?? []
            func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
            return ["mode": value("mode") ?? NSNull(), "continueUrl": value("continueUrl").map { $0.replacingOccurrences(of: tag, with: "TAG") } ?? NSNull(),
                    "hasOobCode": !(value("oobCode") ?? "").isEmpty]
        }
        let settings = ActionCodeSettings(url: "https://example.com/done-\(tag)")
        await step("linker") { record(try await auth.createUser(CreateRequest(uid: "linker-\(tag)", email: "linker-\(tag)@example.com")), tag: tag) }
        await step("resetLink") { link(try await auth.generatePasswordResetLink("linker-\(tag)@example.com", actionCodeSettings: settings)) }
        await step("verifyLink") { link(try await auth.generateEmailVerificationLink("linker-\(tag)@example.com", actionCodeSettings: settings)) }
        await step("signInLink") {
            link(try await auth.generateSignInWithEmailLink("linker-\(tag)@example.com",
                                                           actionCodeSettings: ActionCodeSettings(url: "https://example.com/done-\(tag)", handleCodeInApp: true)))
        }
        await step("linkForNobody") { link(try await auth.generatePasswordResetLink("nobody-\(tag)@example.com")) }
        await step("customToken") {
            let idToken = try await signInWithCustomToken(try await auth.createCustomToken("token-\(tag)", developerClaims: ["role": "editor"]), host: host)
            let decoded = try await auth.verifyIDToken(idToken)
            return ["uid": decoded.uid.replacingOccurrences(of: tag, with: "TAG"), "role": decoded.claims["role"] ?? NSNull(), "provider": decoded.signInProvider ?? NSNull()]
        }
        await step("sessionCookie") {
            let idToken = try await signInWithCustomToken(try await auth.createCustomToken("cookie-\(tag)"), host: host)
            let decoded = try await auth.verifySessionCookie(try await auth.createSessionCookie(idToken, expiresIn: 3600))
            return ["uid": decoded.uid.replacingOccurrences(of: tag, with: "TAG"), "issuer": decoded.claims["iss"] ?? NSNull()]
        }
        await step("shortCookie") { try await auth.createSessionCookie("x.y.z", expiresIn: 60) }
        await step("second") { record(try await auth.createUser(CreateRequest(uid: "second-\(tag)")), tag: tag) }
        await step("deleteUsers") {
            let result = try await auth.deleteUsers([uid, "second-\(tag)", "never-\(tag)"])
            return ["success": result.successCount, "failure": result.failureCount]
        }
        await step("afterDelete") { record(try await auth.getUser(uid), tag: tag) }
        let scryptKey = Data(base64Encoded: "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==")!
        let scrypt = UserImportOptions(hash: .init(algorithm: .scrypt, key: scryptKey, saltSeparator: Data([7]), rounds: 8, memoryCost: 14))
        let imported = [
            UserImportRecord(uid: "imported-\(tag)", email: "imported-\(tag)@example.com", emailVerified: true, displayName: "Imported",
                             metadata: UserMetadataRequest(lastSignInTime: Date(timeIntervalSince1970: 1_600_000_001), creationTime: Date(timeIntervalSince1970: 1_600_000_000)),
                             providerData: [UserProviderRequest(uid: "g-\(tag)", providerId: "google.com", email: "imported-\(tag)@example.com")],
                             customClaims: ["plan": "pro"], passwordHash: Data("not-a-real-hash".utf8), passwordSalt: Data("salt".utf8)),
            UserImportRecord(uid: "badphone-\(tag)", phoneNumber: "+1abc"),
        ]
        await step("import") {
            let result = try await auth.importUsers(imported, options: scrypt)
            return ["success": result.successCount, "failure": result.failureCount, "failed": result.errors.map(\.index)] as [String: Any]
        }
        await step("imported") {
            let user = try await auth.getUser("imported-\(tag)")
            return record(user, tag: tag).merging([
                "created": user.metadata.creationTime.map { Int64($0.timeIntervalSince1970 * 1000) } ?? NSNull(),
                "lastSignIn": user.metadata.lastSignInTime.map { Int64($0.timeIntervalSince1970 * 1000) } ?? NSNull(),
            ]) { $1 }
        }
        await step("importWithoutHash") { try await auth.importUsers(imported) }
        await step("importBadRounds") {
            try await auth.importUsers(imported, options: UserImportOptions(hash: .init(algorithm: .scrypt, key: scryptKey, rounds: 9, memoryCost: 14)))
        }
        func oidc(_ config: AuthProviderConfig) -> Any {
            guard case .oidc(let config) = config else { return "not OIDC" }
            return ["providerId": config.providerId.replacingOccurrences(of: tag, with: "TAG"), "displayName": config.displayName ?? NSNull(), "enabled": config.enabled,
                    "issuer": config.issuer, "clientId": config.clientId, "clientSecret": config.clientSecret ?? NSNull(),
                    // firebase-admin-python reads a flow that is not given as false; Node (and Swift) as absent.
                    "idToken": config.responseType?.idToken ?? false, "code": config.responseType?.code ?? false] as [String: Any]
        }
        func saml(_ config: AuthProviderConfig) -> Any {
            guard case .saml(let config) = config else { return "not SAML" }
            return ["providerId": config.providerId.replacingOccurrences(of: tag, with: "TAG"), "displayName": config.displayName ?? NSNull(), "enabled": config.enabled,
                    "idpEntityId": config.idpEntityId, "ssoURL": config.ssoURL, "x509Certificates": config.x509Certificates, "rpEntityId": config.rpEntityId,
                    "callbackURL": config.callbackURL ?? NSNull()] as [String: Any]
        }
        await step("oidcCreate") {
            oidc(try await auth.createProviderConfig(.oidc(OIDCAuthProviderConfig(providerId: "oidc.p\(tag)", displayName: "Corp SSO", enabled: true, clientId: "client-1",
                                                                                 issuer: "https://issuer.example.com"))))
        }
        await step("oidcUpdate") {
            oidc(try await auth.updateProviderConfig("oidc.p\(tag)", .oidc(OIDCUpdateAuthProviderRequest(displayName: "Corp SSO 2", clientSecret: "s3cret",
                                                                                                       responseType: OAuthResponseType(idToken: false, code: true)))))
        }
        await step("oidcGet") { oidc(try await auth.getProviderConfig("oidc.p\(tag)")) }
        await step("oidcList") {
            try await auth.listProviderConfigs(AuthProviderConfigFilter(type: .oidc)).providerConfigs.map(\.providerId).filter { $0.contains(tag) }
                .map { $0.replacingOccurrences(of: tag, with: "TAG") }.sorted()
        }
        await step("samlCreate") {
            saml(try await auth.createProviderConfig(.saml(SAMLAuthProviderConfig(providerId: "saml.p\(tag)", idpEntityId: "idp-1", ssoURL: "https://idp.example.com/sso",
                                                                                 x509Certificates: ["CERT-1"], rpEntityId: "rp-1",
                                                                                 callbackURL: "https://demo.firebaseapp.com/__/auth/handler"))))
        }
        await step("samlUpdate") {
            saml(try await auth.updateProviderConfig("saml.p\(tag)", .saml(SAMLUpdateAuthProviderRequest(enabled: true, x509Certificates: ["CERT-2", "CERT-3"]))))
        }
        await step("oidcDelete") { try await auth.deleteProviderConfig("oidc.p\(tag)"); return "deleted" }
        await step("oidcGone") { oidc(try await auth.getProviderConfig("oidc.p\(tag)")) }
        await step("oidcBadIssuer") {
            oidc(try await auth.createProviderConfig(.oidc(OIDCAuthProviderConfig(providerId: "oidc.q\(tag)", clientId: "c", issuer: "not a url"))))
        }
        await step("importTooMany") { try await auth.importUsers((0..<1001).map { UserImportRecord(uid: "many-\($0)") }) }
        return (results, errors)
    }

    @Test(.enabled(if: python || ProcessInfo.processInfo.environment["CI"] != nil, "firebase-admin is not installed (pip install firebase-admin)"))
    func everyStepComesToWhatFirebaseAdminComesTo() async throws {
        let standIn = try Self.emulator()
        defer { standIn.stop() }
        try await Self.compare(host: standIn.hostAndPort, project: "demo-fbauth", providerConfigs: true)
    }

    /// The same scenario against Google's own Auth emulator, where it is built: whatever it
    /// answers, both SDKs must come to the same.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["FBAUTH_TEST_AUTH_EMULATOR"].map { !$0.isEmpty } == true && python,
                   "needs Google's Auth emulator (FBAUTH_TEST_AUTH_EMULATOR) and firebase-admin"))
    func againstGooglesEmulatorEveryStepComesToWhatFirebaseAdminComesTo() async throws {
        // The project Google's emulator was started for (../shared/auth-emulator/start.sh): a
        // client's API-key calls (signInWithCustomToken) land there, whatever the Admin SDK names.
        let project = ProcessInfo.processInfo.environment["FBAUTH_TEST_AUTH_EMULATOR_PROJECT"] ?? "demo-fbauth"
        try await Self.compare(host: ProcessInfo.processInfo.environment["FBAUTH_TEST_AUTH_EMULATOR"]!, project: project, providerConfigs: false)
    }

    /// The scenario through both SDKs against the emulator at `host`, compared step by step;
    /// Swift's custom token's and session cookie's verified by firebase-admin. `providerConfigs`:
    /// the emulator serves them (Google's answers 501), so their success is checked too.
    static func compare(host: String, project: String, providerConfigs: Bool) async throws {
        let auth = AdminAuth(projectID: project, emulatorHost: host, log: { _ in })
        let swiftTag = String(UInt32.random(in: 0x1000_0000...0xFFFF_FFFF), radix: 16)
        let (ours, errors) = await Self.scenario(auth, tag: swiftTag, host: host)
        // Swift's own custom token and session cookie, for firebase-admin to verify.
        let swiftIDToken = try await signInWithCustomToken(try await auth.createCustomToken("cross-\(swiftTag)", developerClaims: ["from": "swift"]), host: host)
        let swiftCookie = try await auth.createSessionCookie(swiftIDToken, expiresIn: 3600)

        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/admin-users-check.py")
        let pythonTag = String(UInt32.random(in: 0x1000_0000...0xFFFF_FFFF), radix: 16)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, host, project, pythonTag]
        process.environment = ProcessInfo.processInfo.environment.merging(["FBAUTH_SWIFT_TOKENS": "\(swiftIDToken) \(swiftCookie)"]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var theirs = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(String(decoding: data, as: UTF8.self))")
        // firebase-admin takes what FirebaseAdminAuth made: the custom token's ID token, with its claim, and the cookie.
        let crossChecked = theirs.removeValue(forKey: "swiftTokens") as? [String: Any]
        #expect(crossChecked?["uid"] as? String == "cross-\(swiftTag)" && crossChecked?["from"] as? String == "swift"
                    && crossChecked?["cookieUid"] as? String == "cross-\(swiftTag)", "\(String(describing: crossChecked))")

        // As JSON both ways, so that numbers and nulls compare alike.
        func normalized(_ value: Any) -> String {
            let data = (try? JSONSerialization.data(withJSONObject: ["v": value], options: [.sortedKeys])) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }
        #expect(Set(ours.keys) == Set(theirs.keys))
        for name in theirs.keys.sorted() {
            let (mine, python) = (normalized(ours[name] ?? NSNull()), normalized(theirs[name]!))
            #expect(mine == python, "\(name): Swift \(mine), firebase-admin \(python)")
        }
        // getUserByProviderUid (firebase-admin-python has none): the email and phone "providers"
        // look the user up by address and number, as firebase-admin-node does; another finds no one.
        // A number of this run's own (Google's emulator is shared by the whole run): the
        // scenario's, with its last digit changed.
        let probePhone = String(Self.phone(swiftTag).dropLast()) + (Self.phone(swiftTag).hasSuffix("7") ? "8" : "7")
        let probe = try await auth.createUser(CreateRequest(uid: "probe-\(swiftTag)", email: "probe-\(swiftTag)@example.com", phoneNumber: probePhone))
        #expect(try await auth.getUserByProviderUid(providerId: "email", uid: "PROBE-\(swiftTag)@example.com").uid == probe.uid)
        #expect(try await auth.getUserByProviderUid(providerId: "phone", uid: probePhone).uid == probe.uid)
        await #expect { try await auth.getUserByProviderUid(providerId: "google.com", uid: "probe-\(swiftTag)") } throws: { error in
            (error as? AdminAuthError)?.code == "auth/user-not-found"
        }

        // The success path really happened (the test can fail): a created user, then gone.
        #expect(normalized((ours["claims"] as? [String: Any])?["customClaims"] ?? NSNull()) == normalized(["admin": true, "level": 3]), "\(ours["claims"] ?? "")")
        #expect(ours["afterDelete"] as? String == "error: not found")

        // firebase-admin-node's codes and words for the refusals made before any request.
        #expect(errors["longUid"]?.code == "auth/invalid-uid" && errors["longUid"]?.message == "The uid must be a non-empty string with at most 128 characters.")
        #expect(errors["shortPassword"]?.code == "auth/invalid-password" && errors["shortPassword"]?.message == "The password must be a string with at least 6 characters.")
        #expect(errors["badEmail"]?.code == "auth/invalid-email" && errors["badEmail"]?.message == "The email address is improperly formatted.")
        #expect(errors["reservedClaim"]?.code == "auth/reserved-claim" && errors["reservedClaim"]?.message == "Developer claim \"sub\" is reserved and cannot be specified.")
        #expect(errors["largeClaims"]?.code == "auth/claims-too-large" && errors["largeClaims"]?.message == "Developer claims payload should not exceed 1000 characters.")
        // And the server's, mapped as FirebaseAuthError.fromServerError maps them.
        #expect(errors["oidcBadIssuer"]?.code == "auth/invalid-config" && errors["oidcBadIssuer"]?.message == "\"OIDCAuthProviderConfig.issuer\" must be a valid URL string.")
        if providerConfigs {
            #expect(errors["oidcGone"]?.code == "auth/configuration-not-found", "\(String(describing: errors["oidcGone"]))")
            #expect(normalized(ours["samlUpdate"] ?? NSNull()).contains("CERT-3"), "\(ours["samlUpdate"] ?? "")")
        }
        #expect(errors["importWithoutHash"]?.message == "\"UserImportOptions\" are required when importing users with passwords.")
        #expect(errors["importBadRounds"]?.code == "auth/invalid-hash-rounds"
            && errors["importBadRounds"]?.message == "A valid \"hash.rounds\" number between 1 and 8 must be provided for hash algorithm SCRYPT.")
        #expect(errors["importTooMany"]?.code == "auth/maximum-user-count-exceeded" && errors["importTooMany"]?.message == "A maximum of 1000 users can be imported at once.")
        // The hash went as firebase-admin-node sends it: web-safe base64 of the bytes.
        #expect(try await auth.getUser("imported-\(swiftTag)").passwordHash == Data("not-a-real-hash".utf8).base64EncodedString())
        // fbauth's emulator refuses the one bad user, as production does; Google's takes it (its
        // import checks nothing), and firebase-admin came to the same either way (compared above).
        if providerConfigs {
            #expect(normalized(ours["import"] ?? NSNull()) == normalized(["success": 1, "failure": 1, "failed": [1]]), "\(ours["import"] ?? "")")
        }
        #expect(errors["missing"]?.code == "auth/user-not-found" && errors["missing"]?.message == "There is no user record corresponding to the provided identifier.")
        #expect(errors["duplicateEmail"]?.code == "auth/email-already-exists", "\(String(describing: errors["duplicateEmail"]))")
        #expect(errors["duplicateUid"]?.code == "auth/uid-already-exists", "\(String(describing: errors["duplicateUid"]))")
    }

    /// Arguments refused before anything is sent: the emulator sees no request.
    @Test func badArgumentsMakeNoRequest() async throws {
        let standIn = try Self.emulator()
        defer { standIn.stop() }
        let auth = AdminAuth(projectID: "demo-fbauth", emulatorHost: standIn.hostAndPort, log: { _ in })
        let before = standIn.requests.count
        let calls: [(String, () async throws -> Void)] = [
            ("auth/invalid-uid", { _ = try await auth.getUser("") }),
            ("auth/invalid-uid", { _ = try await auth.getUser(String(repeating: "😀", count: 65)) }),
            ("auth/invalid-email", { _ = try await auth.getUserByEmail("a@b@c") }),
            ("auth/invalid-phone-number", { _ = try await auth.getUserByPhoneNumber("5551234") }),
            ("auth/invalid-photo-url", { _ = try await auth.createUser(CreateRequest(photoURL: "ftp://example.com/x.png")) }),
            ("auth/maximum-user-count-exceeded", { _ = try await auth.getUsers((0..<101).map { .uid("u\($0)") }) }),
            ("auth/maximum-user-count-exceeded", { _ = try await auth.deleteUsers((0..<1001).map { "u\($0)" }) }),
            ("auth/argument-error", { _ = try await auth.listUsers(maxResults: 1001) }),
            ("auth/invalid-page-token", { _ = try await auth.listUsers(pageToken: "") }),
            ("auth/reserved-claim", { try await auth.setCustomUserClaims("u1", ["iss": "x", "aud": "y"]) }),
        ]
        for (code, call) in calls {
            await #expect { try await call() } throws: { error in (error as? AdminAuthError)?.code == code }
        }
        await #expect { try await auth.setCustomUserClaims("u1", ["iss": "x", "aud": "y"]) } throws: { error in
            (error as? AdminAuthError)?.message == "Developer claims \"aud\", \"iss\" are reserved and cannot be specified."
        }
        #expect(standIn.requests.count == before, "\(standIn.requests.dropFirst(before).map(\.path))")
    }

    /// listUsers pages through every user, in pages of the size asked for.
    @Test func listUsersPagesThroughEveryUser() async throws {
        let standIn = try Self.emulator()
        defer { standIn.stop() }
        let auth = AdminAuth(projectID: "demo-fbauth", emulatorHost: standIn.hostAndPort, log: { _ in })
        for index in 0..<25 { _ = try await auth.createUser(CreateRequest(uid: "page-\(index)", email: "p\(index)@example.com")) }
        var seen: [String] = [], token: String?, pages = 0
        repeat {
            let page = try await auth.listUsers(maxResults: 10, pageToken: token)
            #expect(page.users.count <= 10)
            seen += page.users.map(\.uid)
            token = page.pageToken
            pages += 1
        } while token != nil && pages < 10
        #expect(Set(seen) == Set((0..<25).map { "page-\($0)" }) && seen.count == 25 && pages == 3, "\(pages) pages: \(seen)")
    }
}
