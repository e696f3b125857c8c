import FBAuthStandIn
import FirebaseAuth
import FirebaseCore
import Foundation
import TestSupport

/// An app of its own (a new name, so a new `Auth`), on a stand-in of its own, its sessions in a
/// new directory, and a browser that consents as `email`: what each test of the SDK's API
/// runs against, as an app would against `fbauth emulator`.
final class StandInApp: @unchecked Sendable {
    let standIn: StandIn
    let app: FirebaseApp
    let auth: Auth
    let directory: String

    /// `openBrowser`: the browser, instead of one that consents as `email` at the fake provider.
    init(email: String = "ada@example.com", configuration: StandInConfiguration? = nil, openBrowser: (@Sendable (URL) -> Bool)? = nil) throws {
        // A project of its own: sessions are kept by project, and tests run side by side.
        var configuration = configuration ?? StandInConfiguration()
        if configuration.projectId == StandInConfiguration().projectId { configuration.projectId = "p-" + UUID().uuidString.prefix(8).lowercased() }
        standIn = try StandIn(configuration: configuration)
        standIn.start()
        directory = NSTemporaryDirectory() + "fbauth-sdk-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let options = FirebaseOptions(googleAppID: "1:123456789:ios:0a1b2c3d", gcmSenderID: "123456789")
        options.apiKey = "test-api-key"
        options.projectID = configuration.projectId
        let name = "test-" + UUID().uuidString
        FirebaseApp.configure(name: name, options: options)
        app = FirebaseApp.app(name: name)!
        // The seams are read when an Auth is made (or pointed at an emulator): set them first,
        // with no other test setting them meanwhile.
        linuxSeamsLock.lock()
        defer { linuxSeamsLock.unlock() }
        LinuxSeams.sessionsDirectory = directory
        LinuxSeams.signInProgress = { _ in }
        LinuxSeams.openBrowser = openBrowser ?? { url in
            Thread.detachNewThread { _ = try? HeadlessBrowser(email: email).visit(url.absoluteString) }
            return true
        }
        auth = Auth.auth(app: app)
        auth.useEmulator(withHost: "127.0.0.1", port: Int(standIn.port))
    }

    /// Another app (a name of its own) of the same project, on the same stand-in and sessions
    /// directory: two apps in one program, as the SDK allows; `apiKey`: another key of it.
    func anotherApp(apiKey: String? = nil) -> Auth {
        let name = "other-" + UUID().uuidString
        let options = FirebaseOptions(googleAppID: app.options.googleAppID, gcmSenderID: app.options.gcmSenderID)
        options.apiKey = apiKey ?? app.options.apiKey
        options.projectID = app.options.projectID
        FirebaseApp.configure(name: name, options: options)
        linuxSeamsLock.lock()
        defer { linuxSeamsLock.unlock() }
        LinuxSeams.sessionsDirectory = directory
        LinuxSeams.signInProgress = { _ in }
        let other = Auth.auth(app: FirebaseApp.app(name: name)!)
        other.useEmulator(withHost: "127.0.0.1", port: Int(standIn.port))
        return other
    }

    deinit {
        standIn.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
