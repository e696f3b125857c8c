import FBAuthStandIn
import FirebaseAuth
import Foundation
import TestSupport
import Testing

/// Issue 48: phone numbers as the SDK's `PhoneAuthProvider` has them, on each emulator. Tests
/// skip reCAPTCHA as an app's tests do (`isAppVerificationDisabledForTesting`); the codes are
/// read from the emulator's listing of what it "texted".
enum PhoneScenarios {
    /// A number signs in (a new user, then the same one), links to another user, replaces that
    /// user's number, reauthenticates; wrong codes and numbers get the SDK's errors.
    static func signInLinkUpdateAndReauthenticate(_ app: some EmulatorApp) async throws {
        let auth = app.auth
        auth.settings?.isAppVerificationDisabledForTesting = true
        #expect(auth.settings?.isAppVerificationDisabledForTesting == true, "the settings are changed in place, as the SDK's")
        let provider = PhoneAuthProvider.provider(auth: auth)
        let number = StandInApp.uniqueNumber()

        let verificationID = try await provider.verifyPhoneNumber(number, uiDelegate: nil)
        let credential = provider.credential(withVerificationID: verificationID, verificationCode: try app.smsCode(for: number))
        #expect(credential.provider == PhoneAuthProvider.id)
        let first = try await auth.signIn(with: credential)
        #expect(first.user.phoneNumber == number && first.user.providerData.map(\.providerID) == ["phone"], "\(first.user.providerData)")
        #expect(first.additionalUserInfo?.isNewUser == true && first.additionalUserInfo?.providerID == "phone")
        #expect(try await first.user.getIDTokenResult().signInProvider == "phone")
        let uid = first.user.uid

        try auth.signOut()
        let again = try await provider.verifyPhoneNumber(number, uiDelegate: nil, multiFactorSession: nil)
        let second = try await auth.signIn(with: provider.credential(withVerificationID: again, verificationCode: try app.smsCode(for: number)))
        #expect(second.user.uid == uid && second.additionalUserInfo?.isNewUser == false)

        // A wrong code, a verification id no one issued, a number that is not one.
        let wrongCode = try await provider.verifyPhoneNumber(number, uiDelegate: nil)
        let wrong = try app.smsCode(for: number) == "000000" ? "111111" : "000000"
        await expectCode(.invalidVerificationCode) { _ = try await auth.signIn(with: provider.credential(withVerificationID: wrongCode, verificationCode: wrong)) }
        await expectCode(.invalidVerificationID) { _ = try await auth.signIn(with: provider.credential(withVerificationID: "not-issued", verificationCode: "123456")) }
        await expectCode(.invalidPhoneNumber) { _ = try await provider.verifyPhoneNumber("12345", uiDelegate: nil) }

        // Another user links a number of their own, then replaces it.
        try auth.signOut()
        let email = "phone-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let other = try await auth.createUser(withEmail: email, password: "correct horse battery").user
        let otherNumber = StandInApp.uniqueNumber()
        let linkID = try await provider.verifyPhoneNumber(otherNumber, uiDelegate: nil)
        let linked = try await other.link(with: provider.credential(withVerificationID: linkID, verificationCode: try app.smsCode(for: otherNumber)))
        #expect(linked.user.uid == other.uid && Set(linked.user.providerData.map(\.providerID)) == ["password", "phone"], "\(linked.user.providerData)")
        #expect(linked.user.phoneNumber == otherNumber)

        let newNumber = StandInApp.uniqueNumber()
        let updateID = try await provider.verifyPhoneNumber(newNumber, uiDelegate: nil)
        try await other.updatePhoneNumber(provider.credential(withVerificationID: updateID, verificationCode: try app.smsCode(for: newNumber)))
        #expect(other.phoneNumber == newNumber && auth.currentUser?.phoneNumber == newNumber)

        // The first number is the first user's: linking it here is refused.
        let taken = try await provider.verifyPhoneNumber(number, uiDelegate: nil)
        await expectCode(.credentialAlreadyInUse) {
            _ = try await other.link(with: provider.credential(withVerificationID: taken, verificationCode: try app.smsCode(for: number)))
        }

        // Reauthentication with the user's own number keeps the user.
        let reauthID = try await provider.verifyPhoneNumber(newNumber, uiDelegate: nil)
        let reauth = try await other.reauthenticate(with: provider.credential(withVerificationID: reauthID, verificationCode: try app.smsCode(for: newNumber)))
        #expect(reauth.user.uid == other.uid)
    }

    /// An SMS second factor: enrolled through `user.multiFactor`'s session, then the sign-in it
    /// guards finished through the resolver's hint and session, as the SDK's guide does.
    static func secondFactor(_ app: some EmulatorApp) async throws {
        let auth = app.auth
        auth.settings?.isAppVerificationDisabledForTesting = true
        let provider = PhoneAuthProvider.provider(auth: auth)
        let email = "sms-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let user = try await auth.createUser(withEmail: email, password: "correct horse battery").user
        try app.verifyEmail(uid: user.uid)
        try await user.reload()
        let number = StandInApp.uniqueNumber()

        let session = try await user.multiFactor.session()
        let enrollID = try await provider.verifyPhoneNumber(number, uiDelegate: nil, multiFactorSession: session)
        let enrollCredential = provider.credential(withVerificationID: enrollID, verificationCode: try app.smsCode(for: number))
        try await user.multiFactor.enroll(with: PhoneMultiFactorGenerator.assertion(with: enrollCredential), displayName: "work phone")
        let factor = try #require(user.multiFactor.enrolledFactors.first as? PhoneMultiFactorInfo)
        #expect(factor.factorID == PhoneMultiFactorID && factor.displayName == "work phone" && factor.phoneNumber == number)

        try auth.signOut()
        var resolver: MultiFactorResolver?
        do {
            _ = try await auth.signIn(withEmail: email, password: "correct horse battery")
            Issue.record("signed in without the second factor")
        } catch {
            #expect((error as? AuthErrorCode)?.code == .secondFactorRequired, "\(error)")
            resolver = (error as NSError).userInfo[AuthErrorUserInfoMultiFactorResolverKey] as? MultiFactorResolver
        }
        let found = try #require(resolver)
        let hint = try #require(found.hints.first as? PhoneMultiFactorInfo)
        // A number typed instead of the hint does not say which factor: refused, nothing sent.
        await expectCode(.internalError) { _ = try await provider.verifyPhoneNumber(number, uiDelegate: nil, multiFactorSession: found.session) }
        let signInID = try await provider.verifyPhoneNumber(with: hint, uiDelegate: nil, multiFactorSession: found.session)
        let signInCredential = provider.credential(withVerificationID: signInID, verificationCode: try app.smsCode(for: number))
        let result = try await found.resolveSignIn(with: PhoneMultiFactorGenerator.assertion(with: signInCredential))
        #expect(result.user.uid == user.uid && auth.currentUser?.uid == user.uid)
        #expect(try await result.user.getIDTokenResult().signInSecondFactor == "phone")

        try await result.user.multiFactor.unenroll(with: factor)
        #expect(result.user.multiFactor.enrolledFactors.isEmpty)
    }

    /// `error` is the SDK's `code`.
    static func expectCode(_ code: AuthErrorCode, _ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async {
        do {
            try await body()
            Issue.record("no error; expected \(code)", sourceLocation: sourceLocation)
        } catch {
            #expect((error as? AuthErrorCode)?.code == code, "\(error)", sourceLocation: sourceLocation)
            #expect((error as NSError).domain == AuthErrorDomain, sourceLocation: sourceLocation)
        }
    }
}

@Suite struct PhoneOnTheStandInTests {
    /// As an emulator (`fbauth emulator`, Google's): no reCAPTCHA is asked for.
    static var asAnEmulator: StandInConfiguration {
        var configuration = StandInConfiguration()
        configuration.checksRecaptcha = false
        configuration.recentSignIn = 86_400  // a loaded runner must not make the sign-in old
        return configuration
    }

    @Test func aNumberSignsInLinksUpdatesAndReauthenticates() async throws {
        try await PhoneScenarios.signInLinkUpdateAndReauthenticate(try StandInApp(configuration: Self.asAnEmulator))
    }

    @Test func anSMSSecondFactorIsEnrolledThenAsked() async throws {
        try await PhoneScenarios.secondFactor(try StandInApp(configuration: Self.asAnEmulator))
    }

    /// Where the project asks for reCAPTCHA (production does), the text waits for it on a page
    /// of the loopback listener in the browser: the SDK's web view, here. Headless Chromium
    /// plays the user, with test doubles of Google's reCAPTCHA scripts; the token the page gets
    /// is what the text is sent with, and its code signs in.
    @Test(.enabled(if: ChromiumBrowser.isInstalled || ProcessInfo.processInfo.environment["CI"] != nil, "chromium is not installed"))
    func withoutTheTestingSwitchTheReCAPTCHAPageRunsInTheBrowser() async throws {
        var configuration = StandInConfiguration()
        configuration.checksRecaptcha = true
        let log = NSTemporaryDirectory() + "fbauth-chromium-\(UUID().uuidString).log"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let app = try StandInApp(configuration: configuration, openBrowser: { ChromiumBrowser.open($0, log: log) })
        // useEmulator turned the switch on, as the SDK's does on iOS; an app that tests its
        // reCAPTCHA step turns it off again.
        #expect(app.auth.settings?.isAppVerificationDisabledForTesting == true)
        app.auth.settings?.isAppVerificationDisabledForTesting = false
        let provider = PhoneAuthProvider.provider(auth: app.auth)
        let number = StandInApp.uniqueNumber()
        let verificationID: String
        do {
            verificationID = try await provider.verifyPhoneNumber(number, uiDelegate: nil)
        } catch {
            Issue.record("\(error)\n\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "no browser log")")
            return
        }
        let sent = try #require(app.standIn.requests(to: "accounts:sendVerificationCode").last)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(sent.body.utf8)) as? [String: Any])
        #expect(body["recaptchaToken"] as? String == "fbauth-stand-in-recaptcha-v2.\(configuration.recaptchaSiteKey)", "\(body)")
        let result = try await app.auth.signIn(with: provider.credential(withVerificationID: verificationID, verificationCode: try app.smsCode(for: number)))
        #expect(result.user.phoneNumber == number)
    }

    /// Issue 58: `useEmulator` turns app verification off, as the SDK's does on iOS: a phone
    /// number is verified with no reCAPTCHA step against an emulator.
    @Test func useEmulatorTurnsAppVerificationOff() async throws {
        let app = try StandInApp(configuration: Self.asAnEmulator)
        #expect(app.auth.settings?.isAppVerificationDisabledForTesting == true)
        let number = StandInApp.uniqueNumber()
        let verificationID = try await PhoneAuthProvider.provider(auth: app.auth).verifyPhoneNumber(number, uiDelegate: nil)
        #expect(!verificationID.isEmpty && app.standIn.requests(to: "accounts:sendVerificationCode").count == 1)
    }

    /// Without the page's answer, nothing is texted: a refusal from the project, not a text.
    @Test func withTheTestingSwitchAProjectThatChecksReCAPTCHARefusesTheText() async throws {
        var configuration = StandInConfiguration()
        configuration.checksRecaptcha = true
        let app = try StandInApp(configuration: configuration)
        app.auth.settings?.isAppVerificationDisabledForTesting = true
        await PhoneScenarios.expectCode(.internalError) {
            _ = try await PhoneAuthProvider.provider(auth: app.auth).verifyPhoneNumber(StandInApp.uniqueNumber(), uiDelegate: nil)
        }
        #expect(app.standIn.requests(to: "accounts:sendVerificationCode").count == 1)
    }

    /// Issue 59, item 4: a tenant's test phone number (set with the tenant, through the Admin
    /// API) is a second factor with its fixed code: enrolled, then asked at sign-in, no text sent.
    @Test func aTenantsTestNumberIsASecondFactorWithItsFixedCode() async throws {
        var configuration = StandInConfiguration()
        configuration.checksRecaptcha = false
        configuration.recentSignIn = 86_400
        let app = try StandInApp(configuration: configuration)
        let number = StandInApp.uniqueNumber()
        let tenant = try EmulatorHTTP.call("POST", app.host, "/identitytoolkit.googleapis.com/v2/projects/\(app.projectId)/tenants",
                                           ["displayName": "Phones", "allowPasswordSignup": true, "testPhoneNumbers": [number: "424242"],
                                            "mfaConfig": ["state": "ENABLED", "enabledProviders": ["PHONE_SMS"]]], owner: true)
        let tenantID = try #require(tenant["tenantId"] as? String, "\(tenant)")
        app.auth.tenantID = tenantID
        app.auth.settings?.isAppVerificationDisabledForTesting = true
        let provider = PhoneAuthProvider.provider(auth: app.auth)
        let user = try await app.auth.createUser(withEmail: "tenant-sms@example.com", password: "correct horse battery").user
        try app.verifyEmail(uid: user.uid)
        try await user.reload()
        let enrollID = try await provider.verifyPhoneNumber(number, uiDelegate: nil, multiFactorSession: try await user.multiFactor.session())
        try await user.multiFactor.enroll(with: PhoneMultiFactorGenerator.assertion(with: provider.credential(withVerificationID: enrollID, verificationCode: "424242")),
                                          displayName: "test phone")
        try app.auth.signOut()
        do {
            _ = try await app.auth.signIn(withEmail: "tenant-sms@example.com", password: "correct horse battery")
            Issue.record("signed in without the second factor")
        } catch let error as NSError where error.code == AuthErrorCode.secondFactorRequired.rawValue {
            let resolver = try #require(error.userInfo[AuthErrorUserInfoMultiFactorResolverKey] as? MultiFactorResolver)
            let hint = try #require(resolver.hints.first as? PhoneMultiFactorInfo)
            let signInID = try await provider.verifyPhoneNumber(with: hint, uiDelegate: nil, multiFactorSession: resolver.session)
            let result = try await resolver.resolveSignIn(with: PhoneMultiFactorGenerator.assertion(with: provider.credential(withVerificationID: signInID, verificationCode: "424242")))
            #expect(result.user.uid == user.uid && result.user.tenantID == tenantID)
        }
        let listed = try EmulatorHTTP.call("GET", app.host, "/emulator/v1/projects/\(app.projectId)/tenants/\(tenantID)/verificationCodes")
        #expect((listed["verificationCodes"] as? [[String: Any]] ?? []).isEmpty, "no text was sent: \(listed)")
    }
}

@Suite(.enabled(if: GoogleEmulatorApp.host != nil, GoogleEmulatorApp.skipReason))
struct PhoneOnGoogleEmulatorTests {
    @Test func aNumberSignsInLinksUpdatesAndReauthenticates() async throws {
        try await PhoneScenarios.signInLinkUpdateAndReauthenticate(try GoogleEmulatorApp())
    }

    @Test func anSMSSecondFactorIsEnrolledThenAsked() async throws {
        try await PhoneScenarios.secondFactor(try GoogleEmulatorApp())
    }
}
