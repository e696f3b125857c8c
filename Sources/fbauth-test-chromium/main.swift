import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A browser for end-to-end tests of the hosted flow: `BROWSER=fbauth-test-chromium`. fbauth
// runs it with the address of its page; it runs headless Chromium on that page and plays the
// user over the DevTools protocol (`--remote-debugging-pipe`: NUL-separated JSON on fds 3/4):
//
//   FBAUTH_CHROMIUM_SERVE      lines PREFIX=PATH: requests whose URL starts with PREFIX are
//                              answered from PATH (a file, or a directory the rest of the URL
//                              names), as JavaScript with CORS — the Firebase JS SDK's and
//                              Google's iframe library's addresses, which tests cannot reach
//   FBAUTH_CHROMIUM_CONSENT    allow (default), deny, or close (close the sign-in window)
//   FBAUTH_CHROMIUM_EMAIL      email typed at the provider (default: what the page pre-fills)
//   FBAUTH_CHROMIUM_NAME       display name typed in an Auth emulator's widget (default: Widget User)
//   FBAUTH_CHROMIUM_SCREEN_NAME  screen name typed there (default: none)
//   FBAUTH_CHROMIUM_POPUPS     allow (default) or block (Chromium's popup blocker on)
//   FBAUTH_CHROMIUM_CLICK      1: click the page's "Continue" button when it shows
//   FBAUTH_CHROMIUM_LOG        file for what happened: consoles, popups, the page's last text
//   FBAUTH_CHROMIUM_SCRIPT     a JavaScript file run once in the page when it has loaded: a
//                              test playing a user on a page of its own (it marks the end,
//                              and what it leaves in `data-report` on <html> is logged)
//   FBAUTH_CHROMIUM_TIMEOUT    seconds before giving up (default 60)
//
// Exits 0 once the page says it is done (`data-fbauth` on <html>), 1 otherwise.

let environment = ProcessInfo.processInfo.environment
guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: fbauth-test-chromium URL\n".utf8))
    exit(2)
}
let startURL = CommandLine.arguments[1]
let logPath = environment["FBAUTH_CHROMIUM_LOG"]

func log(_ line: String) {
    guard let logPath else { return }
    if !FileManager.default.fileExists(atPath: logPath) { _ = FileManager.default.createFile(atPath: logPath, contents: nil) }
    guard let handle = FileHandle(forWritingAtPath: logPath) else { return }
    handle.seekToEndOfFile()
    handle.write(Data((line + "\n").utf8))
    handle.closeFile()
}

/// Requests answered locally: (URL prefix, file or directory).
let served: [(prefix: String, path: String)] = (environment["FBAUTH_CHROMIUM_SERVE"] ?? "").split(separator: "\n").compactMap { line in
    let parts = line.split(separator: "=", maxSplits: 1)
    guard parts.count == 2 else { return nil }
    return (prefix: String(parts[0]), path: String(parts[1]))
}

// MARK: - Chromium over a pipe

final class DevTools {
    let input: Int32
    let output: Int32
    var buffer: [UInt8] = []
    var nextID = 0
    var events: [[String: Any]] = []

    init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
    }

    struct Failure: Error { var message: String }

    @discardableResult
    func send(_ method: String, _ params: [String: Any] = [:], session: String? = nil, timeout: Double = 10) throws -> [String: Any] {
        nextID += 1
        let id = nextID
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if let session { message["sessionId"] = session }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            guard written > 0 else { throw Failure(message: "the pipe to Chromium is closed") }
            offset += written
        }
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            // Keep every event of the batch, also those after the answer.
            var answer: [String: Any]?
            for message in try receive(milliseconds: 100) {
                if message["id"] as? Int == id { answer = message }
                if message["method"] != nil { events.append(message) }
            }
            if let answer {
                if let error = answer["error"] { throw Failure(message: "\(method): \(error)") }
                return answer["result"] as? [String: Any] ?? [:]
            }
        }
        throw Failure(message: "\(method): no answer")
    }

    /// Reads what has arrived within `milliseconds`.
    func receive(milliseconds: Int32) throws -> [[String: Any]] {
        var entry = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        if poll(&entry, 1, milliseconds) > 0 {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = read(output, &chunk, chunk.count)
            guard count > 0 else { throw Failure(message: "Chromium closed the pipe") }
            buffer += chunk[0..<count]
        }
        var messages: [[String: Any]] = []
        while let end = buffer.firstIndex(of: 0) {
            let data = Data(buffer[..<end])
            buffer.removeFirst(end + 1)
            if let message = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] { messages.append(message) }
        }
        return messages
    }

    func pump(milliseconds: Int32) throws {
        events += try receive(milliseconds: milliseconds).filter { $0["method"] != nil }
    }

    /// Evaluates `expression` in a page and returns its value (nil on any failure).
    func evaluate(_ expression: String, session: String, userGesture: Bool = false) -> Any? {
        let result = try? send("Runtime.evaluate", ["expression": expression, "returnByValue": true, "userGesture": userGesture],
                               session: session, timeout: 5)
        return (result?["result"] as? [String: Any])?["value"]
    }
}

func launchChromium(profile: String) -> (pid: pid_t, devTools: DevTools)? {
    let candidates = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome",
                      "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"]
    guard let executable = environment["FBAUTH_CHROMIUM_BINARY"] ?? candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
        log("no chromium found")
        return nil
    }
    var toChrome: [Int32] = [0, 0], fromChrome: [Int32] = [0, 0]
    guard pipe(&toChrome) == 0, pipe(&fromChrome) == 0 else { return nil }
    for fd in toChrome + fromChrome { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    var arguments = [executable, "--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
                     "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--mute-audio",
                     // One process for the page and its helper iframe, so that one session sees their requests.
                     "--disable-site-isolation-trials", "--disable-features=IsolateOrigins,site-per-process",
                     "--user-data-dir=\(profile)", "about:blank"]
    if environment["FBAUTH_CHROMIUM_POPUPS"] != "block" { arguments.insert("--disable-popup-blocking", at: 1) }
    #if canImport(Glibc)
    var actions = posix_spawn_file_actions_t()
    #else
    var actions: posix_spawn_file_actions_t?
    #endif
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_adddup2(&actions, toChrome[0], 3)
    posix_spawn_file_actions_adddup2(&actions, fromChrome[1], 4)
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var pid: pid_t = 0
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else { log("cannot start \(executable)"); return nil }
    close(toChrome[0])
    close(fromChrome[1])
    return (pid, DevTools(input: toChrome[1], output: fromChrome[0]))
}

// MARK: - Playing the user

/// What the user does in the sign-in window, given what it shows.
func actInPopup(_ devTools: DevTools, session: String, target: String) -> Bool {
    let probe = """
        JSON.stringify({href: location.href, ready: document.readyState,
          consent: !!document.querySelector('form[data-fbauth-consent]'),
          picker: !!document.querySelector('.js-new-account')})
        """
    guard let text = devTools.evaluate(probe, session: session) as? String,
        let state = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
        state["ready"] as? String == "complete", state["consent"] as? Bool == true || state["picker"] as? Bool == true
    else { return false }
    let decision = environment["FBAUTH_CHROMIUM_CONSENT"] ?? "allow"
    log("popup: \(decision) at \(state["href"] as? String ?? "?")")
    if decision == "close" {
        _ = try? devTools.send("Target.closeTarget", ["targetId": target])
        return true
    }
    let email = environment["FBAUTH_CHROMIUM_EMAIL"].map { String(data: try! JSONSerialization.data(withJSONObject: [$0]), encoding: .utf8)! } ?? "null"
    let script: String
    if state["picker"] as? Bool == true {
        // As a person uses the Auth emulator's widget: the account already listed for that
        // email, else a new one with a display name (spaces and all, as people type them).
        let name = jsonString(environment["FBAUTH_CHROMIUM_NAME"] ?? "Widget User")
        let screenName = jsonString(environment["FBAUTH_CHROMIUM_SCREEN_NAME"] ?? "")
        script = """
            (() => { const email = (\(email) || [])[0] || 'widget@example.com';
              const known = [...document.querySelectorAll('.js-reuse-account')].find(el => {
                try { return JSON.parse(decodeURIComponent(el.dataset.idToken)).email === email; } catch (e) { return false; } });
              if (known) { known.click(); return; }
              document.getElementById('email-input').value = email;
              const set = (id, value) => { const input = document.getElementById(id); if (input && value) input.value = value; };
              set('display-name-input', \(name)); set('screen-name-input', \(screenName));
              document.getElementById('main-form').requestSubmit(); })()
            """
    } else {
        script = """
            (() => { const email = (\(email) || [])[0];
              if (email) document.querySelector('input[name=email]').value = email;
              document.querySelector('button[value=\(decision == "deny" ? "deny" : "allow")]').click(); })()
            """
    }
    _ = devTools.evaluate(script, session: session, userGesture: true)
    return true
}

/// `text` as a JavaScript string literal.
func jsonString(_ text: String) -> String {
    String(data: try! JSONSerialization.data(withJSONObject: [text]), encoding: .utf8)!.dropFirst().dropLast().description
}

func answerLocally(_ devTools: DevTools, _ event: [String: Any], session: String?) {
    guard let params = event["params"] as? [String: Any], let requestID = params["requestId"] as? String,
        let url = (params["request"] as? [String: Any])?["url"] as? String
    else { return }
    guard let rule = served.first(where: { url.hasPrefix($0.prefix) }) else {
        _ = try? devTools.send("Fetch.continueRequest", ["requestId": requestID], session: session)
        return
    }
    var path = rule.path
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
        let rest = String(url.dropFirst(rule.prefix.count).prefix { $0 != "?" && $0 != "#" })
        path += "/" + rest
    }
    guard !path.contains("/../"), let body = FileManager.default.contents(atPath: path) else {
        log("not served: \(url)")
        _ = try? devTools.send("Fetch.fulfillRequest", ["requestId": requestID, "responseCode": 404, "body": ""], session: session)
        return
    }
    log("served \(url)")
    _ = try? devTools.send("Fetch.fulfillRequest", [
        "requestId": requestID, "responseCode": 200, "body": body.base64EncodedString(),
        "responseHeaders": [["name": "Content-Type", "value": "text/javascript"], ["name": "Access-Control-Allow-Origin", "value": "*"]],
    ], session: session)
}

func run() -> Int32 {
    let profile = NSTemporaryDirectory() + "fbauth-chromium-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: profile) }
    guard let (pid, devTools) = launchChromium(profile: profile) else { return 1 }
    defer {
        _ = try? devTools.send("Browser.close", timeout: 2)
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
    let timeout = Double(environment["FBAUTH_CHROMIUM_TIMEOUT"] ?? "") ?? 60
    do {
        try devTools.send("Target.setDiscoverTargets", ["discover": true])
        let main = try devTools.send("Target.createTarget", ["url": "about:blank"])["targetId"] as? String ?? ""
        let mainSession = try devTools.send("Target.attachToTarget", ["targetId": main, "flatten": true])["sessionId"] as? String ?? ""
        var labels = [mainSession: "page"]
        // Intercepted in the page's own session, which covers its frames (kept in its process).
        if !served.isEmpty {
            try devTools.send("Fetch.enable", ["patterns": served.map { ["urlPattern": $0.prefix + "*"] }], session: mainSession)
        }
        try devTools.send("Runtime.enable", session: mainSession)
        try devTools.send("Page.navigate", ["url": startURL], session: mainSession)
        var popups: [(session: String, target: String, acted: Bool)] = []
        var clicked = false
        var mainActed = false
        let userScript = environment["FBAUTH_CHROMIUM_SCRIPT"].flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }
        var scriptRan = false
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            try devTools.pump(milliseconds: 100)
            while !devTools.events.isEmpty {
                let event = devTools.events.removeFirst()
                let params = event["params"] as? [String: Any] ?? [:]
                let label = labels[event["sessionId"] as? String ?? ""] ?? "?"
                switch event["method"] as? String {
                case "Fetch.requestPaused":
                    answerLocally(devTools, event, session: event["sessionId"] as? String)
                case "Runtime.executionContextCreated" where label == "page":
                    log("page context: \(((params["context"] as? [String: Any])?["origin"] as? String) ?? "")")
                case "Target.targetCreated":
                    let info = params["targetInfo"] as? [String: Any] ?? [:]
                    guard info["type"] as? String == "page", info["openerId"] as? String == main, let target = info["targetId"] as? String else { break }
                    let session = try devTools.send("Target.attachToTarget", ["targetId": target, "flatten": true])["sessionId"] as? String ?? ""
                    labels[session] = "popup"
                    _ = try? devTools.send("Runtime.enable", session: session)
                    popups.append((session, target, false))
                    log("popup opened: \(info["url"] as? String ?? "")")
                case "Target.targetDestroyed":
                    if popups.contains(where: { $0.target == params["targetId"] as? String }) { log("popup closed") }
                case "Runtime.consoleAPICalled":
                    let arguments = (params["args"] as? [[String: Any]] ?? []).map { "\($0["value"] ?? $0["description"] ?? "")" }
                    log("[\(label)] console.\(params["type"] ?? ""): \(arguments.joined(separator: " "))")
                case "Runtime.exceptionThrown":
                    let details = params["exceptionDetails"] as? [String: Any] ?? [:]
                    log("[\(label)] exception: \((details["exception"] as? [String: Any])?["description"] ?? details["text"] ?? "")")
                default:
                    break
                }
            }
            if let userScript, !scriptRan, devTools.evaluate("location.href !== 'about:blank' && document.readyState === 'complete'", session: mainSession) as? Bool == true {
                log("running the test's script")
                _ = devTools.evaluate(userScript, session: mainSession, userGesture: true)
                scriptRan = true
            }
            // The loopback flow shows the provider's page in the main window itself.
            if !mainActed, environment["FBAUTH_CHROMIUM_CONSENT"] != "close" {
                mainActed = actInPopup(devTools, session: mainSession, target: main)
            }
            for index in popups.indices where !popups[index].acted {
                popups[index].acted = actInPopup(devTools, session: popups[index].session, target: popups[index].target)
            }
            if environment["FBAUTH_CHROMIUM_CLICK"] == "1", !clicked,
                devTools.evaluate("(() => { const b = document.getElementById('continue'); return !!b && !b.hidden; })()", session: mainSession) as? Bool == true
            {
                log("clicking Continue")
                _ = devTools.evaluate("document.getElementById('continue').click()", session: mainSession, userGesture: true)
                clicked = true
            }
            if let state = devTools.evaluate("document.documentElement.dataset.fbauth || ''", session: mainSession) as? String, !state.isEmpty {
                let text = devTools.evaluate("document.body.innerText", session: mainSession) as? String ?? ""
                log("page \(state): \(text.replacing("\n", with: " | "))")
                if let report = devTools.evaluate("document.documentElement.dataset.report || ''", session: mainSession) as? String, !report.isEmpty {
                    log("page report: \(report)")
                }
                return 0
            }
        }
        let url = devTools.evaluate("location.href", session: mainSession) as? String ?? "?"
        let text = devTools.evaluate("document.body ? document.body.innerText : ''", session: mainSession) as? String ?? ""
        log("timed out at \(url): \(text.replacing("\n", with: " | "))")
        return 1
    } catch {
        log("failed: \(error)")
        return 1
    }
}

exit(run())
