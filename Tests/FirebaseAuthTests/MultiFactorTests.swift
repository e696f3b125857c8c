import FBAuthStandIn
import FirebaseAuth
import Foundation
import TestSupport
import Testing

/// Issue 48: second factors as the SDK's, with an authenticator app: enrolled through
/// `user.multiFactor`, then a sign-in that needs it finished by the `MultiFactorResolver` of its
/// `secondFactorRequired` error. Codes are computed as an app computes them (RFC 6238).
@Suite(.serialized) struct MultiFactorTests {
    @Test func anAuthenticatorAppIsEnrolledThenAsked() async throws {
        var configuration = StandInConfiguration()
        configuration.projectId = "mfa-" + UUID().uuidString.prefix(8).lowercased()
        configuration.recentSignIn = 86_400  // a loaded runner must not make the sign-in old
        let setup = try StandInApp(configuration: configuration)
        let user = try await setup.auth.createUser(withEmail: "pat@example.com", password: "correct horse battery").user
        setup.standIn.verifyEmail(uid: user.uid)
        try await user.reload()
        #expect(user.multiFactor.enrolledFactors.isEmpty)

        let session = try await user.multiFactor.session()
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: session)
        let url = secret.generateQRCodeURL(withAccountName: "pat@example.com", issuer: "my-app")
        #expect(url.hasPrefix("otpauth://totp/") && url.contains("secret=\(secret.sharedSecretKey())"), "\(url)")
        // openInOTPApp hands the otpauth URL to the system's handler (the seam here).
        let opened = CollectedLines()
        linuxSeamsLock.withLock {
            let before = LinuxSeams.openBrowser
            LinuxSeams.openBrowser = { opened.add($0.absoluteString); return true }
            secret.openInOTPApp(withQRCodeURL: url)
            secret.openInOTPApp(withQRCodeURL: "https://example.com/not-otpauth")
            LinuxSeams.openBrowser = before
        }
        #expect(opened.all == [url], "only an otpauth URL is opened: \(opened.all)")
        let code = try #require(TOTP.code(secret: secret.sharedSecretKey(), at: Date()))
        try await user.multiFactor.enroll(with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: code), displayName: "phone app")
        let factor = try #require(user.multiFactor.enrolledFactors.first)
        #expect(factor.factorID == TOTPMultiFactorID && factor.displayName == "phone app" && factor is TOTPMultiFactorInfo)

        try setup.auth.signOut()
        var resolver: MultiFactorResolver?
        do {
            _ = try await setup.auth.signIn(withEmail: "pat@example.com", password: "correct horse battery")
            Issue.record("signed in without the second factor")
        } catch {
            #expect((error as? AuthErrorCode)?.code == .secondFactorRequired)
            resolver = (error as NSError).userInfo[AuthErrorUserInfoMultiFactorResolverKey] as? MultiFactorResolver
        }
        let found = try #require(resolver, "the error carries the resolver")
        #expect(found.hints.map(\.uid) == [factor.uid] && found.auth === setup.auth)
        let signInCode = try #require(TOTP.code(secret: secret.sharedSecretKey(), at: Date()))
        let result = try await found.resolveSignIn(with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: factor.uid, oneTimePassword: signInCode))
        #expect(result.user.uid == user.uid && setup.auth.currentUser?.uid == user.uid)

        try await result.user.multiFactor.unenroll(with: factor)
        #expect(result.user.multiFactor.enrolledFactors.isEmpty)
    }
}
