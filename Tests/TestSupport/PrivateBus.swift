#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import FBAuth
import Foundation

/// A private session bus and, when asked, an unlocked gnome-keyring on it: the real programs,
/// started by the test in a directory of its own, stopped at the end (with SIGKILL: the test
/// runner leaves SIGTERM ignored in its children, and they keep nothing worth saving).
public final class PrivateBus: @unchecked Sendable {
    public static let daemon = "/usr/bin/dbus-daemon"
    public static let keyring = "/usr/bin/gnome-keyring-daemon"
    public static let secretTool = "/usr/bin/secret-tool"
    public static var available: Bool { FileManager.default.isExecutableFile(atPath: daemon) && FileManager.default.isExecutableFile(atPath: keyring) }

    public let directory: String
    public let address: String
    private var processes: [ChildProcess] = []

    public init() throws {
        directory = NSTemporaryDirectory() + "fbauth-bus-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // The address is chosen here, and the socket waited for: what the daemon prints on a
        // pipe may sit in its buffer.
        address = "unix:path=\(directory)/bus"
        processes.append(try ChildProcess(Self.daemon, ["--session", "--nofork", "--address=\(address)"], environment: ["PATH": "/usr/bin:/bin"]))
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: directory + "/bus"), Date() < deadline { usleep(20_000) }
    }

    /// What a program on this bus runs with (a home and runtime directory of the bus's own).
    public var environment: [String: String] {
        ["DBUS_SESSION_BUS_ADDRESS": address, "HOME": directory, "XDG_RUNTIME_DIR": directory, "XDG_DATA_HOME": directory + "/data",
         "PATH": "/usr/bin:/bin"]
    }

    /// Starts gnome-keyring's Secret Service, unlocked with a test password, and waits until it
    /// answers (at most ten seconds).
    public func startKeyring() throws {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw DBusConnection.Failure(reason: "no pipe") }
        let keyring = try ChildProcess(Self.keyring, ["--foreground", "--unlock", "--components=secrets"], environment: environment, stdin: pipeEnds[0])
        close(pipeEnds[0])
        processes.append(keyring)
        let password = Array("test password".utf8)
        _ = password.withUnsafeBytes { write(pipeEnds[1], $0.baseAddress, $0.count) }
        close(pipeEnds[1])
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let connection = try? DBusConnection(address: address, timeout: .seconds(2)), (try? SecretService(connection: connection)) != nil { return }
            usleep(100_000)
        }
        throw DBusConnection.Failure(reason: "gnome-keyring-daemon did not come up on the private bus")
    }

    /// Locks every collection, as a screen lock or `secret-tool lock` does.
    public func lockKeyring() throws {
        _ = try secretTool(["lock", "--collection=login"])
    }

    /// `secret-tool ARGUMENTS` on this bus: its output and error output.
    @discardableResult
    public func secretTool(_ arguments: [String], input: String? = nil) throws -> String {
        let output = directory + "/secret-tool-\(UUID().uuidString.prefix(6)).out"
        let descriptor = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(descriptor); unlink(output) }
        var pipeEnds: [Int32] = [-1, -1]
        if input != nil { guard pipe(&pipeEnds) == 0 else { throw DBusConnection.Failure(reason: "no pipe") } }
        let tool = try ChildProcess(Self.secretTool, arguments, environment: environment, stdin: input == nil ? nil : pipeEnds[0],
                                    stdout: descriptor, stderr: descriptor)
        if let input {
            close(pipeEnds[0])
            _ = Array(input.utf8).withUnsafeBytes { write(pipeEnds[1], $0.baseAddress, $0.count) }
            close(pipeEnds[1])
        }
        _ = tool.wait(timeout: 20)
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }

    /// How many fbauth items the keyring holds.
    public func fbauthItems() throws -> Int {
        try secretTool(["search", "--all", "service", "fbauth"]).components(separatedBy: "attribute.service = fbauth").count - 1
    }

    deinit {
        for process in processes.reversed() {
            process.signal(SIGKILL)
            _ = process.wait(timeout: 10)
        }
        try? FileManager.default.removeItem(atPath: directory)
    }
}
