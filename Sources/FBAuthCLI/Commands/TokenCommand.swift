#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthSupport

/// `fbauth token`: the current user's Firebase ID token for scripts,
/// `curl -H "Authorization: Bearer $(fbauth token)" …`.
enum TokenCommand: RunnableCommand {
    static let defaultMinValid = 300

    static let spec = CommandSpec(
        name: "token",
        summary: "Print the current user's Firebase ID token, refreshed when it is about to expire.",
        usage: ["[--min-valid SECONDS] [--force-refresh] [--format FORMAT | --json | --claims]", "--keep-fresh FILE [--format FORMAT] [--min-valid SECONDS]", "--provider ID [--min-valid SECONDS] [--json]", "--refresh-token"],
        options: [
            OptionSpec("keep-fresh", value: "FILE",
                       help: "Keep the token in FILE (0600, written whole, no trailing newline) and write it again --min-valid seconds (default 300) before it expires, until Ctrl-C or SIGTERM; signing out removes FILE. For programs that read a token file (Kubernetes' tokenFile, AWS_WEB_IDENTITY_TOKEN_FILE, credential_source.file, curl -H @FILE with --format header)."),
            OptionSpec("format", value: "FORMAT", suggestions: TokenFormat.names,
                       help: "raw (the default: the token and a newline), json (as --json), header (Authorization: Bearer … for curl -H @-), exec-credential (a Kubernetes ExecCredential, for a kubeconfig exec entry), google-executable (the executable-sourced response of Google's Workload Identity Federation)."),
            OptionSpec("json", help: "Print {idToken, expirationTime, uid, projectId} instead, so a script can keep the token until it expires. With --provider: {providerId, accessToken, expirationTime}, and the secret of OAuth 1.0a providers (X)."),
            OptionSpec("claims", help: "Print the token's decoded claims as the SDKs' getIdTokenResult gives them: authTime, issuedAtTime, expirationTime, signInProvider, signInSecondFactor, tenant and every claim (custom claims included)."),
            OptionSpec("min-valid", value: "SECONDS", help: "Refresh unless the token has at least this long left (default \(defaultMinValid); less than 3600, a token's lifetime)."),
            OptionSpec("force-refresh", help: "Refresh even if the saved token is still valid."),
            OptionSpec("provider", value: "ID", suggestions: ProviderID.wellKnown,
                       help: "Print the saved OAuth access token of this provider instead (to call its own API)."),
            OptionSpec("refresh-token", help: "Print the session's refresh token instead: a long-lived secret that signs in as this user until revoked, for a CI system's secret store (FBAUTH_REFRESH_TOKEN). Warned about on a terminal."),
        ],
        details: """
            Prints the token and a newline, nothing else. A token with enough time left is printed \
            straight from the saved session, without any network request. Otherwise fbauth \
            refreshes it through securetoken under a lock shared by all fbauth processes, so many \
            scripts can ask at once and only one refresh request is made.

            Examples:
              curl -H "Authorization: Bearer $(fbauth token)" https://…
              fbauth token --json | jq -r .expirationTime
              fbauth token --user grace@example.com --min-valid 1800
              fbauth token --claims | jq .claims.admin
              fbauth token --format header | curl -H @- https://…

            --format exec-credential prints a client.authentication.k8s.io ExecCredential \
            (status.token, status.expirationTimestamp), with the apiVersion KUBERNETES_EXEC_INFO \
            asks for (v1 or v1beta1; v1 without it). --format google-executable prints the \
            response Google's external-account credentials read from an executable (version 1, \
            success, token_type, id_token, expiration_time), also written to \
            GOOGLE_EXTERNAL_ACCOUNT_OUTPUT_FILE when set; when no token can be had it prints that \
            format's error (success false, code, message) and exits as usual. `fbauth help tokens` \
            has a kubeconfig and a credential configuration that use them.

            --claims decodes the token without verifying it (Firebase does, on every use): what \
            security rules see as request.auth.token. Custom claims set with the Admin SDK appear \
            after the next refresh (--force-refresh).

            --refresh-token prints the session's refresh token, for CI: put it in the CI \
            system's secrets and give it back as FBAUTH_REFRESH_TOKEN, which makes `fbauth \
            token` refresh in memory and write nothing (`fbauth help headless`). Pipe it \
            straight into the secret store (`fbauth token --refresh-token | gh secret set \
            FBAUTH_REFRESH_TOKEN`); on a terminal fbauth warns before printing it. It stays valid \
            until the user is signed out everywhere (a password change, the Admin SDK's \
            revokeRefreshTokens) or deleted; `fbauth signout` does not revoke it.

            --provider prints the provider's access token saved at sign-in or linking. Firebase \
            cannot refresh it: when it has expired, sign in with that provider again. An OAuth 1.0a \
            token (X, twitter.com) is useless without its secret: --json prints both.
            """)

    enum Options: Equatable {
        /// The Firebase ID token, with at least `minValid` seconds left, in `format`.
        case idToken(minValid: Int, forceRefresh: Bool, format: TokenFormat)
        /// `--claims`: the decoded claims of that token.
        case claims(minValid: Int, forceRefresh: Bool)
        /// `--provider`: the provider's saved access token (`minValid` 0 unless given); with
        /// `json`, with its expiry and (OAuth 1.0a) secret.
        case providerAccessToken(providerId: String, minValid: Int, json: Bool)
        /// `--refresh-token`: the session's refresh token.
        case refreshToken
        /// `--keep-fresh FILE`: the token in `format` kept in `path`, rewritten `minValid`
        /// seconds before each expires.
        case keepFresh(path: String, minValid: Int, format: TokenFormat)
    }

    /// How long before a kept token expires it is written again, by default.
    static let keepFreshMargin = 300

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        // Firebase ID tokens last one hour.
        let minValid = try arguments.wholeSeconds("min-valid", in: 0...3599) ?? defaultMinValid
        if arguments.flag("refresh-token") {
            let others = ["format", "json", "claims", "min-valid", "force-refresh", "provider"].filter { arguments.value($0) != nil || arguments.flag($0) }
            guard others.isEmpty else { throw .usage("--refresh-token prints the refresh token alone; leave out --\(others[0])") }
            return .refreshToken
        }
        let format = try TokenFormat.named(arguments.value("format"))
        if let path = try arguments.nonEmpty("keep-fresh") {
            let others = ["json", "claims", "force-refresh", "provider"].filter { arguments.value($0) != nil || arguments.flag($0) }
            guard others.isEmpty else { throw .usage("--keep-fresh keeps the ID token in a file; leave out --\(others[0]) (--format chooses its shape)") }
            let margin = arguments.value("min-valid") == nil ? keepFreshMargin : minValid
            return .keepFresh(path: path, minValid: margin, format: format ?? .raw)
        }
        guard let providerId = arguments.value("provider") else {
            let outputs = [arguments.flag("claims") ? "--claims" : nil, arguments.flag("json") ? "--json" : nil, format == nil ? nil : "--format"].compactMap { $0 }
            guard outputs.count <= 1 else { throw .usage("\(outputs.joined(separator: " and ")) are different outputs; give one") }
            if arguments.flag("claims") { return .claims(minValid: minValid, forceRefresh: arguments.flag("force-refresh")) }
            return .idToken(minValid: minValid, forceRefresh: arguments.flag("force-refresh"), format: format ?? (arguments.flag("json") ? .json : .raw))
        }
        guard format == nil else { throw .usage("--format applies to the Firebase ID token; with --provider, use --json") }
        guard !arguments.flag("claims") else { throw .usage("--claims does not apply to --provider: provider tokens are the provider's own") }
        guard !arguments.flag("force-refresh") else {
            throw .usage("--force-refresh does not apply to --provider: provider tokens cannot be refreshed through Firebase")
        }
        return .providerAccessToken(providerId: try ProviderWords.validated(providerId), minValid: arguments.value("min-valid") == nil ? 0 : minValid,
                                    json: arguments.flag("json"))
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        let auth = try context.auth(for: context.project())
        switch options {
        case .claims(let minValid, let forceRefresh):
            try printClaims(minValid: minValid, forceRefresh: forceRefresh, auth: auth, context)
        case .providerAccessToken(let providerId, let minValid, let json):
            try printProviderToken(providerId, minValid: minValid, json: json, auth: auth, context)
        case .refreshToken:
            try printRefreshToken(auth: auth, context)
        case .keepFresh(let path, let minValid, let format):
            try KeepFresh.run(path: path, minValid: minValid, format: format, auth: auth, context)
        case .idToken(let minValid, let forceRefresh, let format):
            // The saved token when it will do (no network, no lock, no write), else a refresh.
            let token: FreshIDToken
            do throws(FBAuthError) {
                token = try Waiting.result {
                    auth.idToken(of: context.globals.user, minValid: TimeInterval(minValid), forcingRefresh: forceRefresh, completion: $0)
                }
            } catch {
                // Google's auth library reads the reason from stdout, in its own shape.
                if format == .googleExecutable { context.console.writeOutput(GoogleExecutableResponse.failure(error)) }
                throw error
            }
            let output = try format.render(token, environment: context.environment)
            if format == .googleExecutable { try GoogleExecutableResponse.writeOutputFile(output, for: token.uid, auth: auth, environment: context.environment) }
            context.console.writeOutput(output)
            // Which project the token is for, on stderr with --verbose only: a script reads
            // projectId in the JSON, and stderr stays empty unless asked (as a bare token's).
            if format == .json, context.globals.verbose { context.console.say("ID token for \(auth.projectDescription).") }
        }
    }

    /// The claims of the current ID token (refreshed first when it has less than `minValid`
    /// seconds left), as `getIdTokenResult` gives them.
    static func printClaims(minValid: Int, forceRefresh: Bool, auth: AuthService, _ context: CommandContext) throws(FBAuthError) {
        let token = try Waiting.result {
            auth.idToken(of: context.globals.user, minValid: TimeInterval(minValid), forcingRefresh: forceRefresh, completion: $0)
        }
        guard let result = IDTokenDetails(idToken: token.idToken) else {
            throw .failed(.invalidResponse, "the saved ID token of \(TerminalText.safe(token.uid)) cannot be decoded (no auth_time, iat or exp); sign in again")
        }
        context.console.writeOutput(JSONOutput.render(claimsJSON(result)))
    }

    /// What the SDKs' `getIdTokenResult` gives, as JSON: the times as RFC 3339, the sign-in
    /// provider and second factor, the tenant, and every claim as the token carries it.
    static func claimsJSON(_ result: IDTokenDetails) -> JSONValue {
        .object([
            "authTime": .string(Timestamp.string(result.authDate)),
            "issuedAtTime": .string(Timestamp.string(result.issuedAtDate)),
            "expirationTime": .string(Timestamp.string(result.expirationDate)),
            "signInProvider": result.signInProvider.map(JSONValue.string) ?? .null,
            "signInSecondFactor": result.signInSecondFactor.map(JSONValue.string) ?? .null,
            "tenant": result.tenantID.map(JSONValue.string) ?? .null,
            "claims": .object(result.claimValues),
        ])
    }

    /// A provider's saved access token (Firebase cannot refresh those), bare or as JSON.
    private static func printProviderToken(_ providerId: String, minValid: Int, json: Bool, auth: AuthService, _ context: CommandContext) throws(FBAuthError) {
        let user = try auth.savedUser(context.globals.user)
        guard let saved = user.savedProviderCredentials.first(where: { $0.credential.providerID == providerId }),
            let accessToken = saved.credential.accessToken, TextChecks.isVisibleASCII(accessToken)
        else {
            throw .signInAgain("no \(providerId) access token is saved for \(user.displayLabel); get one with `fbauth signin --provider \(providerId)` (or `fbauth link --provider \(providerId)`)")
        }
        if let expiry = saved.expirationDate, expiry.timeIntervalSince(context.clock.now()) < TimeInterval(minValid) {
            throw .signInAgain("the saved \(providerId) access token of \(user.displayLabel) expired at \(Timestamp.string(expiry)); Firebase cannot refresh provider tokens: sign in again with `fbauth signin --provider \(providerId)`")
        }
        guard json else {
            context.console.writeOutput(accessToken + "\n")
            return
        }
        var object: [String: JSONValue] = [
            "providerId": .string(providerId), "accessToken": .string(accessToken),
            "expirationTime": saved.expirationDate.map { .string(Timestamp.string($0)) } ?? .null,
        ]
        if let secret = saved.credential.secret, TextChecks.isVisibleASCII(secret) { object["secret"] = .string(secret) }
        context.console.writeOutput(JSONOutput.render(JSONValue.object(object)))
    }

    /// The session's refresh token, asked for by name; on a terminal, where it stays in the
    /// scrollback, a warning first.
    static func printRefreshToken(auth: AuthService, _ context: CommandContext) throws(FBAuthError) {
        let user = try auth.savedUser(context.globals.user)
        guard let token = user.refreshToken else {
            throw .signInAgain("the server signed \(user.displayLabel) out; \(user.signInAgainAdvice)")
        }
        if context.console.isOutputTerminal {
            context.console.say("fbauth: warning: this refresh token signs in as \(user.displayLabel) until the user is signed out everywhere; keep it in a secret store, not in a file, a log or a chat (pipe it: fbauth token --refresh-token | gh secret set FBAUTH_REFRESH_TOKEN).")
        }
        context.console.writeOutput(token + "\n")
    }
}
