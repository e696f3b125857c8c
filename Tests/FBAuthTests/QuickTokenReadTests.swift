@testable import FBAuth
@testable import FBAuthCLI
import Foundation
import Testing

/// The steps of `fbauth token`'s quick path, in bytes, against their String-based counterparts
/// on the full path: the same config directory, the same project, the same command line.
@Suite struct QuickTokenReadTests {
    static let environments: [[String: String]] = [
        ["FBAUTH_CONFIG_DIR": "/srv/fbauth", "XDG_CONFIG_HOME": "/xdg", "HOME": "/home/ada"],
        ["FBAUTH_CONFIG_DIR": "", "XDG_CONFIG_HOME": "/xdg", "HOME": "/home/ada"],
        ["FBAUTH_CONFIG_DIR": "relative/dir", "HOME": "/home/ada"],
        ["XDG_CONFIG_HOME": "relative", "HOME": "/home/ada"],
        ["XDG_CONFIG_HOME": "", "HOME": "/home/ada"],
        ["HOME": "/home/ada lovelace/ünïcode"],
        ["HOME": ""],
        [:],
    ]

    @Test func theConfigDirectoryIsTheOneTheFullPathUses() {
        for values in Self.environments {
            let expected = FileSessionStore(directory: FileSessionStore.directory(option: nil, variable: { values[$0] }))
            let (directory, file) = QuickTokenRead.withSessionPaths(.table(values)) { (String(cString: $0), String(cString: $1)) }
            #expect(directory == expected.directory && file == expected.filePath, "\(values)")
        }
    }

    @Test func theProjectIsTheOneTheFullPathChooses() {
        let cases: [[String: String]] = [
            ["FIREBASE_API_KEY": "AIzaKey"],
            ["FIREBASE_API_KEY": "AIzaKey", "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:9099"],
            ["FIREBASE_API_KEY": "", "FIREBASE_AUTH_EMULATOR_HOST": "[::1]:9099"],
            ["FIREBASE_AUTH_EMULATOR_HOST": ""],
            [:],
        ]
        for values in cases {
            // The full path: the command line's rule for the key, the emulator host as checked.
            let apiKey = try? ProjectNaming.apiKey(option: nil, variable: { values[$0] })
            let host = try? SettingChecks.emulatorHost(values["FIREBASE_AUTH_EMULATOR_HOST"])
            let query = ProjectQuery(.table(values))
            func text(_ bytes: UnsafeRawBufferPointer?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }
            #expect(query != nil && text(query?.apiKey) == apiKey.flatMap { $0 } && text(query?.emulatorHost) == host.flatMap { $0 }, "\(values)")
        }
        for bad in ["http://127.0.0.1:9099", "127.0.0.1", "host:99999"] {
            #expect(ProjectQuery(.table(["FIREBASE_AUTH_EMULATOR_HOST": bad])) == nil, "a usage error the full path reports: \(bad)")
        }
    }

    @Test func onlyABareTokenCommandIsTakenTheQuickWay() {
        func handles(_ arguments: [String]) -> Bool {
            var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
            defer { pointers.forEach { free($0) } }
            return TokenShortcut.handles(&pointers, count: Int32(arguments.count))
        }
        #expect(handles(["fbauth", "token"]))
        for other in [["fbauth"], ["fbauth", "tokens"], ["fbauth", "toke"], ["fbauth", ""], ["fbauth", "Token"], ["fbauth", "token", "--json"]] {
            #expect(!handles(other), "\(other)")
        }
    }
}
