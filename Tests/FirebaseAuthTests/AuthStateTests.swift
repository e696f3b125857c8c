import FBAuthStandIn
import FirebaseAuth
import Foundation
import Testing

/// Issue 48: `Auth`'s own state as the SDK's: the change sequences, the current user among the
/// saved ones, and the language sent with every request.
@Suite(.serialized) struct AuthStateTests {
    @Test func theChangeSequencesTellSignInsSignOutsAndRefreshes() async throws {
        let setup = try StandInApp()
        var states = setup.auth.authStateChanges.makeAsyncIterator()
        var tokens = setup.auth.idTokenChanges.makeAsyncIterator()
        let firstState = await states.next(), firstToken = await tokens.next()
        #expect(firstState == .some(nil) && firstToken == .some(nil), "nobody, at first")
        let user = try await setup.auth.signInAnonymously().user
        let signedInState = await states.next(), signedInToken = await tokens.next()
        #expect(signedInState??.uid == user.uid && signedInToken??.uid == user.uid)
        _ = try await user.idTokenForcingRefresh(true)
        let refreshed = await tokens.next()
        #expect(refreshed??.uid == user.uid, "a refresh is an ID token's change")
        try setup.auth.signOut()
        let signedOut = await states.next()
        #expect(signedOut == .some(nil), "the refresh was no change of state; the sign-out is")
    }

    @Test func anEarlierUserCanBeMadeCurrentAgain() async throws {
        let setup = try StandInApp()
        let ada = try await setup.auth.createUser(withEmail: "ada@example.com", password: "correct horse battery").user
        let bob = try await setup.auth.createUser(withEmail: "bob@example.com", password: "correct horse battery").user
        #expect(setup.auth.currentUser?.uid == bob.uid)
        try await setup.auth.updateCurrentUser(ada)
        #expect(setup.auth.currentUser?.uid == ada.uid && setup.auth.currentUser?.email == "ada@example.com")
    }

    @Test func theLanguageIsSentWithEveryRequest() async throws {
        let setup = try StandInApp()
        setup.auth.languageCode = "fr"
        _ = try await setup.auth.signInAnonymously()
        let signUp = try #require(setup.standIn.requests(to: "accounts:signUp").last)
        #expect(signUp.headers["x-firebase-locale"] == "fr", "\(signUp.headers)")
        setup.auth.useAppLanguage()
        #expect(setup.auth.languageCode == Locale.preferredLanguages.first)
        setup.auth.customAuthDomain = "auth.example.com"
        #expect(setup.auth.customAuthDomain == "auth.example.com")
    }
}
