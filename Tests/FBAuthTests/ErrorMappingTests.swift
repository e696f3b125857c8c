@testable import FBAuth
@testable import FBAuthCLI
import Foundation
import Testing

@Suite struct ErrorMappingTests {
    private func server(_ message: String, status: Int = 400, reasons: [String] = []) -> FBAuthError {
        .server(ServerError(httpStatus: status, message: message, reasons: reasons, host: "h"), action: "sign-in")
    }

    @Test(arguments: [
        ("INVALID_IDP_RESPONSE : bad code", "INVALID_IDP_RESPONSE", "bad code"),
        ("INVALID_IDP_RESPONSE: tight", "INVALID_IDP_RESPONSE", "tight"),
        ("USER_NOT_FOUND", "USER_NOT_FOUND", nil),
        ("USER_NOT_FOUND ((emulator note))", "USER_NOT_FOUND", "((emulator note))"),
        ("API key not valid. Please pass a valid API key.", nil, "API key not valid. Please pass a valid API key."),
        ("Invalid JSON payload received.", nil, "Invalid JSON payload received."),
        ("OK", nil, "OK"),
    ] as [(String, String?, String?)])
    func leadingCodes(message: String, code: String?, detail: String?) {
        let error = ServerError(httpStatus: 400, message: message, host: "h")
        #expect(error.code == code)
        #expect(error.detail == detail)
    }

    @Test(arguments: [
        ("TOKEN_EXPIRED", ExitCode.signInAgain),
        ("INVALID_REFRESH_TOKEN", .signInAgain),
        ("INVALID_ID_TOKEN", .signInAgain),
        ("USER_NOT_FOUND", .signInAgain),
        ("USER_DISABLED", .failure),
        ("INVALID_IDP_RESPONSE : x", .failure),
        ("FEDERATED_USER_ID_ALREADY_LINKED", .failure),
        ("SOMETHING_NEW : unknown to the table", .failure),
    ])
    func exitCodesFollowTheTable(message: String, exitCode: ExitCode) {
        #expect(server(message).exitCode == exitCode)
    }

    @Test func transientAnswersAreNetworkErrors() {
        #expect(server("UNAVAILABLE", status: 503).exitCode == .network)
        #expect(server("RESOURCE_EXHAUSTED", status: 429).exitCode == .network)
        #expect(server("UNAVAILABLE", status: 503).message.contains("try again later"))
    }

    @Test func messagesExplainKnownCodesAndShowUnknownOnes() {
        #expect(server("OPERATION_NOT_ALLOWED").message == "sign-in failed: this sign-in provider is not enabled for the project (Firebase console → Authentication → Sign-in method) [OPERATION_NOT_ALLOWED]")
        #expect(server("INVALID_IDP_RESPONSE : code used").message.hasSuffix("[INVALID_IDP_RESPONSE] (code used)"))
        #expect(server("BRAND_NEW_CODE : whatever").message == "sign-in failed: BRAND_NEW_CODE : whatever")
        #expect(server("Bad key", reasons: ["keyInvalid"]).message.contains("the API key is not valid"))
    }

    @Test func everyErrorKindHasItsExitCode() {
        #expect(FBAuthError.usage("x").exitCode == .usage)
        #expect(FBAuthError.network(host: "h", reason: "r").exitCode == .network)
        #expect(FBAuthError.network(host: "h", reason: "r").message == "could not reach h: r")
        #expect(FBAuthError.badResponse(host: "h", reason: "r").exitCode == .failure)
        #expect(FBAuthError.signInAgain("x").exitCode == .signInAgain)
        #expect(FBAuthError.flowIncomplete("x").exitCode == .flowIncomplete)
        #expect(FBAuthError.store("x").exitCode == .store)
        #expect(ExitCode.allCases.map(\.rawValue) == Array(0...7))
    }

    /// As the SDK's error userInfo: the email and the provider's credential, as values.
    @Test func accountExistsCarriesTheEmailAndTheCredential() throws {
        let answer = #"{"needConfirmation":true,"email":"owner@example.com","providerId":"microsoft.com","oauthAccessToken":"AT","pendingToken":"PT","verifiedProvider":["yahoo.com"]}"#
        let response = try JSONDecoder().decode(SignInWithIdpResponse.self, from: Data(answer.utf8))
        let error = FBAuthError.accountExists(AccountExistsConflict(response: response, providerId: "microsoft.com", message: "").reported)
        #expect(error.exitCode == .accountExists)
        #expect(error.code == .accountExistsWithDifferentCredential)
        guard case .accountExists(let conflict) = error else { Issue.record("\(error)"); return }
        #expect(conflict.email == "owner@example.com")
        #expect(conflict.existingProviders == ["yahoo.com"])
        #expect(conflict.updatedCredential.providerID == "microsoft.com" && conflict.updatedCredential.accessToken == "AT")
        #expect(PendingCredential(credential: conflict.updatedCredential, email: conflict.email, savedAt: Date()).request.pendingToken == "PT")
        #expect(error.message.contains("owner@example.com") && error.message.contains("(yahoo.com)") && error.message.contains("link --pending"))
    }

    @Test func clientTurnsAnswersIntoErrors() {
        func failure(_ status: Int, _ body: String, type: String = "application/json") -> FBAuthError {
            FirebaseAuthClient.failure(
                from: HTTPClientResponse(status: status, headers: ["Content-Type": type], body: Data(body.utf8)), host: "h", action: "a")
        }
        guard case .server(let error, _) = failure(400, #"{"error":{"code":400,"message":"EMAIL_EXISTS","errors":[{"reason":"invalid"}]}}"#) else {
            Issue.record("envelope not read"); return
        }
        #expect(error.code == "EMAIL_EXISTS" && error.reasons == ["invalid"])
        guard case .server(let transient, _) = failure(502, "<html>Bad gateway</html>", type: "text/html") else {
            Issue.record("5xx without envelope"); return
        }
        #expect(transient.isTransient)
        guard case .badResponse = failure(404, "<html>nope</html>", type: "text/html") else {
            Issue.record("4xx without envelope"); return
        }
    }

    @Test(arguments: [
        ("API_KEY_IOS_APP_BLOCKED", "--ios-bundle-id"),
        ("API_KEY_ANDROID_APP_BLOCKED", "--android-package NAME --android-cert SHA1"),
        ("API_KEY_HTTP_REFERRER_BLOCKED", "--referer"),
        ("API_KEY_SERVICE_BLOCKED", "allow the Identity Toolkit API and the Token Service API"),
        ("API_KEY_INVALID", "the API key is not valid"),
    ])
    func apiKeyRestrictionsNameTheirFix(reason: String, fix: String) {
        let body = #"{"error":{"code":403,"message":"Requests from this client are blocked.","status":"PERMISSION_DENIED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"\#(reason)","domain":"googleapis.com"}]}}"#
        let error = FirebaseAuthClient.failure(
            from: HTTPClientResponse(status: 403, headers: ["Content-Type": "application/json"], body: Data(body.utf8)), host: "h", action: "sign-in")
        #expect(error.commandLineMessage.contains(fix), "\(error.commandLineMessage)")
        #expect(!error.message.contains("--"), "the library names no option: \(error.message)")
        #expect(error.exitCode == .failure)
        #expect(!error.message.contains("\n"))
    }

    /// Issue 39, item 6: the command line adds its commands and options to a failure by the
    /// remedy the library gives, never by the wording of the library's sentence: the same
    /// words in any sentence, and none for a sentence without a remedy.
    @Test(arguments: [
        (Remedy.signIn, "run `fbauth signin --provider ID`"), (.waitLonger, "--timeout SECONDS"), (.applyActionCode, "`fbauth email apply`"),
        (.resetPassword, "`fbauth password reset --link -`"), (.chooseSession, "`fbauth use UID-or-EMAIL`; `fbauth accounts` lists them"),
        (.listAllSessions, "`fbauth accounts --all` lists them"), (.otherConfigDirectory, "--config-dir or FBAUTH_CONFIG_DIR"),
        (.removeSessions, "`fbauth signout --all`"), (.otherPort, "--port"), (.otherRedirectHost, "--redirect-host"),
    ])
    func remediesAreNamedByTheCommandLine(remedy: Remedy, words: String) {
        for error in [FBAuthError.usage("any words", remedy: remedy), .signInAgain("any words", remedy: remedy), .store("any words", remedy: remedy),
                      .flowIncomplete("any words", remedy: remedy), .failed(.listenerUnavailable, "any words", remedy: remedy)] {
            #expect(error.commandLineMessage == "any words (\(words))", "\(error)")
        }
        #expect(FBAuthError.signInAgain("not signed in to a project; sign in first").commandLineMessage == "not signed in to a project; sign in first",
                "a sentence alone gets nothing: the remedy is typed")
    }

    @Test func projectPoliciesAreExplained() {
        let policy = server("PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password requirements: [Password must contain at least 8 characters]")
        #expect(policy.message.contains("password policy") && policy.message.contains("Password must contain at least 8 characters"))
        for code in ["MISSING_RECAPTCHA_TOKEN", "INVALID_RECAPTCHA_TOKEN", "INVALID_RECAPTCHA_ACTION", "INVALID_RECAPTCHA_VERSION",
                     "MISSING_RECAPTCHA_VERSION", "MISSING_CLIENT_TYPE"] {
            #expect(server(code).message.contains("protects email/password with reCAPTCHA Enterprise"), "\(code)")
        }
        #expect(server("RECAPTCHA_NOT_ENABLED").message.contains("not enabled"))
        #expect(server("INVALID_TENANT_ID").commandLineMessage.contains("--tenant-id") && !server("INVALID_TENANT_ID").message.contains("--"))
        #expect(server("UNSUPPORTED_TENANT_OPERATION").message.contains("tenant"))
        #expect(server("TENANT_ID_MISMATCH").message.contains("tenant"))
        #expect(server("REJECTED_CREDENTIAL").message.contains("rejected"))
        #expect(server("ADMIN_ONLY_OPERATION").message.contains("sign-ups are disabled"))
        let blocked = server(#"BLOCKING_FUNCTION_ERROR_RESPONSE : ((HTTP Cloud Function returned an error: {"error":{"message":"No.","status":"PERMISSION_DENIED"}}))"#)
        #expect(blocked.message.hasSuffix("[BLOCKING_FUNCTION_ERROR_RESPONSE] (No.)"))
        #expect(server("NOT_IMPLEMENTED", status: 501).exitCode == .failure, "501 is not transient")
        for status in [500, 502, 503, 504, 429] { #expect(server("X", status: status).exitCode == .network) }
    }

    @Test func theLocaleComesFromTheEnvironmentInTheCLibrarysOrder() {
        #expect(ClientIdentity.language(fromEnvironment: ["LANG": "fr_FR.UTF-8"]) == "fr")
        #expect(ClientIdentity.language(fromEnvironment: ["LC_ALL": "de_DE", "LANG": "fr_FR.UTF-8"]) == "de")
        #expect(ClientIdentity.language(fromEnvironment: ["LC_MESSAGES": "pt_BR.UTF-8", "LANG": "fr"]) == "pt-BR")
        #expect(ClientIdentity.language(fromEnvironment: ["LC_ALL": "", "LANG": "es"]) == "es")
        #expect(ClientIdentity.language(fromEnvironment: ["LANG": "C.UTF-8"]) == nil)
        #expect(ClientIdentity.language(fromEnvironment: ["LANG": "POSIX"]) == nil)
        #expect(ClientIdentity.language(fromEnvironment: [:]) == nil)
        #expect(ClientIdentity().headers == ["X-Client-Version": "fbauth/\(CommandLineTool.version)"])
    }
}

/// The one table from the library's error codes to exit codes, and what `help exit-codes` says.
@Suite struct ExitCodeTableTests {
    @Test func everyErrorCodeEndsInExactlyOneDocumentedExitCode() throws {
        let help = try HelpCommand.text(for: "exit-codes")
        for code in FBAuthErrorCode.allCases {
            let exits = ExitCode.allCases.filter { $0.errorCodes.contains(code) }
            #expect(exits == [ExitCode(for: code)], "\(code)")
            #expect(help.contains(code.rawValue), "\(code) is listed")
        }
        #expect(ExitCode.success.errorCodes.isEmpty)
    }

    @Test func theCodesScriptsRelyOn() {
        #expect(ExitCode(for: .invalidArgument) == .usage)
        #expect(ExitCode(for: .userTokenExpired) == .signInAgain)
        #expect(ExitCode(for: .webContextCancelled) == .flowIncomplete)
        #expect(ExitCode(for: .accountExistsWithDifferentCredential) == .accountExists)
        #expect(ExitCode(for: .networkError) == .network)
        #expect(ExitCode(for: .keychainError) == .store)
        // USER_DISABLED is exit 1 wherever it is met (sign-in, refresh).
        let disabled = FBAuthError.server(ServerError(httpStatus: 400, message: "USER_DISABLED", host: "h"), action: "refresh")
        #expect(disabled.code == .userDisabled && disabled.exitCode == .failure)
        // Transient server errors are network errors (exit 6), whatever their code.
        let busy = FBAuthError.server(ServerError(httpStatus: 503, message: "UNAVAILABLE", host: "h"), action: "sign-in")
        #expect(busy.code == .networkError)
    }
}

/// Issue 28, item 4: the library's words for a server's refusal name no command or option;
/// the command line adds its own.
@Suite struct CommandLineRemedyTests {
    @Test func theLibrarySpeaksOfFirebaseAndTheCommandLineAddsItsCommands() {
        for code in ["CREDENTIAL_TOO_OLD_LOGIN_AGAIN", "TENANT_ID_MISMATCH", "PROVIDER_ALREADY_LINKED", "MFA_ENROLLMENT_NOT_FOUND",
                     "SECOND_FACTOR_LIMIT_EXCEEDED", "INVALID_TENANT_ID", "UNSUPPORTED_TENANT_OPERATION", "MISSING_RECAPTCHA_TOKEN"] {
            let error = FBAuthError.server(ServerError(httpStatus: 400, message: code, host: "h"), action: "sign-in")
            #expect(!error.message.contains("fbauth ") && !error.message.contains("--"), "\(code): \(error.message)")
            #expect(error.commandLineMessage.hasSuffix(" [\(code)]") && error.commandLineMessage != error.message, "\(code): \(error.commandLineMessage)")
        }
        let stale = FBAuthError.server(ServerError(httpStatus: 400, message: "CREDENTIAL_TOO_OLD_LOGIN_AGAIN", host: "h"), action: "deleting the account")
        #expect(stale.commandLineMessage.contains("reauthenticate first (`fbauth reauth --provider …`) [CREDENTIAL_TOO_OLD_LOGIN_AGAIN]"), "\(stale.commandLineMessage)")
    }
}

/// The command line adds its commands to the library's sentences, which name none; each remedy
/// is checked against the sentence the library really says, so a rewording on either side fails.
@Suite struct CommandLineRemediesTests {
    let project = ProjectKey(apiKey: "key", emulatorHost: nil)

    func selectionError(_ contents: StoreContents, _ selector: SessionSelector) -> FBAuthError? {
        do { _ = try contents.session(selector, in: project); return nil } catch { return error }
    }

    @Test func choosingASessionNamesTheCommandsThatHelp() throws {
        let nobody = try #require(selectionError(StoreContents(), .current))
        #expect(nobody.commandLineMessage.hasSuffix("sign in first (run `fbauth signin --provider ID`)"), "\(nobody.commandLineMessage)")
        #expect(!nobody.message.contains("fbauth"))

        var contents = StoreContents()
        let ada = Session(uid: "ada", email: "ada@example.com", idToken: "id", refreshToken: "refresh",
                          expirationTime: Date(timeIntervalSince1970: 2_000_000_000), lastSignInTime: Date(timeIntervalSince1970: 1_900_000_000))
        contents.save(ada, in: project, makeCurrent: false)
        let noCurrent = try #require(selectionError(contents, .current))
        #expect(noCurrent.commandLineMessage.hasSuffix("(`fbauth use UID-or-EMAIL`; `fbauth accounts` lists them)"), "\(noCurrent.commandLineMessage)")
        let unknown = try #require(selectionError(contents, .user("bob@example.com")))
        #expect(unknown.commandLineMessage.hasSuffix("(`fbauth accounts --all` lists them)"), "\(unknown.commandLineMessage)")
    }

    @Test func hintsGoOnlyWhereTheyApply() {
        #expect(FBAuthError.usage("an unrelated sentence").commandLineMessage == "an unrelated sentence")
        #expect(FBAuthError.usage("x").hinting("--flag").message == "x (--flag)")
        let server = FBAuthError.server(ServerError(httpStatus: 400, message: "X", host: "h"), action: "a")
        #expect(server.hinting("--flag").message == server.message)
    }
}

/// A provider id's shape is the library's to check, in its own words; `--provider` is the
/// command line's (CommandLineTests).
@Suite struct ProviderIDTests {
    @Test func theLibrarysRefusalNamesNoOption() throws {
        let refusal = #expect(throws: FBAuthError.self) { try ProviderID.validate("yahoo") }
        #expect(refusal?.message == "'yahoo' is not a provider id (like yahoo.com, microsoft.com, twitter.com, oidc.NAME); did you mean 'yahoo.com'?")
        #expect(try ProviderID.validate("oidc.corp-sso") == "oidc.corp-sso")
    }
}
