import FBAuth
import Foundation

// Second factors as the SDK's (firebase-ios-sdk FirebaseAuth/Sources/Swift/MultiFactor/):
// enrolment through `user.multiFactor`, and a sign-in that needs one through the
// `MultiFactorResolver` of its `secondFactorRequired` error. Authenticator apps (TOTP) here;
// SMS factors come with `PhoneAuthProvider` (docs/library.md).

/// `totp`: the factor id of an authenticator app.
public let TOTPMultiFactorID = "totp"
/// `phone`: the factor id of an SMS factor.
public let PhoneMultiFactorID = "phone"

extension User {
    /// The user's second factors.
    public var multiFactor: MultiFactor { MultiFactor(user: self) }
}

/// A user's second factors, as the SDK's `MultiFactor`.
open class MultiFactor: NSObject, @unchecked Sendable {
    private let user: User

    init(user: User) {
        self.user = user
        super.init()
    }

    /// The factors enrolled, as the user was last read.
    open var enrolledFactors: [MultiFactorInfo] { user.core.multiFactor.enrolledFactors.map(MultiFactorInfo.make) }

    /// A session to enrol a factor in (the user's recent sign-in).
    open func getSessionWithCompletion(_ completion: ((MultiFactorSession?, Error?) -> Void)?) {
        let session = MultiFactorSession(user: user)
        let deliver = UncheckedBox(completion)
        DispatchQueue.main.async { deliver.value?(session, nil) }
    }

    /// The same, with `async`.
    open func session() async throws -> MultiFactorSession { MultiFactorSession(user: user) }

    /// Enrols the factor `assertion` proves (an authenticator app's code for its secret).
    open func enroll(with assertion: MultiFactorAssertion, displayName: String?, completion: ((Error?) -> Void)?) {
        user.auth.run({ () async throws(FBAuthError) -> Void in try await self.enrolling(assertion, displayName) }) { (_: Void?, error) in completion?(error) }
    }

    /// The same, with `async`.
    open func enroll(with assertion: MultiFactorAssertion, displayName: String?) async throws {
        try await user.auth.bridged { () async throws(FBAuthError) in try await self.enrolling(assertion, displayName) }
    }

    private func enrolling(_ assertion: MultiFactorAssertion, _ displayName: String?) async throws(FBAuthError) {
        guard let totp = assertion as? TOTPMultiFactorAssertion, case .enrollment(let secret, let code) = totp.use else {
            throw .failed(.invalidArgument, "enrol with TOTPMultiFactorGenerator.assertionForEnrollment(with:oneTimePassword:)")
        }
        try await user.core.multiFactor.enroll(secret.core, oneTimePassword: code, displayName: displayName)
        user.update(try await user.core.reload())
    }

    /// Removes the factor.
    open func unenroll(with factorInfo: MultiFactorInfo, completion: ((Error?) -> Void)?) {
        unenroll(withFactorUID: factorInfo.uid, completion: completion)
    }

    /// The same, with `async`.
    open func unenroll(with factorInfo: MultiFactorInfo) async throws {
        try await unenroll(withFactorUID: factorInfo.uid)
    }

    /// Removes the factor of this uid.
    open func unenroll(withFactorUID factorUID: String, completion: ((Error?) -> Void)?) {
        user.auth.run({ () async throws(FBAuthError) -> Void in try await self.unenrolling(factorUID) }) { (_: Void?, error) in completion?(error) }
    }

    /// The same, with `async`.
    open func unenroll(withFactorUID factorUID: String) async throws {
        try await user.auth.bridged { () async throws(FBAuthError) in try await self.unenrolling(factorUID) }
    }

    private func unenrolling(_ uid: String) async throws(FBAuthError) {
        try await user.core.multiFactor.unenroll(withFactorUID: uid)
        user.update(try await user.core.reload())
    }
}

/// A second factor, as the SDK's `MultiFactorInfo` (`PhoneMultiFactorInfo` for an SMS one).
open class MultiFactorInfo: NSObject, @unchecked Sendable {
    /// Its id (the enrollment id).
    public let uid: String
    /// The name the user gave it.
    public let displayName: String?
    /// When it was enrolled.
    public let enrollmentDate: Date
    /// `totp` or `phone`.
    public let factorID: String
    let core: EnrolledSecondFactor

    init(_ core: EnrolledSecondFactor) {
        self.core = core
        uid = core.uid
        displayName = core.displayName
        enrollmentDate = core.enrollmentDate ?? Date(timeIntervalSince1970: 0)
        factorID = core.factorID
        super.init()
    }

    static func make(_ core: EnrolledSecondFactor) -> MultiFactorInfo {
        switch core.factorID {
        case PhoneMultiFactorID: PhoneMultiFactorInfo(core)
        case TOTPMultiFactorID: TOTPMultiFactorInfo(core)
        default: MultiFactorInfo(core)
        }
    }
}

/// An SMS factor, with its (masked) phone number.
open class PhoneMultiFactorInfo: MultiFactorInfo, @unchecked Sendable {
    /// The phone number, as Firebase shows it (masked at sign-in).
    public var phoneNumber: String { core.phoneNumber ?? "" }
}

/// An authenticator app.
open class TOTPMultiFactorInfo: MultiFactorInfo, @unchecked Sendable {}

/// The proof of a recent sign-in that enrolment needs, as the SDK's `MultiFactorSession`.
open class MultiFactorSession: NSObject, @unchecked Sendable {
    /// The signed-in user it enrols for; nil for a resolver's (a sign-in not finished yet).
    let user: User?

    init(user: User?) {
        self.user = user
        super.init()
    }
}

/// What proves a second factor, as the SDK's `MultiFactorAssertion`.
open class MultiFactorAssertion: NSObject, @unchecked Sendable {
    /// `totp` or `phone`.
    public let factorID: String

    init(factorID: String) {
        self.factorID = factorID
        super.init()
    }
}

/// An authenticator app's code, for enrolment or for a sign-in.
open class TOTPMultiFactorAssertion: MultiFactorAssertion, @unchecked Sendable {
    enum Use {
        case enrollment(TOTPSecret, String)
        case signIn(enrollmentID: String, code: String)
    }

    let use: Use

    init(_ use: Use) {
        self.use = use
        super.init(factorID: TOTPMultiFactorID)
    }
}

/// An authenticator app's secret, as the SDK's `TOTPSecret`.
open class TOTPSecret: NSObject, @unchecked Sendable {
    let core: TOTPEnrollmentSecret

    init(_ core: TOTPEnrollmentSecret) {
        self.core = core
        super.init()
    }

    /// The secret (base32), to type into an app that cannot read a QR code.
    open func sharedSecretKey() -> String { core.sharedSecretKey }

    /// The `otpauth://` URL an app reads (as a QR code) to add the account.
    open func generateQRCodeURL(withAccountName accountName: String, issuer: String) -> String {
        core.generateQRCodeURL(withAccountName: accountName, issuer: issuer)
    }

    /// Opens the `otpauth://` URL with the system's handler for it (an authenticator app, where
    /// one is registered), as the SDK opens it on iOS; the browser seam decides (`LinuxSeams`).
    open func openInOTPApp(withQRCodeURL qrCodeURL: String) {
        guard let url = URL(string: qrCodeURL), url.scheme == "otpauth" else { return }
        if let open = LinuxSeams.openBrowser { _ = open(url) } else { _ = SystemOTPOpener.open(url) }
    }
}

/// The system's handler of `otpauth:` URLs: `open` on macOS, `xdg-open` on a Linux desktop.
enum SystemOTPOpener {
    static func open(_ url: URL) -> Bool {
        let process = Process()
        #if os(macOS)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/open")
        process.arguments = [url.absoluteString]
        #else
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", url.absoluteString]
        #endif
        return (try? process.run()) != nil
    }
}

/// Authenticator apps as a second factor, as the SDK's `TOTPMultiFactorGenerator`.
open class TOTPMultiFactorGenerator: NSObject {
    /// A new secret for the user of `session`, to show them (QR code) and enrol.
    open class func generateSecret(with session: MultiFactorSession, completion: @escaping (TOTPSecret?, Error?) -> Void) {
        guard let user = session.user else {
            let deliver = UncheckedBox(completion)
            DispatchQueue.main.async { deliver.value(nil, AuthErrorBridge.error(.missingMultiFactorSession)) }
            return
        }
        user.auth.run({ () async throws(FBAuthError) -> TOTPSecret in TOTPSecret(try await user.core.multiFactor.generateTOTPSecret()) }, completion)
    }

    /// The same, with `async`.
    open class func generateSecret(with session: MultiFactorSession) async throws -> TOTPSecret {
        guard let user = session.user else { throw AuthErrorBridge.error(.missingMultiFactorSession) }
        return try await user.auth.bridged { () async throws(FBAuthError) in TOTPSecret(try await user.core.multiFactor.generateTOTPSecret()) }
    }

    /// What enrols `secret`: the app's current code for it.
    open class func assertionForEnrollment(with secret: TOTPSecret, oneTimePassword: String) -> TOTPMultiFactorAssertion {
        TOTPMultiFactorAssertion(.enrollment(secret, oneTimePassword))
    }

    /// What finishes a sign-in: the app's current code for the enrolled factor.
    open class func assertionForSignIn(withEnrollmentID enrollmentID: String, oneTimePassword: String) -> TOTPMultiFactorAssertion {
        TOTPMultiFactorAssertion(.signIn(enrollmentID: enrollmentID, code: oneTimePassword))
    }
}

/// Finishes a sign-in that needs a second factor, as the SDK's `MultiFactorResolver`: from the
/// `secondFactorRequired` error's `userInfo[AuthErrorUserInfoMultiFactorResolverKey]`.
open class MultiFactorResolver: NSObject, @unchecked Sendable {
    /// The session of the first factor's sign-in.
    public let session = MultiFactorSession(user: nil)
    /// The user's factors, any of which finishes the sign-in.
    public let hints: [MultiFactorInfo]
    /// The `Auth` the sign-in belongs to.
    public let auth: Auth
    private let pending: PendingSecondFactor

    init(_ pending: PendingSecondFactor, auth: Auth) {
        self.pending = pending
        self.auth = auth
        hints = pending.hints.map(MultiFactorInfo.make)
        super.init()
    }

    /// Finishes the sign-in with the factor `assertion` proves.
    open func resolveSignIn(with assertion: MultiFactorAssertion, completion: ((AuthDataResult?, Error?) -> Void)?) {
        auth.run({ () async throws(FBAuthError) -> AuthDataResult in try await self.resolving(assertion) }, completion)
    }

    /// The same, with `async`.
    open func resolveSignIn(with assertion: MultiFactorAssertion) async throws -> AuthDataResult {
        try await auth.bridged { () async throws(FBAuthError) in try await self.resolving(assertion) }
    }

    private func resolving(_ assertion: MultiFactorAssertion) async throws(FBAuthError) -> AuthDataResult {
        guard let totp = assertion as? TOTPMultiFactorAssertion, case .signIn(let enrollmentID, let code) = totp.use else {
            throw .failed(.invalidArgument, "finish with TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID:oneTimePassword:)")
        }
        return auth.signedIn(try await pending.resolveSignIn(with: TOTPFactorProofs.assertionForSignIn(withEnrollmentID: enrollmentID, oneTimePassword: code)))
    }
}
