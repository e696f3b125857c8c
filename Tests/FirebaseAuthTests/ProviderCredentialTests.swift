import FBAuthStandIn
import FirebaseAuth
import Foundation
import Testing

/// Issue 48: the SDK's provider classes make credentials that sign in, each with its provider's
/// tokens as the stand-in's fake providers issue them (the emulator's way: it takes them as
/// they come).
@Suite(.serialized) struct ProviderCredentialTests {
    @Test func eachProvidersCredentialSignsIn() async throws {
        let setup = try StandInApp()
        let google = setup.standIn.mintProviderCredential(providerId: "google.com", email: "g@example.com")
        let github = setup.standIn.mintProviderCredential(providerId: "github.com", email: "gh@example.com")
        let twitter = setup.standIn.mintProviderCredential(providerId: "twitter.com", email: "x@example.com")
        let facebook = setup.standIn.mintProviderCredential(providerId: "facebook.com", email: "f@example.com")
        let credentials: [(AuthCredential, String)] = [
            (GoogleAuthProvider.credential(withIDToken: google.idToken, accessToken: google.accessToken ?? ""), GoogleAuthProviderID),
            (GitHubAuthProvider.credential(withToken: github.accessToken ?? ""), GitHubAuthProviderID),
            (TwitterAuthProvider.credential(withToken: twitter.accessToken ?? "", secret: twitter.tokenSecret ?? ""), TwitterAuthProviderID),
            (FacebookAuthProvider.credential(withAccessToken: facebook.accessToken ?? ""), FacebookAuthProviderID),
        ]
        for (credential, id) in credentials {
            #expect(credential.provider == id)
            let result = try await setup.auth.signIn(with: credential)
            #expect(result.user.providerData.map(\.providerID) == [id], "\(id)")
            #expect(result.additionalUserInfo?.providerID == id)
        }
        #expect(GoogleAuthProviderID == "google.com" && GitHubAuthProviderID == "github.com" && TwitterAuthProviderID == "twitter.com" && FacebookAuthProviderID == "facebook.com")
    }
}
