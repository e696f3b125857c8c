/// Email links and the codes Firebase mails, as the Apple SDK's `Auth` has them
/// (`sendSignInLink(toEmail:actionCodeSettings:)`, `isSignIn(withEmailLink:)`,
/// `signIn(withEmail:link:)`, `applyActionCode`, `checkActionCode`).
extension AuthService {
    /// `sendSignInLink(toEmail:actionCodeSettings:)`: Firebase mails a sign-in link that returns
    /// to `settings.url` (its host must be an authorized domain of the project).
    package func sendSignInLink(toEmail email: String, actionCodeSettings settings: ActionLinkSettings) async throws(FBAuthError) {
        try await inBackground { () throws(FBAuthError) in
            try self.client().sendOobCode(.signInLink(email: email, continueUrl: settings.url, settings: settings), tenantId: self.tenantID)
        }
    }

    /// `isSignIn(withEmailLink:)`: whether `link` is a sign-in link Firebase mailed.
    package func isSignIn(withEmailLink link: String) -> Bool {
        if case .success(let parsed) = EmailActionLink.parse(link) { return parsed.operation == .emailLink }
        return false
    }

    /// `signIn(withEmail:link:)`: signs in with a mailed link, for the address it was sent to.
    package func signIn(withEmail email: String, link: String) async throws(FBAuthError) -> AuthOutcome {
        let parsed: EmailActionLink
        switch EmailActionLink.parse(link) {
        case .success(let link): parsed = link
        case .failure(let problem): throw .usage("that is not a sign-in link: \(problem.reason)")
        }
        return try await signInSaving { () throws(FBAuthError) in try self.credentials().emailLink(email: email, link: parsed) }
    }

    /// `checkActionCode(_:)`: what a mailed code is for, without using it.
    package func checkActionCode(_ code: String) async throws(FBAuthError) -> ActionLinkInfo {
        try await inBackground { () throws(FBAuthError) in
            let info: CheckedActionCode = try self.client().checkActionCode(code, tenantId: self.tenantID)
            return ActionLinkInfo(requestType: info.requestType ?? "", email: info.email, newEmail: info.newEmail)
        }
    }

    /// `applyActionCode(_:)`: uses a verification or email-change code (refused, unused, when it
    /// is another kind), then brings a saved session of the account up to date (`savedUser`).
    @discardableResult
    package func applyActionCode(_ code: String) async throws(FBAuthError) -> AppliedActionCode {
        try await inBackground(applying(code))
    }

    /// The same with a completion handler.
    package func applyActionCode(_ code: String, completion: @escaping @Sendable (Result<AppliedActionCode, FBAuthError>) -> Void) {
        onBackground(applying(code), completion)
    }

    private func applying(_ code: String) -> @Sendable () throws(FBAuthError) -> AppliedActionCode {
        { () throws(FBAuthError) in
            let answer = try self.management().apply(code: code)
            guard let uid = answer.localId, let saved = self.savedUsers.first(where: { $0.uid == uid }) else {
                return AppliedActionCode(email: answer.email, newEmail: answer.newEmail, savedUser: nil)
            }
            return AppliedActionCode(email: answer.email, newEmail: answer.newEmail, savedUser: try self.bringUpToDate(saved, newEmail: answer.newEmail))
        }
    }

    /// A saved user after a code changed its account: its tokens refreshed and the account read
    /// again; or, where the change revoked its tokens (production does; Google's emulator does
    /// not), signed out with the new address kept, so that advice to sign in again names it.
    private func bringUpToDate(_ user: SignedInUser, newEmail: String?) throws(FBAuthError) -> SavedUserUpdate {
        let refresher = refresher()
        do throws(FBAuthError) {
            let fresh = try refresher.session(.exactly(user.reference), minValid: 0, forceRefresh: true)
            return .refreshed(SignedInUser(try renewal().renew(fresh, idToken: nil, refreshToken: nil, expiresIn: nil, client: client()), auth: self))
        } catch where error.rejectsSession || [.noCurrentUser, .userTokenExpired, .userNotFound].contains(error.code) {
            let renamed = try? store.update { (contents: inout StoreContents) throws(FBAuthError) -> Session? in
                guard var saved = try? contents.session(.exactly(user.reference), in: project) else { return nil }
                if error.rejectsSession { saved.forgetTokens() }
                if let newEmail { saved.email = newEmail }
                contents.save(saved, in: project, makeCurrent: false)
                return saved
            }
            return .signedOut(renamed.flatMap { $0 }.map { SignedInUser($0, auth: self) } ?? user)
        }
    }
}

/// What `applyActionCode` did: the account's address (the new one after an email change) and
/// what became of a saved session of that account.
package struct AppliedActionCode: Sendable {
    package let email: String?
    /// The address after an email change.
    package let newEmail: String?
    /// A saved session of the account, brought up to date; nil when none is saved here.
    package let savedUser: SavedUserUpdate?
}

package enum SavedUserUpdate: Sendable {
    /// New tokens, and the account as Firebase reports it now.
    case refreshed(SignedInUser)
    /// Firebase ended the user's sessions with the change: sign in again.
    case signedOut(SignedInUser)
}


/// The SDK's `ActionCodeInfo`: what a mailed code is for (`PASSWORD_RESET`, `VERIFY_EMAIL`,
/// `VERIFY_AND_CHANGE_EMAIL`, `EMAIL_SIGNIN`, …) and the addresses involved (Firebase does
/// not reveal the email of a sign-in link's code).
package struct ActionLinkInfo: Sendable, Equatable {
    package let requestType: String
    package let email: String?
    package let newEmail: String?
}
