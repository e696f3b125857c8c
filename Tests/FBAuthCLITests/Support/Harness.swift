import FBAuthStandIn
import LoopbackHTTP
import Foundation
import TestSupport
import Testing

/// Runs the built `fbauth` binary as a user would: a subprocess with its own environment,
/// against an in-process stand-in, with `fbauth-fake-browser` as `$BROWSER` and a temporary
/// config directory.
/// `@unchecked Sendable`: tests change `environment` only before running processes in parallel.
final class Harness: @unchecked Sendable {
    let standIn: StandIn
    let directory: String
    var configDirectory: String { directory + "/config" }
    var sessionsPath: String { configDirectory + "/sessions.json" }
    var browserLog: String { directory + "/browser.log" }
    var environment: [String: String]

    init(configuration: StandInConfiguration = StandInConfiguration()) throws {
        standIn = try StandIn(configuration: configuration)
        standIn.start()
        directory = try TemporaryDirectory.make()
        environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": directory,
            "FBAUTH_CONFIG_DIR": directory + "/config",
            "FIREBASE_AUTH_EMULATOR_HOST": standIn.hostAndPort,
            "FIREBASE_API_KEY": "test-api-key",
            "BROWSER": Binaries.url("fbauth-fake-browser").path,
            "FBAUTH_FAKE_BROWSER_LOG": directory + "/browser.log",
        ]
    }

    deinit {
        standIn.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs `fbauth ARGS` and waits for it (at most `timeout` seconds).
    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:], timeout: TimeInterval = 60) throws -> RunResult {
        try Subprocess.run(Binaries.url("fbauth"), arguments, environment: environment.merging(extra) { $1 },
                           stdin: stdin, directory: directory, timeout: timeout)
    }

    /// `fbauth signin --provider P --port 0 --timeout 30 …`
    @discardableResult
    /// A request straight to the stand-in (or the server on `port`), as another program on the
    /// machine would make it.
    func postToStandIn(_ path: String, _ body: [String: Any], port: UInt16? = nil, authorization: String? = nil) throws -> (status: Int, body: String) {
        let data = try JSONSerialization.data(withJSONObject: body)
        let port = port ?? standIn.port
        let connection = try LoopbackConnection(port: port)
        let credential = authorization.map { "Authorization: \($0)\r\n" } ?? ""
        let head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n\(credential)Connection: close\r\nContent-Length: \(data.count)\r\n\r\n"
        _ = connection.send(Array(head.utf8) + Array(data))
        guard let response = ReceivedResponse(parsing: connection.readToEnd()) else { return (-1, "") }
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    /// An Admin API call on the stand-in's project, as firebase-admin makes it to an emulator.
    func admin(_ method: String, _ body: [String: Any], project: String = "proj-1") throws {
        let answer = try postToStandIn("/identitytoolkit.googleapis.com/v1/projects/\(project)/\(method)", body, authorization: "Bearer owner")
        #expect(answer.status == 200, "\(method): \(answer.body)")
    }

    func signIn(_ provider: String, _ more: [String] = [], environment extra: [String: String] = [:]) throws -> RunResult {
        try run(["signin", "--loopback", "--provider", provider, "--port", "0", "--timeout", "30"] + more, environment: extra)
    }

    /// The pages the fake browser saw, in order.
    /// The pages the fake browser saw once there are at least `count` (it logs a page after fbauth
    /// answered it, which may be after fbauth has exited), or as they are after a few seconds.
    func browserPages(atLeast count: Int, within seconds: TimeInterval = 10) -> [[String: Any]] {
        var pages = browserPages
        _ = eventually(within: seconds) {
            pages = browserPages
            return pages.count >= count
        }
        return pages
    }

    /// Whether the fake browser logged a page containing `text` (it logs after fbauth answered
    /// it, which may be after fbauth has exited).
    func browserSaw(_ text: String, within seconds: TimeInterval = 10) -> Bool {
        eventually(within: seconds) { browserPages.contains(where: { ($0["body"] as? String)?.contains(text) == true }) }
    }

    var browserPages: [[String: Any]] {
        guard let text = try? String(contentsOfFile: browserLog, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    var sessionsFile: [String: Any]? {
        guard let data = FileManager.default.contents(atPath: sessionsPath) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// The sessions of the test project.
    var savedSessions: [[String: Any]] {
        let projects = sessionsFile?["projects"] as? [String: Any] ?? [:]
        return projects.values.compactMap { $0 as? [String: Any] }.flatMap { $0["sessions"] as? [[String: Any]] ?? [] }
    }

    /// Request bodies the stand-in received at `endpoint`, parsed.
    func bodies(of endpoint: String) -> [[String: Any]] {
        standIn.requests(to: endpoint).compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.body.utf8))) as? [String: Any]
        }
    }
}

struct RunResult: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String

    /// stdout as one JSON object. Output that is not one is a test failure, recorded where
    /// the property is read: `json["x"] == nil` must never pass on a page of text.
    func json(sourceLocation: SourceLocation = #_sourceLocation) -> [String: Any] {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any] else {
            Issue.record("stdout is not one JSON object: \(self)", sourceLocation: sourceLocation)
            return [:]
        }
        return object
    }

    var json: [String: Any] { json() }

    var description: String { "exit \(status)\n--- stdout\n\(stdout)\n--- stderr\n\(stderr)" }
}

enum Binaries {
    /// The directory with the products of this build (`fbauth`, `fbauth-fake-browser`).
    static let directory: URL = {
        if let explicit = ProcessInfo.processInfo.environment["FBAUTH_BINARY_DIR"] {
            return URL(fileURLWithPath: explicit)
        }
        #if os(macOS)
        if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        #endif
        return Bundle.main.bundleURL
    }()

    static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }
}

enum TemporaryDirectory {
    static func make() throws -> String {
        let path = NSTemporaryDirectory() + "fbauth-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return (path as NSString).resolvingSymlinksInPath
    }
}

enum Subprocess {
    struct TimedOut: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs a program with stdout and stderr captured to files (no pipe can fill up).
    static func run(_ executable: URL, _ arguments: [String], environment: [String: String], stdin: String?,
                    directory: String, timeout: TimeInterval) throws -> RunResult {
        let id = UUID().uuidString
        let outPath = directory + "/out-\(id)", errPath = directory + "/err-\(id)", inPath = directory + "/in-\(id)"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        defer { [outPath, errPath, inPath].forEach { try? FileManager.default.removeItem(atPath: $0) } }

        if let stdin { _ = FileManager.default.createFile(atPath: inPath, contents: Data(stdin.utf8)) }
        let output = open(outPath, O_WRONLY | O_CLOEXEC), errors = open(errPath, O_WRONLY | O_CLOEXEC)
        let input = stdin == nil ? Int32(-1) : open(inPath, O_RDONLY | O_CLOEXEC)
        defer { [output, errors, input].filter { $0 >= 0 }.forEach { close($0) } }
        let process = try ChildProcess(executable.path, arguments, environment: environment, directory: directory,
                                       stdin: input >= 0 ? input : nil, stdout: output, stderr: errors)
        if !process.wait(timeout: timeout) {
            process.signal(SIGTERM)
            process.wait(timeout: 5)
            throw TimedOut(description: "\(executable.lastPathComponent) \(arguments) ran longer than \(timeout) s; stderr: \(read(errPath))")
        }
        return RunResult(status: process.terminationStatus, stdout: read(outPath), stderr: read(errPath))
    }

    private static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }
}

/// Reads nested values from parsed JSON: `json[path: "user", "providerData"]`.
extension Dictionary where Key == String, Value == Any {
    subscript(path keys: String...) -> Any? {
        var current: Any? = self
        for key in keys { current = (current as? [String: Any])?[key] }
        return current
    }

    func string(_ keys: String...) -> String? {
        var current: Any? = self
        for key in keys { current = (current as? [String: Any])?[key] }
        return current as? String
    }
}

/// The address a page fbauth gave the browser (`file://…/signin-….html`) leads to: its one-time
/// start address; other URLs as they are.
func startAddress(_ url: String) -> String? {
    guard url.hasPrefix("file://") else { return url }
    guard let path = URLComponents(string: url)?.path, let data = FileManager.default.contents(atPath: path) else { return nil }
    return HeadlessBrowser.refreshTarget(in: String(decoding: data, as: UTF8.self))
}

/// File mode bits of a path (e.g. 0o600).
func fileMode(_ path: String) -> Int? {
    (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
}
