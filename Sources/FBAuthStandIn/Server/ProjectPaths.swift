#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

/// Which project a request names: Identity Toolkit's `…/v1/projects/P/…` and `…/v2/projects/P/…`
/// (the Admin API), and the emulator's own `/emulator/v1/projects/P/…`. Requests with an API key
/// name none, and go to the default project, as an API key does in Google's Auth emulator.
extension Backend {
    static func projectNamed(in path: String) -> String? {
        for prefix in ["/identitytoolkit.googleapis.com/v1/projects/", "/identitytoolkit.googleapis.com/v2/projects/", "/emulator/v1/projects/"]
        where path.hasPrefix(prefix) {
            let project = path.dropFirst(prefix.count).prefix { $0 != "/" && $0 != ":" }
            return project.isEmpty ? nil : String(project)
        }
        return nil
    }

    /// An administrator's client call may name its project in the body instead
    /// (`targetProjectId`); looked for only where the body mentions it.
    static func targetProject(of request: HTTPRequest) -> String? {
        guard request.path.hasPrefix("/identitytoolkit.googleapis.com/v1/accounts:"), request.body.count < 65_536,
              request.body.firstRange(of: Array("targetProjectId".utf8)) != nil,
              let project = (JSONText.parse(request.body) as? [String: Any])?["targetProjectId"] as? String,
              !project.isEmpty, project.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else { return nil }
        return project
    }
}
