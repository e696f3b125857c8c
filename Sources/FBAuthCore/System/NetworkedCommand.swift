/// Hands a command that needs the network to `fbauth-net`, which lives beside `fbauth` (a build
/// directory) or in `../libexec/fbauth/` (an installation).
public enum NetworkedCommand {
    public static let executableName = "fbauth-net"

    /// Replaces this process with fbauth-net; returns an exit code only when that fails.
    public static func run(_ arguments: [String]) -> Int32 {
        let console = StandardConsole()
        guard let path = locate() else {
            console.say("fbauth: cannot find \(executableName), which fbauth runs for commands that talk to Firebase; reinstall fbauth (Scripts/install.sh) or run `swift build`")
            return ExitCode.failure.rawValue
        }
        let code = Platform.replaceProcess(with: path, arguments: arguments)
        console.say("fbauth: cannot run \(path): \(Platform.describe(errno: code))")
        return ExitCode.failure.rawValue
    }

    static func locate() -> String? {
        guard let executable = Platform.executablePath() else { return nil }
        let directory = String(executable[..<(executable.lastIndex(of: "/") ?? executable.startIndex)])
        return [directory + "/" + executableName, directory + "/../libexec/fbauth/" + executableName]
            .first(where: Platform.isExecutable)
    }
}

/// The transport of the process that runs commands without the network; never used, since
/// those commands make no request.
public struct NoTransport: HTTPTransport {
    public init() {}

    public func send(_ request: HTTPClientRequest) throws(TransportError) -> HTTPClientResponse {
        throw TransportError(.other, "this process does not make requests")
    }
}
