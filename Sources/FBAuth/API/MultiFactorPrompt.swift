import FBAuthSupport

/// Who answers a second factor while a sign-in, reauthentication or link waits for it.
///
/// The Apple SDK throws `secondFactorRequired` and the app finishes with
/// `PendingSecondFactor.resolveSignIn(with:)`, which only signs in. A program that asks its user
/// there and then (a terminal) sets `AuthServiceSettings.secondFactorPrompt` instead: the operation
/// calls it on its own thread, blocking, and continues as what it was (a reauthentication that
/// met a second factor stays a reauthentication of the same session). Without a prompt, the
/// SDK's way applies.
package protocol MultiFactorPrompt: Sendable {
    /// Picks one of `challenge.hints`, gets its code and returns `challenge.finish(with:)`'s
    /// answer; a wrong code throws from `finish`, and may be tried again.
    func answer(_ challenge: MultiFactorChallenge) throws(FBAuthError) -> MultiFactorAnswer
}

/// A second factor being asked for: the factors to choose from and the calls that complete it.
/// The pending credential stays in memory.
package struct MultiFactorChallenge: Sendable {
    /// The user's second factors (phone numbers masked).
    package let hints: [EnrolledSecondFactor]
    /// What the second factor is for, as a sentence names it: "sign-in", "reauthentication", "link".
    package let action: String
    let enrollments: [MfaEnrollmentInfo]
    let signIn: SecondFactorSignIn

    init(_ challenge: SecondFactorChallenge, signIn: SecondFactorSignIn) {
        hints = challenge.factors.map(EnrolledSecondFactor.init)
        action = challenge.action
        enrollments = challenge.factors
        self.signIn = signIn
    }

    /// Sends a code by SMS to the phone of `hint` (after the reCAPTCHA step, when
    /// `AuthServiceSettings.recaptchaInBrowser` is on); returns the verification id for
    /// `PhoneFactorProofs.assertion(for:verificationID:verificationCode:)`.
    package func sendSMS(to hint: EnrolledSecondFactor) throws(FBAuthError) -> String {
        try signIn.sendCode(to: enrollment(hint.uid))
    }

    /// Completes the operation with a factor's code. A code Firebase refuses throws an error
    /// whose `isWrongSecondFactorCode` is true; another code may be tried.
    package func finish(with assertion: SecondFactorProof) throws(FBAuthError) -> MultiFactorAnswer {
        let factor = try enrollment(assertion.enrollmentID)
        switch assertion.kind {
        case .totp(let code): return MultiFactorAnswer(result: try signIn.finish(totp: code, factor: factor))
        case .phone(let verificationID, let code): return MultiFactorAnswer(result: try signIn.finish(smsCode: code, sessionInfo: verificationID, factor: factor))
        }
    }

    private func enrollment(_ id: String) throws(FBAuthError) -> MfaEnrollmentInfo {
        guard let factor = enrollments.first(where: { $0.mfaEnrollmentId == id }) else {
            throw .usage("'\(TerminalText.safe(String(id.prefix(60))))' is none of this account's second factors")
        }
        return factor
    }
}

/// What a completed second factor gave: only `MultiFactorChallenge.finish(with:)` makes one.
package struct MultiFactorAnswer: Sendable {
    let result: SecondFactorResult
}

extension FBAuthError {
    /// Firebase refused a second factor's code (`INVALID_CODE`, `INVALID_VERIFICATION_CODE`),
    /// which another try may get right.
    package var isWrongSecondFactorCode: Bool {
        guard case .server(let error, _) = self, let code = error.code else { return false }
        return code == "INVALID_CODE" || code == "INVALID_VERIFICATION_CODE"
    }
}

/// The flows' resolver seam, answered by a prompt.
struct PromptedSecondFactorResolver: SecondFactorResolver {
    let prompt: MultiFactorPrompt

    func resolve(_ challenge: SecondFactorChallenge, with signIn: SecondFactorSignIn) throws(FBAuthError) -> SecondFactorResult {
        try prompt.answer(MultiFactorChallenge(challenge, signIn: signIn)).result
    }
}
