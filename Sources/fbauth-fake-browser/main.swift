import FBAuthStandIn
import Foundation

// A scriptable stand-in for a web browser, for end-to-end tests: `BROWSER=fbauth-fake-browser`.
// fbauth runs it with the authorization URL as its only argument. It visits the URL, consents
// (or denies) on the fake provider's page, and follows the redirect to fbauth's listener.
//
//   FBAUTH_FAKE_BROWSER_DECISION  allow (default) or deny
//   FBAUTH_FAKE_BROWSER_EMAIL     email to type into the consent page (default: the page's login_hint)
//   FBAUTH_FAKE_BROWSER_STRAY     1: first open idle and stray connections to the listener
//   FBAUTH_FAKE_BROWSER_ACTION    visit (default); ignore (never visit: the user walks away); fail (exit 3 at once)
//   FBAUTH_FAKE_BROWSER_LOG       file to append each page seen to, as JSON lines {url, status, body}
//   FBAUTH_FAKE_BROWSER_RESULT    JSON to post as the hosted flow's result on fbauth's page (which needs JavaScript)
let environment = ProcessInfo.processInfo.environment
guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: fbauth-fake-browser URL\n".utf8))
    exit(2)
}
let url = CommandLine.arguments[1]

switch environment["FBAUTH_FAKE_BROWSER_ACTION"] ?? "visit" {
case "ignore":
    exit(0)
case "fail":
    exit(3)
default:
    break
}

let browser = HeadlessBrowser(
    email: environment["FBAUTH_FAKE_BROWSER_EMAIL"],
    decision: environment["FBAUTH_FAKE_BROWSER_DECISION"] == "deny" ? .deny : .allow,
    strayRequestsFirst: environment["FBAUTH_FAKE_BROWSER_STRAY"] == "1",
    hostedResult: environment["FBAUTH_FAKE_BROWSER_RESULT"])
do throws(HeadlessBrowser.Failure) {
    let pages = try browser.visit(url)
    if let logPath = environment["FBAUTH_FAKE_BROWSER_LOG"] {
        let lines = pages.map { page in
            let object: [String: Any] = ["url": page.url, "status": page.status, "body": page.body]
            return String(decoding: (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data(), as: UTF8.self)
        }
        let handle = FileHandle(forWritingAtPath: logPath) ?? {
            _ = FileManager.default.createFile(atPath: logPath, contents: nil)
            return FileHandle(forWritingAtPath: logPath)!
        }()
        handle.seekToEndOfFile()
        handle.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        handle.closeFile()
    }
} catch {
    FileHandle.standardError.write(Data("fbauth-fake-browser: \(error.message)\n".utf8))
    exit(1)
}
