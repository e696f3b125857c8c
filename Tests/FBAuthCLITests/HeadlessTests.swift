import FBAuthStandIn
import Foundation
import Testing
import TestSupport

/// Signing in where no browser runs beside fbauth: SSH, containers, WSL, CI, scripts.
@Suite struct HeadlessTests {
    /// The harness without any way to open a browser: no $BROWSER, no display.
    private func headlessHarness() throws -> Harness {
        let harness = try Harness()
        harness.environment["BROWSER"] = nil
        harness.environment["DISPLAY"] = nil
        harness.environment["WAYLAND_DISPLAY"] = nil
        return harness
    }

    /// The port of the listener, read from the redirect_uri in the printed URL.
    /// The listener's port: of the one-time start address, or of the authorization URL's redirect_uri.
    private func listenerPort(in url: String) -> UInt16? {
        if url.hasPrefix("file://") || url.contains("/start?n=") { return startAddress(url).flatMap { URLComponents(string: $0)?.port }.map(UInt16.init) }
        let redirect = URLComponents(string: url)?.queryItems?.first { $0.name == "redirect_uri" }?.value
        return redirect.flatMap { URLComponents(string: $0)?.port }.map(UInt16.init)
    }

    @Test func twoStepSignInPrintsOnlyTheURLAndCompletesLater() throws {
        let harness = try headlessHarness()
        let start = try harness.run(["signin", "--loopback", "--provider", "yahoo.com", "--print-url", "--email", "two@example.com"])
        #expect(start.status == 0, "\(start)")
        let url = start.stdout.trimmingCharacters(in: .newlines)
        #expect(url.hasPrefix(harness.standIn.baseURL + "/fake-idp/yahoo.com/authorize?") && !url.contains("\n"))
        #expect(start.stderr.contains("fbauth signin --complete"))
        #expect(harness.bodies(of: "accounts:createAuthUri").first?["continueUri"] as? String == "http://localhost:8977/__/auth/handler")

        // The browser ends on the loopback redirect, which does not load; its address is the result.
        let address = try #require(try HeadlessBrowser().visit(url, stoppingAtPort: 8977).last?.url)
        let complete = try harness.run(["signin", "--complete", address])
        #expect(complete.status == 0, "\(complete)")
        #expect(complete.json.string("user", "email") == "two@example.com")
        #expect(harness.bodies(of: "accounts:signInWithIdp").first?["requestUri"] as? String == address)
        #expect(try harness.run(["token"]).status == 0)

        let again = try harness.run(["signin", "--complete", address])
        #expect(again.status == 4 && again.stderr.contains("already completed"), "\(again)")
    }

    /// Issue 51, item 5: against an emulator, whose fake providers take any loopback port,
    /// `--print-url --port 0` picks one of the ephemeral range instead of refusing.
    @Test func againstAnEmulatorAnyPortDoes() throws {
        let harness = try headlessHarness()
        let start = try harness.run(["signin", "--loopback", "--provider", "yahoo.com", "--print-url", "--port", "0", "--email", "any@yahoo.com"])
        #expect(start.status == 0, "\(start)")
        let url = start.stdout.trimmingCharacters(in: .newlines)
        let port = try #require(listenerPort(in: url))
        #expect((49_152...65_535).contains(Int(port)), "\(url)")
        #expect(start.stderr.contains("When it has been sent to http://localhost:\(port)/__/auth/handler?…"), "\(start.stderr)")
        let address = try #require(try HeadlessBrowser().visit(url, stoppingAtPort: port).last?.url)
        let complete = try harness.run(["signin", "--complete", address])
        #expect(complete.status == 0 && complete.json.string("user", "email") == "any@yahoo.com", "\(complete)")
    }

    @Test func completeReadsTheAddressFromStdinAndChecksItBelongsToTheCommand() throws {
        let harness = try headlessHarness()
        #expect(try harness.signIn("yahoo.com", ["--email", "ada@example.com"], environment: ["BROWSER": Binaries.url("fbauth-fake-browser").path]).status == 0)
        let port = try HeldPort()
        let url = try harness.run(["link", "--loopback", "--provider", "github.com", "--print-url", "--port", port.text]).stdout.trimmingCharacters(in: .newlines)
        let address = try #require(try HeadlessBrowser(email: "ada@example.com").visit(url, stoppingAtPort: port.number).last?.url)
        let wrong = try harness.run(["signin", "--complete", address])
        #expect(wrong.status == 2 && wrong.stderr.contains("belongs to a pending `link`, not to this one"), "\(wrong)")
        let linked = try harness.run(["link", "--complete", "-"], stdin: address + "\n")
        #expect(linked.status == 0, "\(linked)")
        #expect((linked.json[path: "user", "providerData"] as? [[String: Any]])?.count == 2)
    }

    @Test func twoStepReauthentication() throws {
        let harness = try headlessHarness()
        #expect(try harness.signIn("yahoo.com", ["--email", "ada@example.com"], environment: ["BROWSER": Binaries.url("fbauth-fake-browser").path]).status == 0)
        let port = try HeldPort()
        let url = try harness.run(["reauth", "--loopback", "--provider", "yahoo.com", "--print-url", "--port", port.text]).stdout.trimmingCharacters(in: .newlines)
        let address = try #require(try HeadlessBrowser(email: "ada@example.com").visit(url, stoppingAtPort: port.number).last?.url)
        let reauth = try harness.run(["reauth", "--complete", address])
        #expect(reauth.status == 0, "\(reauth)")
        #expect(harness.bodies(of: "accounts:signInWithIdp").last?["autoCreate"] as? Bool == false)
    }

    @Test func aStaleOrForeignAddressIsAClearError() throws {
        let harness = try headlessHarness()
        let url = try harness.run(["signin", "--loopback", "--provider", "yahoo.com", "--print-url"]).stdout.trimmingCharacters(in: .newlines)
        let address = try #require(try HeadlessBrowser().visit(url, stoppingAtPort: 8977).last?.url)
        #expect(try harness.run(["signin", "--complete", "http://localhost:8977/__/auth/handler?code=x&state=unknown"]).status == 4)
        #expect(try harness.run(["signin", "--complete", address.replacingOccurrences(of: ":8977/", with: ":8978/")]).status == 2)

        var text = try String(contentsOfFile: harness.sessionsPath, encoding: .utf8)
        let startedAt = try #require(text.firstRange(of: #/"startedAt" : "([^"]+)"/#))
        text.replaceSubrange(startedAt, with: "\"startedAt\" : \"\(ISO8601DateFormatter().string(from: Date().addingTimeInterval(-7200)))\"")
        try text.write(toFile: harness.sessionsPath, atomically: true, encoding: .utf8)
        let stale = try harness.run(["signin", "--complete", address])
        #expect(stale.status == 4 && stale.stderr.contains("has expired"), "\(stale)")
        #expect(harness.standIn.requests(to: "accounts:signInWithIdp").isEmpty)
        // In production the redirect URI registered with the provider names a port: 0 is refused
        // before anything is asked (an emulator takes any: againstAnEmulatorAnyPortDoes).
        let production = try harness.run(["signin", "--loopback", "--provider", "yahoo.com", "--print-url", "--port", "0"], environment: ["FIREBASE_AUTH_EMULATOR_HOST": ""])
        #expect(production.status == 2 && production.stderr.contains("needs a fixed port"), "\(production)")
    }

    @Test func withoutADisplayFBAuthSaysSoAndWaitsForTheRedirect() throws {
        let harness = try headlessHarness()
        // On a terminal, as over SSH: a browser elsewhere can still finish through the forward.
        let running = try BackgroundProcess(["signin", "--loopback", "--provider", "yahoo.com", "--port", "0", "--timeout", "30"], harness: harness,
                                            withTerminal: true)
        #expect(running.waitForStderr(containing: "no browser can be opened here (no display"))
        #expect(running.waitForStderr(containing: "forward the port"))
        // The user opens the URL elsewhere, with the port forwarded: the redirect reaches the listener.
        let url = try #require(running.printedURL)
        _ = try HeadlessBrowser(email: "remote@example.com").visit(url)
        let result = running.finish()
        #expect(result.status == 0, "\(result)")
        #expect(result.json.string("user", "email") == "remote@example.com")
    }

    @Test(arguments: ["wslview", "powershell.exe"])
    func underWSLTheWindowsBrowserIsUsed(launcher: String) throws {
        let harness = try headlessHarness()
        let bin = harness.directory + "/wsl-bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let fakeBrowser = Binaries.url("fbauth-fake-browser").path
        // Windows opens \\wsl.localhost\Ubuntu\PATH from the distribution's files: the fake
        // launchers turn it back into the Linux path the fake browser can read.
        let received = harness.directory + "/launcher-argument"
        let fromWindows = "| tee '\(received)' | sed -e 's|^\\\\\\\\wsl.localhost\\\\Ubuntu|file://|' -e 's|\\\\|/|g'"
        let script: String
        if launcher == "wslview" {
            script = "#!/bin/sh\nexec \(fakeBrowser) \"$(printf '%s' \"$1\" \(fromWindows))\"\n"
        } else {
            // Receives: -NoProfile -NonInteractive -Command "Start-Process -FilePath 'PATH'".
            script = """
                #!/bin/sh
                url=$(printf '%s' "$4" | sed -e "s/^Start-Process -FilePath '//" -e "s/'$//" -e "s/''/'/g" \(fromWindows))
                exec \(fakeBrowser) "$url"
                """
        }
        _ = FileManager.default.createFile(atPath: bin + "/" + launcher, contents: Data(script.utf8), attributes: [.posixPermissions: 0o755])
        let result = try harness.signIn("yahoo.com", environment: ["WSL_DISTRO_NAME": "Ubuntu", "PATH": bin + ":" + (harness.environment["PATH"] ?? "")])
        #expect(result.status == 0, "\(result)")
        #expect(harness.browserPages(atLeast: 3).count >= 3)
        let argument = (try? String(contentsOfFile: received, encoding: .utf8)) ?? ""
        #expect(argument.hasPrefix("\\\\wsl.localhost\\Ubuntu\\") && argument.hasSuffix(".html"), "\(argument)")
    }

    @Test func aFailingLauncherIsReportedAndTheWaitGoesOn() throws {
        let harness = try Harness()
        let running = try BackgroundProcess(["signin", "--loopback", "--provider", "yahoo.com", "--port", "0", "--timeout", "30"], harness: harness,
                                            environment: ["FBAUTH_FAKE_BROWSER_ACTION": "fail"])
        #expect(running.waitForStderr(containing: "the browser could not be opened (") && running.waitForStderr(containing: "exited with status 3"))
        _ = try HeadlessBrowser().visit(try #require(running.printedURL))
        #expect(running.finish().status == 0)
    }

    @Test func ctrlCWhileWaitingCancelsAndLeavesTheStore() throws {
        let harness = try Harness()
        #expect(try harness.signIn("yahoo.com").status == 0)
        let before = FileManager.default.contents(atPath: harness.sessionsPath)
        let running = try BackgroundProcess(["signin", "--loopback", "--provider", "github.com", "--port", "0", "--timeout", "30"], harness: harness,
                                            environment: ["FBAUTH_FAKE_BROWSER_ACTION": "ignore"])
        #expect(running.waitForStderr(containing: "visit:"))
        let port = try #require(running.printedURL.flatMap { listenerPort(in: $0) })
        running.interrupt()
        let result = running.finish(timeout: 10)
        #expect(result.status == 4, "\(result)")
        #expect(result.stderr.contains("cancelled"))
        #expect(FileManager.default.contents(atPath: harness.sessionsPath) == before)
        #expect((try? LoopbackConnectionProbe.connect(port: port)) == false, "the listener is closed")
    }

    @Test func aPastedRedirectFinishesTheSignIn() throws {
        let harness = try headlessHarness()
        let running = try BackgroundProcess(["signin", "--loopback", "--provider", "yahoo.com", "--port", "0", "--timeout", "30", "--no-browser"],
                                            harness: harness, withTerminal: true)
        #expect(running.waitForStderr(containing: "paste here the address it ends on"))
        let url = try #require(running.printedURL)
        let port = try #require(listenerPort(in: url))
        let terminal = try #require(running.terminal)
        terminal.type("http://localhost:\(port)/__/auth/handler?code=forged&state=forged")
        #expect(running.waitForStderr(containing: "That is not the redirect for this sign-in (state does not match"))
        let address = try #require(try HeadlessBrowser(email: "pasted@example.com").visit(url, stoppingAtPort: port).last?.url)
        terminal.type("  \(address)  ")
        let result = running.finish()
        #expect(result.status == 0, "\(result)")
        #expect(result.json.string("user", "email") == "pasted@example.com")
        #expect(harness.bodies(of: "accounts:signInWithIdp").first?["requestUri"] as? String == address)
    }

    @Test func passwordPromptsDoNotEcho() throws {
        let harness = try Harness()
        harness.standIn.createPasswordUser(email: "pat@example.com", password: "correct horse")
        let running = try BackgroundProcess(["signin", "--provider", "password", "--email", "pat@example.com"], harness: harness, withTerminal: true)
        #expect(running.waitForStderr(containing: "Password for pat@example.com: "))
        let terminal = try #require(running.terminal)
        terminal.type("correct horse")
        let result = running.finish()
        #expect(result.status == 0, "\(result)")
        #expect(!terminal.screen().contains("correct horse"), "typed without echo")
    }
}

enum LoopbackConnectionProbe {
    /// Whether something accepts connections on the loopback port.
    static func connect(port: UInt16) throws -> Bool {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

@Suite struct EmulatorPortTests {
    /// Issue 41, item 2: against an Auth emulator a sign-in without --port listens on a free
    /// port (the emulator takes any loopback redirect): one waiting does not stop another.
    @Test func againstAnEmulatorTwoSignInsDoNotShareAPort() throws {
        let harness = try Harness()
        let waiting = try BackgroundProcess(["signin", "--loopback", "--provider", "yahoo.com", "--timeout", "60", "--no-browser"], harness: harness)
        #expect(waiting.waitForStderr(containing: "/fake-idp/"), "\(waiting.stderr)")
        let port = try #require(waiting.stderr.firstMatch(of: /redirect_uri=http%3A%2F%2Flocalhost%3A(\d+)/).map { String($0.output.1) }, "\(waiting.stderr)")
        #expect(port != "8977", "a free port, not the production default")
        let second = try harness.run(["signin", "--loopback", "--provider", "yahoo.com", "--timeout", "30"])
        #expect(second.status == 0, "\(second)")
        let chosen = try harness.run(["signin", "--loopback", "--provider", "yahoo.com", "--timeout", "30", "--port", port])
        #expect(chosen.status == 1 && chosen.stderr.contains("port \(port) is already in use"), "--port is kept to: \(chosen)")
        waiting.interrupt()
        #expect(waiting.finish().status == 4)
    }
}

/// Issue 41, item 4: a custom token's developer claims (`claims`, as the Admin SDK's
/// createCustomToken and Google's emulator take them) are in the session's ID tokens, refreshed
/// ones too, and in `token --claims`; a reserved name is refused.
@Suite struct CustomTokenClaimsTests {
    @Test func theClaimsOfACustomTokenStayWithTheSession() throws {
        let harness = try Harness()
        let token = #"{"uid": "ci-bot", "claims": {"admin": true, "plan": "pro", "tier": 3}}"#
        let signin = try harness.run(["signin", "--provider", "custom", "--token-file", "-"], stdin: token)
        #expect(signin.status == 0, "\(signin)")
        for arguments in [["token", "--claims"], ["token", "--claims", "--force-refresh"]] {
            let result = try harness.run(arguments)
            let claims = try #require(result.json["claims"] as? [String: Any], "\(result)")
            #expect(claims["admin"] as? Bool == true && claims["plan"] as? String == "pro" && claims["tier"] as? Int == 3, "\(arguments): \(claims)")
            #expect(result.json["signInProvider"] as? String == "custom", "\(result)")
        }
        let reserved = try harness.run(["signin", "--provider", "custom", "--token-file", "-"], stdin: #"{"uid": "ci-bot", "claims": {"sub": "someone-else"}}"#)
        #expect(reserved.status == 1 && reserved.stderr.contains("Developer claim \"sub\" is reserved"), "\(reserved)")
    }
}
