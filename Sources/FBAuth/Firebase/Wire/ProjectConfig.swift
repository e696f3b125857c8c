import FBAuthSupport

/// `GET /v1/projects?key=KEY`: the project an API key belongs to and the domains allowed to
/// run browser sign-ins for it. The SDKs call it to check the page's origin
/// (firebase-js-sdk `packages/auth/src/api/project_config/get_project_config.ts`;
/// firebase-ios-sdk `FirebaseAuth/Sources/Swift/Backend/RPC/GetProjectConfigResponse.swift`).
internal struct ProjectConfigResponse: Decodable, Sendable, Equatable {
    internal var projectId: String?
    internal var authorizedDomains: [String]?
}

extension ProjectConfigResponse {
    /// `projectId` when it is a project id. Google's Auth emulator answers with the project
    /// number (firebase-tools `operations.ts`, `getProjects`), and a number names no
    /// `PROJECT_ID.firebaseapp.com` and no emulator listing: a project id starts with a letter.
    internal var namedProjectId: String? {
        guard let projectId, TextChecks.isProjectID(projectId), projectId.first?.isLetter == true else { return nil }
        return projectId
    }
}
