import FBAuth

/// The exact command line that picks a saved project, for messages that list several: the
/// emulator first (`FIREBASE_AUTH_EMULATOR_HOST=…`), then `--project ID`, or the API key's
/// variable when the project's id is not known.
enum ProjectPicker {
    static func command(for key: ProjectKey, projectId: String?, fbauth: String) -> String {
        var words = key.emulatorHost.map { ["FIREBASE_AUTH_EMULATOR_HOST=\($0)"] } ?? []
        if let projectId, SettingChecks.isProjectID(projectId) {
            words.append(fbauth)
            words.append("--project \(projectId)")
        } else {
            words.append("FIREBASE_API_KEY=\(key.apiKey)")
            words.append(fbauth)
        }
        return words.joined(separator: " ")
    }
}
