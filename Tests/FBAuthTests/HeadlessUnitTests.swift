@testable import FBAuth
@testable import FBAuthCLI
import Foundation
import LoopbackHTTP
import TestSupport
import Testing
@testable import FBAuthSupport

/// A console that records what fbauth says.
final class RecordingConsole: Console, @unchecked Sendable {
    private let lock = NSLock()
    private var output = ""
    private var errors = ""
    let inputPipe: (read: Int32, write: Int32)?
    /// What a pipe into stdin holds, when stdin is not a terminal.
    private var piped: String

    init(terminalInput: Bool = false, stdin: String = "") {
        piped = stdin
        if terminalInput {
            var fds: [Int32] = [0, 0]
            _ = pipe(&fds)
            inputPipe = (fds[0], fds[1])
        } else {
            inputPipe = nil
        }
    }

    func writeOutput(_ text: String) { lock.withLock { output += text } }
    func writeError(_ text: String) { lock.withLock { errors += text } }
    var stdout: String { lock.withLock { output } }
    var stderr: String { lock.withLock { errors } }
    var isInputTerminal: Bool { inputPipe != nil }
    var isErrorTerminal: Bool { false }
    var inputDescriptor: Int32 { inputPipe?.read ?? -1 }
    func readAllInput() -> Data { lock.withLock { defer { piped = "" }; return Data(piped.utf8) } }
    var outputFailure: String? { nil }
    func readSecret(prompt: String) throws(FBAuthError) -> String? { nil }

    func readLine() -> String? {
        guard let fd = inputPipe?.read else {
            return lock.withLock {
                guard !piped.isEmpty else { return nil }
                let line = piped.prefix { $0 != "\n" }
                piped = String(piped.dropFirst(line.count + 1))
                return String(line)
            }
        }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(fd, &byte, 1) == 1 {
            if byte == 10 { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
        return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
    }

    func type(_ line: String) {
        guard let fd = inputPipe?.write else { return }
        _ = Array((line + "\n").utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
}

/// Interrupts a test can trigger.
final class TestInterrupts: InterruptSource, InterruptWatch, @unchecked Sendable {
    let fds: [Int32]
    init() {
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        self.fds = fds
    }
    func begin() -> InterruptWatch? { self }
    var descriptor: Int32 { fds[0] }
    func end() {}
    func press() { var byte: UInt8 = 2; _ = write(fds[1], &byte, 1) }
}

@Suite struct CallbackWaiterTests {
    private func waiter(console: Console, interrupts: InterruptSource = NoInterrupts(), hintAfter: Duration) throws -> (CallbackWaiter, RedirectReceiver) {
        let receiver = try RedirectReceiver(port: 0, host: .localhost)
        let matcher = CallbackMatcher(redirectPath: RedirectReceiver.callbackPath, binding: .state("S"), port: receiver.port)
        return (CallbackWaiter(receiver: receiver, matcher: matcher, authorizationURL: "https://idp.example/authorize?state=S",
                               observer: ConsoleSignInObserver(console: console, style: TerminalStyle(console: console, environment: [:])),
                               interrupts: interrupts, hintAfter: hintAfter), receiver)
    }

    @Test func withoutATerminalTheTwoStepFlowIsTheWayOut() {
        #expect(CallbackWaiter.manualInstructions(url: nil, readsTerminal: false, words: CommandLineAdvice.words).contains("--loopback --print-url"))
        #expect(CallbackWaiter.manualInstructions(url: nil, readsTerminal: false, words: AdviceWords()).contains("a sign-in in two steps"))
        #expect(CallbackWaiter.manualInstructions(url: nil, readsTerminal: true, words: AdviceWords()).contains("paste here the address"))
    }

    /// Issue 29, item 1: a browser fbauth drives itself (the demo's) that fails ends the wait
    /// at once with its reason, instead of leaving the user waiting for nobody.
    @Test func aBuiltInBrowserThatFailsEndsTheWait() throws {
        struct Failed: LaunchedBrowser {
            func failure() -> String? { "the built-in browser failed: cannot read /x/signin.html: there is no such file" }
            var failureEndsTheWait: Bool { true }
        }
        let console = RecordingConsole()
        var (waiter, _) = try waiter(console: console, hintAfter: .seconds(30))
        waiter.launched = Failed()
        let started = ContinuousClock().now
        #expect {
            try waiter.wait(timeout: .seconds(30))
        } throws: { error in
            (error as? FBAuthError)?.message.contains("there is no such file") == true && (error as? FBAuthError)?.exitCode == .flowIncomplete
        }
        #expect(started.duration(to: ContinuousClock().now) < .seconds(5), "at once, not after the timeout")
    }

    @Test func ctrlCCancels() throws {
        let console = RecordingConsole()
        let interrupts = TestInterrupts()
        let (waiter, _) = try waiter(console: console, interrupts: interrupts, hintAfter: .seconds(30))
        interrupts.press()
        #expect {
            try waiter.wait(timeout: .seconds(10))
        } throws: { error in
            // Said once, by the error (issue 29, item 5): no "cancelled" line before it.
            (error as? FBAuthError)?.exitCode == .flowIncomplete && (error as? FBAuthError)?.message.contains("cancelled") == true
                && !console.stderr.contains("cancelled")
        }
    }

    @Test func aPastedAddressIsValidatedAndUsed() throws {
        let console = RecordingConsole(terminalInput: true)
        let (waiter, receiver) = try waiter(console: console, hintAfter: .seconds(30))
        console.type("not a url")
        console.type("")
        console.type("http://localhost:\(receiver.port)/__/auth/handler?code=C&state=S")
        let callback = try waiter.wait(timeout: .seconds(10))
        #expect(callback.requestURI == "http://localhost:\(receiver.port)/__/auth/handler?code=C&state=S")
        #expect(console.stderr.contains("That is not the redirect for this sign-in"))
        #expect(console.stderr.components(separatedBy: "That is not").count == 2, "blank lines are ignored")
    }
}

@Suite struct PastedRedirectTests {
    let redirectURI = "http://localhost:8977/__/auth/handler"
    var matcher: CallbackMatcher { CallbackMatcher(redirectPath: "/__/auth/handler", binding: .state("S"), port: 8977) }

    private func reason(_ text: String) -> String? {
        if case .failure(let problem) = PastedRedirect.callback(from: text, redirectURI: redirectURI, matcher: matcher) { return problem.reason }
        return nil
    }

    @Test func theRedirectIsAcceptedAsPasted() throws {
        for text in ["http://localhost:8977/__/auth/handler?code=C&state=S", " 'http://127.0.0.1:8977/__/auth/handler?code=C&state=S'\n",
                     "http://[::1]:8977/__/auth/handler?state=S&code=C"] {
            guard case .success(let callback) = PastedRedirect.callback(from: text, redirectURI: redirectURI, matcher: matcher) else {
                Issue.record("refused \(text)"); continue
            }
            #expect(callback.requestURI.hasSuffix("8977/__/auth/handler?" + (text.contains("[::1]") ? "state=S&code=C" : "code=C&state=S")))
        }
    }

    @Test func othersAreRefusedWithAReason() {
        #expect(reason("https://evil.example/__/auth/handler?code=C&state=S") != nil)
        #expect(reason("http://localhost:9999/__/auth/handler?code=C&state=S")?.contains("redirect address") == true)
        #expect(reason("http://localhost:8977/other?code=C&state=S") == "not found")
        #expect(reason("http://localhost:8977/__/auth/handler?code=C&state=X") == "state does not match this sign-in")
        #expect(reason("just words") != nil)
    }
}

@Suite struct BrowserCommandTests {
    private func resolve(_ environment: [String: String], macOS: Bool = false, wsl: Bool = false, programs: Set<String> = ["xdg-open"]) -> BrowserCommand {
        BrowserCommand.resolve(for: "https://x/?a='b'&c", environment: environment, isMacOS: macOS, isWSL: wsl, hasExecutable: programs.contains)
    }

    @Test func theOrderOfChoices() {
        #expect(resolve(["BROWSER": "/opt/firefox", "DISPLAY": ":0"]) == .program(["/opt/firefox", "https://x/?a='b'&c"]))
        #expect(resolve([:], macOS: true) == .program(["open", "https://x/?a='b'&c"]))
        #expect(resolve(["DISPLAY": ":0"]) == .program(["xdg-open", "https://x/?a='b'&c"]))
        #expect(resolve(["WAYLAND_DISPLAY": "wayland-0"]) == .program(["xdg-open", "https://x/?a='b'&c"]))
        #expect(resolve(["DISPLAY": ":0"], wsl: true, programs: ["wslview", "xdg-open"]) == .program(["wslview", "https://x/?a='b'&c"]))
        #expect(resolve([:], wsl: true, programs: ["powershell.exe"])
            == .program(["powershell.exe", "-NoProfile", "-NonInteractive", "-Command", "Start-Process -FilePath 'https://x/?a=''b''&c'"]))
    }

    @Test func whenNothingCanOpenABrowser() {
        guard case .unavailable(let noDisplay) = resolve([:]) else { Issue.record("no display"); return }
        #expect(noDisplay.contains("no display"))
        guard case .unavailable(let noXdg) = resolve(["DISPLAY": ":0"], programs: []) else { Issue.record("no xdg-open"); return }
        #expect(noXdg.contains("xdg-open"))
        guard case .unavailable(let wsl) = resolve([:], wsl: true, programs: []) else { Issue.record("bare WSL"); return }
        #expect(wsl.contains("wslview"))
    }

    @Test func wslIsRecognisedFromItsEnvironment() {
        #expect(BrowserCommand.isWSL(environment: ["WSL_DISTRO_NAME": "Ubuntu"], fileExists: { _ in false }))
        #expect(BrowserCommand.isWSL(environment: [:], fileExists: { $0 == "/proc/sys/fs/binfmt_misc/WSLInterop" }))
        #expect(!BrowserCommand.isWSL(environment: ["WSL_DISTRO_NAME": ""], fileExists: { _ in false }))
    }
}

@Suite struct RedactionTests {
    @Test func jsonMembersHoldingSecretsAreReplaced() {
        let body = #"{"idToken":"eyJ.a.b","refreshToken":"r1","returnSecureToken":true,"oauthTokenSecret":"s","password":"p","email":"e@x","token_type":"Bearer","requestUri":"http://localhost:1/cb?code=C1&state=S","postBody":"providerId=x&id_token=T&access_token=A","users":[{"localId":"u","passwordHash":"h"}]}"#
        let redacted = Redaction.body(Data(body.utf8), contentType: "application/json")
        for secret in ["eyJ.a.b", "\"r1\"", "\"s\"", "\"p\"", "C1", "=T", "=A", "\"h\""] {
            #expect(!redacted.contains(secret), "\(secret) in \(redacted)")
        }
        for kept in ["e@x", "Bearer", "\"returnSecureToken\":true", "state=S", "providerId=x", "\"localId\":\"u\""] {
            #expect(redacted.contains(kept), "\(kept) missing from \(redacted)")
        }
    }

    @Test func formsURLsAndStrayJWTs() {
        #expect(Redaction.body(Data("grant_type=refresh_token&refresh_token=R".utf8), contentType: "application/x-www-form-urlencoded")
            == "grant_type=refresh_token&refresh_token=[REDACTED]")
        #expect(Redaction.url("https://h/v1/token?key=AIza123&x=1") == "https://h/v1/token?key=[REDACTED]&x=1")
        #expect(Redaction.scrubJWTs("see eyJhbGciOi.eyJzdWIiOiIx.c2lnbmF0dXJl here") == "see [REDACTED] here")
        #expect(Redaction.body(Data([0, 1, 2]), contentType: "application/octet-stream") == "(3 bytes of application/octet-stream)")
    }
}

@Suite struct HostileListenerTests {
    /// The hostile-browser sequence against the real redirect receiver: the right callback wins,
    /// nothing crashes, and every connection the listener accepted is closed at the end.
    @Test func theRightCallbackWinsAndEveryAcceptedSocketIsClosed() throws {
        let receiver = try RedirectReceiver(port: 0, host: .localhost)
        let port = receiver.port
        let matcher = CallbackMatcher(redirectPath: RedirectReceiver.callbackPath, binding: .state("GOOD"), port: port)
        let host = "Host: localhost:\(port)\r\n"
        let log = Log()
        let done = DispatchSemaphore(value: 0)
        let closed = DispatchSemaphore(value: 0)

        Thread.detachNewThread {
            let idle = (0..<40).compactMap { _ in try? LoopbackConnection(port: port, timeoutSeconds: 3) }
            func ask(_ text: String) -> Int {
                guard let connection = try? LoopbackConnection(port: port, timeoutSeconds: 3) else { return -1 }
                connection.send(text)
                return ReceivedResponse(parsing: connection.readToEnd())?.status ?? -1
            }
            log.add("favicon", ask("GET /favicon.ico HTTP/1.1\r\n\(host)\r\n"))
            log.add("garbage", ask("\u{16}\u{3}\u{1}\u{0}\u{0}\r\n\r\n"))
            log.add("headers", ask("GET /__/auth/handler?state=GOOD&code=X HTTP/1.1\r\n\(host)X: \(String(repeating: "a", count: 9000))\r\n\r\n"))
            log.add("no state", ask("GET /__/auth/handler?code=X HTTP/1.1\r\n\(host)\r\n"))
            log.add("wrong state", ask("GET /__/auth/handler?code=X&state=BAD HTTP/1.1\r\n\(host)\r\n"))
            log.add("wrong host", ask("GET /__/auth/handler?code=X&state=GOOD HTTP/1.1\r\nHost: evil.example:\(port)\r\n\r\n"))
            // A slow client, one byte at a time, with the right answer.
            if let slow = try? LoopbackConnection(port: port, timeoutSeconds: 10) {
                for byte in "GET /__/auth/handler?code=RIGHT&state=GOOD HTTP/1.1\r\n\(host)\r\n".utf8 {
                    slow.send([byte])
                    pace(.milliseconds(1))
                }
                // The browser tab also retries the same callback while the first is being exchanged.
                let replay = try? LoopbackConnection(port: port, timeoutSeconds: 3)
                replay?.send("GET /__/auth/handler?code=RIGHT&state=GOOD HTTP/1.1\r\n\(host)\r\n")
                log.add("callback", ReceivedResponse(parsing: slow.readToEnd())?.status ?? -1)
                closed.wait()
                let start = Date()
                _ = replay?.readToEnd()
                for connection in idle { _ = connection.readToEnd() }
                // Closed sockets read end-of-file at once; leaked ones would wait for the timeout.
                log.add("all closed", Date().timeIntervalSince(start) < 1.5 ? 1 : 0)
            }
            done.signal()
        }

        guard case .callback(let callback) = receiver.wait(for: matcher, until: .now + .seconds(20)) else {
            Issue.record("no callback")
            return
        }
        #expect(callback.requestURI == "http://localhost:\(port)/__/auth/handler?code=RIGHT&state=GOOD")
        callback.respond(ResultPage.success(signedInAs: "someone"))
        receiver.close()
        closed.signal()
        done.wait()
        #expect(log.entries == [
            "favicon 404", "garbage 400", "headers 431", "no state 400", "wrong state 400", "wrong host 400",
            "callback 200", "all closed 1",
        ])
    }

    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ name: String, _ value: Int) { lock.withLock { items.append("\(name) \(value)") } }
        var entries: [String] { lock.withLock { items } }
    }
}

/// What the hosted flow's advice says about `--loopback`, per provider and server.
@Suite struct LoopbackAdviceTests {
    @Test func theAdviceFollowsWhatTheProviderAndTheServerAccept() {
        var advice = HeadlessAdvice(environment: [:], isMacOS: false)
        #expect(advice.forLocalPage(port: 8977, providerId: "yahoo.com").contains("(the loopback redirect does not work with yahoo.com"))
        advice.words = CommandLineAdvice.words
        #expect(advice.forLocalPage(port: 8977, providerId: "yahoo.com").contains("--loopback does not work with yahoo.com"))
        #expect(advice.forLocalPage(port: 8977, providerId: "google.com").contains("Or sign in with --loopback: google.com accepts a loopback redirect"))
        advice.againstEmulator = true
        let yahoo = advice.forLocalPage(port: 8977, providerId: "yahoo.com")
        #expect(yahoo.contains("an Auth emulator accepts a loopback redirect for every provider") && !yahoo.contains("does not work"))
    }
}
