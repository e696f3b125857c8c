import FBAuthSupport

/// The checks the library applies to what it is configured with, for a program that takes
/// settings from people (options, environment variables, files) and refuses a bad one before
/// anything runs, in its own words, as fbauth does.
package enum SettingChecks {
    /// A Web API key: 1 to 200 printable ASCII characters without spaces.
    package static func isAPIKey(_ key: String) -> Bool { APIKey.isValid(key) }

    /// The same, with the sentence for a key given as `name` (an option, a variable) that is not one.
    package static func apiKeyProblem(_ key: String, named name: String) -> FBAuthError? { APIKey.problem(key, named: name) }

    /// A Google Cloud project id (lower-case letters, digits, `-`, `.` and `:`; at most 100).
    package static func isProjectID(_ text: String) -> Bool { IDTokenClaims.isProjectID(text) }

    /// A host name, with an optional port, for the hosted handler (`my-project.firebaseapp.com`).
    package static func isAuthDomain(_ domain: String) -> Bool { AuthDomain.isValid(domain) }

    /// An https:// address (or http:// to loopback) without query or fragment, for
    /// `AuthServiceSettings.firebaseJSURL`.
    package static func isFirebaseJSURL(_ base: String) -> Bool { HostedPage.isAllowedSDKBase(base) }

    /// `FIREBASE_AUTH_EMULATOR_HOST` checked: nil when unset or empty, else `host:port`; a bad
    /// value is a usage error that names the variable.
    package static func emulatorHost(_ setting: String?) throws(FBAuthError) -> String? {
        try FirebaseEndpoints.emulatorHost(setting: setting)
    }
}

extension ListenerGuard {
    /// The check for this machine: off under WSL, whose Windows browser reaches the listener
    /// through WSL's localhost relay, a program that is not the user's (the launch page
    /// protects the address there); on elsewhere.
    package static func suited(to environment: [String: String]) -> ListenerGuard {
        BrowserCommand.isWSL(environment: environment, fileExists: Platform.fileExists) ? .off : .ownConnectionsOnly
    }
}

extension ProviderID {
    /// How messages name a provider: "Yahoo", "Microsoft", "email/password"; else its id.
    package static func displayName(of providerID: String) -> String { ProviderNames.name(of: providerID) }
}
