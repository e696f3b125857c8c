#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthSupport
import FBAuthVerification

/// `fbauth verify-token`: the server's half: is this Firebase ID token (or session cookie) valid
/// for my project, whose is it, and until when? Checked as firebase-admin's `verifyIdToken`
/// checks it, with Google's certificates (cached on disk for their max-age).
enum VerifyTokenCommand: RunnableCommand {
    static let spec = CommandSpec(
        name: "verify-token",
        summary: "Verify a Firebase ID token (or session cookie, or App Check token) as the Admin SDKs do, and print its claims as JSON.",
        usage: ["[--project ID] [--check-revoked] [--session-cookie] [--token-file FILE|-]", "--app-check [--consume] [--project ID] [--token-file FILE|-]"],
        options: [
            OptionSpec("token-file", value: "FILE|-", help: "Read the token from FILE (default: stdin, -); never given as an argument."),
            OptionSpec("check-revoked", help: "Also look the user up with the Admin API (GOOGLE_APPLICATION_CREDENTIALS): refuse a disabled user, or a token from before their tokens were revoked."),
            OptionSpec("session-cookie", help: "The token is a session cookie (issuer https://session.firebase.google.com/PROJECT, Google's identitytoolkit keys)."),
            OptionSpec("app-check", help: "The token is an App Check token (the X-Firebase-AppCheck header), checked as firebase-admin's appCheck().verifyToken."),
            OptionSpec("consume", help: "With --app-check: mark the token used with the App Check API (replay protection); alreadyConsumed says whether it had been."),
        ],
        // Taken only to refuse it without repeating it: a token is a credential.
        positionals: [PositionalSpec("TOKEN", optional: true, help: "Not accepted: other users can read arguments; pipe the token in.")],
        details: """
            Reads the token from stdin (or --token-file) and prints its claims as JSON, with its \
            uid, exit 0; a refused token is exit 1 with firebase-admin's reason in one line: a \
            bad signature, expired or not yet valid, another project's audience or issuer, a \
            missing or long sub, an auth_time in the future, an unknown key id, an algorithm \
            other than RS256. The project is --project, else GOOGLE_CLOUD_PROJECT or \
            GCLOUD_PROJECT, else the current session's. Google's certificates are kept in the \
            config directory (0600) for as long as Google says (Cache-Control max-age); a \
            config directory another user owns or may write in, or that lies in a folder \
            they may write, is refused (exit 7), as they could plant their own keys there.

            --check-revoked looks the user up (accounts:lookup) as the Admin API: a disabled \
            user, a deleted one, or a token whose auth_time is before the user's tokens were \
            revoked is refused, exit 1. Its credentials are a service account's key file named \
            by GOOGLE_APPLICATION_CREDENTIALS (or gcloud's application default credentials, \
            or on Google's clouds their metadata server); the access token they give is kept \
            in memory only.

            With FIREBASE_AUTH_EMULATOR_HOST, as firebase-admin does, an emulator's unsigned \
            token (alg none) is taken, with a warning on stderr; a signed one is still checked, with the certificates the \
            emulator publishes where Google publishes securetoken's; and the user is always \
            looked up, as the emulator's owner, with no credentials.

            --app-check checks an App Check token instead: RS256 by a key of App Check's JSON \
            Web Key Set (https://firebaseappcheck.googleapis.com/v1/jwks, kept for its max-age), \
            an audience naming projects/PROJECT, App Check's issuer, a subject (the app id, \
            printed as app_id), not expired. --consume also asks the App Check API to mark it \
            used (verifyAppCheckToken, with the credentials --check-revoked uses) and prints \
            already_consumed. Against an emulator, its key set and API are asked: fbauth \
            emulator signs the App Check tokens it exchanges for debug tokens.

            Examples:
              fbauth token | fbauth verify-token --project my-project
              fbauth verify-token --app-check --project my-project < app-check-token.txt | jq -r .app_id
              fbauth verify-token --project my-project < token.txt | jq -r .uid
              GOOGLE_APPLICATION_CREDENTIALS=key.json fbauth verify-token --check-revoked < token.txt
            """)

    struct Options: Equatable {
        var tokenFile: String
        var kind: Kind
        var checkRevoked = false

        enum Kind: Equatable { case idToken, sessionCookie, appCheck(consume: Bool) }
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        guard arguments.positionals.isEmpty else {
            throw .usage("verify-token reads the token from stdin or --token-file, never from an argument, where other users of this machine can read it")
        }
        let kind: Options.Kind
        switch (arguments.flag("app-check"), arguments.flag("session-cookie"), arguments.flag("consume")) {
        case (true, true, _): throw .usage("--app-check and --session-cookie name different tokens; give one")
        case (true, false, let consume):
            guard !arguments.flag("check-revoked") else { throw .usage("--check-revoked is for ID tokens and session cookies; an App Check token names no user") }
            kind = .appCheck(consume: consume)
        case (false, _, true): throw .usage("--consume is for App Check tokens: give --app-check")
        case (false, let cookie, false): kind = cookie ? .sessionCookie : .idToken
        }
        return Options(tokenFile: try arguments.nonEmpty("token-file") ?? "-", kind: kind, checkRevoked: arguments.flag("check-revoked"))
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        let projectId = try projectId(context)
        let token = try SecretInput.token(from: options.tokenFile, option: "--token-file", console: context.console)
        let directory = SavedProjects.directory(configDirectory: context.globals.configDirectory, environment: context.environment)
        if case .appCheck(let consume) = options.kind {
            return try verifyAppCheck(token, consume: consume, projectId: projectId, keptKeys: try keptKeys(in: directory, name: "public-keys-app-check.json"), context)
        }
        let kind: FirebaseTokenKind = options.kind == .idToken ? .idToken : .sessionCookie
        let cacheName = options.kind == .idToken ? "public-keys-id-token.json" : "public-keys-session-cookie.json"
        let verifier = FirebaseTokenVerifier(projectId: projectId, kind: kind, emulatorHost: context.settings.emulatorHost,
                                             transport: context.dependencies.transport, clock: context.clock,
                                             keptKeys: try keptKeys(in: directory, name: cacheName),
                                             credentials: .applicationDefault(environment: context.environment))
        let verified: VerifiedFirebaseToken
        do {
            verified = try verifier.verify(token, checkRevoked: options.checkRevoked)
        } catch {
            throw .failed(error.blame == .unavailable ? .networkError : .tokenRefused, TerminalText.safe(error.message))
        }
        if verified.acceptedUnsigned, let host = verifier.emulatorHost {
            context.console.say("fbauth: warning: this token is not signed (alg none); it was taken only because FIREBASE_AUTH_EMULATOR_HOST is set (\(TerminalText.safe(host))), as an emulator's tokens are: never set it where real users sign in")
        }
        var claims = verified.claims
        claims["uid"] = .string(verified.uid)
        context.console.writeOutput(JSONOutput.render(JSONValue.object(claims)))
    }

    /// `--app-check`: the token's claims with `app_id` (and `already_consumed`), as
    /// firebase-admin's Python SDK returns them.
    static func verifyAppCheck(_ token: String, consume: Bool, projectId: String, keptKeys: KeptKeys?, _ context: CommandContext) throws(FBAuthError) {
        let verifier = AppCheckTokenVerifier(projectId: projectId, emulatorHost: context.settings.emulatorHost, transport: context.dependencies.transport,
                                             clock: context.clock, keptKeys: keptKeys, credentials: .applicationDefault(environment: context.environment))
        let verified: VerifiedAppCheckToken
        do {
            verified = try verifier.verify(token, consume: consume)
        } catch {
            throw .failed(error.blame == .unavailable ? .networkError : .tokenRefused, TerminalText.safe(error.message))
        }
        if let host = verifier.emulatorHost {
            context.console.say("fbauth: warning: checked with the keys of the emulator at \(TerminalText.safe(host)) (FIREBASE_AUTH_EMULATOR_HOST), which are public: never set it where real apps call")
        }
        var claims = verified.claims
        claims["app_id"] = .string(verified.appID)
        if let consumed = verified.alreadyConsumed { claims["already_consumed"] = .bool(consumed) }
        context.console.writeOutput(JSONOutput.render(JSONValue.object(claims)))
    }

    /// Google's certificates are kept in the config directory, opened once here and used
    /// through that descriptor: one that another user could write, or swap (a directory above
    /// it), would let them plant their own key and have their tokens pass, so it is refused as
    /// the sessions' store refuses it. One that cannot be made keeps the keys in memory only.
    static func keptKeys(in directory: String, name: String) throws(FBAuthError) -> KeptKeys? {
        do throws(TrustedDirectory.OpenProblem) {
            return try TrustedDirectory.open(directory, creating: true).map { KeptKeys(directory: $0, name: name) }
        } catch {
            guard case .untrusted(let untrusted) = error else { return nil }
            throw .store(untrusted.refusal("the config directory \(directory)", risk: "another user could plant the keys tokens are checked with"),
                         remedy: untrusted.problem.chmodFixes ? nil : .otherConfigDirectory)
        }
    }

    /// `--project`, else the variables firebase-admin reads, else the current session's.
    static func projectId(_ context: CommandContext) throws(FBAuthError) -> String {
        if let project = context.globals.project { return project }
        if let (name, value) = TokenRefusal.projectFromEnvironment(context.environment) {
            guard SettingChecks.isProjectID(value) else { throw .usage("\(name) '\(TerminalText.safe(String(value.prefix(60))))' is not a project id") }
            return value
        }
        // With the saved projects: a project named only by its API key (FIREBASE_API_KEY) has
        // its id there, from the sign-in that saved it (issue 50).
        if let projectId = (try? context.project(in: context.savedProjects()))?.projectId { return projectId }
        throw .usage("which project? give --project ID (or set GOOGLE_CLOUD_PROJECT)")
    }
}
