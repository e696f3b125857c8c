#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthCLI
import FBAuthStandIn
import LoopbackHTTP

/// Connects the stand-in library to the core's `LocalStandIn` seam (`demo`, `emulator`).
struct BundledStandIn: LocalStandIn {
    func demoAccount(at providerId: String) -> String { "demo@" + (EmailTrust.homeDomain(of: providerId) ?? "example.com") }

    func start(_ setup: LocalEmulatorSetup) throws(FBAuthError) -> RunningStandIn {
        let (port, project, tokenLifetime, signsTokens, importing, appCheck) =
            (setup.port, setup.project, setup.tokenLifetime, setup.signsTokens, setup.importing, setup.appCheck)
        var configuration = StandInConfiguration.googleEmulator(projectId: project, signsTokens: signsTokens)
        configuration.idTokenLifetime = tokenLifetime
        configuration.autoConsentEmail = setup.autoConsentEmail
        configuration.testPhoneNumbers = setup.testPhoneNumbers
        configuration.blockingFunctionURIs = setup.blockingFunctions
        if let parameters = setup.hashParameters {
            do throws(HashConfigProblem) { configuration.passwordHashConfig = try PasswordHashConfig(parameters: parameters) } catch {
                throw .usage("--hash-config: \(error.description)")
            }
        }
        // Any app id a developer configures is served, as an emulator serves every project.
        configuration.appCheck = appCheck.map { AppCheckEnforcement(debugTokens: Set($0.debugTokens), enforced: $0.enforced, anyProject: true) }
        let standIn: StandIn
        do {
            standIn = try StandIn(configuration: configuration, port: port)
        } catch .portInUse(let port) {
            throw .failed(.listenerUnavailable, "port \(port) is already in use on this machine; choose another port (0 picks a free one)")
        } catch {
            throw .failed(.internalError, "cannot start the stand-in: \(error)")
        }
        var imported = ImportedUsers.notAsked
        if let importing {
            do throws(AuthExport.Problem) {
                switch try standIn.importAuth(from: importing) {
                case .nothing: imported = .noDirectory
                case .empty: imported = .emptyDirectory
                case .users(let count): imported = .users(count)
                }
            } catch {
                throw .usage("cannot import: \(error.description)")
            }
        }
        standIn.start()
        return Running(standIn: standIn, imported: imported)
    }

    struct Running: RunningStandIn {
        let standIn: StandIn
        let imported: ImportedUsers

        var hostAndPort: String { standIn.hostAndPort }

        func headlessBrowser(email: String) -> BrowserLauncher {
            Headless(browser: HeadlessBrowser(email: email))
        }

        func stop() { standIn.stop() }

        func deliverMessages(to deliver: @escaping @Sendable (String) -> Void) { standIn.deliverMessages(to: deliver) }

        func prepareExport(to directory: String) throws(FBAuthError) {
            do throws(AuthExport.Problem) {
                try AuthExport.prepare(directory)
            } catch {
                throw .store("cannot export there: \(error.description)")
            }
        }

        func export(to directory: String) throws(FBAuthError) {
            do throws(AuthExport.Problem) {
                try standIn.exportAuth(to: directory, version: "fbauth \(CommandLineTool.version)")
            } catch {
                throw .store("cannot export: \(error.description)")
            }
        }

        func authenticatorCode(secret: String) -> String? { TOTP.code(secret: secret, at: Date()) }
    }

    /// Plays the browser on a background thread, as a real one would run beside fbauth.
    struct Headless: BrowserLauncher {
        let browser: HeadlessBrowser

        var announcement: String? { "fbauth's built-in browser is signing in as \(browser.email ?? "the suggested account")" }

        func open(_ url: String) throws(BrowserLaunchError) -> LaunchedBrowser? {
            let browser = self.browser
            let launched = BuiltInBrowser()
            BackgroundThread.start {
                do throws(HeadlessBrowser.Failure) {
                    _ = try browser.visit(url)
                } catch {
                    launched.fail("the built-in browser failed: \(error.message)")
                }
            }
            return launched
        }
    }

    /// The built-in browser's run, watched by the wait: when it fails nobody else will come, so
    /// the sign-in stops at once with its reason.
    final class BuiltInBrowser: LaunchedBrowser, @unchecked Sendable {
        private let lock = Lock()
        private var reason: String?

        func fail(_ reason: String) { lock.withLock { self.reason = reason } }
        func failure() -> String? { lock.withLock { reason } }
        var failureEndsTheWait: Bool { true }
    }
}
