@testable import FBAuth
@testable import FBAuthCLI
import Foundation
import Testing
@testable import FBAuthSupport

/// Timeouts, hints and retries on a test clock: nothing here sleeps.
@Suite struct TimeTests {
    /// A wait whose listener never delivers: each round moves the clock to the wake-up time.
    private func wait(console: RecordingConsole, clock: TestClock, launched: LaunchedBrowser? = nil,
                      rounds: Counter = Counter()) -> BrowserWait<String> {
        var wait = BrowserWait<String>(
            observer: ConsoleSignInObserver(console: console, style: TerminalStyle(console: console, environment: [:])),
            interrupts: NoInterrupts(), hintAfter: .seconds(30), launched: launched, showsStatusLine: false,
            address: "http://localhost:8977/start?n=N", instructions: { url, _ in "instructions\(url.map { " " + $0 } ?? "")" },
            serve: { (deadline, _) throws(FBAuthError) -> ListenerEvent<String> in
                rounds.increment()
                clock.advance(to: deadline)
                return .deadlineReached
            },
            paste: nil)
        wait.clock = clock
        return wait
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func increment() { lock.withLock { value += 1 } }
        var count: Int { lock.withLock { value } }
    }

    @Test func theHintComesOnceAfterThirtySecondsAndTheTimeoutEndsTheWait() {
        let console = RecordingConsole()
        let clock = TestClock()
        let rounds = Counter()
        let started = ContinuousClock.now
        #expect {
            try wait(console: console, clock: clock, rounds: rounds).wait(timeout: .seconds(300))
        } throws: { error in
            (error as? FBAuthError)?.exitCode == .flowIncomplete && (error as? FBAuthError)?.message.contains("within 300 s") == true
        }
        #expect(clock.elapsed == .seconds(300))
        #expect(console.stderr.components(separatedBy: "Still waiting for the browser").count == 2, "once")
        #expect(console.stderr.contains("http://localhost:8977/start?n=N"))
        #expect(rounds.count == 2, "woken for the hint, then for the deadline")
        #expect(ContinuousClock.now - started < .seconds(1), "no real waiting")
    }

    struct FailedLauncher: LaunchedBrowser {
        func failure() -> String? { "xdg-open exited with status 3" }
    }

    @Test func aFailedLauncherIsReportedWithTheAddress() {
        let console = RecordingConsole()
        let clock = TestClock()
        #expect(throws: FBAuthError.self) {
            try wait(console: console, clock: clock, launched: FailedLauncher()).wait(timeout: .seconds(1))
        }
        #expect(console.stderr.contains("fbauth: the browser could not be opened (xdg-open exited with status 3)."))
        #expect(console.stderr.contains("instructions http://localhost:8977/start?n=N"))
        #expect(clock.elapsed == .seconds(1))
    }

    @Test func aTransientFailureIsRetriedOnceAfterAPause() throws {
        let transport = ScriptedTransport([
            ScriptedTransport.json(503, #"{"error":{"code":503,"message":"UNAVAILABLE"}}"#),
            ScriptedTransport.json(200, #"{"users":[{"localId":"u1","email":"a@example.com"}]}"#),
        ])
        let sleeper = RecordingSleeper()
        let client = FirebaseAuthClient(endpoints: .production, apiKey: "k", transport: transport, sleeper: sleeper)
        #expect(try client.lookup(idToken: "t").localId == "u1")
        #expect(transport.count == 2)
        #expect(sleeper.pauses == [.milliseconds(500)])
    }

    @Test(arguments: [501, 400]) func otherFailuresAreNotRetried(status: Int) {
        let transport = ScriptedTransport([ScriptedTransport.json(status, #"{"error":{"code":\#(status),"message":"NOT_IMPLEMENTED"}}"#)])
        let sleeper = RecordingSleeper()
        let client = FirebaseAuthClient(endpoints: .production, apiKey: "k", transport: transport, sleeper: sleeper)
        #expect(throws: FBAuthError.self) { try client.lookup(idToken: "t") }
        #expect(transport.count == 1 && sleeper.pauses.isEmpty)
    }

    @Test func theCodeExchangeIsNeverRetried() {
        let transport = ScriptedTransport([ScriptedTransport.json(503, #"{"error":{"code":503,"message":"UNAVAILABLE"}}"#)])
        let sleeper = RecordingSleeper()
        let client = FirebaseAuthClient(endpoints: .production, apiKey: "k", transport: transport, sleeper: sleeper)
        #expect(throws: FBAuthError.self) {
            try client.signInWithIdp(SignInWithIdpRequest(requestUri: "https://p.firebaseapp.com/__/auth/handler?code=c&state=s", sessionId: "s"))
        }
        #expect(transport.count == 1 && sleeper.pauses.isEmpty)
    }
}
