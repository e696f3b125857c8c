#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport

/// The account operations of the Apple SDK's `User` (`FirebaseAuth/Sources/Swift/User/User.swift`).
/// Each acts on the saved session of this user and saves what Firebase answers into it through
/// the one renewal step the command line uses too.
extension SignedInUser {
    /// `getIDTokenResult(forcingRefresh:)`: the token and what it says.
    package func getIDTokenResult(forcingRefresh: Bool = false) async throws(FBAuthError) -> IDTokenDetails {
        try await auth.inBackground(tokenResult(forcingRefresh: forcingRefresh))
    }

    /// `getIDTokenResult(forcingRefresh:completion:)`.
    package func getIDTokenResult(forcingRefresh: Bool = false, completion: @escaping @Sendable (Result<IDTokenDetails, FBAuthError>) -> Void) {
        auth.onBackground(tokenResult(forcingRefresh: forcingRefresh), completion)
    }

    /// `reload()`: the user as `accounts:lookup` reports it now, saved; the updated user.
    package func reload() async throws(FBAuthError) -> SignedInUser { try await auth.inBackground(reloading) }

    /// `reload(completion:)`.
    package func reload(completion: @escaping @Sendable (Result<SignedInUser, FBAuthError>) -> Void) { auth.onBackground(reloading, completion) }

    /// `updatePassword(to:)`: needs a recent sign-in (`reauthenticate`); Firebase signs the
    /// user's other sessions out and this one gets new tokens.
    package func updatePassword(to password: String) async throws(FBAuthError) {
        _ = try await auth.inBackground(changingPassword(to: password))
    }

    /// The same with a completion handler; the updated user.
    package func updatePassword(to password: String, completion: @escaping @Sendable (Result<SignedInUser, FBAuthError>) -> Void) {
        auth.onBackground(changingPassword(to: password), completion)
    }

    /// `updateEmail(to:)`: the address changes at once (projects with email enumeration
    /// protection refuse it: `sendEmailVerification(beforeUpdatingEmail:)` is their way); the
    /// updated user.
    package func updateEmail(to email: String) async throws(FBAuthError) -> SignedInUser {
        try await auth.inBackground(withSession { (session, auth) throws(FBAuthError) -> SignedInUser in
            SignedInUser(try auth.management().changeEmail(to: email, for: session), auth: auth)
        })
    }

    /// `sendEmailVerification()`: Firebase mails a verification link to the user's address.
    package func sendEmailVerification(actionCodeSettings: ActionLinkSettings? = nil) async throws(FBAuthError) {
        try await auth.inBackground(sendingVerification(actionCodeSettings))
    }

    /// The same with a completion handler.
    package func sendEmailVerification(completion: @escaping @Sendable (Result<Void, FBAuthError>) -> Void) {
        auth.onBackground(sendingVerification(nil), completion)
    }

    /// `sendEmailVerification(beforeUpdatingEmail:)`: Firebase mails a link to `email`; the
    /// address changes when it is opened (and Firebase then signs the user's sessions out).
    package func sendEmailVerification(beforeUpdatingEmail email: String, actionCodeSettings: ActionLinkSettings? = nil) async throws(FBAuthError) {
        try await auth.inBackground(sendingEmailChange(to: email, actionCodeSettings))
    }

    /// The same with a completion handler.
    package func sendEmailVerification(beforeUpdatingEmail email: String, completion: @escaping @Sendable (Result<Void, FBAuthError>) -> Void) {
        auth.onBackground(sendingEmailChange(to: email, nil), completion)
    }

    /// `createProfileChangeRequest()` then `commitChanges()`, in one call: a value sets, an
    /// empty string removes, nil leaves as it is. The updated user.
    package func updateProfile(displayName: String? = nil, photoURL: String? = nil) async throws(FBAuthError) -> SignedInUser {
        try await auth.inBackground(profileUpdate(displayName: displayName, photoURL: photoURL))
    }

    /// `commitChanges(completion:)` of a profile change request.
    package func updateProfile(displayName: String? = nil, photoURL: String? = nil,
                              completion: @escaping @Sendable (Result<SignedInUser, FBAuthError>) -> Void) {
        auth.onBackground(profileUpdate(displayName: displayName, photoURL: photoURL), completion)
    }

    /// `unlink(fromProvider:)`: removes a provider from the user; the updated user.
    package func unlink(fromProvider providerID: String) async throws(FBAuthError) -> SignedInUser {
        try await auth.inBackground(unlinking(providerID))
    }

    /// `unlink(fromProvider:completion:)`.
    package func unlink(fromProvider providerID: String, completion: @escaping @Sendable (Result<SignedInUser, FBAuthError>) -> Void) {
        auth.onBackground(unlinking(providerID), completion)
    }

    /// `delete()`: deletes the account in Firebase (needs a recent sign-in: `requiresRecentLogin`
    /// otherwise), then its session. A Sign in with Apple user's Apple token is revoked first
    /// (Apple's App Store Review Guideline 5.1.1(v); the SDKs' `revokeAccessToken`), with the
    /// token kept from its last Apple sign-in: without one, nothing is deleted and the remedy is
    /// `.reauthenticateWithApple`; when Apple's revocation is refused, nothing is deleted either
    /// (`.deleteWithoutRevoking`). `revokingAppleToken` false deletes without revoking.
    package func delete(revokingAppleToken: Bool = true) async throws(FBAuthError) {
        try await auth.inBackground(deleting(revokingAppleToken: revokingAppleToken))
    }

    /// `delete(completion:)`.
    package func delete(revokingAppleToken: Bool = true, completion: @escaping @Sendable (Result<Void, FBAuthError>) -> Void) {
        auth.onBackground(deleting(revokingAppleToken: revokingAppleToken), completion)
    }

    /// Whether deleting this user revokes a Sign in with Apple token first.
    package var hasSignInWithApple: Bool { providerData.contains { $0.providerID == "apple.com" } }

    // MARK: - The operations, each blocking; the variants above run them on their own thread

    private func tokenResult(forcingRefresh: Bool) -> @Sendable () throws(FBAuthError) -> IDTokenDetails {
        let (auth, reference) = (self.auth, self.reference)
        return { () throws(FBAuthError) -> IDTokenDetails in
            let token = try auth.refresher().session(.exactly(reference), minValid: 60, forceRefresh: forcingRefresh).idToken
            guard let result = IDTokenDetails(idToken: token) else {
                throw .badResponse(host: "securetoken.googleapis.com", reason: "the ID token's claims cannot be read")
            }
            return result
        }
    }

    private func changingPassword(to password: String) -> @Sendable () throws(FBAuthError) -> SignedInUser {
        withSession { (session, auth) throws(FBAuthError) -> SignedInUser in SignedInUser(try auth.management().changePassword(to: password, for: session), auth: auth) }
    }

    private func sendingVerification(_ settings: ActionLinkSettings?) -> @Sendable () throws(FBAuthError) -> Void {
        withSession { (session, auth) throws(FBAuthError) in try auth.management().sendVerification(for: session, settings: settings) }
    }

    private func sendingEmailChange(to email: String, _ settings: ActionLinkSettings?) -> @Sendable () throws(FBAuthError) -> Void {
        withSession { (session, auth) throws(FBAuthError) in try auth.management().sendEmailChange(to: email, for: session, settings: settings) }
    }

    private var reloading: @Sendable () throws(FBAuthError) -> SignedInUser {
        withSession { (session, auth) throws(FBAuthError) -> SignedInUser in
            let renewed = try auth.renewal().renew(session, idToken: nil, refreshToken: nil, expiresIn: nil, client: auth.client())
            return SignedInUser(renewed, auth: auth)
        }
    }

    private func profileUpdate(displayName: String?, photoURL: String?) -> @Sendable () throws(FBAuthError) -> SignedInUser {
        withSession { (session, auth) throws(FBAuthError) -> SignedInUser in
            var deleting: [String] = []
            if displayName == "" { deleting.append("DISPLAY_NAME") }
            if photoURL == "" { deleting.append("PHOTO_URL") }
            let renewed = try auth.management().updateProfile(displayName: displayName?.nilIfEmpty, photoURL: photoURL?.nilIfEmpty,
                                                               deleting: deleting, for: session)
            return SignedInUser(renewed, auth: auth)
        }
    }

    /// The SDK checks the user's providers before asking Firebase (User.swift, `unlink`): a
    /// provider the user does not have is `noSuchProvider`, and nothing is sent.
    private func unlinking(_ providerID: String) -> @Sendable () throws(FBAuthError) -> SignedInUser {
        withSession { (session, auth) throws(FBAuthError) -> SignedInUser in
            let user = SignedInUser(session, auth: auth)
            guard user.providerData.contains(where: { $0.providerID == providerID }) else {
                let linked = user.providerData.map(\.providerID).joined(separator: ", ")
                throw .failed(.noSuchProvider, "\(providerID) is not linked to \(TerminalText.safe(user.email ?? user.uid))" + (linked.isEmpty ? "" : " (linked: \(linked))"))
            }
            let account = try auth.client().deleteProviders([providerID], idToken: session.idToken)
            return SignedInUser(try auth.renewal().save(session, tokens: nil, account: account, unlinked: providerID), auth: auth)
        }
    }

    private func deleting(revokingAppleToken: Bool) -> @Sendable () throws(FBAuthError) -> Void {
        let apple = revokingAppleToken && hasSignInWithApple ? keptAppleAccessToken.map { Optional($0) } ?? .some(nil) : nil
        let label = TerminalText.safe(email ?? uid)
        return withSession { (session, auth) throws(FBAuthError) in
            if case .some(let token) = apple {
                guard let token else {
                    throw .failed(.requiresRecentLogin, "no Apple token is kept for \(label) to revoke before deleting it: sign in with Apple again first; nothing was deleted",
                                  remedy: .reauthenticateWithApple)
                }
                do throws(FBAuthError) {
                    try auth.client().revokeToken(token, type: "ACCESS_TOKEN", providerId: "apple.com", idToken: session.idToken, tenantId: session.tenantId)
                } catch where !error.isTransient {
                    throw .failed(error.code, "nothing was deleted: \(error.message)", remedy: .deleteWithoutRevoking)
                }
            }
            try auth.client().deleteAccount(idToken: session.idToken)
            try auth.store.update { (contents: inout StoreContents) throws(FBAuthError) in contents.remove(session.reference, in: auth.project) }
        }
    }

    /// `body` with the user's session, fresh for a minute. When Firebase refuses the session's
    /// tokens for good, the session keeps no tokens and the error says to sign in again.
    func withSession<T: Sendable>(_ body: @escaping @Sendable (Session, AuthService) throws(FBAuthError) -> T) -> @Sendable () throws(FBAuthError) -> T {
        let (auth, reference) = (self.auth, self.reference)
        return { () throws(FBAuthError) -> T in
            let refresher = auth.refresher()
            let session = try refresher.session(.exactly(reference), minValid: 60)
            do throws(FBAuthError) {
                return try body(session, auth)
            } catch where error.rejectsSession {
                try refresher.reject(session, because: error)
            }
        }
    }
}

/// The SDK's `AuthTokenResult` (firebase-js-sdk `packages/auth/src/core/user/id_token_result.ts`):
/// an ID token and what it says (not verified: it came from Firebase; servers verify it on each
/// use).
package struct IDTokenDetails: Sendable, Equatable {
    package let token: String
    package let expirationDate: Date
    package let issuedAtDate: Date
    package let authDate: Date
    /// `password`, `google.com`, `anonymous`, `custom`, …
    package let signInProvider: String?
    /// `totp` or `phone` when a second factor completed the sign-in.
    package let signInSecondFactor: String?
    /// Every claim of the token, custom claims included, as JSON text per claim
    /// (`"admin": "true"`, `"email": "\"ada@example.com\""`): the SDK's `[String: Any]`
    /// without `Any`, which is not `Sendable`.
    package let claims: [String: String]
    /// The same claims as JSON values, for a program that prints or inspects them.
    package let claimValues: [String: JSONValue]
    /// The tenant the user belongs to (`firebase.tenant`), if any.
    package let tenantID: String?
    /// The project the token is for (its audience, `aud`), when it is a project id.
    package let projectID: String?

    /// Reads `idToken`; nil when it cannot be decoded or its times (`exp`, `iat`, `auth_time`)
    /// are missing or outside 1970–2200.
    package init?(idToken: String) {
        guard let claims = IDTokenClaims.payload(of: idToken), let expires = IDTokenClaims.seconds(claims["exp"]),
            let issued = IDTokenClaims.seconds(claims["iat"]), let auth = IDTokenClaims.seconds(claims["auth_time"])
        else { return nil }
        token = idToken
        expirationDate = expires
        issuedAtDate = issued
        authDate = auth
        let firebase = claims["firebase"]
        signInProvider = firebase?["sign_in_provider"]?.stringValue
        signInSecondFactor = firebase?["sign_in_second_factor"]?.stringValue
        tenantID = firebase?["tenant"]?.stringValue
        projectID = claims["aud"]?.stringValue.flatMap { IDTokenClaims.isProjectID($0) ? $0 : nil }
        self.claims = claims.mapValues(\.compactText)
        claimValues = claims
    }
}

extension AuthService {
    func renewal() -> SessionRenewal { SessionRenewal(store: store, project: project, clock: clock) }
}

private extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
