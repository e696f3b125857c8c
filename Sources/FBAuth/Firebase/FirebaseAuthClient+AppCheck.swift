#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport

/// An App Check token and when it expires.
internal struct ExchangedAppCheckToken: Codable, Sendable, Equatable {
    internal var token: String
    internal var expirationTime: Date
    /// The app it attests (a cached token of another app is not used).
    internal var appID: String
    /// SHA-256 (hex) of the debug token it was exchanged for, never the token itself: one
    /// exchanged for another debug token is not used (a wrong token must fail now, not in an hour).
    internal var debugTokenDigest: String?

    internal init(token: String, expirationTime: Date, appID: String) {
        self.token = token
        self.expirationTime = expirationTime
        self.appID = appID
    }
}

/// `{"token": "…", "ttl": "3600s"}`: the App Check token and its time to live as a protobuf
/// Duration (firebase-js-sdk packages/app-check `exchangeToken`).
struct AppCheckExchangeResponse: Decodable {
    var token: String
    var ttl: String

    /// The ttl in seconds: digits with an optional fraction, then `s`; at most a day.
    var seconds: TimeInterval? {
        guard ttl.hasSuffix("s"), let value = Double(ttl.dropLast()), ttl.dropLast().allSatisfy({ $0.isNumber || $0 == "." }),
              value > 0, value <= 86400 else { return nil }
        return value
    }
}

extension FirebaseAuthClient {
    /// Exchanges a debug token for an App Check token (`…:exchangeDebugToken`, body
    /// `{"debug_token": …}`). Sent without an App Check header of its own.
    internal func exchangeDebugToken(_ settings: AppCheckDebugSettings, project: String, now: Date) throws(FBAuthError) -> ExchangedAppCheckToken {
        let url = endpoints.appCheckExchange(project: project, appID: settings.appID, apiKey: apiKey, overrideHost: settings.exchangeHost)
        let answer: AppCheckExchangeResponse
        do {
            answer = try post(url, ["debug_token": settings.debugToken], action: "the App Check debug token exchange", retry: .onceIfTransient)
        } catch {
            if let emulator = endpoints.emulatorHost, settings.exchangeHost == nil, Self.isNotFound(error) {
                // Google's Auth emulator serves no App Check (firebase-tools src/emulator/auth ignores the header).
                throw .failed(.appCheckTokenInvalid, "the Auth emulator at \(emulator) does not serve App Check's token exchange (Google's Auth emulator ignores App Check tokens): leave App Check unconfigured against it")
            }
            guard case .server(let refusal, _) = error, [400, 403, 404].contains(refusal.httpStatus) else { throw error }
            if let emulator = endpoints.emulatorHost, settings.exchangeHost == nil {
                throw .failed(.appCheckTokenInvalid, "the Auth emulator at \(emulator) does not know the App Check debug token for app \(settings.appID) (HTTP \(refusal.httpStatus): \(TerminalText.safe(refusal.message))): register it when the emulator starts",
                              remedy: .registerDebugTokenWithEmulator)
            }
            let answeredBy = settings.exchangeHost == nil ? "" : " at \(endpoints.displayHost(for: url))"
            throw .failed(.appCheckTokenInvalid, "App Check\(answeredBy) refused the debug token for app \(settings.appID) (HTTP \(refusal.httpStatus): \(TerminalText.safe(refusal.message))): register it in the Firebase console (App Check → Apps → the app's menu → Manage debug tokens)")
        }
        guard TokenAlphabet.jwt.accepts(answer.token), let seconds = answer.seconds else {
            throw .badResponse(host: endpoints.displayHost(for: url), reason: "the App Check exchange answered no usable token or ttl")
        }
        return ExchangedAppCheckToken(token: answer.token, expirationTime: now.addingTimeInterval(seconds), appID: settings.appID)
    }

    /// A 404, with Google's error envelope (Google's Auth emulator) or without.
    private static func isNotFound(_ error: FBAuthError) -> Bool {
        switch error {
        case .server(let refusal, _): refusal.httpStatus == 404
        case .badResponse(_, let reason): reason.hasPrefix("HTTP 404")
        default: false
        }
    }
}
