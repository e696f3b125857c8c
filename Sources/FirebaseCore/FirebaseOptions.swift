import Foundation

/// The options of a Firebase app, as `FirebaseOptions` in Firebase's Apple SDK
/// (FirebaseCore/Sources/FIROptions): what `GoogleService-Info.plist` holds, or what a program
/// sets itself.
///
/// ```swift
/// let options = FirebaseOptions(googleAppID: "1:123:ios:abc", gcmSenderID: "123")
/// options.apiKey = "AIza…"
/// options.projectID = "my-project"
/// FirebaseApp.configure(options: options)
/// ```
open class FirebaseOptions: NSObject, @unchecked Sendable {
    /// The app's Firebase id (`GOOGLE_APP_ID`).
    public var googleAppID: String
    /// The project number (`GCM_SENDER_ID`).
    public var gcmSenderID: String
    /// The project's Web API key (`API_KEY`).
    public var apiKey: String?
    /// The project id (`PROJECT_ID`).
    public var projectID: String?
    /// The OAuth client id (`CLIENT_ID`).
    public var clientID: String?
    /// The bundle id the plist names (`BUNDLE_ID`).
    public var bundleID: String
    /// `STORAGE_BUCKET`.
    public var storageBucket: String?
    /// `DATABASE_URL`.
    public var databaseURL: String?
    /// The App Group the SDK would share its keychain with; kept, unused on Linux.
    public var appGroupID: String?

    /// Options for the app `googleAppID` of the project numbered `gcmSenderID`; set `apiKey` and `projectID` next.
    public init(googleAppID: String, gcmSenderID: String) {
        self.googleAppID = googleAppID
        self.gcmSenderID = gcmSenderID
        bundleID = Bundle.main.bundleIdentifier ?? ""
        super.init()
    }

    /// The options of a `GoogleService-Info.plist`; nil when the file cannot be read or lacks
    /// `GOOGLE_APP_ID` or `GCM_SENDER_ID`.
    public convenience init?(contentsOfFile plistPath: String) {
        guard let data = FileManager.default.contents(atPath: plistPath),
              let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
              let appID = plist["GOOGLE_APP_ID"] as? String, let sender = plist["GCM_SENDER_ID"] as? String
        else { return nil }
        self.init(googleAppID: appID, gcmSenderID: sender)
        apiKey = plist["API_KEY"] as? String
        projectID = plist["PROJECT_ID"] as? String
        clientID = plist["CLIENT_ID"] as? String
        bundleID = plist["BUNDLE_ID"] as? String ?? bundleID
        storageBucket = plist["STORAGE_BUCKET"] as? String
        databaseURL = plist["DATABASE_URL"] as? String
    }

    /// The options `FirebaseApp.configure()` reads: `GoogleService-Info.plist` from
    /// `FIREBASE_APP_CONFIG` (a path, as `fbauth --app-config` takes), else the main bundle's
    /// resources, else the working directory; else, where no file is, the environment the
    /// `fbauth` command reads (`FIREBASE_API_KEY`, with `FIREBASE_PROJECT_ID`,
    /// `FIREBASE_APP_ID` and `FIREBASE_MESSAGING_SENDER_ID`); nil when there is neither.
    public static func defaultOptions() -> FirebaseOptions? {
        defaultOptions(environment: ProcessInfo.processInfo.environment)
    }

    static func defaultOptions(environment: [String: String]) -> FirebaseOptions? {
        defaultOptionsPath(environment: environment).flatMap(FirebaseOptions.init(contentsOfFile:)) ?? fromEnvironment(environment)
    }

    /// Where `defaultOptions()` looks for a file, in order; the first file that exists.
    static func defaultOptionsPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let candidates = [environment["FIREBASE_APP_CONFIG"].flatMap { $0.isEmpty ? nil : $0 },
                          Bundle.main.path(forResource: "GoogleService-Info", ofType: "plist"),
                          FileManager.default.currentDirectoryPath + "/GoogleService-Info.plist"]
        return candidates.compactMap { $0 }.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// A server or a CI job has no plist: the Web API key and the rest from the environment, as
    /// the command line takes them. The project id may also come from `GOOGLE_CLOUD_PROJECT` or
    /// `GCLOUD_PROJECT`, as Google's libraries read it. Nil without `FIREBASE_API_KEY`.
    static func fromEnvironment(_ environment: [String: String]) -> FirebaseOptions? {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        guard let apiKey = value("FIREBASE_API_KEY") else { return nil }
        let options = FirebaseOptions(googleAppID: value("FIREBASE_APP_ID") ?? "", gcmSenderID: value("FIREBASE_MESSAGING_SENDER_ID") ?? "")
        options.apiKey = apiKey
        options.projectID = value("FIREBASE_PROJECT_ID") ?? value("GOOGLE_CLOUD_PROJECT") ?? value("GCLOUD_PROJECT")
        return options
    }
}
