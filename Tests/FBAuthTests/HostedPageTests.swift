@testable import FBAuth
@testable import FBAuthCLI
import Foundation
import LoopbackHTTP
import Testing

@Suite struct HostedPageRoutesTests {
    private func routes() -> LocalPageRoutes<HostedIdpResponse> {
        LocalPageRoutes(nonce: "N", cookie: "C", port: 8977, page: .text(200, "the page"), decodeResult: HostedIdpResponse.decode)
    }

    private func request(_ method: String, _ target: String, cookie: Bool = true, body: String = "") -> HTTPRequest {
        var headers: [(name: String, value: String)] = [("Host", "localhost:8977"), ("Origin", "http://localhost:8977")]
        if cookie { headers.append(("Cookie", "other=1; fbauth_flow=C")) }
        return HTTPRequest(method: method, target: target, headers: headers, body: Array(body.utf8))
    }

    private func status(_ decision: LocalPageRoutes<HostedIdpResponse>.Decision) -> Int? {
        switch decision {
        case .respond(let response), .refuseReplay(let response): response.status
        default: nil
        }
    }

    @Test func theStartAddressWorksOnceAndSetsTheCookie() {
        var routes = routes()
        guard case .respond(let first) = routes.classify(request("GET", "/start?n=N", cookie: false)) else { Issue.record("no answer"); return }
        #expect(first.status == 302)
        #expect(first.headers.contains { $0.name == "Set-Cookie" && $0.value == "fbauth_flow=C; Path=/; HttpOnly; SameSite=Lax" })
        guard case .refuseReplay(let second) = routes.classify(request("GET", "/start?n=N", cookie: false)) else { Issue.record("replay accepted"); return }
        #expect(second.status == 403)
        #expect(status(routes.classify(request("GET", "/start?n=X", cookie: false))) == 403)
    }

    @Test func thePageAndItsPostsNeedTheCookie() {
        var routes = routes()
        #expect(status(routes.classify(request("GET", "/", cookie: false))) == 403)
        #expect(status(routes.classify(request("GET", "/"))) == 200)
        #expect(status(routes.classify(request("POST", "/__/fbauth/result", cookie: false, body: #"{"requestUri":"https://x/"}"#))) == 403)
        var foreign = request("POST", "/__/fbauth/failure")
        foreign.headers[1] = ("Origin", "https://evil.example")
        #expect(status(routes.classify(foreign)) == 403, "a POST from another origin")
        var rebound = request("GET", "/")
        rebound.headers[0] = ("Host", "attacker.example:8977")
        #expect(status(routes.classify(rebound)) == 400)
    }

    @Test func oneResultIsTakenAndASecondIsRefused() {
        var routes = routes()
        let body = #"{"requestUri":"https://p.firebaseapp.com/__/auth/handler?code=A&state=S","sessionId":"s","postBody":null}"#
        #expect(routes.classify(request("POST", "/__/fbauth/result", body: body)) == .result(HostedIdpResponse(
            requestUri: "https://p.firebaseapp.com/__/auth/handler?code=A&state=S", sessionId: "s", postBody: nil, tenantId: nil)))
        #expect(status(routes.classify(request("POST", "/__/fbauth/result", body: body))) == 409)
        #expect(status(routes.classify(request("POST", "/__/fbauth/result", body: #"{"requestUri":"javascript:x"}"#))) == 409)
    }

    @Test func aMalformedResultIsRefusedAndTheNextMayStillCome() {
        var routes = routes()
        #expect(status(routes.classify(request("POST", "/__/fbauth/result", body: #"{"requestUri":"javascript:alert(1)"}"#))) == 400)
        #expect(status(routes.classify(request("POST", "/__/fbauth/result", body: "not json"))) == 400)
        guard case .result = routes.classify(request("POST", "/__/fbauth/result", body: #"{"requestUri":"http://127.0.0.1:9/h?code=a"}"#)) else {
            Issue.record("the good result was refused"); return
        }
    }

    @Test func pageFailuresAreCleanedForTheTerminal() {
        var routes = routes()
        let body = "{\"code\":\"auth/popup-closed-by-user\",\"message\":\"closed\\u001b[2J\"}"
        #expect(routes.classify(request("POST", "/__/fbauth/failure", body: body)) == .failure(code: "auth/popup-closed-by-user", message: "closed[2J"))
        #expect(HostedHandlerFlow.pageFailure(code: "auth/popup-closed-by-user", message: "", providerId: "yahoo.com").exitCode == .flowIncomplete)
        #expect(HostedHandlerFlow.pageFailure(code: "auth/unauthorized-domain", message: "", providerId: "yahoo.com").exitCode == .failure)
    }
}

@Suite struct HostedPageTests {
    @Test func settingsCannotBreakOutOfTheScriptElement() {
        let page = HostedPage(sdkBase: "https://sdk.example/v/", apiKey: "key</script><script>alert(1)</script>", authDomain: "p.firebaseapp.com",
                              tenantId: "t-1", emulatorURL: nil, providerId: "yahoo.com", scopes: ["mail-r"], customParameters: ["login_hint": "a&b@example.com"])
        #expect(!page.html.contains("</script><script>alert"))
        let json = page.configJSON.replacingOccurrences(of: "\\u003c", with: "<").replacingOccurrences(of: "\\u003e", with: ">")
            .replacingOccurrences(of: "\\u0026", with: "&")
        let config = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any]
        #expect(config?["apiKey"] as? String == "key</script><script>alert(1)</script>")
        #expect(config?["sdk"] as? String == "https://sdk.example/v", "no double slash before the file names")
        #expect(config?["tenantId"] as? String == "t-1")
        #expect((config?["customParameters"] as? [String: String])?["login_hint"] == "a&b@example.com")
        #expect(config?["emulator"] == nil)
    }

    @Test func theDefaultSDKIsThePinnedGstaticBuild() {
        #expect(HostedPage.defaultSDKBase == "https://www.gstatic.com/firebasejs/\(HostedPage.sdkVersion)")
        #expect(AuthDomain.isValid("auth.example.com") && AuthDomain.isValid("localhost:5000"))
        #expect(!AuthDomain.isValid("https://auth.example.com") && !AuthDomain.isValid("a/b") && !AuthDomain.isValid(""))
    }
}
