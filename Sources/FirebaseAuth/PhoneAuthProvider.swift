import FBAuth
import Foundation

/// Phone numbers, as the SDK's `PhoneAuthProvider` (AuthProvider/PhoneAuthProvider.swift):
/// `verifyPhoneNumber` has Firebase text a code, and `credential(withVerificationID:verificationCode:)`
/// is the credential of that code, to sign in, link, reauthenticate or update the number with,
/// or to enrol or use as a second factor (`PhoneMultiFactorGenerator`).
///
/// Where the project asks for reCAPTCHA before a text (production does), the SDK shows it in a
/// web view; here it is a page of fbauth's loopback listener in the user's browser, as
/// `fbauth mfa enroll phone` shows it. `Auth.settings?.isAppVerificationDisabledForTesting`
/// skips it, for the project's fictional test numbers and emulators (Google's asks for none).
open class PhoneAuthProvider: NSObject, @unchecked Sendable {
    /// `phone`.
    public static let id = "phone"
    private let auth: Auth

    private init(auth: Auth) {
        self.auth = auth
        super.init()
    }

    /// The provider of the default app.
    open class func provider() -> PhoneAuthProvider { PhoneAuthProvider(auth: Auth.auth()) }

    /// The provider of `auth`.
    open class func provider(auth: Auth) -> PhoneAuthProvider { PhoneAuthProvider(auth: auth) }

    /// Texts a code to `phoneNumber` (E.164, `+15555550100`); the completion gets the
    /// verification id, on the main queue.
    open func verifyPhoneNumber(_ phoneNumber: String, uiDelegate: AuthUIDelegate? = nil, completion: ((String?, Error?) -> Void)?) {
        verifyPhoneNumber(phoneNumber, uiDelegate: uiDelegate, multiFactorSession: nil, completion: completion)
    }

    /// The same within a second factor's session: with `user.multiFactor`'s session, a code to
    /// enrol `phoneNumber`; without one, a code to sign in with.
    open func verifyPhoneNumber(_ phoneNumber: String, uiDelegate: AuthUIDelegate? = nil, multiFactorSession: MultiFactorSession? = nil,
                                completion: ((String?, Error?) -> Void)?) {
        auth.run({ () async throws(FBAuthError) -> String in try await self.sending(to: .number(phoneNumber), session: multiFactorSession) }, completion)
    }

    /// The same, with `async`.
    open func verifyPhoneNumber(_ phoneNumber: String, uiDelegate: AuthUIDelegate? = nil, multiFactorSession: MultiFactorSession? = nil) async throws -> String {
        try await auth.bridged { () async throws(FBAuthError) in try await self.sending(to: .number(phoneNumber), session: multiFactorSession) }
    }

    /// Texts a code to an enrolled SMS factor, to finish a sign-in with: `multiFactorInfo` is
    /// one of a `MultiFactorResolver`'s hints, and `multiFactorSession` its session.
    open func verifyPhoneNumber(with multiFactorInfo: PhoneMultiFactorInfo, uiDelegate: AuthUIDelegate? = nil, multiFactorSession: MultiFactorSession?,
                                completion: ((String?, Error?) -> Void)?) {
        auth.run({ () async throws(FBAuthError) -> String in try await self.sending(to: .factor(multiFactorInfo), session: multiFactorSession) }, completion)
    }

    /// The same, with `async`.
    open func verifyPhoneNumber(with multiFactorInfo: PhoneMultiFactorInfo, uiDelegate: AuthUIDelegate? = nil,
                                multiFactorSession: MultiFactorSession?) async throws -> String {
        try await auth.bridged { () async throws(FBAuthError) in try await self.sending(to: .factor(multiFactorInfo), session: multiFactorSession) }
    }

    /// The credential of a texted code.
    open func credential(withVerificationID verificationID: String, verificationCode: String) -> PhoneAuthCredential {
        PhoneAuthCredential(verificationID: verificationID, verificationCode: verificationCode)
    }

    private enum Recipient {
        case number(String)
        case factor(PhoneMultiFactorInfo)
    }

    private func sending(to recipient: Recipient, session: MultiFactorSession?) async throws(FBAuthError) -> String {
        let verifyingApp = !auth.appVerificationDisabled
        switch (recipient, session?.flow) {
        case (.number(let number), nil):
            return try await auth.fbauth.sendVerificationCode(to: number, verifyingApp: verifyingApp)
        case (.number(let number), .enrollment(let user)?):
            return try await user.core.multiFactor.sendEnrollmentSMS(to: number, verifyingApp: verifyingApp)
        case (.factor(let factor), .signIn(let resolver)?):
            let verificationID = try await resolver.pending.sendSMS(to: factor.core, verifyingApp: verifyingApp)
            resolver.remember(verificationID, for: factor.uid)
            return verificationID
        case (.number, .signIn?):
            throw .usage("to finish a sign-in, verify one of the resolver's hints: verifyPhoneNumber(with:uiDelegate:multiFactorSession:)")
        case (.factor, _):
            throw .failed(.invalidArgument, "an enrolled factor is verified within a MultiFactorResolver's session")
        }
    }
}

/// The credential of a texted code, as the SDK's `PhoneAuthCredential`.
open class PhoneAuthCredential: AuthCredential, NSSecureCoding, @unchecked Sendable {
    let verificationID: String
    let verificationCode: String

    init(verificationID: String, verificationCode: String) {
        self.verificationID = verificationID
        self.verificationCode = verificationCode
        super.init(provider: PhoneAuthProvider.id,
                   use: .other(PhoneNumbers.credential(verificationID: verificationID, verificationCode: verificationCode)))
    }

    // MARK: NSSecureCoding, with the SDK's keys (PhoneAuthCredential.swift)

    /// Archives are decoded with their classes checked.
    public static let supportsSecureCoding = true

    /// Archives the verification id and code, as the SDK's does.
    public func encode(with coder: NSCoder) {
        coder.encode(verificationID, forKey: "verificationID")
        coder.encode(verificationCode, forKey: "verificationCode")
    }

    /// A credential of an archive; nil without its verification id and code (fbauth keeps no
    /// temporary proofs: an archive of one decodes as nil).
    public required init?(coder: NSCoder) {
        guard let id = coder.decodedIfPresent(NSString.self, forKey: "verificationID"),
              let code = coder.decodedIfPresent(NSString.self, forKey: "verificationCode") else { return nil }
        verificationID = String(id)
        verificationCode = String(code)
        super.init(provider: PhoneAuthProvider.id,
                   use: .other(PhoneNumbers.credential(verificationID: verificationID, verificationCode: verificationCode)))
    }
}

/// SMS second factors, as the SDK's `PhoneMultiFactorGenerator`.
open class PhoneMultiFactorGenerator: NSObject {
    /// What enrols a number, or finishes a sign-in: the credential of the code texted to it.
    open class func assertion(with phoneAuthCredential: PhoneAuthCredential) -> PhoneMultiFactorAssertion {
        PhoneMultiFactorAssertion(phoneAuthCredential)
    }
}

/// The proof of an SMS second factor, as the SDK's `PhoneMultiFactorAssertion`.
open class PhoneMultiFactorAssertion: MultiFactorAssertion, @unchecked Sendable {
    let credential: PhoneAuthCredential

    init(_ credential: PhoneAuthCredential) {
        self.credential = credential
        super.init(factorID: PhoneMultiFactorID)
    }
}

extension User {
    /// Replaces the user's phone number with the one the credential's code was texted to (it
    /// needs a recent sign-in).
    public func updatePhoneNumber(_ credential: PhoneAuthCredential, completion: ((Error?) -> Void)? = nil) {
        auth.run({ () async throws(FBAuthError) -> Void in try await self.updatingPhoneNumber(credential) }) { (_: Void?, error) in completion?(error) }
    }

    /// The same, with `async`.
    public func updatePhoneNumber(_ credential: PhoneAuthCredential) async throws {
        try await auth.bridged { () async throws(FBAuthError) in try await self.updatingPhoneNumber(credential) }
    }

    private func updatingPhoneNumber(_ credential: PhoneAuthCredential) async throws(FBAuthError) {
        let replacement = PhoneNumbers.replacement(verificationID: credential.verificationID, verificationCode: credential.verificationCode)
        update(try await core.link(with: replacement).user)
        auth.tellListeners()
    }
}
