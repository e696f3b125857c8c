import FBAuth
import LoopbackHTTP
/// How fbauth names itself in commands it suggests, so that they run as printed: `fbauth`
/// when that is on PATH, else the path of the `fbauth` that is running, else (a build
/// directory that cannot be found) `swift run fbauth`.
enum CommandName {
    static func forSuggestions(environment: [String: String]) -> String {
        if Platform.findExecutable("fbauth", path: environment["PATH"]) != nil { return "fbauth" }
        guard let executable = Platform.executablePath() else { return "swift run fbauth" }
        let directory = String(executable[..<(executable.lastIndex(of: "/") ?? executable.startIndex)])
        // fbauth-net runs beside fbauth (a build) or in PREFIX/libexec/fbauth (an installation).
        let candidates = [directory + "/fbauth", directory + "/../../bin/fbauth"]
        guard let front = candidates.first(where: Platform.isExecutable) else { return "swift run fbauth" }
        return DemoCommand.quoted(front.replacing("/libexec/fbauth/../../bin/", with: "/bin/"))
    }
}
