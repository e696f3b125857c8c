#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A second factor a user enrolled.
struct MfaEnrollment {
    enum Kind {
        case phone(String)
        /// The shared secret, base32.
        case totp(secret: String)
    }

    var id: String
    var displayName: String?
    var enrolledAt: Date
    var kind: Kind
    /// `enrolledAt` as an import or an administrator gave it (milliseconds and all), echoed so.
    var enrolledAtAsGiven: String?

    var factorId: String {
        switch kind {
        case .phone: "phone"
        case .totp: "totp"
        }
    }

    /// The entry of `mfaInfo[]` (Identity Toolkit's `GoogleCloudIdentitytoolkitV1MfaEnrollment`):
    /// the phone number masked but for its last four digits where the user is not yet signed
    /// in (`masked`), as production and the emulator's `redactMfaInfo` do.
    func info(masked: Bool) -> [String: Any] {
        var info: [String: Any] = ["mfaEnrollmentId": id, "enrolledAt": enrolledAtAsGiven ?? enrolledAt.formatted(.iso8601)]
        info["displayName"] = displayName
        switch kind {
        case .phone(let number): info["phoneInfo"] = masked ? Self.mask(number) : number
        case .totp: info["totpInfo"] = [String: Any]()
        }
        return info
    }

    /// `+15555550123` → `+*******0123`.
    static func mask(_ number: String) -> String {
        var digits = 0
        return String(number.reversed().map { character -> Character in
            guard character.isNumber else { return character }
            digits += 1
            return digits > 4 ? "*" : character
        }.reversed())
    }
}

/// A first factor that succeeded for a user with second factors: what `mfaSignIn:finalize`
/// turns into tokens.
struct PendingMfaSignIn {
    var localId: String
    var signInProvider: String
    var tenantId: String?
    var expiresAt: Date
}

/// An SMS code sent to a phone (not really: tests and developers read it from
/// `/emulator/v1/projects/PROJECT/verificationCodes`, as from the Auth emulator).
struct PhoneVerification {
    var phoneNumber: String
    var code: String
    var sessionInfo: String
    var tenantId: String?
    var expiresAt: Date
    /// False for a test number's code, which no text carried (and which is not listed).
    var texted = true
}

/// A TOTP enrolment between `start` (the secret handed out) and `finalize`.
struct PendingTotpEnrollment {
    var localId: String
    var secret: String
    var expiresAt: Date
}
