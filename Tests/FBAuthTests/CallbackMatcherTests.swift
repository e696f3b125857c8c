@testable import FBAuth
@testable import FBAuthCLI
import LoopbackHTTP
import Testing

@Suite struct CallbackMatcherTests {
    let oauth2 = CallbackMatcher(redirectPath: "/__/auth/handler", binding: .state("S1"), port: 9000)
    let oauth1 = CallbackMatcher(redirectPath: "/__/auth/handler", binding: .oauthToken("T1"), port: 9000)

    private func get(_ target: String, host: String = "localhost:9000") -> HTTPRequest {
        HTTPRequest(method: "GET", target: target, headers: [("Host", host)])
    }

    @Test func bindingComesFromTheAuthorizationURL() {
        #expect(CallbackMatcher.binding(forAuthorizationURL: "https://idp/authorize?client_id=c&state=abc%3D&x=1") == .state("abc="))
        #expect(CallbackMatcher.binding(forAuthorizationURL: "https://api.twitter.com/oauth/authenticate?oauth_token=tok") == .oauthToken("tok"))
        #expect(CallbackMatcher.binding(forAuthorizationURL: "https://idp/authorize?a=b#state=frag") == CallbackMatcher.Binding.none)
    }

    @Test func theRightOAuth2CallbackIsAuthorized() {
        #expect(oauth2.classify(get("/__/auth/handler?code=C&state=S1")) == .authorized(parameters: ["code": "C", "state": "S1"]))
        for host in ["127.0.0.1:9000", "[::1]:9000", "LOCALHOST:9000"] {
            if case .authorized = oauth2.classify(get("/__/auth/handler?code=C&state=S1", host: host)) {} else { Issue.record("\(host) rejected") }
        }
    }

    @Test(arguments: [
        ("/favicon.ico", 404),
        ("/", 404),
        ("/__/auth/handler", 400),
        ("/__/auth/handler?code=C", 400),
        ("/__/auth/handler?code=C&state=S2", 400),
        ("/__/auth/handler?state=S1", 400),
        ("/__/auth/handler/extra?code=C&state=S1", 404),
        ("/__/auth/HANDLER?code=C&state=S1", 404),
    ])
    func everythingElseIsRejected(target: String, status: Int) {
        guard case .rejected(let actual, _) = oauth2.classify(get(target)) else {
            Issue.record("accepted \(target)")
            return
        }
        #expect(actual == status)
    }

    @Test func aForeignHostIsRejected() {
        guard case .rejected(400, _) = oauth2.classify(get("/__/auth/handler?code=C&state=S1", host: "evil.example:9000")) else {
            Issue.record("accepted")
            return
        }
        guard case .rejected(400, _) = oauth2.classify(HTTPRequest(method: "GET", target: "/__/auth/handler?code=C&state=S1")) else {
            Issue.record("accepted without Host")
            return
        }
    }

    @Test func providerErrorsNeedTheRightStateToo() {
        #expect(oauth2.classify(get("/__/auth/handler?error=access_denied&error_description=No+way&state=S1"))
            == .providerError(code: "access_denied", description: "No way"))
        guard case .rejected = oauth2.classify(get("/__/auth/handler?error=access_denied&state=forged")) else {
            Issue.record("a forged error must not end the flow")
            return
        }
    }

    @Test func oauth1UsesTheRequestToken() {
        #expect(oauth1.classify(get("/__/auth/handler?oauth_token=T1&oauth_verifier=V")) == .authorized(parameters: ["oauth_token": "T1", "oauth_verifier": "V"]))
        #expect(oauth1.classify(get("/__/auth/handler?denied=T1")) == .providerError(code: "access_denied", description: "the user denied access"))
        guard case .rejected = oauth1.classify(get("/__/auth/handler?oauth_token=T2&oauth_verifier=V")) else {
            Issue.record("wrong token accepted")
            return
        }
    }

    @Test func formPostCallbacksAreRead() {
        let request = HTTPRequest(
            method: "POST", target: "/__/auth/handler",
            headers: [("Host", "localhost:9000"), ("Content-Type", "application/x-www-form-urlencoded")],
            body: Array("code=C&state=S1".utf8))
        #expect(oauth2.classify(request) == .authorized(parameters: ["code": "C", "state": "S1"]))
        var put = request
        put.method = "PUT"
        guard case .rejected(405, _) = oauth2.classify(put) else {
            Issue.record("PUT accepted")
            return
        }
    }
}
