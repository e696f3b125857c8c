import FBAuthStandIn
import FirebaseAuth
import Foundation
import Testing

/// Issue 48: the SDK's email links and email codes, against the stand-in, as an app uses them:
/// the mailed link is what the stand-in "mailed", read back from it.
@Suite(.serialized) struct EmailActionTests {
    static func code(of link: String) -> String? {
        URLComponents(string: link)?.queryItems?.first { $0.name == "oobCode" }?.value
    }

    @Test func aSignInLinkSignsIn() async throws {
        let setup = try StandInApp()
        let settings = ActionCodeSettings()
        settings.url = URL(string: "http://localhost/finish")
        settings.handleCodeInApp = true
        try await setup.auth.sendSignInLink(toEmail: "lin@example.com", actionCodeSettings: settings)
        let link = try #require(setup.standIn.latestOobLink(sentTo: "lin@example.com", requestType: "EMAIL_SIGNIN"))
        #expect(setup.auth.isSignIn(withEmailLink: link) && !setup.auth.isSignIn(withEmailLink: "https://example.com/?oobCode=x"))
        let parsed = try #require(ActionCodeURL(link: link))
        #expect(parsed.operation == .emailLink && parsed.code == Self.code(of: link) && parsed.continueURL?.absoluteString == "http://localhost/finish")
        let result = try await setup.auth.signIn(withEmail: "lin@example.com", link: link)
        #expect(result.user.email == "lin@example.com" && setup.auth.currentUser?.uid == result.user.uid)
    }

    @Test func aPasswordResetCodeIsCheckedThenUsed() async throws {
        let setup = try StandInApp()
        let uid = try await setup.auth.createUser(withEmail: "pat@example.com", password: "correct horse battery").user.uid
        try await setup.auth.sendPasswordReset(withEmail: "pat@example.com")
        let code = try #require(setup.standIn.latestOobLink(sentTo: "pat@example.com", requestType: "PASSWORD_RESET").flatMap(Self.code(of:)))
        #expect(try await setup.auth.verifyPasswordResetCode(code) == "pat@example.com")
        let info = try await setup.auth.checkActionCode(code)
        #expect(info.operation == .passwordReset && info.email == "pat@example.com")
        try await setup.auth.confirmPasswordReset(withCode: code, newPassword: "a new long one")
        #expect(setup.standIn.password(uid: uid) == "a new long one")
        // Used once: the SDK's code for that.
        await #expect { try await setup.auth.confirmPasswordReset(withCode: code, newPassword: "again and again") } throws: { error in
            (error as? AuthErrorCode)?.code == .invalidActionCode
        }
    }

    @Test func aVerificationCodeIsAppliedAndItsKindTold() async throws {
        let setup = try StandInApp()
        let user = try await setup.auth.createUser(withEmail: "pat@example.com", password: "correct horse battery").user
        try await user.sendEmailVerification()
        let code = try #require(setup.standIn.latestOobLink(sentTo: "pat@example.com", requestType: "VERIFY_EMAIL").flatMap(Self.code(of:)))
        // As the SDK's: any valid code gives its email (checkActionCode's), not a reset's only.
        #expect(try await setup.auth.verifyPasswordResetCode(code) == "pat@example.com")
        #expect(try await setup.auth.checkActionCode(code).operation == .verifyEmail)
        try await setup.auth.applyActionCode(code)
        #expect(setup.standIn.users.first { $0.uid == user.uid }?.emailVerified == true)
        try await user.reload()
        #expect(user.isEmailVerified)
    }

    /// The mails' continue URL, as the SDK's `ActionCodeSettings` sets it: the link leads there.
    @Test func resetAndVerificationLinksLeadWhereTheAppSays() async throws {
        let setup = try StandInApp()
        let user = try await setup.auth.createUser(withEmail: "pat@example.com", password: "correct horse battery").user
        let settings = ActionCodeSettings()
        settings.url = URL(string: "http://localhost/after")
        try await setup.auth.sendPasswordReset(withEmail: "pat@example.com", actionCodeSettings: settings)
        let reset = try #require(setup.standIn.latestOobLink(sentTo: "pat@example.com", requestType: "PASSWORD_RESET"))
        #expect(ActionCodeURL(link: reset)?.continueURL?.absoluteString == "http://localhost/after", "\(reset)")
        try await user.sendEmailVerification(with: settings)
        let verify = try #require(setup.standIn.latestOobLink(sentTo: "pat@example.com", requestType: "VERIFY_EMAIL"))
        #expect(ActionCodeURL(link: verify)?.continueURL?.absoluteString == "http://localhost/after", "\(verify)")
        // Without settings, no continue URL.
        try await user.sendEmailVerification()
        let plain = try #require(setup.standIn.latestOobLink(sentTo: "pat@example.com", requestType: "VERIFY_EMAIL"))
        #expect(plain != verify && ActionCodeURL(link: plain)?.continueURL == nil, "\(plain)")
    }
}
