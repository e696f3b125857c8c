extension Backend {
    /// `GET /v1/projects?key=KEY` (identitytoolkit.getProjects): the API key's project and the
    /// domains allowed to run browser sign-ins. A new project authorizes `localhost` and its
    /// two Firebase Hosting domains; the stand-in adds `127.0.0.1`, as the README tells X
    /// (Twitter) users to, so that its fake Twitter works with `--loopback` out of the box.
    /// Google's emulator answers with the project number and `localhost` only (firebase-tools
    /// `src/emulator/auth/operations.ts`, `getProjects`).
    func projectConfig() -> [String: Any] {
        if configuration.profile.has(.projectNumberAsProjectId) {
            return ["projectId": configuration.projectNumber, "authorizedDomains": ["localhost"]]
        }
        let id = configuration.projectId
        return ["projectId": id, "authorizedDomains": configuration.authorizedDomains ?? ["localhost", "127.0.0.1", "\(id).firebaseapp.com", "\(id).web.app"]]
    }
}
