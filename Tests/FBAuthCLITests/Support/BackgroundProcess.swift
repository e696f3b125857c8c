import Foundation
import Testing
import TestSupport

/// `fbauth` running in the background, for tests that act while it waits: read its stderr so
/// far, visit the URL it printed, type into its terminal, press Ctrl-C.
final class BackgroundProcess: @unchecked Sendable {
    private let process: ChildProcess
    private let outPath: String
    private let errPath: String
    let terminal: PseudoTerminal?

    /// `withTerminal`: stdin is a pseudo-terminal; `stderrOnTerminal`: stderr goes there too;
    /// `shell`: a `/bin/sh -c` script that sets things up and execs fbauth with `"$@"`.
    /// `stdinText`: what stdin holds (a pipe's worth, as `echo … |` gives).
    init(_ arguments: [String], harness: Harness, environment extra: [String: String] = [:], withTerminal: Bool = false,
         stderrOnTerminal: Bool = false, stdoutOnTerminal: Bool = false, shell: String? = nil, stdinText: String? = nil) throws {
        let id = UUID().uuidString
        outPath = harness.directory + "/bg-out-\(id)"
        errPath = harness.directory + "/bg-err-\(id)"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let executable = shell == nil ? Binaries.url("fbauth").path : "/bin/sh"
        let argv = shell.map { ["-c", $0, "fbauth"] + arguments } ?? arguments
        terminal = withTerminal || stderrOnTerminal || stdoutOnTerminal ? try PseudoTerminal() : nil
        var input = terminal?.secondary
        var opened: [Int32] = []
        if let stdinText {
            let inPath = harness.directory + "/bg-in-\(id)"
            _ = FileManager.default.createFile(atPath: inPath, contents: Data(stdinText.utf8))
            input = open(inPath, O_RDONLY | O_CLOEXEC)
            opened.append(input ?? -1)
        }
        let output = open(outPath, O_WRONLY | O_CLOEXEC), errors = open(errPath, O_WRONLY | O_CLOEXEC)
        opened += [output, errors]
        defer { opened.filter { $0 >= 0 }.forEach { close($0) } }
        process = try ChildProcess(executable, argv, environment: harness.environment.merging(extra) { $1 }, directory: harness.directory,
                                   stdin: input, stdout: stdoutOnTerminal ? terminal?.secondary ?? output : output,
                                   stderr: stderrOnTerminal ? terminal?.secondary ?? errors : errors)
    }

    var pid: Int32 { process.pid }
    var stderr: String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }
    /// What it printed on stdout so far.
    var stdout: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }

    /// Waits until stdout contains `text`.
    func waitForStdout(containing text: String, timeout: TimeInterval = 20) -> Bool {
        _ = eventually(within: timeout) { stdout.contains(text) || !process.isRunning }
        return stdout.contains(text)
    }

    /// Waits until stderr contains `text`.
    func waitForStderr(containing text: String, timeout: TimeInterval = 20) -> Bool {
        _ = eventually(within: timeout) { stderr.contains(text) || !process.isRunning }
        return stderr.contains(text)
    }

    /// The first URL printed on its own indented line of stderr: the authorization URL, the
    /// start address, or the page a launched browser was given (`file://`).
    var printedURL: String? {
        stderr.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix("http://") || $0.hasPrefix("file://") }
    }

    func interrupt() { process.signal(SIGINT) }

    /// Waits for the exit and returns everything it printed.
    func finish(timeout: TimeInterval = 30) -> RunResult {
        var timedOut = false
        // A terminal is read while it waits: output a test reads only afterwards could fill the
        // pseudo-terminal, and fbauth would block writing it (under load this happened at 16 KB).
        let exited = terminal.map { terminal in eventually(within: timeout) { terminal.drain(); return !process.isRunning } }
            ?? process.wait(timeout: timeout)
        if !exited {
            timedOut = true
            process.signal(SIGKILL)
            process.wait()
        }
        let stdout = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        return RunResult(status: timedOut ? -1 : process.terminationStatus, stdout: stdout, stderr: stderr + (timedOut ? "\n[still running after \(timeout) s: killed]" : ""))
    }
}

/// A pseudo-terminal: the child reads the secondary side as its stdin (so `isatty(0)` holds and
/// echo can be switched off); the test writes keystrokes and reads echoes on the primary side.
final class PseudoTerminal: @unchecked Sendable {
    let primary: Int32
    let secondary: Int32

    init() throws {
        primary = PTY.open(O_RDWR | O_NOCTTY)
        guard primary >= 0, PTY.grant(primary) == 0, PTY.unlock(primary) == 0, let name = PTY.name(primary) else {
            throw CocoaError(.fileReadUnknown)
        }
        secondary = open(name, O_RDWR | O_NOCTTY)
        guard secondary >= 0 else { throw CocoaError(.fileReadUnknown) }
        _ = fcntl(primary, F_SETFL, fcntl(primary, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        close(primary)
        close(secondary)
    }

    /// Types characters without pressing Enter.
    func press(_ keys: String) {
        let bytes = Array(keys.utf8)
        _ = bytes.withUnsafeBytes { write(primary, $0.baseAddress, $0.count) }
    }

    /// Types a line.
    func type(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(primary, $0.baseAddress, $0.count) }
    }

    /// Everything the terminal has shown since the last call (echoes included).
    func screen() -> String {
        drain()
        lock.lock()
        defer { drained = []; lock.unlock() }
        return String(decoding: drained, as: UTF8.self)
    }

    /// Reads what the terminal has shown so far into `drained`, so that its buffer never fills.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(primary, $0.baseAddress, 4096) }
            guard count > 0 else { break }
            lock.lock()
            drained += buffer[0..<count]
            lock.unlock()
        }
    }

    private var drained: [UInt8] = []
    private let lock = NSLock()
}

/// posix_openpt and friends. Swift's Glibc module does not export them, so on Linux they are
/// looked up at run time; Darwin exports them.
private enum PTY {
    #if canImport(Glibc)
    nonisolated(unsafe) private static let libc = dlopen(nil, RTLD_NOW)
    private static func symbol<T>(_ name: String, as type: T.Type) -> T { unsafeBitCast(dlsym(libc, name), to: type) }
    static let open = symbol("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
    static let grant = symbol("grantpt", as: (@convention(c) (Int32) -> Int32).self)
    static let unlock = symbol("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
    private static let ptsname = symbol("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
    #else
    static let open: (Int32) -> Int32 = { posix_openpt($0) }
    static let grant: (Int32) -> Int32 = { grantpt($0) }
    static let unlock: (Int32) -> Int32 = { unlockpt($0) }
    private static let ptsname: (Int32) -> UnsafeMutablePointer<CChar>? = { Darwin.ptsname($0) }
    #endif

    static func name(_ fd: Int32) -> String? { ptsname(fd).map { String(cString: $0) } }
}

extension Harness {
    /// Starts `fbauth emulator --port 0 ARGUMENTS` and waits until it serves: the process and
    /// its `host:port`.
    func startEmulator(_ arguments: [String] = [], environment: [String: String] = [:]) throws -> (BackgroundProcess, String) {
        let process = try BackgroundProcess(["emulator", "--port", "0"] + arguments, harness: self, environment: environment)
        #expect(process.waitForStderr(containing: "Press Ctrl-C"), "\(process.stderr)")
        return (process, process.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}


/// A command fbauth runs for the user (`exec`, `emulator exec`) is sent the SIGTERM fbauth gets:
/// its trap says so and sets the status fbauth exits with.
func expectSignalReachesCommand(_ arguments: [String], harness: Harness, environment: [String: String] = [:]) throws {
    let script = #"trap 'echo stopped; exit 5' TERM; echo ready; while :; do sleep 0.05; done"#
    let process = try BackgroundProcess(arguments + ["--", "sh", "-c", script], harness: harness, environment: environment)
    #expect(process.waitForStdout(containing: "ready"), "\(process.stderr)")
    kill(process.pid, SIGTERM)
    let result = process.finish()
    #expect(result.status == 5 && result.stdout == "ready\nstopped\n", "\(result)")
}
