import Foundation

/// What a command runs with: the dependencies and the global options.
public struct CommandContext: Sendable {
    public var dependencies: Dependencies
    public var globals: GlobalOptions

    public init(dependencies: Dependencies, globals: GlobalOptions) {
        self.dependencies = dependencies
        self.globals = globals
    }

    var console: Console { dependencies.console }
    var environment: [String: String] { dependencies.environment }

    /// The project to talk to: API key (flag, then `FIREBASE_API_KEY`) and endpoints.
    func project() throws(FBAuthError) -> ProjectContext {
        guard let apiKey = globals.apiKey ?? environment["FIREBASE_API_KEY"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw .usage("no Firebase Web API key: pass --api-key KEY or set FIREBASE_API_KEY (Firebase console → Project settings → General → Web API key)")
        }
        let endpoints = try FirebaseEndpoints.from(environment: environment)
        let client = FirebaseAuthClient(
            endpoints: endpoints, apiKey: apiKey, transport: dependencies.transport, timeout: try httpTimeout())
        return ProjectContext(key: ProjectKey(apiKey: apiKey, emulatorHost: endpoints.emulatorHost), client: client, tenantId: globals.tenantId)
    }

    func sessionStore() -> FileSessionStore {
        FileSessionStore(directory: FileSessionStore.directory(option: globals.configDirectory, environment: environment))
    }

    /// `FBAUTH_HTTP_TIMEOUT` seconds per request (default 30).
    private func httpTimeout() throws(FBAuthError) -> TimeInterval {
        guard let text = environment["FBAUTH_HTTP_TIMEOUT"], !text.isEmpty else { return 30 }
        guard let seconds = TimeInterval(text), seconds > 0, seconds.isFinite else {
            throw .usage("FBAUTH_HTTP_TIMEOUT '\(text)' is not a positive number of seconds")
        }
        return seconds
    }
}

/// A resolved project: where its sessions are kept and a client for its API.
struct ProjectContext {
    var key: ProjectKey
    var client: FirebaseAuthClient
    var tenantId: String?
}
