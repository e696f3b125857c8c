#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The account operations of the Apple SDK's `User` (`FirebaseAuth/Sources/Swift/User/User.swift`).
/// Each acts on the saved session of this user and saves what Firebase answers into it through
/// the one renewal step the command line uses too.
extension User {
    /// `getIDTokenResult(forcingRefresh:)`: the token and what it says.
    public func getIDTokenResult(forcingRefresh: Bool = false) async throws(FBAuthError) -> AuthTokenResult {
        let token = try await idToken(forcingRefresh: forcingRefresh)
        guard let result = AuthTokenResult(idToken: token) else {
            throw .badResponse(host: "securetoken.googleapis.com", reason: "the ID token's claims cannot be read")
        }
        return result
    }

    /// `reload()`: the user as `accounts:lookup` reports it now, saved; the updated user.
    public func reload() async throws(FBAuthError) -> User {
        try await withSession { (session, auth) throws(FBAuthError) -> User in
            let renewed = try auth.renewal().renew(session, idToken: nil, refreshToken: nil, expiresIn: nil, client: auth.client())
            return User(renewed, auth: auth)
        }
    }

    /// `updatePassword(to:)`: needs a recent sign-in (`reauthenticate`); Firebase signs the
    /// user's other sessions out and this one gets new tokens.
    public func updatePassword(to password: String) async throws(FBAuthError) {
        _ = try await withSession { (session, auth) throws(FBAuthError) -> Session in
            try auth.management().changePassword(to: password, for: session)
        }
    }

    /// `sendEmailVerification()`: Firebase mails a verification link to the user's address.
    public func sendEmailVerification() async throws(FBAuthError) {
        _ = try await withSession { (session, auth) throws(FBAuthError) -> Bool in
            try auth.management().sendVerification(for: session)
            return true
        }
    }

    /// `sendEmailVerification(beforeUpdatingEmail:)`: Firebase mails a link to `email`; the
    /// address changes when it is opened (and Firebase then signs the user's sessions out).
    public func sendEmailVerification(beforeUpdatingEmail email: String) async throws(FBAuthError) {
        _ = try await withSession { (session, auth) throws(FBAuthError) -> Bool in
            try auth.management().sendEmailChange(to: email, for: session)
            return true
        }
    }

    /// `createProfileChangeRequest()` then `commitChanges()`, in one call: a value sets, an
    /// empty string removes, nil leaves as it is.
    public func updateProfile(displayName: String? = nil, photoURL: String? = nil) async throws(FBAuthError) -> User {
        try await withSession { (session, auth) throws(FBAuthError) -> User in
            var deleting: [String] = []
            if displayName == "" { deleting.append("DISPLAY_NAME") }
            if photoURL == "" { deleting.append("PHOTO_URL") }
            let renewed = try auth.management().updateProfile(displayName: displayName?.nilIfEmpty, photoURL: photoURL?.nilIfEmpty,
                                                               deleting: deleting, for: session)
            return User(renewed, auth: auth)
        }
    }

    /// `unlink(fromProvider:)`: removes a provider from the user; the updated user.
    public func unlink(fromProvider providerID: String) async throws(FBAuthError) -> User {
        try await withSession { (session, auth) throws(FBAuthError) -> User in
            let account = try auth.client().deleteProviders([providerID], idToken: session.idToken)
            return User(try auth.renewal().save(session, tokens: nil, account: account), auth: auth)
        }
    }

    /// `delete()`: deletes the account in Firebase (needs a recent sign-in), then its session.
    public func delete() async throws(FBAuthError) {
        _ = try await withSession { (session, auth) throws(FBAuthError) -> Bool in
            try auth.client().deleteAccount(idToken: session.idToken)
            try auth.store.update { (contents: inout StoreContents) throws(FBAuthError) in contents.remove(session.reference, in: auth.project) }
            return true
        }
    }

    /// Runs `body` in the background with the user's session, fresh for a minute.
    private func withSession<T: Sendable>(_ body: @escaping @Sendable (Session, Auth) throws(FBAuthError) -> T) async throws(FBAuthError) -> T {
        let (auth, reference) = (self.auth, self.reference)
        return try await auth.inBackground { () throws(FBAuthError) -> T in
            try body(try auth.refresher().session(.exactly(reference), minValid: 60), auth)
        }
    }
}

/// The SDK's `AuthTokenResult` (firebase-js-sdk `packages/auth/src/core/user/id_token_result.ts`):
/// an ID token and what it says (not verified: it came from Firebase; servers verify it on each
/// use).
public struct AuthTokenResult: Sendable, Equatable {
    public let token: String
    public let expirationDate: Date
    public let issuedAtDate: Date
    public let authDate: Date
    /// `password`, `google.com`, `anonymous`, `custom`, …
    public let signInProvider: String?
    /// `totp` or `phone` when a second factor completed the sign-in.
    public let signInSecondFactor: String?
    /// Every claim of the token, custom claims included, as JSON text per claim
    /// (`"admin": "true"`, `"email": "\"ada@example.com\""`): the SDK's `[String: Any]`
    /// without `Any`, which is not `Sendable`.
    public let claims: [String: String]
    /// The same claims as JSON values, for a program that prints or inspects them.
    public let claimValues: [String: JSONValue]
    /// The tenant the user belongs to (`firebase.tenant`), if any.
    public let tenantID: String?

    /// Reads `idToken`; nil when it cannot be decoded or its times (`exp`, `iat`, `auth_time`)
    /// are missing or outside 1970–2200.
    public init?(idToken: String) {
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
        self.claims = claims.mapValues(\.compactText)
        claimValues = claims
    }
}

extension Auth {
    func renewal() -> SessionRenewal { SessionRenewal(store: store, project: project, clock: clock) }
}

private extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
