/// Email links and the codes Firebase mails, as the Apple SDK's `Auth` has them
/// (`sendSignInLink(toEmail:actionCodeSettings:)`, `isSignIn(withEmailLink:)`,
/// `signIn(withEmail:link:)`, `applyActionCode`, `checkActionCode`).
extension Auth {
    /// `sendSignInLink(toEmail:actionCodeSettings:)`: Firebase mails a sign-in link that returns
    /// to `settings.url` (its host must be an authorized domain of the project).
    public func sendSignInLink(toEmail email: String, actionCodeSettings settings: ActionCodeSettings) async throws(FBAuthError) {
        try await inBackground { () throws(FBAuthError) in
            try self.client().sendOobCode(.signInLink(email: email, continueUrl: settings.url), tenantId: self.tenantID)
        }
    }

    /// `isSignIn(withEmailLink:)`: whether `link` is a sign-in link Firebase mailed.
    public func isSignIn(withEmailLink link: String) -> Bool {
        if case .success(let parsed) = EmailActionLink.parse(link) { return parsed.operation == .emailLink }
        return false
    }

    /// `signIn(withEmail:link:)`: signs in with a mailed link, for the address it was sent to.
    public func signIn(withEmail email: String, link: String) async throws(FBAuthError) -> AuthDataResult {
        let parsed: EmailActionLink
        switch EmailActionLink.parse(link) {
        case .success(let link): parsed = link
        case .failure(let problem): throw .usage("that is not a sign-in link: \(problem.reason)")
        }
        return try await signInSaving { () throws(FBAuthError) in try self.credentials().emailLink(email: email, link: parsed) }
    }

    /// `checkActionCode(_:)`: what a mailed code is for, without using it.
    public func checkActionCode(_ code: String) async throws(FBAuthError) -> ActionCodeInfo {
        try await inBackground { () throws(FBAuthError) in
            let info: CheckedActionCode = try self.client().checkActionCode(code, tenantId: self.tenantID)
            return ActionCodeInfo(requestType: info.requestType ?? "", email: info.email, newEmail: info.newEmail)
        }
    }

    /// `applyActionCode(_:)`: uses a verification or email-change code.
    public func applyActionCode(_ code: String) async throws(FBAuthError) {
        try await inBackground { () throws(FBAuthError) in _ = try self.client().applyActionCode(code, tenantId: self.tenantID) }
    }
}

/// The SDK's `ActionCodeSettings`, as far as a program outside a browser uses it: where the link
/// returns to. The link is always handled in the app (`handleCodeInApp`).
public struct ActionCodeSettings: Sendable, Equatable {
    public var url: String
    public init(url: String) { self.url = url }
}

/// The SDK's `ActionCodeInfo`: what a mailed code is for (`PASSWORD_RESET`, `VERIFY_EMAIL`,
/// `VERIFY_AND_CHANGE_EMAIL`, `EMAIL_SIGNIN`, …) and the addresses involved (Firebase does
/// not reveal the email of a sign-in link's code).
public struct ActionCodeInfo: Sendable, Equatable {
    public let requestType: String
    public let email: String?
    public let newEmail: String?
}
