import Foundation
import LoopbackHTTP
import Testing
import TestSupport

/// Issue 27, item 10: snap and Flatpak browsers cannot read hidden folders such as
/// `~/.config`, so a launch page there is "file not found". Where the kernel says who owns a
/// loopback connection, the listener refuses other users' connections and the browser is given
/// the sign-in's address itself. (The race against another user is `LocalUserRaceTests`.)
@Suite(.enabled(if: PeerOwner.worksHere(), "the kernel does not say who owns a loopback connection here"))
struct ListenerOwnerCheckTests {
    /// A browser confined as snap and Flatpak browsers are: no file under a hidden folder.
    private func confinedBrowser(_ harness: Harness) throws -> String {
        let path = harness.directory + "/confined-browser"
        let script = """
            #!/bin/sh
            case "$1" in
              file://*/.*) echo "confined-browser: file not found: $1" >&2; exit 1 ;;
            esac
            exec '\(Binaries.url("fbauth-fake-browser").path)' "$1"
            """
        _ = FileManager.default.createFile(atPath: path, contents: Data(script.utf8), attributes: [.posixPermissions: 0o755])
        return path
    }

    @Test func aBrowserThatCannotReadHiddenFoldersSignsIn() throws {
        let arguments = ["--loopback", "--provider", "yahoo.com"]
        let harness = try Harness()
        harness.environment["FBAUTH_CONFIG_DIR"] = harness.directory + "/.config/fbauth"
        let browser = try confinedBrowser(harness)
        let result = try harness.run(["signin"] + arguments + ["--port", "0", "--timeout", "30", "--verbose"], environment: ["BROWSER": browser])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("closes every connection that is not from one of your own programs"), "--verbose says so: \(result.stderr)")
        #expect(!result.stderr.contains("file not found"), "\(result.stderr)")

        // Where the check is off, the page in the hidden folder is what such a browser cannot open.
        let off = try harness.run(["signin"] + arguments + ["--port", "0", "--timeout", "3", "--verbose"],
                                  environment: ["BROWSER": browser, "FBAUTH_CONNECTION_CHECK": "off"])
        #expect(off.status == 4, "\(off)")
        #expect(off.stderr.contains("cannot be checked here (FBAUTH_CONNECTION_CHECK=off)") && off.stderr.contains("file not found"), "\(off.stderr)")
    }

    @Test func theHostedFlowsPageIsOpenedDirectlyToo() throws {
        let harness = try Harness()
        let seen = harness.directory + "/browser-argument"
        let recorder = harness.directory + "/record-browser"
        _ = FileManager.default.createFile(atPath: recorder, contents: Data("#!/bin/sh\nprintf '%s' \"$1\" > '\(seen)'\n".utf8),
                                           attributes: [.posixPermissions: 0o755])
        let running = try BackgroundProcess(["signin", "--provider", "yahoo.com", "--port", "0", "--timeout", "5"], harness: harness,
                                            environment: ["BROWSER": recorder])
        #expect(eventually(within: 20) { FileManager.default.fileExists(atPath: seen) })
        let argument = (try? String(contentsOfFile: seen, encoding: .utf8)) ?? ""
        #expect(argument.hasPrefix("http://localhost:") && argument.contains("/start?n="), "\(argument)")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: harness.configDirectory)) ?? []
        #expect(!left.contains { $0.hasPrefix("signin-") }, "no launch page is written: \(left)")
        running.interrupt()
        #expect(running.finish().status == 4)
    }

    @Test func anUnknownSettingIsAUsageError() throws {
        let harness = try Harness()
        let result = try harness.run(["signin", "--loopback", "--provider", "yahoo.com", "--port", "0"], environment: ["FBAUTH_CONNECTION_CHECK": "maybe"])
        #expect(result.status == 2 && result.stderr.contains("FBAUTH_CONNECTION_CHECK 'maybe' must be on or off"), "\(result)")
    }
}
