@testable import FirebaseCore
import Foundation
import Testing

/// FirebaseCore as the SDK's: named apps, their options from a plist or given, and deletion.
@Suite(.serialized) struct FirebaseAppTests {
    @Test func namedAppsAreKeptUntilDeleted() throws {
        let name = "app-" + UUID().uuidString
        let options = FirebaseOptions(googleAppID: "1:123456789:ios:0a1b2c3d", gcmSenderID: "123456789")
        options.apiKey = "AIza-test"
        options.projectID = "my-project"
        FirebaseApp.configure(name: name, options: options)
        let app = try #require(FirebaseApp.app(name: name))
        #expect(app.name == name && app.options.apiKey == "AIza-test" && app.options.projectID == "my-project")
        #expect(app.options.googleAppID == "1:123456789:ios:0a1b2c3d" && app.options.gcmSenderID == "123456789")
        #expect(FirebaseApp.allApps?[name] === app)
        #expect(app.isDataCollectionDefaultEnabled)
        app.isDataCollectionDefaultEnabled = false
        #expect(!app.isDataCollectionDefaultEnabled)
        var deleted: Bool?
        app.delete { deleted = $0 }
        #expect(deleted == true && FirebaseApp.app(name: name) == nil && FirebaseApp.allApps?[name] == nil)
    }

    /// No plist (a server, a CI job): `configure()` takes the command line's environment.
    @Test func withoutAPlistTheOptionsComeFromTheEnvironment() throws {
        let environment = ["FIREBASE_API_KEY": "AIza-env", "FIREBASE_PROJECT_ID": "env-project", "FIREBASE_APP_ID": "1:42:web:abc",
                           "FIREBASE_MESSAGING_SENDER_ID": "42"]
        let options = try #require(FirebaseOptions.defaultOptions(environment: environment))
        #expect(options.apiKey == "AIza-env" && options.projectID == "env-project" && options.googleAppID == "1:42:web:abc" && options.gcmSenderID == "42")
        #expect(FirebaseOptions.defaultOptions(environment: ["FIREBASE_API_KEY": "AIza-env", "GOOGLE_CLOUD_PROJECT": "gcp-project"])?.projectID == "gcp-project")
        #expect(FirebaseOptions.defaultOptions(environment: ["FIREBASE_PROJECT_ID": "env-project"]) == nil, "no API key: no options")
        #expect(FirebaseOptions.defaultOptions(environment: ["FIREBASE_API_KEY": ""]) == nil)
    }

    @Test func optionsComeFromAGoogleServiceInfoPlist() throws {
        let path = NSTemporaryDirectory() + "GoogleService-Info-\(UUID().uuidString).plist"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let plist: [String: Any] = ["GOOGLE_APP_ID": "1:987654321:ios:ffee", "GCM_SENDER_ID": "987654321", "API_KEY": "AIza-plist",
                                    "PROJECT_ID": "plist-project", "BUNDLE_ID": "com.example.app", "CLIENT_ID": "123-abc.apps.googleusercontent.com",
                                    "STORAGE_BUCKET": "plist-project.appspot.com", "DATABASE_URL": "https://plist-project.firebaseio.com"]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0).write(to: URL(fileURLWithPath: path))
        let options = try #require(FirebaseOptions(contentsOfFile: path))
        #expect(options.googleAppID == "1:987654321:ios:ffee" && options.gcmSenderID == "987654321" && options.apiKey == "AIza-plist")
        #expect(options.projectID == "plist-project" && options.bundleID == "com.example.app" && options.clientID == "123-abc.apps.googleusercontent.com")
        #expect(options.storageBucket == "plist-project.appspot.com" && options.databaseURL == "https://plist-project.firebaseio.com")
        #expect(options.appGroupID == nil)
        // `defaultOptions()`, as `configure()` reads it: the file FIREBASE_APP_CONFIG names first.
        setenv("FIREBASE_APP_CONFIG", path, 1)
        defer { unsetenv("FIREBASE_APP_CONFIG") }
        #expect(FirebaseOptions.defaultOptions()?.apiKey == "AIza-plist")
        // Not a plist of Firebase's: no options, as the SDK.
        try Data("not a plist".utf8).write(to: URL(fileURLWithPath: path))
        #expect(FirebaseOptions(contentsOfFile: path) == nil)
    }
}

/// The SDK's version and logger level: the level decides what FirebaseAuth logs
/// (FirebaseAuthTests.LoggingTests).
@Suite struct FirebaseConfigurationTests {
    @Test func theVersionIsTheSDKsWhoseAPIThisIs() {
        #expect(FirebaseVersion() == "12.19.0")
        #expect(FirebaseLoggerLevel.min == .error && FirebaseLoggerLevel.max == .debug && FirebaseLoggerLevel.warning.rawValue == 4)
        #expect(FirebaseLoggerLevel.notice.rawValue == 5 && FirebaseLoggerLevel.info.rawValue == 6)
    }
}
