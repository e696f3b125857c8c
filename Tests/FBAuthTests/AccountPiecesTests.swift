@testable import FBAuth
@testable import FBAuthCLI
import Foundation
import Testing

/// The pieces behind the account commands, alone: mailed links as the SDKs parse them, the
/// password policy in words, which provider tokens may be given, what a server echoes, and
/// the claims `getIdTokenResult` shows.
@Suite struct AccountPiecesTests {
    // MARK: Email action links (firebase-js-sdk core/action_code_url.ts)

    @Test func linksAreReadAsActionCodeURLReadsThem() throws {
        let plain = "https://p.firebaseapp.com/__/auth/action?apiKey=AIzaKey&mode=resetPassword&oobCode=CODE-1_x&continueUrl=https%3A%2F%2Fapp.example%2F&lang=en"
        let link = try EmailActionLink.parse(plain).get()
        #expect(link.operation == .passwordReset && link.code == "CODE-1_x" && link.apiKey == "AIzaKey" && link.continueUrl == "https://app.example/")
        // Pasted with quotes or angle brackets, as mail clients and shells leave them.
        #expect(try EmailActionLink.parse("<\(plain)>\n").get() == link)
        // Dynamic Links wrap the link in `link`; iOS custom schemes in `deep_link_id`.
        let wrapped = "https://p.page.link/?link=" + FormEncodingForTests.encode(plain)
        #expect(try EmailActionLink.parse(wrapped).get() == link)
        let iOS = "com.example.app://?deep_link_id=" + FormEncodingForTests.encode(plain)
        #expect(try EmailActionLink.parse(iOS).get() == link)
    }

    @Test(arguments: [
        ("https://example.com/", EmailActionLink.LinkProblem.notALink),
        ("https://p.firebaseapp.com/__/auth/action?mode=signIn&oobCode=x", .notALink),
        ("https://p.firebaseapp.com/__/auth/action?apiKey=k&mode=dance&oobCode=x", .unknownMode),
        ("https://p.firebaseapp.com/__/auth/action?apiKey=k&mode=signIn&oobCode=a%0Ab", .malformedCode),
        ("not a link at all", .notALink),
    ])
    func whatIsNotALinkIsSaidWhy(text: String, problem: EmailActionLink.LinkProblem) {
        guard case .failure(let found) = EmailActionLink.parse(text) else {
            Issue.record("accepted \(text)")
            return
        }
        #expect(found == problem)
    }

    // MARK: The password policy in words

    @Test func thePolicyIsSaidInWords() {
        var options = PasswordPolicyResponse.Options()
        options.minPasswordLength = 10
        options.maxPasswordLength = 4096
        options.containsUppercaseCharacter = true
        options.containsNumericCharacter = true
        #expect(PasswordPolicyWords.requirements(PasswordPolicyResponse(options: options, enforcementState: "ENFORCE"))
            == "at least 10 characters, an upper-case letter and a digit")
        options.maxPasswordLength = 30
        options.containsNonAlphanumericCharacter = true
        #expect(PasswordPolicyWords.requirements(PasswordPolicyResponse(options: options, enforcementState: "ENFORCE", symbols: ["!", "#"]))
            == "10 to 30 characters, an upper-case letter, a digit and a symbol (one of !#)")
        #expect(PasswordPolicyWords.requirements(PasswordPolicyResponse(options: options, enforcementState: "OFF")) == "at least 6 characters")
    }

    @Test func symbolsFromTheServerAreSingleVisibleCharacters() throws {
        let json = ##"{"enforcementState":"ENFORCE","allowedNonAlphanumericCharacters":["!","\u001b[31m","#","ab"],"customStrengthOptions":{"minPasswordLength":8}}"##
        let policy = try JSONDecoder().decode(PasswordPolicyResponse.self, from: Data(json.utf8))
        #expect(policy.allowedNonAlphanumericCharacters == ["!", "#"])
        let absurd = #"{"customStrengthOptions":{"minPasswordLength":1e308}}"#
        #expect(throws: (any Error).self) { try JSONDecoder().decode(PasswordPolicyResponse.self, from: Data(absurd.utf8)) }
    }

    // MARK: Provider tokens

    @Test func eachProviderTakesTheTokensFirebaseAccepts() throws {
        func make(_ provider: String, id: String? = nil, access: String? = nil, secret: String? = nil, nonce: String? = nil) -> String? {
            do {
                _ = try ProviderTokenCredential(providerId: provider, idToken: id, accessToken: access, secret: secret, rawNonce: nonce,
                                                names: CredentialOptions.TokenSources.optionNames)
                return nil
            } catch { return error.message }
        }
        #expect(make("google.com", id: "a.b.c") == nil && make("google.com", access: "ya29.x") == nil)
        #expect(make("apple.com", id: "a.b.c", nonce: "n") == nil && make("oidc.ci", id: "a.b.c") == nil)
        #expect(make("twitter.com", access: "t", secret: "s") == nil && make("github.com", access: "gho_x") == nil)
        #expect(make("microsoft.com", access: "t")?.contains("cannot verify their audience") == true)
        #expect(make("yahoo.com", id: "a.b.c")?.contains("sign in through the browser instead") == true)
        #expect(make("saml.corp", id: "x")?.contains("SAML") == true)
        #expect(make("twitter.com", access: "t")?.contains("--token-secret-file") == true)
        #expect(make("apple.com", access: "t")?.contains("ID tokens") == true)
        #expect(make("oidc.ci", access: "t")?.contains("take an ID token") == true)
        #expect(make("google.com", access: "t", nonce: "n")?.contains("--nonce goes with an ID token") == true)
        #expect(make("google.com", access: "t", secret: "s")?.contains("twitter.com") == true)
        #expect(make("google.com", access: "a b")?.contains("is not a token") == true)
        #expect(make("google.com")?.contains("needs --id-token-file or --access-token-file") == true)
        // The library's own words name the SDK's parameters, not the command line's options.
        let sdkWords = #expect(throws: FBAuthError.self) {
            try ProviderTokenCredential(providerId: "twitter.com", idToken: nil, accessToken: "t", secret: nil, rawNonce: nil)
        }
        #expect(sdkWords?.message == "X (twitter.com) credentials are OAuth 1.0a: give accessToken and secret")
    }

    @Test func theCredentialGoesInPostBodyAsTheSDKsSendIt() throws {
        let credential = try ProviderTokenCredential(providerId: "apple.com", idToken: "h.p.s", accessToken: nil, secret: nil, rawNonce: "n&1")
        #expect(credential.request.requestUri == "http://localhost")
        #expect(credential.request.postBody == "id_token=h.p.s&providerId=apple.com&nonce=n%261")
    }

    // MARK: What servers echo

    @Test func echoedCredentialsAreRedactedFromServerMessages() {
        let message = "INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: http://localhost?id_token=eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjM0NTYifQ.c2lnbmF0dXJl&access_token=secret&oauth_token_secret=s2&providerId=google.com"
        let shown = FBAuthError.server(ServerError(httpStatus: 400, message: message, host: "h"), action: "sign-in").message
        #expect(!shown.contains("eyJ") && !shown.contains("=secret") && !shown.contains("=s2"), "\(shown)")
        #expect(shown.contains("providerId=google.com") && shown.contains("[INVALID_CREDENTIAL_OR_PROVIDER_ID]"))
        let unknown = FBAuthError.server(ServerError(httpStatus: 400, message: "SOMETHING_NEW oobCode=abc&nonce=xyz", host: "h"), action: "x").message
        #expect(!unknown.contains("abc") && !unknown.contains("xyz"), "\(unknown)")
    }

    /// Issue 51, item 5: a Google user's token lists their address under `email` too; only a
    /// password's sign-in (or a token naming no other provider) makes that the password provider.
    @Test func aTokensEmailIdentityIsAPasswordOnlyWhereNothingElseGaveIt() throws {
        func providers(_ firebase: String) throws -> [String] {
            let payload = #"{"auth_time":1795597923,"iat":1795597930,"exp":1795601530,"user_id":"u1","firebase":"# + firebase + "}"
            let token = "eyJhbGciOiJub25lIn0." + Data(payload.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_") + "."
            return AuthService.providers(in: try #require(IDTokenDetails(idToken: token))).map(\.providerId)
        }
        #expect(try providers(#"{"identities":{"google.com":["1"],"email":["a@gmail.com"]},"sign_in_provider":"google.com"}"#) == ["google.com"])
        #expect(try providers(#"{"identities":{"email":["a@example.com"]},"sign_in_provider":"password"}"#) == ["password"])
        #expect(try providers(#"{"identities":{"google.com":["1"],"email":["a@gmail.com"]},"sign_in_provider":"password"}"#) == ["password", "google.com"])
        #expect(try providers(#"{"identities":{"email":["a@example.com"]},"sign_in_provider":"custom"}"#) == ["password"])
        #expect(try providers(#"{"identities":{"phone":["+15555550100"]},"sign_in_provider":"phone"}"#) == [])
    }

    // MARK: getIdTokenResult

    @Test func claimsComeOutAsGetIdTokenResult() throws {
        let payload = #"{"auth_time":1795597923,"iat":1795597930,"exp":1795601530,"user_id":"u1","admin":true,"firebase":{"sign_in_provider":"password","sign_in_second_factor":"totp","tenant":"t-1"}}"#
        let token = "eyJhbGciOiJub25lIn0." + Data(payload.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_") + "."
        let tokenResult = try #require(IDTokenDetails(idToken: token))
        #expect(tokenResult.tenantID == "t-1" && tokenResult.claims["admin"] == "true")
        let result = TokenCommand.claimsJSON(tokenResult)
        #expect(result["authTime"]?.stringValue == "2026-11-25T09:12:03Z")
        #expect(result["expirationTime"]?.stringValue == "2026-11-25T10:12:10Z")
        #expect(result["signInProvider"]?.stringValue == "password" && result["signInSecondFactor"]?.stringValue == "totp" && result["tenant"]?.stringValue == "t-1")
        #expect(result["claims"]?["admin"] == .bool(true))
        #expect(IDTokenDetails(idToken: "not.a.token") == nil)
        // Times outside 1970–2200 are no times (year 506713 was seen in a server's answer).
        let farFuture = #"{"auth_time":1795597923,"iat":1795597930,"exp":15928015075200}"#
        #expect(IDTokenDetails(idToken: "eyJhbGciOiJub25lIn0." + Data(farFuture.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "") + ".") == nil)
    }
}

/// Percent-encodes a whole value for a query (as a link wrapped in `link=` is).
enum FormEncodingForTests {
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }
}
