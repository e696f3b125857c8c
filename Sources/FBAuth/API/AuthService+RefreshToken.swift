#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A session from a refresh token alone: how CI, which cannot open a browser, uses a session
/// signed in elsewhere (`FBAUTH_REFRESH_TOKEN`). Not in the SDKs, whose sessions never leave
/// the app.
extension AuthService {
    /// Exchanges `refreshToken` at securetoken and makes its user the current one, described
    /// by the ID token's claims (no lookup: `fbauth token` needs none). Meant for an `AuthService`
    /// whose `settings.sessionMemory` keeps it in the process; with sessions on disk it would be
    /// saved there as a sign-in is.
    @discardableResult
    package func adoptRefreshToken(_ refreshToken: String) throws(FBAuthError) -> SignedInUser {
        // Checked before it is sent: a token has no spaces, quotes or control characters.
        guard TokenAlphabet.bearer.accepts(refreshToken) else {
            throw .usage("that is not a refresh token (letters, digits and -._~+/=, as Firebase issues them)")
        }
        let now = clock.now()
        let answer: SecureTokenResponse
        do {
            answer = try client().refresh(refreshToken: refreshToken)
        } catch .server(let error, _) where error.code != nil && !error.isTransient {
            throw .signInAgain("the refresh token was refused [\(error.code!)]; take a new one where the session was signed in")
        }
        guard let idToken = answer.idToken, let claims = IDTokenDetails(idToken: idToken),
              let uid = answer.userId ?? claims.claimValues["user_id"]?.stringValue ?? claims.claimValues["sub"]?.stringValue
        else { throw .badResponse(host: client().endpoints.displayHost(for: client().endpoints.token(apiKey: settings.apiKey)), reason: "the token answer names no user") }
        var session = Session(
            uid: uid, tenantId: claims.tenantID,
            email: claims.claimValues["email"]?.stringValue, emailVerified: claims.claimValues["email_verified"] == .bool(true),
            displayName: claims.claimValues["name"]?.stringValue, photoURL: claims.claimValues["picture"]?.stringValue,
            phoneNumber: claims.claimValues["phone_number"]?.stringValue, isAnonymous: claims.signInProvider == "anonymous",
            idToken: idToken, refreshToken: answer.refreshToken ?? refreshToken,
            expirationTime: now.addingTimeInterval(TimeInterval(answer.expiresIn ?? 3600)), lastSignInTime: claims.authDate)
        session.providerData = Self.providers(in: claims)
        session.signInArguments = settings.signInArguments
        try store.update { (contents: inout StoreContents) throws(FBAuthError) in
            contents.save(session, in: project, makeCurrent: true)
            if let projectID = settings.projectID ?? claims.projectID { contents.modifyProject(project) { $0.projectId = projectID } }
        }
        return SignedInUser(session, auth: self)
    }

    /// The providers an ID token names (`firebase.identities`: provider ids, each with the
    /// user's ids there), as far as a token says. `email` lists the user's address whatever
    /// provider gave it (a Google user's too), so it stands for the password provider only
    /// when the token was a password's sign-in or names no other provider.
    static func providers(in claims: IDTokenDetails) -> [ProviderProfile] {
        guard case .object(let identities)? = claims.claimValues["firebase"]?["identities"] else { return [] }
        let others = identities.keys.filter { $0 != "email" && $0 != "phone" }
        let hasPassword = claims.signInProvider == "password" || others.isEmpty
        return identities.keys.sorted().compactMap { key in
            guard key != "phone", key != "email" || hasPassword, case .array(let ids)? = identities[key], let id = ids.first?.stringValue else { return nil }
            let providerId = key == "email" ? "password" : key
            return ProviderProfile(providerId: providerId, uid: id, email: key == "email" ? id : nil, displayName: nil, photoURL: nil, phoneNumber: nil)
        }
    }
}

