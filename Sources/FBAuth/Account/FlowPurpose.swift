/// What a sign-in is for, through the browser or with a credential; each changes the
/// `signInWithIdp` request.
internal enum FlowPurpose: Sendable, Equatable {
    case signIn
    /// Link the provider to the user holding this ID token.
    case link(idToken: String)
    /// Sign in again as the current user, never creating one (`autoCreate: false`).
    case reauthenticate

    internal var linkToken: String? {
        if case .link(let idToken) = self { return idToken }
        return nil
    }

    var autoCreate: Bool? { self == .reauthenticate ? false : nil }

    var action: String {
        switch self {
        case .signIn: "sign-in"
        case .link: "linking"
        case .reauthenticate: "reauthentication"
        }
    }
}
