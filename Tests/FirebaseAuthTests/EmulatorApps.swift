import FBAuthStandIn
import FirebaseAuth
import FirebaseCore
import Foundation
import TestSupport
import Testing

/// An app whose `Auth` talks to an Auth emulator: fbauth's stand-in or Google's own. The tests of
/// the SDK's members run the same scenario on each (issue 48, item 1): what the emulators'
/// `/emulator/v1` listings show stands in for the SMS and the mail.
protocol EmulatorApp: AnyObject, Sendable {
    var auth: Auth { get }
    /// `HOST:PORT`.
    var host: String { get }
    /// The project the emulator keeps this app's users in.
    var projectId: String { get }
    /// Where this app's sessions are kept.
    var directory: String { get }
    /// Marks the user's email verified, as the Admin SDK would.
    func verifyEmail(uid: String) throws
}

extension EmulatorApp {
    /// The code the emulator "texted" to `number` last.
    func smsCode(for number: String) throws -> String {
        let listing = try EmulatorHTTP.call("GET", host, "/emulator/v1/projects/\(projectId)/verificationCodes")
        let codes = (listing["verificationCodes"] as? [[String: Any]] ?? []).filter { $0["phoneNumber"] as? String == number }
        return try #require(codes.last?["code"] as? String, "no code was texted to \(number): \(listing)")
    }

    /// The `oobCode` of the link the emulator "mailed" to `email` last.
    func mailedCode(to email: String) throws -> String {
        let listing = try EmulatorHTTP.call("GET", host, "/emulator/v1/projects/\(projectId)/oobCodes")
        let codes = (listing["oobCodes"] as? [[String: Any]] ?? []).filter { $0["email"] as? String == email }
        return try #require(codes.last?["oobCode"] as? String, "nothing was mailed to \(email): \(listing)")
    }

    /// A phone number no other test uses (the emulators are shared within a run).
    static func uniqueNumber() -> String { "+1555\(Int.random(in: 1_000_000...9_999_999))" }
}

extension StandInApp: EmulatorApp {
    var host: String { "127.0.0.1:\(standIn.port)" }
    var projectId: String { standIn.configuration.projectId }
    func verifyEmail(uid: String) throws { standIn.verifyEmail(uid: uid) }
}

/// An app of its own on Google's Auth emulator (`FBAUTH_TEST_AUTH_EMULATOR`, which `.ci/run`
/// starts where it is built), its sessions in a new directory.
final class GoogleEmulatorApp: EmulatorApp, @unchecked Sendable {
    static let host = ProcessInfo.processInfo.environment["FBAUTH_TEST_AUTH_EMULATOR"].flatMap { $0.isEmpty ? nil : $0 }
    static let skipReason: Comment = "FBAUTH_TEST_AUTH_EMULATOR is not set (Google's Auth emulator is not built on this machine)"

    let auth: Auth
    let host: String
    let projectId: String
    let directory: String

    /// `openBrowser`: the browser (default: none can be opened).
    init(openBrowser: (@Sendable (URL) -> Bool)? = nil) throws {
        host = try #require(Self.host)
        // The emulator serves one project, whatever the app names; its tokens say which.
        let signUp = try EmulatorHTTP.call("POST", host, "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=fbauth-test", ["returnSecureToken": true])
        let token = try #require(signUp["idToken"] as? String)
        let payload = try #require(token.split(separator: ".").dropFirst().first.flatMap { Data(base64URL: String($0)) })
        projectId = try #require((try JSONSerialization.jsonObject(with: payload) as? [String: Any])?["aud"] as? String)
        directory = NSTemporaryDirectory() + "fbauth-sdk-google-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let options = FirebaseOptions(googleAppID: "1:123456789:ios:0a1b2c3d", gcmSenderID: "123456789")
        options.apiKey = "test-api-key"
        options.projectID = projectId
        let name = "google-" + UUID().uuidString
        FirebaseApp.configure(name: name, options: options)
        let app = try #require(FirebaseApp.app(name: name))
        linuxSeamsLock.lock()
        defer { linuxSeamsLock.unlock() }
        LinuxSeams.sessionsDirectory = directory
        LinuxSeams.signInProgress = { _ in }
        LinuxSeams.openBrowser = openBrowser ?? { _ in false }
        auth = Auth.auth(app: app)
        let port = try #require(host.split(separator: ":").last.flatMap { Int($0) })
        auth.useEmulator(withHost: String(host.split(separator: ":").first ?? "127.0.0.1"), port: port)
    }

    func verifyEmail(uid: String) throws {
        let answer = try EmulatorHTTP.call("POST", host, "/identitytoolkit.googleapis.com/v1/projects/\(projectId)/accounts:update",
                                           ["localId": uid, "emailVerified": true], owner: true)
        #expect(answer["error"] == nil, "\(answer)")
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }
}

extension Data {
    /// base64url without padding, as JWTs write it.
    init?(base64URL text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        self.init(base64Encoded: base64)
    }
}
