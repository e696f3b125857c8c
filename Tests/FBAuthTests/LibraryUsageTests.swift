import FBAuth  // not @testable: only what a Swift program can use
import FBAuthStandIn
import Foundation
import Testing

/// The README's library example, as a Swift program writes it, against the stand-in with its
/// headless browser playing the user.
@Suite struct LibraryUsageTests {
    /// The user's browser: consents as `email` on the provider's page.
    struct HeadlessLauncher: BrowserLauncher {
        let email: String
        func open(_ url: String) throws(BrowserLaunchError) -> LaunchedBrowser? {
            let email = email
            Thread.detachNewThread {
                do throws(HeadlessBrowser.Failure) {
                    _ = try HeadlessBrowser(email: email).visit(url)
                } catch {
                    Issue.record("the headless browser failed at \(url): \(error.message)")
                }
            }
            return nil
        }
    }

    final class RecordingObserver: SignInObserver, @unchecked Sendable {
        private let lock = NSLock()
        private var recorded: [SignInEvent] = []
        var events: [SignInEvent] { lock.withLock { recorded } }
        func signIn(_ event: SignInEvent) { lock.withLock { recorded.append(event) } }
        var pasteInput: PasteInput? { nil }
    }

    /// An async test can wait minutes between two awaits on a loaded two-core runner (the
    /// cooperative pool is shared with every other test): a sign-in's five minutes of
    /// recentness, which these tests do not exercise, are made a day (MultiFactorProtocolTests
    /// checks the five minutes on the stand-in's clock).
    static var patientAboutRecentSignIns: StandInConfiguration {
        var configuration = StandInConfiguration()
        configuration.recentSignIn = 86_400
        return configuration
    }

    private func auth(_ standIn: StandIn, email: String, observer: SignInObserver = SilentObserver(), directory: String) -> AuthService {
        AuthService(apiKey: "library-key", emulatorHost: standIn.hostAndPort, configDirectory: directory, redirect: .loopback,
             timeout: .seconds(30), browser: HeadlessLauncher(email: email), observer: observer)
    }

    /// Issue 39, item 6: the rules a Swift program meets as the command line does, in the
    /// library: reauthenticating into an account that exists with another credential is a
    /// user mismatch (not an account-exists conflict), and the session is left as it was.
    @Test func reauthenticationIntoAnotherAccountIsAUserMismatch() async throws {
        let standIn = try StandIn(configuration: Self.patientAboutRecentSignIns)
        standIn.start()
        defer { standIn.stop() }
        standIn.createPasswordUser(email: "pat@example.com", password: "correct horse")
        let directory = try temporaryDirectory()
        let ada = try await auth(standIn, email: "ada@example.com", directory: directory).signIn(with: BrowserProvider(providerID: "yahoo.com")).user
        // Microsoft says pat@example.com, unverified: that account exists with a password.
        let asPat = auth(standIn, email: "pat@example.com", directory: directory)
        let before = try String(contentsOfFile: directory + "/sessions.json", encoding: .utf8)
        do {
            _ = try await asPat.savedUser(ada.uid).reauthenticate(with: BrowserProvider(providerID: "microsoft.com"))
            Issue.record("reauthenticated into another account")
        } catch {
            #expect(error.code == .userMismatch, "\(error)")
            #expect(error.message == "user mismatch: you signed in as an account that is not this user, not as ada@example.com (uid \(ada.uid)); the session was left unchanged")
        }
        #expect(try String(contentsOfFile: directory + "/sessions.json", encoding: .utf8) == before)
    }

    /// Issue 39, item 6: deleting a Sign in with Apple user revokes its Apple token first, in
    /// the library (as the command does); without a kept token nothing is deleted and the
    /// remedy says to sign in with Apple again.
    @Test func deletingAnAppleUserRevokesItsTokenFirst() async throws {
        let standIn = try StandIn(configuration: Self.patientAboutRecentSignIns)
        standIn.start()
        defer { standIn.stop() }
        let auth = auth(standIn, email: "apple@example.com", directory: try temporaryDirectory())
        let user = try await auth.signIn(with: BrowserProvider(providerID: "apple.com")).user
        let token = try #require(user.keptAppleAccessToken)
        try await user.delete()
        let paths = standIn.requests.map(\.endpoint)
        let revoked = try #require(paths.firstIndex(of: "accounts:revokeToken")), deleted = try #require(paths.firstIndex(of: "accounts:delete"))
        #expect(revoked < deleted && standIn.requests[revoked].body.contains(token) && standIn.users.isEmpty, "\(paths)")

        // A session saved before fbauth kept Apple tokens: none to revoke.
        _ = try await auth.signIn(with: BrowserProvider(providerID: "apple.com"))
        let path = auth.sessionsLocation
        let kept = try #require(auth.currentUser?.keptAppleAccessToken)
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "\"accessToken\" : \"\(kept)\",", with: "")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let other = try #require(auth.currentUser)
        #expect(other.keptAppleAccessToken == nil)
        do throws(FBAuthError) {
            try await other.delete()
            Issue.record("deleted without revoking")
        } catch {
            #expect(error.remedy == .reauthenticateWithApple && error.code == .requiresRecentLogin, "\(error)")
        }
        #expect(standIn.users.count == 1, "nothing was deleted")
        try await other.delete(revokingAppleToken: false)
        #expect(standIn.users.isEmpty)
    }

    /// docs/library.md's examples without a browser, as written there.
    @Test func emailAndPasswordAccountsAsTheSDKHasThem() async throws {
        let standIn = try StandIn(configuration: Self.patientAboutRecentSignIns)
        standIn.start()
        defer { standIn.stop() }
        let auth = auth(standIn, email: "pat@example.com", directory: try temporaryDirectory())

        let created = try await auth.createUser(withEmail: "pat@example.com", password: "correct horse")
        #expect(created.additionalUserInfo?.isNewUser == true && auth.currentUser?.uid == created.user.uid)
        try await created.user.sendEmailVerification()
        #expect(standIn.latestOobLink(sentTo: "pat@example.com", requestType: "VERIFY_EMAIL") != nil)
        let pat = try await auth.signIn(withEmail: "pat@example.com", password: "correct horse").user
        #expect(pat.uid == created.user.uid)
        try await pat.updatePassword(to: "battery staple")
        await #expect(throws: FBAuthError.self) { try await auth.signIn(withEmail: "pat@example.com", password: "correct horse") }
        #expect(try await auth.signIn(withEmail: "pat@example.com", password: "battery staple").user.uid == pat.uid)

        try await auth.sendPasswordReset(withEmail: "pat@example.com")
        let link = try #require(standIn.latestOobLink(sentTo: "pat@example.com", requestType: "PASSWORD_RESET"))
        let oobCode = try #require(URLComponents(string: link)?.queryItems?.first { $0.name == "oobCode" }?.value)
        try await auth.confirmPasswordReset(withCode: oobCode, newPassword: "new one!")
        #expect(try await auth.signIn(withEmail: "pat@example.com", password: "new one!").user.uid == pat.uid)
        // Hidden (empty), as every project created since September 2023 hides them.
        #expect(try await auth.fetchSignInMethods(forEmail: "pat@example.com") == [])

        try await auth.currentUser!.sendEmailVerification(beforeUpdatingEmail: "pat2@example.com")
        #expect(standIn.latestOobLink(sentTo: "pat@example.com", requestType: "VERIFY_AND_CHANGE_EMAIL") != nil)
        let renamed = try await auth.currentUser!.updateProfile(displayName: "Pat")
        #expect(renamed.displayName == "Pat")
        #expect(try await renamed.reload().displayName == "Pat")
    }

    @Test func severalUsersAndTheCurrentOne() async throws {
        let standIn = try StandIn(configuration: Self.patientAboutRecentSignIns)
        standIn.start()
        defer { standIn.stop() }
        let auth = auth(standIn, email: "one@example.com", directory: try temporaryDirectory())
        let ada = try await auth.createUser(withEmail: "ada@example.com", password: "correct horse").user
        let grace = try await auth.createUser(withEmail: "grace@example.com", password: "correct horse").user
        #expect(auth.currentUser?.uid == grace.uid)
        #expect(Set(auth.savedUsers.map(\.uid)) == [ada.uid, grace.uid])
        try auth.updateCurrentUser(ada)
        #expect(auth.currentUser?.uid == ada.uid)
        try auth.signOut()
        #expect(auth.currentUser == nil && auth.savedUsers.map(\.uid) == [grace.uid])
        #expect(throws: FBAuthError.self) { try auth.updateCurrentUser(ada) }
    }

    /// docs/library.md: a sign-in that needs a second factor, answered as the SDK's
    /// `PendingSecondFactor` is: an authenticator app's code, or an SMS code.
    @Test func aSecondFactorIsAnsweredThroughTheResolver() async throws {
        var configuration = StandInConfiguration()
        configuration.checksRecaptcha = false
        let standIn = try StandIn(configuration: configuration)
        standIn.start()
        defer { standIn.stop() }
        let auth = auth(standIn, email: "mfa@example.com", directory: try temporaryDirectory())
        let uid = standIn.createPasswordUser(email: "mfa@example.com", password: "correct horse")
        standIn.verifyEmail(uid: uid)
        let app = standIn.enrollTOTP(uid: uid, displayName: "phone app")
        standIn.enrollPhone(uid: uid, phoneNumber: "+15555550100", displayName: "mobile")

        func resolver() async throws -> PendingSecondFactor {
            do {
                _ = try await auth.signIn(withEmail: "mfa@example.com", password: "correct horse")
            } catch {
                guard case .secondFactorRequired(let resolver) = error else { throw error }
                return resolver
            }
            throw FBAuthError.usage("the sign-in needed no second factor")
        }
        let first = try await resolver()
        #expect(Set(first.hints.map(\.factorID)) == ["totp", "phone"] && auth.currentUser == nil)
        let hint = try #require(first.hints.first { $0.factorID == "totp" })
        let code = try #require(TOTP.code(secret: app.secret, at: Date()))
        let result = try await first.resolveSignIn(with: TOTPFactorProofs.assertionForSignIn(withEnrollmentID: hint.uid, oneTimePassword: code))
        #expect(result.user.uid == uid && auth.currentUser?.uid == uid && result.additionalUserInfo?.providerID == "password")
        #expect(try await result.user.getIDTokenResult().signInSecondFactor == "totp")

        let second = try await resolver()
        let phone = try #require(second.hints.first { $0.factorID == "phone" })
        let verificationID = try await second.sendSMS(to: phone)
        let sms = try #require(standIn.latestCode(sentTo: "+15555550100"))
        let bySMS = try await second.resolveSignIn(with: PhoneFactorProofs.assertion(for: phone, verificationID: verificationID, verificationCode: sms))
        #expect(try await bySMS.user.getIDTokenResult().signInSecondFactor == "phone")
    }

    /// docs/library.md: an authenticator app enrolled and removed through `user.multiFactor`.
    @Test func anAuthenticatorAppIsEnrolledAndRemoved() async throws {
        let standIn = try StandIn(configuration: Self.patientAboutRecentSignIns)
        standIn.start()
        defer { standIn.stop() }
        let auth = auth(standIn, email: "app@example.com", directory: try temporaryDirectory())
        let uid = standIn.createPasswordUser(email: "app@example.com", password: "correct horse")
        standIn.verifyEmail(uid: uid)
        let user = try await auth.signIn(withEmail: "app@example.com", password: "correct horse").user

        let secret = try await user.multiFactor.generateTOTPSecret()
        #expect(secret.generateQRCodeURL(withAccountName: "app@example.com", issuer: "my-app").hasPrefix("otpauth://totp/my-app:app%40example.com?secret="))
        let code = try #require(TOTP.code(secret: secret.sharedSecretKey, at: Date()))
        try await user.multiFactor.enroll(secret, oneTimePassword: code, displayName: "phone app")
        let enrolled = user.multiFactor.enrolledFactors
        #expect(enrolled.map(\.factorID) == ["totp"] && enrolled.first?.displayName == "phone app")
        try await user.multiFactor.unenroll(withFactorUID: try #require(enrolled.first?.uid))
        #expect(user.multiFactor.enrolledFactors.isEmpty && standIn.secondFactors(uid: uid).isEmpty)
    }

    /// docs/library.md: an SMS factor enrolled through `user.multiFactor` (with the stand-in's
    /// reCAPTCHA check off, as Google's emulator has none).
    @Test func aPhoneIsEnrolled() async throws {
        var configuration = Self.patientAboutRecentSignIns
        configuration.checksRecaptcha = false
        let standIn = try StandIn(configuration: configuration)
        standIn.start()
        defer { standIn.stop() }
        let auth = auth(standIn, email: "sms@example.com", directory: try temporaryDirectory())
        let uid = standIn.createPasswordUser(email: "sms@example.com", password: "correct horse")
        standIn.verifyEmail(uid: uid)
        let user = try await auth.signIn(withEmail: "sms@example.com", password: "correct horse").user

        let verificationID = try await user.multiFactor.sendEnrollmentSMS(to: "+15555550100")
        let sms = try #require(standIn.latestCode(sentTo: "+15555550100"))
        try await user.multiFactor.enroll(phoneVerificationID: verificationID, verificationCode: sms, displayName: "work phone")
        #expect(standIn.secondFactors(uid: uid).map(\.factorId) == ["phone"] && user.multiFactor.enrolledFactors.first?.displayName == "work phone")
    }

    /// docs/library.md: credentials for reauthentication and linking, and the saved projects.
    @Test func credentialsAndSavedProjects() async throws {
        let standIn = try StandIn(configuration: Self.patientAboutRecentSignIns)
        standIn.start()
        defer { standIn.stop() }
        let directory = try temporaryDirectory()
        let auth = auth(standIn, email: "pat@example.com", directory: directory)
        _ = standIn.createPasswordUser(email: "pat@example.com", password: "battery staple")
        let pat = try await auth.signIn(withEmail: "pat@example.com", password: "battery staple").user
        let guest = try await auth.signInAnonymously().user

        let withPassword = EmailPassword.credential(withEmail: "pat@example.com", password: "battery staple")
        #expect(try await pat.reauthenticate(with: withPassword).user.uid == pat.uid)
        await #expect(throws: FBAuthError.self) { _ = try await guest.reauthenticate(with: withPassword) }
        let guestKeeps = try await guest.link(with: EmailPassword.credential(withEmail: "g2@example.com", password: "a long one"))
        #expect(guestKeeps.user.uid == guest.uid && guestKeeps.user.email == "g2@example.com" && !guestKeeps.user.isAnonymous)

        let saved = try SavedProjects.read(configDirectory: directory, environment: [:])
        #expect(saved.all.map(\.apiKey) == ["library-key"] && saved.remembered(onEmulator: nil)?.emulatorHost == standIn.hostAndPort)
        #expect(Set(saved.userNames).isSuperset(of: ["pat@example.com", "g2@example.com", pat.uid]))
    }

    @Test func emailLinksAndMailedCodes() async throws {
        let standIn = try StandIn(configuration: Self.patientAboutRecentSignIns)
        standIn.start()
        defer { standIn.stop() }
        let auth = auth(standIn, email: "lin@example.com", directory: try temporaryDirectory())

        try await auth.sendSignInLink(toEmail: "lin@example.com", actionCodeSettings: ActionLinkSettings(url: "http://localhost/finish"))
        let link = try #require(standIn.latestOobLink(sentTo: "lin@example.com", requestType: "EMAIL_SIGNIN"))
        #expect(auth.isSignIn(withEmailLink: link) && !auth.isSignIn(withEmailLink: "https://example.com/?x=1"))
        let user = try await auth.signIn(withEmail: "lin@example.com", link: link).user
        #expect(user.email == "lin@example.com" && auth.currentUser?.uid == user.uid)

        let unverified = try await auth.createUser(withEmail: "new@example.com", password: "correct horse").user
        #expect(standIn.users.first { $0.uid == unverified.uid }?.emailVerified == false)
        try await unverified.sendEmailVerification()
        let verify = try #require(standIn.latestOobLink(sentTo: "new@example.com", requestType: "VERIFY_EMAIL"))
        let code = try #require(URLComponents(string: verify)?.queryItems?.first { $0.name == "oobCode" }?.value)
        let info = try await auth.checkActionCode(code)
        #expect(info.requestType == "VERIFY_EMAIL" && info.email == "new@example.com")
        try await auth.applyActionCode(code)
        #expect(standIn.users.first { $0.uid == unverified.uid }?.emailVerified == true)
    }

    @Test func anonymousCustomTokenAndProviderTokenSignIns() async throws {
        let standIn = try StandIn(configuration: Self.patientAboutRecentSignIns)
        standIn.start()
        defer { standIn.stop() }
        let auth = auth(standIn, email: "g@example.com", directory: try temporaryDirectory())

        let guest = try await auth.signInAnonymously().user
        #expect(guest.isAnonymous)
        try await guest.delete()
        #expect(auth.currentUser == nil && !standIn.users.contains { $0.uid == guest.uid })

        let service = try await auth.signIn(withCustomToken: standIn.customToken(uid: "service-1")).user
        standIn.setCustomClaims(uid: "service-1", ["admin": true])
        let claims = try await service.getIDTokenResult(forcingRefresh: true)
        #expect(claims.signInProvider == "custom" && claims.claims["admin"] == "true" && claims.expirationDate > claims.issuedAtDate, "\(claims)")

        let googleIDToken = standIn.mintProviderCredential(providerId: "google.com", email: "g@example.com").idToken
        let google = try await auth.signIn(with: BrowserProvider.credential(providerID: "google.com", idToken: googleIDToken)).user
        #expect(google.email == "g@example.com" && google.providerData.map(\.providerID) == ["google.com"])
        let github = try await google.link(with: BrowserProvider(providerID: "github.com"))
        #expect(Set(github.user.providerData.map(\.providerID)) == ["github.com", "google.com"])
        let withoutGitHub = try await github.user.unlink(fromProvider: "github.com")
        #expect(withoutGitHub.providerData.map(\.providerID) == ["google.com"])
        await #expect(throws: FBAuthError.self) {
            try await auth.signIn(with: BrowserProvider.credential(providerID: "yahoo.com", accessToken: "elsewhere"))
        }
    }

    /// Issue 28: the library's link and reauthentication go through the one renewal step the
    /// commands use: a link keeps the time of the last sign-in, a reauthentication moves it.
    @Test func linkKeepsTheLastSignInTimeAndReauthenticationMovesIt() async throws {
        let standIn = try StandIn(configuration: Self.patientAboutRecentSignIns)
        standIn.start()
        defer { standIn.stop() }
        let clock = ShiftedClock()
        let directory = try temporaryDirectory()
        var settings = AuthServiceSettings(apiKey: "library-key", emulatorHost: standIn.hostAndPort, configDirectory: directory)
        settings.redirect = .loopback
        settings.timeout = .seconds(30)
        let auth = AuthService(settings: settings, browser: HeadlessLauncher(email: "ada@example.com"),
                        host: AuthHost(clock: clock, interrupts: NoInterrupts(), secrets: SystemSecretTokens(), environment: [:]))
        func lastSignIn() throws -> Date? { auth.currentUser?.metadata.lastSignInDate }
        let signedIn = try await auth.signIn(with: BrowserProvider(providerID: "microsoft.com"))
        let first = try #require(try lastSignIn())
        clock.advance(by: 3600)
        _ = try await signedIn.user.link(with: BrowserProvider(providerID: "yahoo.com"))
        #expect(try lastSignIn() == first, "linking is not a sign-in")
        clock.advance(by: 3600)
        _ = try await signedIn.user.reauthenticate(with: BrowserProvider(providerID: "yahoo.com"))
        let after = try #require(try lastSignIn())
        #expect(after.timeIntervalSince(first) > 7000, "a reauthentication is")
    }

    private func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "fbauth-library-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func theReadmeExample() async throws {
        let standIn = try StandIn(configuration: Self.patientAboutRecentSignIns)
        standIn.start()
        defer { standIn.stop() }
        let observer = RecordingObserver()
        let auth = auth(standIn, email: "ada@example.com", observer: observer, directory: try temporaryDirectory())

        // The README's example, as written there.
        var provider = BrowserProvider(providerID: "microsoft.com")
        provider.scopes = ["mail.read"]
        provider.customParameters = ["tenant": "contoso.onmicrosoft.com"]
        let result = try await auth.signIn(with: provider)
        let token = try await result.user.idToken()

        #expect(token.split(separator: ".").count == 3)
        #expect(result.user.email == "ada@example.com")
        #expect(result.additionalUserInfo?.providerID == "microsoft.com")
        #expect(result.additionalUserInfo?.isNewUser == true)
        #expect(result.credential?.accessToken?.isEmpty == false)
        #expect(auth.currentUser?.uid == result.user.uid)
        let authorize = standIn.requests(to: "accounts:createAuthUri").last?.body ?? ""
        #expect(authorize.contains("contoso.onmicrosoft.com") && authorize.contains("mail.read"), "\(authorize)")
        // The flow told its observer where to sign in; it printed nothing itself.
        #expect(observer.events.contains { if case .notice(let text) = $0 { text.contains("microsoft.com") } else { false } })

        let linked = try await result.user.link(with: BrowserProvider(providerID: "yahoo.com"))
        #expect(linked.user.uid == result.user.uid)
        #expect(Set(linked.user.providerData.map(\.providerID)) == ["microsoft.com", "yahoo.com"])
        #expect(try await linked.user.idToken(forcingRefresh: true) != token)

        try auth.signOut()
        #expect(auth.currentUser == nil)
        await #expect(throws: FBAuthError.self) { try await linked.user.idToken() }
    }

    /// As with the SDK: catch `accountExistsWithDifferentCredential`, sign in to the account
    /// that has the email, and link the error's credential to it.
    @Test func anAccountExistsErrorCarriesACredentialToLink() async throws {
        let standIn = try StandIn(configuration: Self.patientAboutRecentSignIns)
        standIn.start()
        defer { standIn.stop() }
        let auth = auth(standIn, email: "owner@example.com", directory: try temporaryDirectory())
        let owner = try await auth.signIn(with: BrowserProvider(providerID: "github.com")).user

        // The fake Microsoft does not verify emails, so Firebase asks for confirmation.
        var conflict: AccountExistsConflict?
        do {
            _ = try await auth.signIn(with: BrowserProvider(providerID: "microsoft.com"))
            Issue.record("the sign-in succeeded")
        } catch {  // as the README writes it
            guard case .accountExists(let reported) = error else { throw error }
            conflict = reported
        }
        let reported = try #require(conflict)
        #expect(reported.email == "owner@example.com")
        #expect(reported.existingProviders == ["github.com"])
        #expect(reported.updatedCredential.providerID == "microsoft.com")
        #expect(auth.currentUser?.uid == owner.uid, "the failed sign-in left the session alone")

        let linked = try await owner.link(with: reported.updatedCredential)
        #expect(linked.user.uid == owner.uid)
        #expect(Set(linked.user.providerData.map(\.providerID)) == ["github.com", "microsoft.com"])
        #expect(standIn.users.first { $0.uid == owner.uid }?.providerIds.sorted() == ["github.com", "microsoft.com"])
    }

    @Test func reauthenticatingAsAnotherUserIsAUserMismatch() async throws {
        let standIn = try StandIn(configuration: Self.patientAboutRecentSignIns)
        standIn.start()
        defer { standIn.stop() }
        let directory = try temporaryDirectory()
        let ada = try await auth(standIn, email: "ada@example.com", directory: directory).signIn(with: BrowserProvider(providerID: "yahoo.com"))
        let grace = auth(standIn, email: "grace@example.com", directory: directory)
        do {
            _ = try await grace.currentUser!.reauthenticate(with: BrowserProvider(providerID: "yahoo.com"))
            Issue.record("reauthenticated as another user")
        } catch {
            #expect(error.code == .userMismatch, "\(error)")
        }
        #expect(grace.currentUser?.uid == ada.user.uid)
    }

    @Test func aMalformedProviderIsRefusedBeforeAnyBrowserOpens() async throws {
        let standIn = try StandIn(configuration: Self.patientAboutRecentSignIns)
        standIn.start()
        defer { standIn.stop() }
        var provider = BrowserProvider(providerID: "yahoo.com")
        provider.customParameters = ["redirect_uri": "https://evil.example"]
        let auth = auth(standIn, email: "ada@example.com", directory: try temporaryDirectory())
        for refused in [BrowserProvider(providerID: "yahoo"), provider] {
            do {
                _ = try await auth.signIn(with: refused)
                Issue.record("accepted \(refused)")
            } catch {
                #expect(error.code == .invalidArgument, "\(error)")
            }
        }
        #expect(standIn.requests(to: "accounts:createAuthUri").isEmpty)
    }
}
