#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The provider credential an `accountExistsWithDifferentCredential` sign-in left, kept with the
/// project's sessions so that a later process can link it once the user has signed in to the
/// account that has the email. The SDK keeps it in the error only: an app links it in the same
/// run; a command line runs each step in a process of its own.
package struct KeptCredential: Sendable {
    package let credential: OAuthTokens
    /// The email the provider reported.
    package let email: String?
    package let savedAt: Date

    /// How long Firebase's pending tokens are usually taken: about an hour.
    package static let probableLifetime: TimeInterval = PendingCredential.probableLifetime
}

extension AuthService {
    /// The credential kept for this project, if any.
    package var keptCredential: KeptCredential? {
        guard let saved = (try? store.load())?.project(project)?.pendingCredential,
              let pending = try? store.revealing(saved, in: project) else { return nil }
        return KeptCredential(credential: OAuthTokens(providerID: pending.providerId, accessToken: pending.accessToken, idToken: pending.idToken,
                                                          secret: pending.secret, pendingToken: pending.pendingToken),
                              email: pending.email, savedAt: pending.savedAt)
    }

    /// Keeps `conflict`'s credential for this project (replacing any kept before).
    package func keep(_ conflict: AccountExistsConflict) throws(FBAuthError) {
        let pending = PendingCredential(credential: conflict.updatedCredential, email: conflict.email, savedAt: clock.now())
        try store.update { (contents: inout StoreContents) throws(FBAuthError) in
            contents.modifyProject(project) { $0.pendingCredential = pending }
        }
    }
}

extension SignedInUser {
    /// Links the credential kept for the project to this user, and forgets it once linked, or
    /// when Firebase no longer takes it (`INVALID_PENDING_TOKEN`, said in the error).
    package func linkKeptCredential(completion: @escaping @Sendable (Result<AuthOutcome, FBAuthError>) -> Void) {
        let (auth, reference) = (self.auth, self.reference)
        auth.onBackground({ () throws(FBAuthError) -> AuthOutcome in
            guard let saved = try auth.store.load().project(auth.project)?.pendingCredential else {
                throw .signInAgain("no credential is kept for this project")
            }
            let pending = try auth.store.revealing(saved, in: auth.project)
            let refresher = auth.refresher()
            let session = try refresher.session(.exactly(reference), minValid: 60)
            let record: SignInRecord
            do throws(FBAuthError) {
                guard case .signedIn(let linked) = try auth.credentials().providerCredential(pending, purpose: .link(idToken: session.idToken)) else {
                    throw FBAuthError.failed(.accountExistsWithDifferentCredential,
                                             "linking failed: Firebase asked for confirmation again; sign in with \(pending.providerId) again")
                }
                record = linked
            } catch where error.rejectsSession {
                try refresher.reject(session, because: error)
            } catch {
                if case .server(let serverError, _) = error, serverError.code == "INVALID_PENDING_TOKEN" {
                    try auth.store.update { (contents: inout StoreContents) throws(FBAuthError) in
                        contents.modifyProject(auth.project) { $0.pendingCredential = nil }
                    }
                    throw .failed(.serverRefused, "the pending \(pending.providerId) credential is no longer valid and was removed; sign in with \(pending.providerId) again [INVALID_PENDING_TOKEN]")
                }
                throw error.explainingLink(of: pending.providerId)
            }
            let linked = try auth.renewal().merge(record, into: reference, purpose: .link, clearingPending: true)
            return AuthOutcome(record, user: SignedInUser(linked, auth: auth))
        }, completion)
    }
}
