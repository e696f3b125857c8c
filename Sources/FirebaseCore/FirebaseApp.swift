import Foundation

/// A configured Firebase app, as `FirebaseApp` in Firebase's Apple SDK: `configure()` once at
/// start, then `Auth.auth()` uses it.
open class FirebaseApp: NSObject, @unchecked Sendable {
    /// `__FIRAPP_DEFAULT`, the SDK's name of the default app.
    public static let defaultAppName = "__FIRAPP_DEFAULT"

    /// The app's name (`defaultAppName` for the default app).
    public let name: String
    /// What the app was configured with.
    public let options: FirebaseOptions
    /// Whether Firebase collects usage data; kept for source compatibility, nothing is sent.
    public var isDataCollectionDefaultEnabled = true

    private static let lock = NSLock()
    nonisolated(unsafe) private static var apps: [String: FirebaseApp] = [:]

    private init(name: String, options: FirebaseOptions) {
        self.name = name
        self.options = options
        super.init()
    }

    /// Configures the default app from `GoogleService-Info.plist`, or where there is none from
    /// `FIREBASE_API_KEY` and the rest of the environment (`FirebaseOptions.defaultOptions()`
    /// says where each is looked for). Like the SDK, finding neither is a programmer's error.
    public static func configure() {
        guard let options = FirebaseOptions.defaultOptions() else {
            fatalError("FirebaseApp.configure() found no GoogleService-Info.plist (FIREBASE_APP_CONFIG, the main bundle, the working directory) and no FIREBASE_API_KEY: use configure(options:)")
        }
        configure(options: options)
    }

    /// Configures the default app with `options`.
    public static func configure(options: FirebaseOptions) {
        configure(name: defaultAppName, options: options)
    }

    /// Configures an app of its own name.
    public static func configure(name: String, options: FirebaseOptions) {
        lock.withLock {
            precondition(apps[name] == nil, "FirebaseApp \(name) is configured already")
            apps[name] = FirebaseApp(name: name, options: options)
        }
    }

    /// The default app; nil before `configure()`.
    public static func app() -> FirebaseApp? { app(name: defaultAppName) }

    /// The app of this name; nil when none is configured.
    public static func app(name: String) -> FirebaseApp? { lock.withLock { apps[name] } }

    /// Every configured app, by name.
    public static var allApps: [String: FirebaseApp]? { lock.withLock { apps.isEmpty ? nil : apps } }

    /// Forgets this app.
    public func delete(_ completion: @escaping (Bool) -> Void) {
        let removed = FirebaseApp.lock.withLock { FirebaseApp.apps.removeValue(forKey: name) != nil }
        completion(removed)
    }
}
