import FBAuth

/// Sign-in methods without the OAuth browser flow that signin, link and reauth share: a
/// provider token held already (`--id-token-file`, `--access-token-file`), and email links.
enum CredentialOptions {
    static let tokenSpecs: [OptionSpec] = [
        OptionSpec("id-token-file", value: "FILE|-", help: "Sign in with this provider ID token (google.com, apple.com, oidc.*, facebook.com), read from a file or stdin (-), never from arguments."),
        OptionSpec("access-token-file", value: "FILE|-", help: "Sign in with this provider access token (google.com, github.com, facebook.com, twitter.com), from a file or stdin (-)."),
        OptionSpec("token-secret-file", value: "FILE|-", help: "With twitter.com: the OAuth 1.0a token secret, from a file or stdin (-)."),
        OptionSpec("nonce", value: "NONCE", help: "With --id-token-file: the raw nonce whose SHA-256 the ID token carries (apple.com, oidc.*)."),
    ]

    static let emailLinkSpecs: [OptionSpec] = [
        OptionSpec("link", value: "FILE|-", help: "With --provider emailLink (or password reset, email apply): the link from the email, from a file or stdin (-)."),
    ]

    static let tokenOptionNames = tokenSpecs.map(\.name)

    /// Whether the command line names a provider token.
    static func givesToken(_ arguments: ParsedArguments) -> Bool {
        arguments.value("id-token-file") != nil || arguments.value("access-token-file") != nil
    }

    /// Where the token of a `--provider P --id-token-file …` sign-in comes from.
    struct TokenSources: Equatable {
        var providerId: String
        var idTokenFile: String?
        var accessTokenFile: String?
        var secretFile: String?
        var nonce: String?

        init(_ arguments: ParsedArguments, providerId: String) throws(FBAuthError) {
            self.providerId = try ProviderWords.validated(providerId)
            idTokenFile = try arguments.nonEmpty("id-token-file")
            accessTokenFile = try arguments.nonEmpty("access-token-file")
            secretFile = try arguments.nonEmpty("token-secret-file")
            nonce = try arguments.nonEmpty("nonce")
            if [idTokenFile, accessTokenFile, secretFile].filter({ $0 == "-" }).count > 1 {
                throw .usage("only one of --id-token-file, --access-token-file and --token-secret-file can read stdin (-)")
            }
            for file in [idTokenFile, accessTokenFile, secretFile].compactMap({ $0 }) where file.hasPrefix("ey") && file.contains(".") {
                throw .usage("give the token in a file or on stdin (-), not as an argument: other users of this machine can read arguments from the process list")
            }
            // Checked now, before anything is read: a usage error for a refused provider. An ID
            // token of Microsoft's or Yahoo's may be an emulator's fake claims, which the library
            // takes there (and refuses elsewhere, as here) once it is read.
            let mayBeFakeClaims = idTokenFile != nil && ["microsoft.com", "yahoo.com"].contains(self.providerId)
            if !mayBeFakeClaims, let reason = BrowserProvider.tokenRefusal(providerID: self.providerId) {
                throw .usage(reason + (reason.hasSuffix("browser instead") ? ": fbauth signin --provider \(self.providerId)" : ""))
            }
        }

        /// Whether a token is read from stdin (`-`), all of it: no second-factor code can follow.
        var readsStandardInput: Bool { [idTokenFile, accessTokenFile, secretFile].contains("-") }

        /// Reads the files; the library checks the combination when the credential is used.
        func credential(_ console: Console) throws(FBAuthError) -> OAuthTokens {
            func read(_ file: String?, _ option: String) throws(FBAuthError) -> String? {
                try file.map { (file: String) throws(FBAuthError) in try SecretInput.token(from: file, option: option, console: console) }
            }
            return BrowserProvider.credential(providerID: providerId, idToken: try read(idTokenFile, "--id-token-file"), rawNonce: nonce,
                                            accessToken: try read(accessTokenFile, "--access-token-file"), secret: try read(secretFile, "--token-secret-file"))
        }

        /// The options that give each part of the credential, for the library's messages.
        static let optionNames = CredentialPartNames(
            idToken: "--id-token-file", accessToken: "--access-token-file", secret: "--token-secret-file", rawNonce: "--nonce")
    }

    /// `--provider emailLink --email E [--link FILE|-]`.
    struct EmailLink: Equatable {
        var email: String
        /// The link from a file or stdin; nil: send one and wait for it.
        var linkSource: String?
        var port: UInt16
        var timeout: Duration
        var openBrowser: Bool

        /// Email links may be opened minutes after they are sent.
        static let defaultTimeout: Duration = .seconds(600)

        init(_ arguments: ParsedArguments) throws(FBAuthError) {
            email = try EmailOption.required(arguments)
            linkSource = try arguments.nonEmpty("link")
            port = try arguments.port("port") ?? 0
            timeout = try arguments.seconds("timeout") ?? Self.defaultTimeout
            openBrowser = !arguments.flag("no-browser")
        }

        /// The link given (read now), or one Firebase mails and the sign-in waits for.
        func credential(_ console: Console) throws(FBAuthError) -> SignInCredential {
            guard let linkSource else { return EmailPassword.credential(awaitingLinkSentTo: email, port: port, timeout: timeout) }
            return EmailPassword.credential(withEmail: email, link: try SecretInput.emailLink(from: linkSource, option: "--link", console: console))
        }
    }
}

