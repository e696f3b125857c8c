import FBAuthStandIn
import FirebaseAuth
import FirebaseCore
import Foundation
import TestSupport
import Testing

/// Issue 48: the members the SDK's guides do not show, each used as an app uses it, on each
/// emulator where the emulator serves it.
enum MemberScenarios {
    /// `updateEmail(to:)`, the Objective-C spellings of the user's flags, the interop calls, a
    /// forced token, and an email link as a credential to link with.
    static func accountMembers(_ app: some EmulatorApp) async throws {
        let auth = app.auth
        #expect(auth.getUserID() == nil)
        let (noToken, noError) = await withCheckedContinuation { done in
            auth.getToken(forcingRefresh: false) { token, error in done.resume(returning: (token, error == nil)) }
        }
        #expect(noToken == nil && noError, "signed out: no token and no error, as the SDK's")

        let anonymous = try await auth.signInAnonymously().user
        #expect(anonymous.anonymous() && anonymous.isAnonymous && !anonymous.emailVerified())
        #expect(auth.getUserID() == anonymous.uid)
        let forced = try await anonymous.getIDToken(forcingRefresh: true)
        let (token, _) = await withCheckedContinuation { done in
            auth.getToken(forcingRefresh: false) { token, error in done.resume(returning: (token, error)) }
        }
        #expect(token == forced)

        // An email link links the address to the anonymous user (the SDK's upgrade path).
        let email = "link-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let settings = ActionCodeSettings()
        settings.url = URL(string: "http://localhost/finish")
        settings.handleCodeInApp = true
        try await auth.sendSignInLink(toEmail: email, actionCodeSettings: settings)
        let link = "http://localhost/finish?mode=signIn&oobCode=\(try app.mailedCode(to: email))&apiKey=test-api-key"
        #expect(auth.isSignIn(withEmailLink: link))
        let linked = try await anonymous.link(with: EmailAuthProvider.credential(withEmail: email, link: link))
        #expect(linked.user.uid == anonymous.uid && linked.user.email == email && !linked.user.isAnonymous)
        await PhoneScenarios.expectCode(.invalidActionCode) {
            _ = try await anonymous.reauthenticate(with: EmailAuthProvider.credential(withEmail: email, link: "https://example.com/not-a-link"))
        }

        // A password, then the address changed at once where the project allows it.
        try await linked.user.updatePassword(to: "correct horse battery")
        let newEmail = "moved-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        try await linked.user.updateEmail(to: newEmail)
        #expect(linked.user.email == newEmail && auth.currentUser?.email == newEmail)
        try auth.signOut()
        let again = try await auth.signIn(withEmail: newEmail, password: "correct horse battery")
        #expect(again.user.uid == anonymous.uid)
    }

    /// Apple's name reaches Firebase with the ID token, and the provider factories and the
    /// String spellings of `OAuthProvider.credential` make the same credentials.
    /// `namedByApple`: whether the emulator takes the name the app sends (Google's keeps the
    /// token's claims only).
    static func providerSpellings(_ app: some EmulatorApp, appleIDToken: String, rawNonce: String, namedByApple: Bool) async throws {
        var name = PersonNameComponents()
        name.givenName = "Ada"
        name.familyName = "Lovelace"
        let apple = OAuthProvider.appleCredential(withIDToken: appleIDToken, rawNonce: rawNonce, fullName: name)
        #expect(apple.provider == "apple.com" && apple.idToken == appleIDToken)
        let signedIn = try await app.auth.signIn(with: apple)
        #expect(signedIn.user.providerData.map(\.providerID) == ["apple.com"])
        if namedByApple { #expect(signedIn.user.displayName == "Ada Lovelace", "\(signedIn.user.displayName ?? "nil")") }

        #expect(AuthProviderID.custom("oidc.corp").rawValue == "oidc.corp" && AuthProviderID.gameCenter.rawValue == "gc.apple.com")
        let spelled = OAuthProvider.credential(withProviderID: "apple.com", idToken: appleIDToken, rawNonce: rawNonce)
        let typed = OAuthProvider.credential(providerID: .apple, idToken: appleIDToken, rawNonce: rawNonce)
        #expect(spelled.provider == typed.provider && spelled.idToken == typed.idToken)
        #expect(OAuthProvider.credential(withProviderID: "github.com", accessToken: "t").accessToken == "t")
        #expect(OAuthProvider.credential(withProviderID: "oidc.x", idToken: "i", accessToken: nil).idToken == "i")
        #expect(OAuthProvider.credential(withProviderID: "oidc.x", idToken: "i", rawNonce: "n", accessToken: "a").accessToken == "a")
        #expect(OAuthProvider.credential(providerID: .gitHub, accessToken: "t").provider == "github.com")
        #expect(OAuthProvider.provider(providerID: "yahoo.com", auth: app.auth).providerID == "yahoo.com")
        #expect(OAuthProvider.provider(providerID: AuthProviderID.custom("microsoft.com"), auth: app.auth).providerID == "microsoft.com")
    }
}

@Suite(.serialized) struct MembersOnTheStandInTests {
    static var allowingEmailChanges: StandInConfiguration {
        var configuration = StandInConfiguration()
        configuration.emailEnumerationProtection = false  // updateEmail(to:) is refused under it
        configuration.recentSignIn = 86_400
        return configuration
    }

    @Test func accountMembers() async throws {
        try await MemberScenarios.accountMembers(try StandInApp(configuration: Self.allowingEmailChanges))
    }

    /// Projects with email enumeration protection (the default since 2023) refuse the direct
    /// change, as the SDK's deprecation note says.
    @Test func updateEmailIsRefusedUnderEnumerationProtection() async throws {
        let setup = try StandInApp()
        let user = try await setup.auth.createUser(withEmail: "pat@example.com", password: "correct horse battery").user
        await PhoneScenarios.expectCode(.operationNotAllowed) { try await user.updateEmail(to: "new@example.com") }
        #expect(user.email == "pat@example.com")
    }

    @Test func providerSpellings() async throws {
        let setup = try StandInApp()
        let minted = setup.standIn.mintProviderCredential(providerId: "apple.com", email: "ada@privaterelay.example", nonce: "raw-nonce-1")
        try await MemberScenarios.providerSpellings(setup, appleIDToken: minted.idToken, rawNonce: "raw-nonce-1", namedByApple: true)
        let sent = try #require(setup.standIn.requests(to: "accounts:signInWithIdp").last?.body)
        #expect(sent.contains("user=") && sent.contains("firstName"), "Apple's name is sent as the SDK sends it: \(sent)")
    }

    /// `signIn(with:uiDelegate:)`, `link(with:uiDelegate:)` and `reauthenticate(with:uiDelegate:)`
    /// run the provider's sign-in in the browser; the delegate, for UIKit, is not needed.
    @Test func federatedProvidersSignInLinkAndReauthenticateInTheBrowser() async throws {
        let setup = try StandInApp(email: "ada@example.com")
        let yahoo = OAuthProvider(providerID: "yahoo.com", auth: setup.auth)
        let signedIn = try await setup.auth.signIn(with: yahoo, uiDelegate: nil)
        #expect(signedIn.user.email == "ada@example.com" && signedIn.credential?.provider == "yahoo.com")
        let microsoft = OAuthProvider.provider(providerID: AuthProviderID(rawValue: "microsoft.com"), auth: setup.auth)
        let linked = try await signedIn.user.link(with: microsoft, uiDelegate: nil)
        #expect(Set(linked.user.providerData.map(\.providerID)) == ["yahoo.com", "microsoft.com"])
        let reauthenticated = try await linked.user.reauthenticate(with: yahoo, uiDelegate: nil)
        #expect(reauthenticated.user.uid == signedIn.user.uid)

        let (_, failure) = await withCheckedContinuation { done in
            setup.auth.signIn(with: NotAnOAuthProvider(), uiDelegate: nil) { result, error in done.resume(returning: (result, error)) }
        }
        #expect(failure is AuthErrorCode, "a provider that is not OAuthProvider's is refused, not a crash")
    }

    /// `revokeToken(withAuthorizationCode:)` sends Apple's code as the iOS SDK does (token type
    /// "3", no redirect URI) for the signed-in user.
    @Test func anAppleAuthorizationCodeIsRevoked() async throws {
        let setup = try StandInApp()
        let minted = setup.standIn.mintProviderCredential(providerId: "apple.com", email: "ada@privaterelay.example", nonce: "n-2")
        _ = try await setup.auth.signIn(with: OAuthProvider.credential(providerID: .apple, idToken: minted.idToken, rawNonce: "n-2"))
        try await setup.auth.revokeToken(withAuthorizationCode: "apple-authorization-code")
        let body = try #require(setup.standIn.requests(to: "accounts:revokeToken").last?.body)
        let sent = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        #expect(sent["tokenType"] as? String == "3" && sent["providerId"] as? String == "apple.com" && sent["token"] as? String == "apple-authorization-code")
        #expect(sent["redirectUri"] == nil && sent["idToken"] as? String != nil, "\(sent)")

        try setup.auth.signOut()
        _ = try await setup.auth.signInAnonymously()
        await PhoneScenarios.expectCode(.invalidCredential) { try await setup.auth.revokeToken(withAuthorizationCode: "apple-authorization-code") }
    }

    /// `ActionCodeSettings`' apps and link domain reach Firebase with each mail that takes them.
    @Test func actionCodeSettingsNameTheAppsAndTheLinkDomain() async throws {
        let setup = try StandInApp()
        let user = try await setup.auth.createUser(withEmail: "pat@example.com", password: "correct horse battery").user
        let settings = ActionCodeSettings()
        settings.url = URL(string: "https://\(setup.projectId).firebaseapp.com/after")
        settings.setIOSBundleID("com.example.ios")
        settings.setAndroidPackageName("com.example.android", installIfNotAvailable: true, minimumVersion: "12")
        settings.linkDomain = "links.example.com"
        try await user.sendEmailVerification(beforeUpdatingEmail: "new@example.com", actionCodeSettings: settings)
        let body = try #require(setup.standIn.requests(to: "accounts:sendOobCode").last?.body)
        let sent = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        #expect(sent["requestType"] as? String == "VERIFY_AND_CHANGE_EMAIL" && sent["newEmail"] as? String == "new@example.com")
        #expect(sent["continueUrl"] as? String == "https://\(setup.projectId).firebaseapp.com/after" && sent["iOSBundleId"] as? String == "com.example.ios")
        #expect(sent["androidPackageName"] as? String == "com.example.android" && sent["androidInstallApp"] as? Bool == true)
        #expect(sent["androidMinimumVersion"] as? String == "12" && sent["linkDomain"] as? String == "links.example.com", "\(sent)")
    }

    /// The SDK's `AuthSettings`: held by `Auth`, changed in place, copied when set.
    @Test func settingsAreHeldChangedInPlaceAndCopiedWhenSet() throws {
        let setup = try StandInApp()
        let settings = try #require(setup.auth.settings)
        // StandInApp called useEmulator, which turns it on (as the SDK's does on iOS).
        #expect(settings.isAppVerificationDisabledForTesting && settings.appVerificationDisabledForTesting)
        settings.isAppVerificationDisabledForTesting = false
        #expect(setup.auth.settings?.appVerificationDisabledForTesting == false)
        settings.isAppVerificationDisabledForTesting = true
        #expect(setup.auth.settings?.appVerificationDisabledForTesting == true)
        let copy = try #require(settings.copy() as? AuthSettings)
        #expect(copy !== settings && copy.isAppVerificationDisabledForTesting)
        setup.auth.settings = copy
        copy.isAppVerificationDisabledForTesting = false
        #expect(setup.auth.settings?.isAppVerificationDisabledForTesting == true, "the Auth holds a copy of what was set")
        setup.auth.settings = nil
        #expect(setup.auth.settings == nil)
    }

    /// The sequences are the SDK's named types, read with `for await`.
    @Test func theSequencesAreTheSDKsTypes() async throws {
        let setup = try StandInApp()
        let states: Auth.AuthStateChangesSequence = setup.auth.authStateChanges
        let tokens: Auth.IDTokenChangesSequence = Auth.IDTokenChangesSequence(setup.auth)
        var seen: [String?] = []
        let user = try await setup.auth.signInAnonymously().user
        for await state in states {
            seen.append(state?.uid)
            if seen.count == 1 { break }
        }
        var tokenIterator = tokens.makeAsyncIterator()
        let first = await tokenIterator.next()
        #expect(seen == [user.uid] && first??.uid == user.uid)
    }
}

/// A provider of the app's own, not one whose sign-in runs in the browser.
final class NotAnOAuthProvider: NSObject, FederatedAuthProvider, @unchecked Sendable {
    func credential(with uiDelegate: AuthUIDelegate?) async throws -> AuthCredential {
        EmailAuthProvider.credential(withEmail: "x@example.com", password: "unused password")
    }
}

@Suite(.enabled(if: GoogleEmulatorApp.host != nil, GoogleEmulatorApp.skipReason))
struct MembersOnGoogleEmulatorTests {
    @Test func accountMembers() async throws {
        try await MemberScenarios.accountMembers(try GoogleEmulatorApp())
    }

    /// Google's emulator takes an ID token's claims as strict JSON, Apple's too.
    @Test func providerSpellings() async throws {
        let sub = "apple-\(UUID().uuidString.prefix(8).lowercased())"
        let claims = #"{"sub":"\#(sub)","email":"\#(sub)@privaterelay.example","email_verified":true}"#
        try await MemberScenarios.providerSpellings(try GoogleEmulatorApp(), appleIDToken: claims, rawNonce: "raw-nonce-1", namedByApple: false)
    }

    /// Google's emulator runs no provider's page (`createAuthUri` answers 501): the sign-in,
    /// link and reauthentication are its fake ones, for the account `login_hint` names, and no
    /// browser is opened.
    @Test func federatedProvidersSignInLinkAndReauthenticateAsTheHintedAccount() async throws {
        let opened = CollectedLines()
        let app = try GoogleEmulatorApp(openBrowser: { opened.add($0.absoluteString); return true })
        let email = "hinted-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let yahoo = OAuthProvider(providerID: "yahoo.com", auth: app.auth)
        yahoo.customParameters = ["login_hint": email]
        let signedIn = try await app.auth.signIn(with: yahoo, uiDelegate: nil)
        #expect(signedIn.user.email == email && signedIn.user.providerData.map(\.providerID) == ["yahoo.com"])
        let microsoft = OAuthProvider(providerID: "microsoft.com", auth: app.auth)
        microsoft.customParameters = ["login_hint": email]
        let linked = try await signedIn.user.link(with: microsoft, uiDelegate: nil)
        #expect(Set(linked.user.providerData.map(\.providerID)) == ["yahoo.com", "microsoft.com"])
        let reauthenticated = try await linked.user.reauthenticate(with: yahoo, uiDelegate: nil)
        #expect(reauthenticated.user.uid == signedIn.user.uid)
        #expect(opened.all.isEmpty, "\(opened.all)")
    }

    /// Google's emulator does not implement `accounts:revokeToken`: the app gets an error, in
    /// the SDK's domain, rather than a silent success.
    @Test func revokeTokenIsRefusedByAnEmulatorThatHasNoneOfIt() async throws {
        let app = try GoogleEmulatorApp()
        _ = try await app.auth.signInAnonymously()
        do {
            try await app.auth.revokeToken(withAuthorizationCode: "apple-authorization-code")
            Issue.record("revoked on an emulator that does not implement it")
        } catch {
            #expect((error as NSError).domain == AuthErrorDomain, "\(error)")
        }
    }
}

/// The completion-handler twins and the calls the other tests reach only in `async` form: each
/// hands its outcome to the main queue, as the SDK's.
@Suite(.serialized) struct CompletionHandlerTests {
    /// Marks the main queue: under `swift test` on Linux the main queue is served by a pool
    /// thread (`dispatchMain`), so the thread does not say which queue a block runs on.
    static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static func onMain<T: Sendable>(_ start: (@escaping @Sendable (T) -> Void) -> Void) async -> (T, Bool) {
        let key = mainQueueKey
        return await withCheckedContinuation { done in start { value in done.resume(returning: (value, DispatchQueue.getSpecific(key: key) == true)) } }
    }

    @Test func eachCompletionComesOnTheMainQueue() async throws {
        var configuration = StandInConfiguration()
        configuration.emailEnumerationProtection = false  // fetchSignInMethods answers
        configuration.recentSignIn = 86_400
        let setup = try StandInApp(configuration: configuration)
        let auth = setup.auth
        let user = try await auth.createUser(withEmail: "pat@example.com", password: "correct horse battery").user

        let (methods, methodsOnMain) = await Self.onMain { done in auth.fetchSignInMethods(forEmail: "pat@example.com") { methods, _ in done(methods) } }
        #expect(methods == ["password"] && methodsOnMain)
        #expect(try await auth.fetchSignInMethods(forEmail: "pat@example.com") == ["password"])

        let (token, tokenOnMain) = await Self.onMain { done in user.getIDTokenForcingRefresh(true) { token, _ in done(token) } }
        #expect(token?.isEmpty == false && tokenOnMain)
        let result = try await user.getIDTokenResult()
        #expect(result.issuedAtDate <= result.expirationDate && result.authDate <= result.issuedAtDate.addingTimeInterval(1))

        let (session, sessionOnMain) = await Self.onMain { done in user.multiFactor.getSessionWithCompletion { session, _ in done(session != nil) } }
        #expect(session && sessionOnMain)

        // A custom token, both ways; then a provider linked and unlinked, both ways.
        let custom = setup.standIn.customToken(uid: "custom-\(UUID().uuidString.prefix(6))")
        let (customUser, customOnMain) = await Self.onMain { done in auth.signIn(withCustomToken: custom) { result, _ in done(result?.user.uid) } }
        #expect(customUser?.hasPrefix("custom-") == true && customOnMain)
        #expect(try await auth.signIn(withCustomToken: custom).user.uid == customUser)

        let signedIn = try await auth.signIn(withEmail: "pat@example.com", password: "correct horse battery").user
        let google = setup.standIn.mintProviderCredential(providerId: "google.com", email: "pat@example.com")
        _ = try await signedIn.link(with: GoogleAuthProvider.credential(withIDToken: google.idToken, accessToken: google.accessToken))
        let (unlinked, unlinkOnMain) = await Self.onMain { done in signedIn.unlink(fromProvider: "google.com") { user, _ in done(user?.providerData.map(\.providerID)) } }
        #expect(unlinked == ["password"] && unlinkOnMain)
        await PhoneScenarios.expectCode(.noSuchProvider) { _ = try await signedIn.unlink(fromProvider: "google.com") }

        // Factors removed by uid, both ways; a uid that is none refused.
        let (missing, missingOnMain) = await Self.onMain { done in signedIn.multiFactor.unenroll(withFactorUID: "no-such-factor") { error in done((error as? AuthErrorCode)?.code) } }
        #expect(missing != nil && missingOnMain, "\(String(describing: missing))")
        await PhoneScenarios.expectCode(missing ?? .internalError) { try await signedIn.multiFactor.unenroll(withFactorUID: "no-such-factor") }
    }

    /// The `userInfo` keys are the SDK's strings (AuthErrors.swift), so code that reads them
    /// by string or by constant reads the same.
    @Test func theUserInfoKeysAreTheSDKs() {
        #expect(AuthErrors.domain == "FIRAuthErrorDomain" && AuthErrors.userInfoNameKey == "FIRAuthErrorUserInfoNameKey")
        #expect(AuthErrors.userInfoEmailKey == "FIRAuthErrorUserInfoEmailKey" && AuthErrors.userInfoUpdatedCredentialKey == "FIRAuthErrorUserInfoUpdatedCredentialKey")
        #expect(AuthErrors.userInfoMultiFactorResolverKey == "FIRAuthErrorUserInfoMultiFactorResolverKey")
    }
}
