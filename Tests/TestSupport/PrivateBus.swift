#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A private session bus and, when asked, an unlocked gnome-keyring on it: the real programs,
/// started by the test in a directory of its own, stopped at the end (with SIGKILL: the test
/// runner leaves SIGTERM ignored in its children, and they keep nothing worth saving).
///
/// Every helper throws when the program it runs fails or does not come up in time: "no items"
/// must never also mean "secret-tool could not reach the bus".
public final class PrivateBus: @unchecked Sendable {
    public static let daemon = "/usr/bin/dbus-daemon"
    public static let keyring = "/usr/bin/gnome-keyring-daemon"
    /// `FBAUTH_TEST_SECRET_TOOL` replaces it (with a program that fails, the keyring suites
    /// must fail: Tests/README.md).
    public static let secretTool = ProcessInfo.processInfo.environment["FBAUTH_TEST_SECRET_TOOL"] ?? "/usr/bin/secret-tool"
    public static var available: Bool { FileManager.default.isExecutableFile(atPath: daemon) && FileManager.default.isExecutableFile(atPath: keyring) }
    public static var secretToolAvailable: Bool { FileManager.default.isExecutableFile(atPath: secretTool) }

    /// Who runs the bus and its keyring: the test's own user, or another (uid, gid), as an
    /// attacker would.
    public struct Owner: Sendable {
        public let uid: uid_t
        public let gid: gid_t
        public init(uid: uid_t, gid: gid_t) {
            self.uid = uid
            self.gid = gid
        }
    }

    public let directory: String
    public let address: String
    public let owner: Owner?
    /// The program `secretTool` runs.
    public var secretToolPath = PrivateBus.secretTool
    private var daemons: [ChildProcess] = []
    private var keyringProcess: ChildProcess?

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// `abstract`: a `unix:abstract=` address (no file; anyone may bind a name first).
    /// `openToEveryUser`: the bus lets any uid connect, as an attacker's would.
    public init(owner: Owner? = nil, abstract: Bool = false, openToEveryUser: Bool = false) throws {
        self.owner = owner
        directory = NSTemporaryDirectory() + "fbauth-bus-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: owner == nil ? 0o700 : 0o755])
        if let owner { chown(directory, owner.uid, owner.gid) }
        address = abstract ? "unix:abstract=\(directory)/abstract-bus" : "unix:path=\(directory)/bus"
        var arguments = ["--session", "--nofork", "--address=\(address)"]
        if openToEveryUser {
            let configuration = directory + "/open-bus.conf"
            try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>\(address)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/>
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """.write(toFile: configuration, atomically: true, encoding: .utf8)
            chmod(configuration, 0o644)
            arguments = ["--config-file=\(configuration)", "--nofork"]
        }
        daemons.append(try spawn(Self.daemon, arguments, environment: ["PATH": "/usr/bin:/bin"]))
        // The socket is waited for: what the daemon prints on a pipe may sit in its buffer.
        try waitUntil("dbus-daemon did not open \(address)") {
            (try? self.dbusSend(["--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.GetId"])) != nil
        }
    }

    /// What a program on this bus runs with (a home and runtime directory of the bus's own).
    public var environment: [String: String] {
        ["DBUS_SESSION_BUS_ADDRESS": address, "HOME": directory, "XDG_RUNTIME_DIR": directory, "XDG_DATA_HOME": directory + "/data",
         "PATH": "/usr/bin:/bin"]
    }

    /// Starts gnome-keyring's Secret Service (as the bus's owner), unlocked with a test
    /// password, and waits until it owns `org.freedesktop.secrets` (at most ten seconds).
    /// Called again after `killKeyring`, it brings back the same keyring file.
    /// `user`: another user than the bus's (the bus must be open to every user), with a home
    /// of its own.
    public func startKeyring(as user: Owner? = nil) throws {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw Failure(description: "no pipe") }
        var environment = environment
        if let user {
            let home = directory + "/keyring-of-\(user.uid)"
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            chown(home, user.uid, user.gid)
            chmod(directory, 0o755)
            environment.merge(["HOME": home, "XDG_RUNTIME_DIR": home, "XDG_DATA_HOME": home + "/data"]) { $1 }
        }
        let keyring = try spawn(Self.keyring, ["--foreground", "--unlock", "--components=secrets"], as: user ?? owner, environment: environment, stdin: pipeEnds[0])
        close(pipeEnds[0])
        keyringProcess = keyring
        let password = Array("test password".utf8)
        _ = password.withUnsafeBytes { write(pipeEnds[1], $0.baseAddress, $0.count) }
        close(pipeEnds[1])
        try waitUntil("gnome-keyring-daemon did not come up on the private bus") { self.secretsOwner() != nil }
    }

    /// Kills gnome-keyring (SIGKILL, as a crash or the OOM killer would) and waits until the
    /// bus has no Secret Service.
    public func killKeyring() throws {
        guard let keyringProcess else { return }
        keyringProcess.signal(SIGKILL)
        _ = keyringProcess.wait(timeout: 10)
        self.keyringProcess = nil
        try waitUntil("the bus still names a Secret Service") { self.secretsOwner() == nil }
    }

    /// The unique name that owns `org.freedesktop.secrets`; nil when none does.
    public func secretsOwner() -> String? {
        guard let reply = try? dbusSend(["--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.GetNameOwner",
                                         "string:org.freedesktop.secrets"]),
              let name = reply.firstMatch(of: /string "([^"]+)"/)?.output.1
        else { return nil }
        return String(name)
    }

    /// Locks every collection, as a screen lock or `secret-tool lock` does.
    /// (Through the Secret Service's `Lock`: `secret-tool lock` crashes with SIGSEGV after
    /// locking, on Debian 12's libsecret.)
    public func lockKeyring() throws {
        let reply = try dbusSend(["--dest=org.freedesktop.secrets", "/org/freedesktop/secrets", "org.freedesktop.Secret.Service.Lock",
                                  "array:objpath:/org/freedesktop/secrets/collection/login"])
        guard reply.hasSuffix("object path \"/\"\n") else { throw Failure(description: "Lock asked for a prompt: \(reply)") }
    }

    /// `dbus-send --print-reply ARGUMENTS` on this bus, as the test's own user: the reply as
    /// dbus-send prints it. Throws when the call fails. (Not fbauth's own D-Bus client, whose
    /// behaviour the tests check.)
    func dbusSend(_ arguments: [String]) throws -> String {
        let output = directory + "/dbus-send-\(UUID().uuidString.prefix(6)).out"
        let descriptor = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(descriptor); unlink(output) }
        let tool = try ChildProcess("/usr/bin/dbus-send", ["--session", "--print-reply", "--reply-timeout=5000", "--type=method_call"] + arguments,
                                    environment: environment, stdout: descriptor, stderr: descriptor)
        guard tool.wait(timeout: 20) else {
            tool.signal(SIGKILL)
            throw Failure(description: "dbus-send did not end")
        }
        let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        guard tool.terminationStatus == 0 else { throw Failure(description: "dbus-send \(arguments.dropFirst(2).first ?? ""): \(printed)") }
        return printed
    }

    /// `secret-tool ARGUMENTS` on this bus (as the bus's owner): what it printed (it writes
    /// attributes on stderr and the rest on stdout, so both go to one file, stdout line-buffered
    /// to keep their order). Throws with that text when it exits with a status not in
    /// `accepting`, or does not end.
    @discardableResult
    public func secretTool(_ arguments: [String], input: String? = nil, accepting: Set<Int32> = [0]) throws -> String {
        let output = directory + "/secret-tool-\(UUID().uuidString.prefix(6)).out"
        let descriptor = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(descriptor); unlink(output) }
        var pipeEnds: [Int32] = [-1, -1]
        if input != nil { guard pipe(&pipeEnds) == 0 else { throw Failure(description: "no pipe") } }
        let tool = try spawn("/usr/bin/stdbuf", ["-oL", secretToolPath] + arguments, environment: environment,
                             stdin: input == nil ? nil : pipeEnds[0], stdout: descriptor, stderr: descriptor)
        if let input {
            close(pipeEnds[0])
            _ = Array(input.utf8).withUnsafeBytes { write(pipeEnds[1], $0.baseAddress, $0.count) }
            close(pipeEnds[1])
        }
        guard tool.wait(timeout: 30) else {
            tool.signal(SIGKILL)
            throw Failure(description: "secret-tool \(arguments.joined(separator: " ")) did not end in 30 s")
        }
        let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        guard accepting.contains(tool.terminationStatus) else {
            throw Failure(description: "secret-tool \(arguments.first ?? "") exited \(tool.terminationStatus): \(printed)")
        }
        return printed
    }

    /// Every item with `service=fbauth`, as `secret-tool search --all` shows it: its
    /// attributes (the keyring's own `xdg:schema` as `schema`), label and secret.
    public func fbauthItems() throws -> [ListedItem] {
        try ListedItem.parse(secretTool(["search", "--all", "service", "fbauth"]))
    }

    /// How many fbauth items the keyring holds.
    public func fbauthItemCount() throws -> Int { try fbauthItems().count }

    /// Starts `executable` as the bus's owner.
    private func spawn(_ executable: String, _ arguments: [String], as owner: Owner? = nil, environment: [String: String],
                       stdin: Int32? = nil, stdout: Int32? = nil, stderr: Int32? = nil) throws -> ChildProcess {
        guard let owner = owner ?? self.owner else {
            return try ChildProcess(executable, arguments, environment: environment, stdin: stdin, stdout: stdout, stderr: stderr)
        }
        return try ChildProcess("/usr/bin/setpriv", ["--reuid=\(owner.uid)", "--regid=\(owner.gid)", "--clear-groups", "--", executable] + arguments,
                                environment: environment, stdin: stdin, stdout: stdout, stderr: stderr)
    }

    private func waitUntil(_ failure: String, _ condition: () -> Bool) throws {
        guard eventually(within: 20, condition) else { throw Failure(description: failure) }
    }

    deinit {
        for process in ([keyringProcess].compactMap { $0 } + daemons.reversed()) {
            process.signal(SIGKILL)
            _ = process.wait(timeout: 10)
        }
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// One item as `secret-tool search --all` prints it.
public struct ListedItem: Equatable, Sendable {
    public var label = ""
    public var secret = ""
    /// `attribute.NAME = VALUE` lines, and the `schema = …` line as `xdg:schema`.
    public var attributes: [String: String] = [:]

    public init(label: String = "", secret: String = "", attributes: [String: String] = [:]) {
        self.label = label
        self.secret = secret
        self.attributes = attributes
    }

    public static func parse(_ text: String) -> [ListedItem] {
        var items: [ListedItem] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("[/") {
                items.append(ListedItem())
                continue
            }
            guard !items.isEmpty, let separator = line.range(of: " = ") else { continue }
            let name = String(line[..<separator.lowerBound]), value = String(line[separator.upperBound...])
            switch name {
            case "label": items[items.count - 1].label = value
            case "secret": items[items.count - 1].secret = value
            case "schema": items[items.count - 1].attributes["xdg:schema"] = value
            default:
                if name.hasPrefix("attribute.") { items[items.count - 1].attributes[String(name.dropFirst("attribute.".count))] = value }
            }
        }
        return items
    }
}
