import LoopbackHTTP

/// The one address a browser flow leads the browser to: `http://HOST:PORT/start?n=NONCE`. Its
/// nonce is good for one visit, which gets a random HttpOnly cookie and a redirect to where the
/// flow really starts (the provider, or the hosted flow's page). What comes back is accepted
/// only with that cookie. The first visitor wins, so the nonce must reach the user's browser
/// only: a launched browser is given a `LaunchPage` (a file only this user can read) that leads
/// here, never the address itself, since every user can read a browser's command line. The
/// browser holding the cookie may visit the address again.
struct StartGate {
    static let cookieName = "fbauth_flow"

    let nonce: String
    let cookie: String
    /// `HOST:PORT` as the browser names the listener (`localhost:8977`).
    let authority: String
    private(set) var opened = false

    init(nonce: String, cookie: String, authority: String) {
        self.nonce = nonce
        self.cookie = cookie
        self.authority = authority
    }

    var startURL: String { "http://\(authority)/start?n=\(nonce)" }

    enum Decision: Equatable {
        /// Answer (a redirect with the cookie, or a refusal) and keep waiting.
        case respond(HTTPResponse)
        /// A second visit without the cookie: refuse it and tell the user.
        case refuseReplay(HTTPResponse)
    }

    /// Handles `GET /start`; nil for any other request.
    mutating func start(_ request: HTTPRequest, then location: String) -> Decision? {
        guard request.method == "GET", request.path == "/start" else { return nil }
        guard request.queryItems.first(where: { $0.name == "n" })?.value == nonce else {
            return .respond(Self.refusal(403, "this is not the address of the current sign-in"))
        }
        if opened && !hasCookie(request) {
            return .refuseReplay(Self.refusal(403, "this sign-in was already opened in another browser"))
        }
        opened = true
        var redirect = HTTPResponse.redirect(to: location)
        redirect.headers.append(("Set-Cookie", "\(Self.cookieName)=\(cookie); Path=/; HttpOnly; SameSite=Lax"))
        return .respond(redirect)
    }

    func hasCookie(_ request: HTTPRequest) -> Bool {
        guard let header = request.header("Cookie") else { return false }
        return header.split(separator: ";").contains { $0.trimmed() == "\(Self.cookieName)=\(cookie)" }
    }

    static func refusal(_ status: Int, _ reason: String) -> HTTPResponse {
        ResultPage.page(status: status, title: "fbauth", heading: HTTPResponse.reasonPhrase(status),
                        text: "This address only serves fbauth's sign-in (\(reason)).")
    }

    /// A second visit of the address means that another program saw it; which of the two is
    /// the user's browser cannot be told, so the sign-in ends rather than risk completing as
    /// whoever came first.
    static func replayError(_ observer: SignInObserver) -> FBAuthError {
        observer.notice("fbauth: another program opened this sign-in's address too (another user of this machine may have seen it).")
        return .flowIncomplete("the sign-in was cancelled because its address was used twice; run the command again")
    }
}
