import FBAuthStandIn
import FirebaseAuth
import FirebaseCore
import Foundation
import Testing

/// Subclasses an app may declare, as it may of the SDK's `open` classes.
final class RecordingProvider: OAuthProvider, @unchecked Sendable {}

/// Issue 48: the shapes of the SDK that code written against it relies on (firebase-ios-sdk
/// `FirebaseAuth/Sources/Swift`): each would fail to compile, or give another value, before.
@Suite(.serialized) struct SDKShapeTests {
    @Test func theAppIsOptionalAsTheSDKsIs() throws {
        let setup = try StandInApp()
        let app: FirebaseApp? = setup.auth.app
        #expect(app === setup.app && Auth.auth(app: setup.app) === setup.auth)
    }

    @Test func aResultsCredentialIsAnOAuthCredentialAndTheUsersProviderIsFirebase() async throws {
        let setup = try StandInApp(email: "ada@example.com")
        let provider = OAuthProvider(providerID: AuthProviderID(rawValue: "yahoo.com"), auth: setup.auth)
        #expect(provider.providerID == "yahoo.com")
        let credential = try await provider.credential(with: nil)
        let result = try await setup.auth.signIn(with: credential)
        // No cast: the SDK types it `OAuthCredential?`.
        let accessToken: String? = result.credential?.accessToken
        #expect(accessToken?.isEmpty == false, "the provider's access token")
        #expect(result.credential?.provider == "yahoo.com")
        #expect(result.user.providerID == "Firebase" && result.user.email == "ada@example.com")
        #expect(result.user.providerData.map(\.providerID) == ["yahoo.com"])
        let other = try StandInApp()
        let anonymous = try await other.auth.signInAnonymously()
        #expect(anonymous.credential == nil)
    }

    @Test func listenerHandlesAreNSObjects() throws {
        let setup = try StandInApp()
        let state: NSObjectProtocol = setup.auth.addStateDidChangeListener { _, _ in }
        let token: NSObjectProtocol = setup.auth.addIDTokenDidChangeListener { _, _ in }
        #expect(state.isEqual(state) && !state.isEqual(token))
        setup.auth.removeStateDidChangeListener(state)
        setup.auth.removeIDTokenDidChangeListener(token)
        // Another object is no handle of ours: nothing happens.
        setup.auth.removeStateDidChangeListener(NSObject())
    }

    @Test func theTenantIsUsed() async throws {
        let setup = try StandInApp()
        #expect(setup.auth.tenantID == nil)
        setup.auth.tenantID = "tenant-a1"
        let tenantUser = try await setup.auth.signInAnonymously().user
        #expect(tenantUser.tenantID == "tenant-a1" && setup.auth.tenantID == "tenant-a1")
        // The server made a user of the tenant: its ID token says so.
        let claims = try await tenantUser.getIDTokenResult().claims
        #expect((claims["firebase"] as? [String: Any])?["tenant"] as? String == "tenant-a1", "\(claims)")
        setup.auth.tenantID = nil
        let projectUser = try await setup.auth.signInAnonymously().user
        #expect(projectUser.tenantID == nil && projectUser.uid != tenantUser.uid)
    }

    @Test func classesAreOpen() throws {
        let setup = try StandInApp()
        let subclass = RecordingProvider(providerID: "github.com", auth: setup.auth)
        #expect(subclass.providerID == "github.com" && (subclass as OAuthProvider) is RecordingProvider)
    }
}
