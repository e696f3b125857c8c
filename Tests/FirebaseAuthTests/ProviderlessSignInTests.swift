import FBAuthStandIn
import FirebaseAuth
import Foundation
import Testing

/// Issue 58: an anonymous or custom-token sign-in gives `additionalUserInfo` as the SDK's does
/// (firebase-ios-sdk `Auth.swift`): an empty `providerID`, and whether the user is new.
@Suite struct ProviderlessSignInTests {
    @Test func anonymousAndCustomTokenSignInsSayWhetherTheUserIsNew() async throws {
        let app = try StandInApp()
        let anonymous = try await app.auth.signInAnonymously()
        #expect(anonymous.additionalUserInfo?.providerID == "" && anonymous.additionalUserInfo?.isNewUser == true && anonymous.additionalUserInfo?.profile == nil)
        try app.auth.signOut()
        let token = app.standIn.customToken(uid: "custom-\(UUID().uuidString.prefix(8))")
        let first = try await app.auth.signIn(withCustomToken: token)
        #expect(first.additionalUserInfo?.providerID == "" && first.additionalUserInfo?.isNewUser == true, "\(String(describing: first.additionalUserInfo))")
        try app.auth.signOut()
        let again = try await app.auth.signIn(withCustomToken: token)
        #expect(again.additionalUserInfo?.isNewUser == false && again.user.uid == first.user.uid)
    }
}
