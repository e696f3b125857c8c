@testable import FBAuth
@testable import FBAuthCLI
import FBAuthStandIn
import Foundation
import Testing
import TestSupport

/// The commands that change an account, the two-step flow, `demo` and `emulator`, run in this
/// process (see `InProcessMachine`).
@Suite struct InProcessFlowCommandTests {
    /// The stand-in `demo` and `emulator` start, recording what they asked for.
    final class RecordingLocalStandIn: LocalStandIn, @unchecked Sendable {
        private let lock = NSLock()
        private var requested: [Int] = []
        /// The token lifetimes of the stand-ins started so far.
        var started: [Int] { lock.withLock { requested } }

        func start(_ setup: LocalEmulatorSetup) throws(FBAuthError) -> RunningStandIn {
            lock.withLock { requested.append(setup.tokenLifetime) }
            var configuration = StandInConfiguration()
            configuration.projectId = setup.project
            configuration.idTokenLifetime = setup.tokenLifetime
            do {
                let standIn = try StandIn(configuration: configuration, port: setup.port)
                standIn.start()
                return Running(standIn: standIn)
            } catch {
                throw .failed(.internalError, "cannot start the stand-in: \(error)")
            }
        }

        struct Running: RunningStandIn {
            let standIn: StandIn
            var hostAndPort: String { standIn.hostAndPort }
            func headlessBrowser(email: String) -> BrowserLauncher { InProcessBrowser(email: email) }
            func stop() { standIn.stop() }
            func authenticatorCode(secret: String) -> String? { TOTP.code(secret: secret, at: Date()) }
            func export(to directory: String) throws(FBAuthError) {
                do throws(AuthExport.Problem) { try standIn.exportAuth(to: directory, version: "test") } catch { throw .store(error.description) }
            }
            func deliverMessages(to deliver: @escaping @Sendable (String) -> Void) { standIn.deliverMessages(to: deliver) }
            func prepareExport(to directory: String) throws(FBAuthError) {
                do throws(AuthExport.Problem) { try AuthExport.prepare(directory) } catch { throw .store(error.description) }
            }
        }
    }

    private func json(_ text: String) throws -> JSONValue { try #require(JSONValue.parse(text), "not JSON: \(text)") }

    @Test func reauthRenewsTheSameUserAndRefusesAnother() throws {
        let machine = try InProcessMachine()
        let first = machine.signIn(email: "ada@example.com")
        let signedIn = try #require(JSONValue.parse(first.stdout), "exit \(first.status): \(first.stderr)")
        let uid = try #require(signedIn["user"]?["uid"]?.stringValue)

        machine.clock.advance(by: 600)
        let reauth = machine.run(["reauth", "--loopback", "--provider", "yahoo.com", "--port", "0"], email: "ada@example.com")
        #expect(reauth.status == 0, "\(reauth.stderr)")
        #expect(try json(reauth.stdout)["user"]?["uid"]?.stringValue == uid)
        #expect(machine.standIn.requests(to: "accounts:signInWithIdp").last?.body.contains(#""autoCreate":false"#) == true)
        #expect(reauth.stderr.contains("Re-authenticated ada@example.com"))

        let before = machine.run(["whoami", "--offline", "--tokens"]).stdout
        let other = machine.run(["reauth", "--loopback", "--provider", "yahoo.com", "--port", "0"], email: "grace@example.com")
        #expect(other.status == ExitCode.failure.rawValue, "\(other)")
        #expect(other.stderr.contains("user mismatch"), "\(other.stderr)")
        #expect(machine.run(["whoami", "--offline", "--tokens"]).stdout == before, "the session was left unchanged")
    }

    @Test func reauthWithAPasswordReadsItFromStdin() throws {
        let machine = try InProcessMachine()
        _ = machine.standIn.createPasswordUser(email: "pat@example.com", password: "correct horse")
        let signedIn = machine.run(["signin", "--provider", "password", "--email", "pat@example.com"], stdin: "correct horse\n")
        #expect(signedIn.status == 0, "\(signedIn.stderr)")

        let reauth = machine.run(["reauth", "--provider", "password"], stdin: "correct horse\n")
        #expect(reauth.status == 0, "\(reauth.stderr)")
        #expect(machine.requests(to: "accounts:signInWithPassword") == 2)
        #expect(!reauth.stderr.contains("correct horse"))

        let noPassword = machine.run(["reauth", "--provider", "password"])
        #expect(noPassword.status == ExitCode.usage.rawValue && noPassword.stderr.contains("no password on stdin"), "\(noPassword)")
        let strayOption = machine.run(["reauth", "--provider", "password", "--scope", "x"])
        #expect(strayOption.status == ExitCode.usage.rawValue && strayOption.stderr.contains("--scope does not apply"), "\(strayOption)")
    }

    @Test func linkProvidersAndUnlink() throws {
        // `providers` lists methods only where enumeration protection is off (before September 2023).
        var open = StandInConfiguration()
        open.emailEnumerationProtection = false
        let machine = try InProcessMachine(configuration: open)
        #expect(machine.signIn(email: "ada@example.com").status == 0)
        let linked = machine.run(["link", "--loopback", "--provider", "github.com", "--port", "0"], email: "ada@example.com")
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(try json(linked.stdout)["user"]?["providerData"]?.arrayValue?.count == 2)

        let providers = machine.run(["providers", "--email", "ada@example.com"])
        #expect(providers.status == 0, "\(providers.stderr)")
        #expect(Set(try json(providers.stdout).arrayValue?.compactMap { $0.stringValue } ?? []) == ["yahoo.com", "github.com"], "\(providers.stdout)")

        let unlinked = machine.run(["unlink", "--provider", "github.com"])
        #expect(unlinked.status == 0, "\(unlinked.stderr)")
        #expect(try json(unlinked.stdout)["providerData"]?.arrayValue?.compactMap { $0["providerId"]?.stringValue } == ["yahoo.com"])
        #expect(machine.standIn.users.first?.providerIds == ["yahoo.com"])

        let before = machine.standIn.requests.count
        let again = machine.run(["unlink", "--provider", "github.com"])
        #expect(again.status == ExitCode.failure.rawValue && again.stderr.contains("github.com is not linked"), "\(again)")
        #expect(machine.standIn.requests.count == before, "refused from the saved session")
        #expect(machine.run(["providers", "--email", "not-an-email"]).status == ExitCode.usage.rawValue)
    }

    @Test func deleteAccountNeedsConfirmationThenDeletes() throws {
        let machine = try InProcessMachine()
        #expect(machine.signIn(email: "ada@example.com").status == 0)
        let before = machine.standIn.requests.count
        let unconfirmed = machine.run(["delete-account"])
        #expect(unconfirmed.status == ExitCode.usage.rawValue && unconfirmed.stderr.contains("pass --yes"), "\(unconfirmed)")
        #expect(machine.standIn.requests.count == before)
        #expect(machine.standIn.users.count == 1)

        let deleted = machine.run(["delete-account", "--yes"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(machine.standIn.users.isEmpty)
        #expect(machine.run(["token"]).status == ExitCode.signInAgain.rawValue, "the session is gone")
    }

    /// `--print-url` then `--complete` for signin, link and reauth: one path through each.
    @Test func theTwoStepFlowOfEachCommand() throws {
        let machine = try InProcessMachine()
        let port = try HeldPort()
        func start(_ arguments: [String]) throws -> String {
            let started = machine.run(arguments + ["--loopback", "--print-url", "--port", port.text])
            #expect(started.status == 0 && started.stderr.contains("--complete -"), "\(started)")
            let url = started.stdout.trimmed()
            // The browser ends on the loopback redirect, which does not load: its address is the result.
            return try #require(try HeadlessBrowser(email: "ada@example.com").visit(url, stoppingAtPort: port.number).last?.url)
        }

        let signIn = machine.run(["signin", "--complete", "-"], stdin: try start(["signin", "--provider", "yahoo.com"]) + "\n")
        #expect(signIn.status == 0, "\(signIn.stderr)")
        #expect(try json(signIn.stdout)["user"]?["email"]?.stringValue == "ada@example.com")

        let linkAddress = try start(["link", "--provider", "github.com"])
        let wrongCommand = machine.run(["reauth", "--complete", "-"], stdin: linkAddress + "\n")
        #expect(wrongCommand.status == ExitCode.usage.rawValue && wrongCommand.stderr.contains("pending `link`"), "\(wrongCommand)")
        let link = machine.run(["link", "--complete", linkAddress])
        #expect(link.status == 0, "\(link.stderr)")
        #expect(link.stderr.contains("visible to other users"), "an address in argv is warned about")
        #expect(try json(link.stdout)["user"]?["providerData"]?.arrayValue?.count == 2)

        let reauth = machine.run(["reauth", "--complete", "-"], stdin: try start(["reauth", "--provider", "yahoo.com"]) + "\n")
        #expect(reauth.status == 0, "\(reauth.stderr)")
        #expect(machine.standIn.requests(to: "accounts:signInWithIdp").last?.body.contains(#""autoCreate":false"#) == true)

        let used = machine.run(["link", "--complete", linkAddress])
        #expect(used.status == ExitCode.flowIncomplete.rawValue && used.stderr.contains("already completed"), "\(used)")
        for invalid in [["signin", "--complete", "-", "--provider", "yahoo.com"], ["signin", "--complete", "-", "--scope", "x"], ["signin", "--complete", " "]] {
            #expect(machine.run(invalid).status == ExitCode.usage.rawValue, "\(invalid)")
        }
        #expect(machine.run(["signin", "--complete", "-"]).stderr.contains("no address on stdin"))
    }

    @Test func demoSignsInAgainstItsOwnStandInAndKeepsNothingUnlessAsked() throws {
        let machine = try InProcessMachine()
        let local = RecordingLocalStandIn()
        machine.localStandIn = local

        let demo = machine.run(["demo", "--no-browser", "--provider", "github.com", "--email", "demo@example.com"])
        #expect(demo.status == 0, "\(demo.stderr)")
        #expect(try json(demo.stdout)["user"]?["email"]?.stringValue == "demo@example.com")
        #expect(demo.stderr.contains("Demo complete"))
        #expect(local.started == [3600])
        #expect(!FileManager.default.fileExists(atPath: machine.directory + "/sessions.json"), "the demo used a temporary directory")
        #expect(machine.standIn.requests.isEmpty, "the demo never touched the configured project")

        let kept = machine.directory + "/demo"
        #expect(machine.run(["demo", "--no-browser", "--config-dir", kept]).status == 0)
        // As the demo suggests: the saved session names its project, the demo's stand-in.
        let offline = machine.run(["--config-dir", kept, "whoami", "--offline"], unset: ["FIREBASE_API_KEY", "FIREBASE_AUTH_EMULATOR_HOST"])
        #expect(offline.status == 0, "\(offline)")
        #expect(try json(offline.stdout)["email"]?.stringValue == "demo@example.com")
    }

    @Test func emulatorOptionsAreCheckedBeforeItStarts() throws {
        let machine = try InProcessMachine()
        let local = RecordingLocalStandIn()
        machine.localStandIn = local
        for arguments in [["emulator", "--token-lifetime", "0"], ["emulator", "--port", "70000"], ["demo", "--provider", "yahoo"], ["demo", "--timeout", "-1"]] {
            let result = machine.run(arguments)
            #expect(result.status == ExitCode.usage.rawValue, "\(arguments): \(result)")
        }
        #expect(local.started.isEmpty)
    }
}

extension JSONValue {
    var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}
