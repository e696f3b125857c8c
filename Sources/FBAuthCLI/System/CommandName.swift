import FBAuth
import FBAuthSupport
/// How fbauth names itself in commands it suggests, so that they run as printed: `fbauth`
/// when that is on PATH, else the path of the `fbauth` that is running, else `swift run fbauth`.
enum CommandName {
    static func forSuggestions(environment: [String: String]) -> String {
        if Platform.findExecutable("fbauth", path: environment["PATH"]) != nil { return "fbauth" }
        guard let executable = Platform.executablePath(), Platform.isExecutable(executable) else { return "swift run fbauth" }
        return DemoCommand.quoted(executable)
    }
}
