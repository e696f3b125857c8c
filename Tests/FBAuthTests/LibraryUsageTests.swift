import FBAuth
import FBAuthStandIn
import FBAuthURLSession
import Foundation
import Testing

/// The README's library example, as a Swift program would write it (public API only), against
/// the stand-in and with the headless browser playing the user.
@Suite struct LibraryUsageTests {
    struct HeadlessLauncher: BrowserLauncher {
        func open(_ url: String) throws(BrowserLaunchError) -> LaunchedBrowser? {
            Thread.detachNewThread { _ = try? HeadlessBrowser(email: "library@example.com").visit(url) }
            return nil
        }
    }

    @Test func theFlowRunsInAnotherProgram() throws {
        let standIn = try StandIn()
        standIn.start()
        let client = FirebaseAuthClient(endpoints: .emulator(standIn.hostAndPort), apiKey: "library-key", transport: URLSessionTransport())
        let flow = BrowserSignInFlow(client: client, browser: HeadlessLauncher(), observer: SilentObserver(), clock: SystemClock(), tenantId: nil)
        guard case .signedIn(let record) = try flow.run(FlowOptions(providerId: "yahoo.com", port: 0, redirect: .loopback), purpose: .signIn) else {
            Issue.record("not signed in")
            return
        }
        #expect(record.account.email == "library@example.com")
        #expect(record.tokens.idToken.split(separator: ".").count == 3)
        #expect(try client.lookup(idToken: record.tokens.idToken).localId == record.account.localId)
        standIn.stop()
    }
}
