/// Firebase App Check with a debug token, as the SDKs' debug provider (`AppCheckDebugProvider`;
/// firebase-js-sdk packages/app-check `exchangeDebugToken`): outside an app, a debug token
/// registered in the Firebase console (App Check → Apps → Manage debug tokens) is exchanged for
/// App Check tokens, which every Identity Toolkit and securetoken request then carries in
/// `X-Firebase-AppCheck`, and the hosted handler's address in `#fac=`. A project that enforces
/// App Check on Authentication refuses requests without one.
package struct AppCheckDebugSettings: Sendable, Equatable {
    /// The debug token registered in the console: a secret (it attests as the app).
    package var debugToken: String
    /// The app it is registered for: `1:PROJECT_NUMBER:ios|android|web:HEX`
    /// (`GOOGLE_APP_ID`, `mobilesdk_app_id`, the web app's `appId`).
    package var appID: String
    /// `host:port` that serves `/content-firebaseappcheck.googleapis.com/v1/…` over http instead
    /// of Google (a local stand-in); nil: Google's host, or the Auth emulator's host when the
    /// settings name one.
    package var exchangeHost: String?

    package init(debugToken: String, appID: String, exchangeHost: String? = nil) {
        self.debugToken = debugToken
        self.appID = appID
        self.exchangeHost = exchangeHost
    }

    /// Whether `text` is a Firebase app id: `1:`, the project number, the platform, a hex id.
    package static func isAppID(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "1" && !parts[1].isEmpty && parts[1].count <= 20 && parts[1].allSatisfy(\.isASCII) && parts[1].allSatisfy(\.isNumber)
            && ["ios", "android", "web"].contains(parts[2]) && (1...64).contains(parts[3].count) && parts[3].allSatisfy { $0.isASCII && $0.isHexDigit }
    }

    /// Whether `text` can be a debug token: what the console makes is a UUID; anything of 1 to
    /// 200 letters, digits and `-_.` is passed on.
    package static func isDebugToken(_ text: String) -> Bool {
        (1...200).contains(text.utf8.count) && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
    }

    /// The project number in the app id, which names the project for the exchange when its id
    /// is not known.
    var projectNumber: String { String(appID.split(separator: ":")[1]) }
}
