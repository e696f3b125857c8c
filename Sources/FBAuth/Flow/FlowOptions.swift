#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The options of a browser flow with an identity provider (signin, link, reauth).
internal struct FlowOptions: Sendable, Equatable {
    internal var providerId: String
    /// Extra OAuth scopes, sent space-delimited as `oauthScope`.
    internal var scopes: [String]
    /// Custom OAuth parameters, in the order given; `login_hint` from `--email` is added last.
    internal var customParameters: [KeyValue]
    /// The account hint; against the Auth emulator, the fake account's email.
    internal var email: String?
    internal var port: UInt16
    internal var redirectHost: RedirectHost
    internal var openBrowser: Bool
    internal var timeout: Duration
    /// How the provider's redirect comes back: through Firebase's hosted auth handler (the
    /// default) or straight to the loopback listener (`--loopback`).
    internal var redirect: RedirectRoute
    /// Whether `--loopback` or `--hosted` chose `redirect`; otherwise the default may follow the
    /// server (an Auth emulator: the loopback flow).
    internal var redirectWasChosen = true
    /// The hosted handler's domain (`--auth-domain`); nil: `PROJECT_ID.firebaseapp.com`.
    internal var authDomain: String?

    /// The default listener port, fixed so users can register the redirect URI
    /// `http://localhost:8977/__/auth/handler` with their provider.
    internal static let defaultPort: UInt16 = 8977
    internal static let defaultTimeout: Duration = .seconds(300)

    internal init(providerId: String, scopes: [String] = [], customParameters: [KeyValue] = [], email: String? = nil,
                port: UInt16 = defaultPort, redirectHost: RedirectHost = .localhost, openBrowser: Bool = true,
                timeout: Duration = defaultTimeout, redirect: RedirectRoute = .hostedHandler, authDomain: String? = nil) {
        self.providerId = providerId
        self.scopes = scopes
        self.customParameters = customParameters
        self.email = email
        self.port = port
        self.redirectHost = redirectHost
        self.openBrowser = openBrowser
        self.timeout = timeout
        self.redirect = redirect
        self.authDomain = authDomain
    }

    /// The parameters Firebase sets itself; providers reject duplicates (Firebase's guides for
    /// Microsoft and Yahoo sign-in).
    internal static let reservedParameters: Set<String> = ["client_id", "redirect_uri", "response_type", "scope", "state", "response_mode"]

    /// SAML providers take neither custom parameters nor scopes (Firebase's hosted handler sends
    /// neither for `saml.*`).
    var isSAML: Bool { providerId.hasPrefix("saml.") }

    /// `customParameter` as sent to createAuthUri.
    var customParameterObject: [String: String]? {
        guard !isSAML else { return nil }
        var object: [String: String] = [:]
        for parameter in customParameters { object[parameter.key] = parameter.value }
        if let email, object["login_hint"] == nil { object["login_hint"] = email }
        return object.isEmpty ? nil : object
    }

    /// `oauthScope` in the form Firebase's hosted handler sends it, a JSON object keyed by
    /// provider with comma-joined scopes: `{"yahoo.com":"mail-r,sdct-w"}`.
    var oauthScope: String? {
        guard !scopes.isEmpty, !isSAML else { return nil }
        return String(decoding: JSONValue.object([providerId: .string(scopes.joined(separator: ","))]).sortedData(), as: UTF8.self)
    }

    /// Google's createAuthUri starts the ID-token flow, answered in the URL fragment that a
    /// listener never sees, unless asked for the code flow (the v1 reference documents
    /// `authFlowType` for Google only).
    var authFlowType: String? { providerId == "google.com" ? "CODE_FLOW" : nil }
}

/// The two ways a browser flow gets the provider's redirect.
package enum RedirectRoute: Sendable, Equatable {
    /// A page on the loopback listener runs the Firebase JS SDK's `signInWithPopup`; Firebase's
    /// hosted handler (`https://AUTH_DOMAIN/__/auth/handler`, registered with every provider)
    /// receives the redirect, and fbauth performs the exchange with what the page captured.
    case hostedHandler
    /// `createAuthUri` with the loopback listener as `continueUri`: the provider redirects to
    /// fbauth directly, so that URI must be registered with the provider.
    case loopback
}

/// A `KEY=VALUE` option value.
internal struct KeyValue: Sendable, Equatable {
    internal var key: String
    internal var value: String

    internal init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}
