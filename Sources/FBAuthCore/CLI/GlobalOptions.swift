/// Options every command accepts.
public struct GlobalOptions: Sendable, Equatable {
    public var apiKey: String?
    public var tenantId: String?
    public var configDirectory: String?
    /// `--user UID-or-EMAIL`: act on this saved session instead of the current one.
    public var user: String?
    /// `--verbose`: log each HTTP exchange, secrets redacted.
    public var verbose = false
    /// `--app-config FILE`: GoogleService-Info.plist or google-services.json.
    public var appConfig: String?
    /// `--app-id ID`: which app of a google-services.json with several.
    public var appId: String?

    public static let specs: [OptionSpec] = [
        OptionSpec("api-key", value: "KEY", help: "Firebase Web API key (default: $FIREBASE_API_KEY)."),
        OptionSpec("app-config", value: "FILE", help: "Read the API key and project id from an iOS GoogleService-Info.plist or an Android google-services.json."),
        OptionSpec("app-id", value: "ID", help: "With --app-config: the app (mobilesdk_app_id or package name) of a google-services.json with several."),
        OptionSpec("tenant-id", value: "TENANT", help: "Identity Platform tenant, sent as tenantId."),
        OptionSpec("config-dir", value: "DIR", help: "Where sessions.json lives (default: $FBAUTH_CONFIG_DIR, $XDG_CONFIG_HOME/fbauth or ~/.config/fbauth)."),
        OptionSpec("user", value: "UID-or-EMAIL", help: "Act on this saved session instead of the current one."),
        OptionSpec("verbose", help: "Log each HTTP exchange on stderr, with tokens, codes and passwords redacted."),
    ]

    public init(apiKey: String? = nil, tenantId: String? = nil, configDirectory: String? = nil, user: String? = nil) {
        self.apiKey = apiKey
        self.tenantId = tenantId
        self.configDirectory = configDirectory
        self.user = user
    }

    init(_ arguments: ParsedArguments) throws(FBAuthError) {
        apiKey = try arguments.nonEmpty("api-key")
        tenantId = try arguments.nonEmpty("tenant-id")
        configDirectory = try arguments.nonEmpty("config-dir")
        user = try arguments.nonEmpty("user")
        verbose = arguments.flag("verbose")
        appConfig = try arguments.nonEmpty("app-config")
        appId = try arguments.nonEmpty("app-id")
        if apiKey != nil && appConfig != nil { throw .usage("give either --api-key or --app-config, not both") }
        if appId != nil && appConfig == nil { throw .usage("--app-id needs --app-config") }
    }
}
