import FBAuth
import FBAuthSupport
/// How fbauth names itself in commands it suggests, so that they run as printed: `fbauth`
/// when that is on PATH, else the path of the `fbauth` that is running (from /proc, else from
/// argv[0] where it is a path, as in a chroot or container without /proc), else `swift run fbauth`.
enum CommandName {
    static func forSuggestions(environment: [String: String], argument0: String? = CommandLine.arguments.first) -> String {
        if Platform.findExecutable("fbauth", path: environment["PATH"]) != nil { return "fbauth" }
        let invoked = argument0.flatMap { $0.hasPrefix("/") ? $0 : nil }
        guard let executable = Platform.executablePath() ?? invoked, Platform.isExecutable(executable) else { return "swift run fbauth" }
        return DemoCommand.quoted(executable)
    }
}
