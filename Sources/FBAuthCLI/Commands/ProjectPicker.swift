import FBAuth

/// The exact command line that picks a saved project, for messages that list several: the
/// emulator first (`FIREBASE_AUTH_EMULATOR_HOST=…`), then `--project ID`, or the API key's
/// variable when the project's id is not known.
enum ProjectPicker {
    static func command(for project: SavedProject, fbauth: String) -> String {
        var words = project.emulatorHost.map { ["FIREBASE_AUTH_EMULATOR_HOST=\($0)"] } ?? []
        if let projectId = project.projectID, SettingChecks.isProjectID(projectId) {
            words.append(fbauth)
            words.append("--project \(projectId)")
        } else {
            words.append("FIREBASE_API_KEY=\(project.apiKey)")
            words.append(fbauth)
        }
        return words.joined(separator: " ")
    }
}
