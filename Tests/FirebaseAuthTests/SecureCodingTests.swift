import FBAuthStandIn
import FirebaseAuth
import FirebaseCore
import Foundation
import TestSupport
import Testing

/// Issue 48: `NSSecureCoding` where the SDK adopts it, with its keys: what an app archives
/// (`NSKeyedArchiver`, secure coding required) comes back, and works. A user archives who it is,
/// not its tokens: it comes back only where that user is signed in on this machine.
@Suite(.serialized) struct SecureCodingTests {
    static func roundTrip<T: NSObject & NSSecureCoding>(_ value: T) throws -> T? {
        let data = try NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: true)
        return try NSKeyedUnarchiver.unarchivedObject(ofClass: T.self, from: data)
    }

    static func archivedText(_ value: NSObject & NSSecureCoding) throws -> String {
        String(decoding: try NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: true), as: UTF8.self)
    }

    @Test func aUserComesBackWhereItIsSignedInAndNotElsewhere() async throws {
        let setup = try StandInApp()
        let result = try await setup.auth.createUser(withEmail: "ada@example.com", password: "correct horse battery")
        let user = result.user
        let archived = try Self.archivedText(user)
        #expect(!archived.contains(try #require(user.refreshToken)), "no refresh token in the archive")
        let back = try #require(try Self.roundTrip(user))
        #expect(back.uid == user.uid && back.email == "ada@example.com" && back.providerID == "Firebase")
        #expect(try await back.getIDToken().isEmpty == false, "the decoded user works")

        let data = try #require(try Self.roundTrip(result))
        #expect(data.user.uid == user.uid && data.additionalUserInfo?.providerID == "password" && data.additionalUserInfo?.isNewUser == true)

        try setup.auth.signOut()
        // Foundation reports a nil from init(coder:) as a decoding error.
        #expect((try? Self.roundTrip(user)) == nil, "signed out here: no user")
    }

    /// `EmailAuthProvider.credential` is the SDK's archivable `EmailAuthCredential`, with its keys.
    @Test func anEmailCredentialComesBackAndSignsIn() async throws {
        let setup = try StandInApp()
        let uid = try await setup.auth.createUser(withEmail: "pat@example.com", password: "correct horse battery").user.uid
        let credential = EmailAuthProvider.credential(withEmail: "pat@example.com", password: "correct horse battery")
        let coding = try #require(credential as? NSObject & NSSecureCoding, "\(type(of: credential)) is not archivable")
        let archived = try Self.archivedText(coding)
        #expect(archived.contains("email") && archived.contains("password"), "the SDK's keys")
        let back = try #require(try Self.decoded(coding))
        #expect(back.provider == EmailAuthProviderID)
        #expect(try await setup.auth.signIn(with: back).user.uid == uid)
        let linkCredential = try #require(EmailAuthProvider.credential(withEmail: "pat@example.com", link: "https://example.com/?oobCode=x") as? NSObject & NSSecureCoding)
        #expect(try Self.archivedText(linkCredential).contains("link"))
        #expect(try Self.decoded(linkCredential)?.provider == "password")
    }

    /// An archived credential of a class the test names only by its value (the SDK's is internal
    /// too). swift-corelibs-foundation checks the strings inside against the classes given here.
    static func decoded(_ credential: NSObject & NSSecureCoding) throws -> AuthCredential? {
        let data = try NSKeyedArchiver.archivedData(withRootObject: credential, requiringSecureCoding: true)
        return try NSKeyedUnarchiver.unarchivedObject(ofClasses: [type(of: credential), NSString.self], from: data) as? AuthCredential
    }

    @Test func aProvidersCredentialComesBackAndSignsIn() async throws {
        let setup = try StandInApp()
        let minted = setup.standIn.mintProviderCredential(providerId: "google.com", email: "g@example.com")
        let credential = OAuthProvider.credential(providerID: .google, idToken: minted.idToken, accessToken: minted.accessToken)
        let back = try #require(try Self.roundTrip(credential))
        #expect(back.provider == "google.com" && back.idToken == minted.idToken && back.accessToken == minted.accessToken)
        let signedIn = try await setup.auth.signIn(with: back)
        #expect(signedIn.user.email == "g@example.com")

        let original = try #require(signedIn.additionalUserInfo)
        let info = try #require(try Self.roundTrip(original))
        #expect(info.providerID == "google.com" && info.isNewUser && info.newUser())
        #expect(info.profile?["email"] as? String == original.profile?["email"] as? String && original.profile?["email"] != nil)
    }

    @Test func tokensDatesAndFactorsComeBack() async throws {
        var configuration = StandInConfiguration()
        configuration.recentSignIn = 86_400
        let setup = try StandInApp(configuration: configuration)
        let user = try await setup.auth.createUser(withEmail: "pat@example.com", password: "correct horse battery").user
        let token = try await user.getIDTokenResult()
        let tokenBack = try #require(try Self.roundTrip(token))
        #expect(tokenBack.token == token.token && tokenBack.expirationDate == token.expirationDate && tokenBack.signInProvider == "password")
        #expect(tokenBack.claims["user_id"] as? String == user.uid)

        let metadata = try #require(try Self.roundTrip(user.metadata))
        // NSDate keeps seconds since 2001: a date comes back within a microsecond.
        let (made, last) = (try #require(user.metadata.creationDate), try #require(user.metadata.lastSignInDate))
        #expect(abs((metadata.creationDate ?? .distantPast).timeIntervalSince(made)) < 1e-6)
        #expect(abs((metadata.lastSignInDate ?? .distantPast).timeIntervalSince(last)) < 1e-6)

        setup.standIn.verifyEmail(uid: user.uid)
        try await user.reload()
        setup.auth.settings?.isAppVerificationDisabledForTesting = true
        setup.standIn.configuration.checksRecaptcha = false
        let provider = PhoneAuthProvider.provider(auth: setup.auth)
        let number = StandInApp.uniqueNumber()
        let id = try await provider.verifyPhoneNumber(number, uiDelegate: nil, multiFactorSession: try await user.multiFactor.session())
        let phone = provider.credential(withVerificationID: id, verificationCode: try setup.smsCode(for: number))
        let phoneBack = try #require(try Self.roundTrip(phone))
        try await user.multiFactor.enroll(with: PhoneMultiFactorGenerator.assertion(with: phoneBack), displayName: "desk")

        let factor = try #require(user.multiFactor.enrolledFactors.first as? PhoneMultiFactorInfo)
        let factorBack = try #require(try Self.roundTrip(factor))
        #expect(factorBack.uid == factor.uid && factorBack.phoneNumber == number && factorBack.displayName == "desk")
        #expect(factorBack.enrollmentDate.timeIntervalSince1970.rounded() == factor.enrollmentDate.timeIntervalSince1970.rounded())

        // Factors read from an archive list what they were, and change nothing.
        let factors = try #require(try Self.roundTrip(user.multiFactor))
        #expect(factors.enrolledFactors.map(\.uid) == [factor.uid] && factors.enrolledFactors.first is PhoneMultiFactorInfo)
        do {
            try await factors.unenroll(with: factor)
            Issue.record("an archived MultiFactor unenrolled")
        } catch {
            #expect((error as? AuthErrorCode)?.code == .nullUser, "\(error)")
        }
        #expect(user.multiFactor.enrolledFactors.count == 1)
    }
}
