@testable import FBAuth
import FBAuthStandIn
import Foundation
import TestSupport
import Testing
@testable import FBAuthSupport

/// The page a launched browser is given instead of the one-time start address.
@Suite struct LaunchPageTests {
    private func directory() throws -> String {
        let path = NSTemporaryDirectory() + "fbauth-launch-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return path
    }

    @Test func onlyTheUserCanReadItAndItLeadsToTheStartAddress() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let start = "http://localhost:8977/start?n=0123abcd"
        let page = try LaunchPage.create(in: folder, startURL: start, unique: "u1")
        #expect(page.path == "\(folder)/signin-\(getpid())-u1.html")
        #expect(page.url == "file://" + page.path)
        #expect(!page.url.contains("n="), "the nonce is in the file, not in its address")
        let mode = try FileManager.default.attributesOfItem(atPath: page.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        let html = try String(contentsOfFile: page.path, encoding: .utf8)
        #expect(HeadlessBrowser.refreshTarget(in: html) == start, "what a browser follows")
        #expect(html.contains("no-referrer"))
        page.remove()
        #expect(!FileManager.default.fileExists(atPath: page.path))
    }

    @Test func anExistingFileOrLinkIsNeverWrittenThrough() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let planted = "\(folder)/signin-\(getpid())-u2.html"
        try FileManager.default.createSymbolicLink(atPath: planted, withDestinationPath: folder + "/elsewhere")
        #expect(throws: BrowserLaunchError.self) { try LaunchPage.create(in: folder, startURL: "http://localhost:1/start?n=x", unique: "u2") }
        #expect(!FileManager.default.fileExists(atPath: folder + "/elsewhere"))
    }

    @Test func aDirectoryOthersCanWriteIsRefused() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        chmod(folder, 0o777)
        #expect(throws: BrowserLaunchError.self) { try LaunchPage.create(in: folder, startURL: "http://localhost:1/start?n=x", unique: "u3") }
    }

    @Test func pagesOfProcessesThatDiedAreRemoved() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let process = try ChildProcess("/bin/true", [], environment: [:])
        process.wait()
        let stale = "\(folder)/signin-\(process.pid)-old.html"
        _ = FileManager.default.createFile(atPath: stale, contents: Data("old".utf8))
        let page = try LaunchPage.create(in: folder, startURL: "http://localhost:1/start?n=x", unique: "u4")
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: page.path))
        page.remove()
    }

    @Test func withoutADirectoryAPrivateOneIsMadeAndRemoved() throws {
        let page = try LaunchPage.create(in: nil, startURL: "http://localhost:1/start?n=x", unique: "u5")
        let folder = Platform.parentDirectory(of: page.path)
        let mode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o700)
        page.remove()
        #expect(!FileManager.default.fileExists(atPath: folder))
    }

    @Test func pathsAreEncodedInTheFileURL() {
        #expect(LaunchPage.percentEncodedPath("/home/a b/.config/fbauth/x.html") == "/home/a%20b/.config/fbauth/x.html")
    }

    @Test func underWSLTheWindowsBrowserGetsTheDistributionsPath() {
        #expect(BrowserCommand.windowsPath(ofFileURL: "file:///home/ada/.config/fbauth/signin-1-a.html", distribution: "Ubuntu")
            == #"\\wsl.localhost\Ubuntu\home\ada\.config\fbauth\signin-1-a.html"#)
        #expect(BrowserCommand.windowsPath(ofFileURL: "https://x/", distribution: "Ubuntu") == nil)
        let command = BrowserCommand.resolve(
            for: "file:///home/ada/p.html", environment: ["WSL_DISTRO_NAME": "Debian"], isMacOS: false, isWSL: true,
            hasExecutable: { $0 == "powershell.exe" })
        #expect(command == .program(["powershell.exe", "-NoProfile", "-NonInteractive", "-Command", #"Start-Process -FilePath '\\wsl.localhost\Debian\home\ada\p.html'"#]))
    }
}
