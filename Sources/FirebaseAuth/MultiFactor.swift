import FBAuth
import Foundation

// Second factors as the SDK's (firebase-ios-sdk FirebaseAuth/Sources/Swift/MultiFactor/):
// enrolment through `user.multiFactor`, and a sign-in that needs one through the
// `MultiFactorResolver` of its `secondFactorRequired` error; authenticator apps (TOTP) and SMS
// (`PhoneAuthProvider`, PhoneAuthProvider.swift).

/// `totp`: the factor id of an authenticator app.
public let TOTPMultiFactorID = "totp"
/// `phone`: the factor id of an SMS factor.
public let PhoneMultiFactorID = "phone"

extension User {
    /// The user's second factors.
    public var multiFactor: MultiFactor { MultiFactor(user: self) }
}

/// A user's second factors, as the SDK's `MultiFactor`.
open class MultiFactor: NSObject, NSSecureCoding, @unchecked Sendable {
    /// The user whose factors these are; nil for one read from an archive, which lists the
    /// archived factors and changes nothing (`nullUser`).
    private let owner: User?
    private let archivedFactors: [MultiFactorInfo]

    init(user: User) {
        owner = user
        archivedFactors = []
        super.init()
    }

    /// The factors enrolled, as the user was last read.
    open var enrolledFactors: [MultiFactorInfo] { owner.map { $0.core.multiFactor.enrolledFactors.map(MultiFactorInfo.make) } ?? archivedFactors }

    // MARK: NSSecureCoding, with the SDK's key (MultiFactor.swift)

    /// Archives are decoded with their classes checked.
    public static let supportsSecureCoding = true

    /// Archives the enrolled factors.
    public func encode(with coder: NSCoder) {
        coder.encode(NSArray(array: enrolledFactors), forKey: "enrolledFactors")
    }

    /// The factors of an archive, without a user to change them for.
    public required init?(coder: NSCoder) {
        let classes: [AnyClass] = [NSArray.self, MultiFactorInfo.self, PhoneMultiFactorInfo.self, TOTPMultiFactorInfo.self]
        archivedFactors = coder.decodedIfPresent(of: classes, forKey: "enrolledFactors") as? [MultiFactorInfo] ?? []
        owner = nil
        super.init()
    }

    /// The user, or the SDK's `nullUser` for factors read from an archive.
    private var user: User {
        get throws(FBAuthError) {
            guard let owner else { throw .failed(.noCurrentUser, "these second factors were read from an archive: use user.multiFactor") }
            return owner
        }
    }

    /// Runs `work` for the user, the outcome to `completion` on the main queue.
    private func run(_ completion: ((Error?) -> Void)?, _ work: @escaping @Sendable (User) async throws(FBAuthError) -> Void) {
        guard let owner else {
            let deliver = UncheckedBox(completion)
            DispatchQueue.main.async { deliver.value?(AuthErrorBridge.error(.nullUser)) }
            return
        }
        owner.auth.run({ () async throws(FBAuthError) -> Void in try await work(owner) }) { (_: Void?, error) in completion?(error) }
    }

    /// `work` for the user, with `async`.
    private func bridged(_ work: (User) async throws(FBAuthError) -> Void) async throws {
        guard let owner else { throw AuthErrorBridge.error(.nullUser) }
        try await owner.auth.bridged { () async throws(FBAuthError) in try await work(owner) }
    }

    /// A session to enrol a factor in (the user's recent sign-in).
    open func getSessionWithCompletion(_ completion: ((MultiFactorSession?, Error?) -> Void)?) {
        let session = MultiFactorSession(user: owner)
        let deliver = UncheckedBox(completion)
        DispatchQueue.main.async { deliver.value?(session, nil) }
    }

    /// The same, with `async`.
    open func session() async throws -> MultiFactorSession {
        guard let owner else { throw AuthErrorBridge.error(.nullUser) }
        return MultiFactorSession(user: owner)
    }

    /// Enrols the factor `assertion` proves (an authenticator app's code for its secret).
    open func enroll(with assertion: MultiFactorAssertion, displayName: String?, completion: ((Error?) -> Void)?) {
        run(completion) { (user) async throws(FBAuthError) in try await MultiFactor.enrolling(assertion, displayName, for: user) }
    }

    /// The same, with `async`.
    open func enroll(with assertion: MultiFactorAssertion, displayName: String?) async throws {
        try await bridged { (user) async throws(FBAuthError) in try await MultiFactor.enrolling(assertion, displayName, for: user) }
    }

    private static func enrolling(_ assertion: MultiFactorAssertion, _ displayName: String?, for user: User) async throws(FBAuthError) {
        if let phone = assertion as? PhoneMultiFactorAssertion {
            try await user.core.multiFactor.enroll(phoneVerificationID: phone.credential.verificationID,
                                                   verificationCode: phone.credential.verificationCode, displayName: displayName)
        } else if let totp = assertion as? TOTPMultiFactorAssertion, case .enrollment(let secret, let code) = totp.use {
            try await user.core.multiFactor.enroll(secret.core, oneTimePassword: code, displayName: displayName)
        } else {
            throw .failed(.invalidArgument, "enrol with TOTPMultiFactorGenerator.assertionForEnrollment(with:oneTimePassword:) or PhoneMultiFactorGenerator.assertion(with:)")
        }
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
        run(completion) { (user) async throws(FBAuthError) in try await MultiFactor.unenrolling(factorUID, for: user) }
    }

    /// The same, with `async`.
    open func unenroll(withFactorUID factorUID: String) async throws {
        try await bridged { (user) async throws(FBAuthError) in try await MultiFactor.unenrolling(factorUID, for: user) }
    }

    private static func unenrolling(_ uid: String, for user: User) async throws(FBAuthError) {
        try await user.core.multiFactor.unenroll(withFactorUID: uid)
        user.update(try await user.core.reload())
    }
}

/// A second factor, as the SDK's `MultiFactorInfo` (`PhoneMultiFactorInfo` for an SMS one).
open class MultiFactorInfo: NSObject, NSSecureCoding, @unchecked Sendable {
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

    // MARK: NSSecureCoding, with the SDK's keys (MultiFactorInfo.swift)

    /// Archives are decoded with their classes checked.
    public class var supportsSecureCoding: Bool { true }

    /// Archives the factor's id, name, date and kind.
    public func encode(with coder: NSCoder) {
        coder.encode(uid, forKey: "uid")
        coder.encode(displayName, forKey: "displayName")
        coder.encode(NSDate(timeIntervalSince1970: enrollmentDate.timeIntervalSince1970), forKey: "enrollmentDate")
        coder.encode(factorID, forKey: "factorID")
    }

    /// A factor of an archive; nil without its id, kind or date.
    public required init?(coder: NSCoder) {
        func string(_ key: String) -> String? { coder.decodedIfPresent(NSString.self, forKey: key).map { String($0) } }
        guard let uid = string("uid"), let factorID = string("factorID"),
              let date = coder.decodedIfPresent(NSDate.self, forKey: "enrollmentDate") else { return nil }
        let enrolled = Date(timeIntervalSince1970: date.timeIntervalSince1970)
        core = EnrolledSecondFactor(uid: uid, factorID: factorID, displayName: string("displayName"), enrollmentDate: enrolled,
                                    phoneNumber: string("phoneNumber"))
        self.uid = uid
        displayName = core.displayName
        enrollmentDate = enrolled
        self.factorID = factorID
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

    /// Archives are decoded with their classes checked.
    override public class var supportsSecureCoding: Bool { true }

    /// Archives the factor, with its phone number.
    override public func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(phoneNumber, forKey: "phoneNumber")
    }

    /// An SMS factor of an archive; nil without its phone number.
    public required init?(coder: NSCoder) {
        guard coder.decodedIfPresent(NSString.self, forKey: "phoneNumber") != nil else { return nil }
        super.init(coder: coder)
    }

    override init(_ core: EnrolledSecondFactor) { super.init(core) }
}

/// An authenticator app.
open class TOTPMultiFactorInfo: MultiFactorInfo, @unchecked Sendable {}

/// The proof of a recent sign-in that enrolment needs, as the SDK's `MultiFactorSession`.
open class MultiFactorSession: NSObject, @unchecked Sendable {
    /// The signed-in user it enrols for; nil for a resolver's (a sign-in not finished yet).
    let user: User?
    /// The resolver whose sign-in it finishes (weak: the resolver holds its session).
    weak var resolver: MultiFactorResolver?

    init(user: User?) {
        self.user = user
        super.init()
    }

    /// What the session is for: a signed-in user's enrolment, or a resolver's sign-in.
    enum Flow {
        case enrollment(User)
        case signIn(MultiFactorResolver)
    }

    var flow: Flow? {
        if let user { return .enrollment(user) }
        return resolver.map(Flow.signIn)
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
    let pending: PendingSecondFactor
    private let lock = NSLock()
    /// Which hint each texted code went to: a phone assertion names only its verification id.
    private var textedFactors: [String: String] = [:]

    init(_ pending: PendingSecondFactor, auth: Auth) {
        self.pending = pending
        self.auth = auth
        hints = pending.hints.map(MultiFactorInfo.make)
        super.init()
        session.resolver = self
    }

    func remember(_ verificationID: String, for factorUID: String) {
        lock.withLock { textedFactors[verificationID] = factorUID }
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
        if let phone = assertion as? PhoneMultiFactorAssertion {
            let id = phone.credential.verificationID
            guard let uid = lock.withLock({ textedFactors[id] }), let hint = hints.first(where: { $0.uid == uid }) else {
                throw .failed(.invalidArgument, "that verification id is not of a code this resolver texted: verifyPhoneNumber(with: hint, uiDelegate: nil, multiFactorSession: resolver.session)")
            }
            let proof = PhoneFactorProofs.assertion(for: hint.core, verificationID: id, verificationCode: phone.credential.verificationCode)
            return auth.signedIn(try await pending.resolveSignIn(with: proof))
        }
        guard let totp = assertion as? TOTPMultiFactorAssertion, case .signIn(let enrollmentID, let code) = totp.use else {
            throw .failed(.invalidArgument, "finish with TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID:oneTimePassword:) or PhoneMultiFactorGenerator.assertion(with:)")
        }
        return auth.signedIn(try await pending.resolveSignIn(with: TOTPFactorProofs.assertionForSignIn(withEnrollmentID: enrollmentID, oneTimePassword: code)))
    }
}
