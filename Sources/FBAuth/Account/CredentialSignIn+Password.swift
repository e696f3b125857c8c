/// Email/password accounts beyond signing in (firebase-js-sdk
/// `packages/auth/src/core/strategies/email_and_password.ts`): a new user, a password added to
/// the signed-in user (`linkWithCredential(EmailPassword.credential(…))`), an email-link
/// sign-in. A password the project's policy refuses is explained with the policy in words.
extension CredentialSignIn {
    /// `createUserWithEmailAndPassword`.
    internal func signUp(email: String, password: String, displayName: String? = nil) throws(FBAuthError) -> SignInRecord {
        let response = try explainingPolicy { () throws(FBAuthError) in
            try recaptcha.perform(action: "signUpPassword") { (fields) throws(FBAuthError) in
                try client.signUp(email: email, password: password, displayName: displayName, tenantId: tenantId, recaptcha: fields)
            }
        }
        var record = try record(response, method: "password", action: "sign-up")
        record.isNewUser = true  // signUp always creates the user
        return record
    }

    /// Adds an email and password to the user of `idToken`.
    internal func linkPassword(email: String, password: String, idToken: String) throws(FBAuthError) -> SignInRecord {
        let response = try explainingPolicy { () throws(FBAuthError) in
            try recaptcha.perform(action: "signUpPassword") { (fields) throws(FBAuthError) in
                try client.signUp(email: email, password: password, idToken: idToken, tenantId: tenantId, recaptcha: fields)
            }
        }
        return try record(response, method: "password", action: "adding a password")
    }

    /// `signInWithEmailLink`, or with `linkingTo` an ID token, the email linked to its user.
    internal func emailLink(email: String, link: EmailActionLink, linkingTo idToken: String? = nil) throws(FBAuthError) -> SignInRecord {
        guard link.operation == .emailLink else {
            throw .usage("that is \(link.operation.sentence), not a sign-in link")
        }
        let response = try client.signInWithEmailLink(email: email, code: link.code, idToken: idToken, tenantId: tenantId)
        // The SDKs take additionalUserInfo.providerId from the token (firebase.sign_in_provider),
        // which is `password` for an email link too.
        return try record(response, method: "password", action: idToken == nil ? "email-link sign-in" : "linking the email")
    }

    /// Runs `call`; a password the project refuses comes back with its policy in words.
    func explainingPolicy<Answer>(_ call: () throws(FBAuthError) -> Answer) throws(FBAuthError) -> Answer {
        try PasswordPolicyWords.explaining(client: client, tenantId: tenantId, call)
    }
}
