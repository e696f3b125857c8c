#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport

/// Multi-factor authentication, Identity Toolkit v2 (`/v2/accounts/mfaSignIn:*`,
/// `/v2/accounts/mfaEnrollment:*`; firebase-js-sdk `packages/auth/src/api/authentication/mfa.ts`
/// and `api/account_management/mfa.ts`).

/// One entry of `mfaInfo[]`: a second factor a user enrolled. The phone number is masked but
/// for its last four digits in a sign-in's answer, whole in `accounts:lookup`.
internal struct MfaEnrollmentInfo: Decodable, Sendable, Equatable {
    internal var mfaEnrollmentId: String
    internal var displayName: String?
    internal var enrolledAt: Date?
    internal var phoneInfo: String?
    /// `phone` or `totp` (the SDKs' `FactorId`).
    internal var factorId: String

    enum CodingKeys: String, CodingKey { case mfaEnrollmentId, displayName, enrolledAt, phoneInfo, totpInfo }

    internal init(mfaEnrollmentId: String, displayName: String?, enrolledAt: Date?, phoneInfo: String?, factorId: String) {
        self.mfaEnrollmentId = mfaEnrollmentId
        self.displayName = displayName
        self.enrolledAt = enrolledAt
        self.phoneInfo = phoneInfo
        self.factorId = factorId
    }

    internal init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard let id = try c.identifier(.mfaEnrollmentId) else {
            throw ServerValueProblem(field: "mfaEnrollmentId", detail: "is missing")
        }
        mfaEnrollmentId = id
        displayName = c.string(.displayName).map { String($0.prefix(200)) }
        enrolledAt = try c.timestamp(.enrolledAt)
        phoneInfo = try c.phoneNumber(.phoneInfo)
        factorId = c.contains(.totpInfo) ? "totp" : "phone"
    }
}

/// `mfaSignIn:start` (phone only: TOTP needs no start).
struct StartMfaSignInRequest: Encodable {
    var mfaPendingCredential: String
    var mfaEnrollmentId: String
    var phoneSignInInfo: PhoneVerificationFields
    var tenantId: String?
}

/// What a phone number's request carries to prove a person (and not a script) is asking
/// (firebase-js-sdk `platform_browser/strategies/phone.ts`): a reCAPTCHA Enterprise token with
/// its client type and version, or a reCAPTCHA v2 token; nothing for the Auth emulator.
internal struct PhoneVerificationFields: Encodable, Sendable, Equatable {
    internal var phoneNumber: String?
    internal var recaptchaToken: String?
    internal var captchaResponse: String?
    internal var clientType: String?
    internal var recaptchaVersion: String?

    internal static let none = PhoneVerificationFields()

    internal static func enterprise(_ token: String) -> PhoneVerificationFields {
        PhoneVerificationFields(captchaResponse: token, clientType: "CLIENT_TYPE_WEB", recaptchaVersion: "RECAPTCHA_ENTERPRISE")
    }

    internal static func v2(_ token: String) -> PhoneVerificationFields { PhoneVerificationFields(recaptchaToken: token) }
}

struct StartMfaSignInResponse: Decodable {
    struct Info: Decodable { var sessionInfo: String? }
    var phoneResponseInfo: Info?
}

/// `mfaSignIn:finalize` with an SMS code or a TOTP code.
struct FinalizeMfaSignInRequest: Encodable {
    var mfaPendingCredential: String
    var mfaEnrollmentId: String?
    var phoneVerificationInfo: PhoneCode?
    var totpVerificationInfo: TotpCode?
    var tenantId: String?
}

struct PhoneCode: Encodable {
    var sessionInfo: String
    var code: String
}

struct TotpCode: Encodable {
    var sessionInfo: String?
    var verificationCode: String
}

/// The tokens `mfaSignIn:finalize`, `mfaEnrollment:finalize` and `mfaEnrollment:withdraw`
/// answer with (withdrawal may answer none, when the server revoked the session).
internal struct MfaTokensResponse: Decodable, Sendable {
    internal var idToken: String?
    internal var refreshToken: String?

    enum CodingKeys: String, CodingKey { case idToken, refreshToken }

    internal init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        idToken = try c.token(.idToken, .jwt)
        refreshToken = try c.token(.refreshToken, .bearer)
    }
}

/// `mfaEnrollment:start`: an SMS code sent to `phoneEnrollmentInfo.phoneNumber`, or a TOTP secret.
struct StartMfaEnrollmentRequest: Encodable {
    var idToken: String
    var phoneEnrollmentInfo: PhoneVerificationFields?
    var totpEnrollmentInfo: [String: String]?
    var tenantId: String?
}

internal struct StartMfaEnrollmentResponse: Decodable, Sendable {
    internal var phoneSessionInfo: String?
    internal var totpSession: TotpSecret?

    enum CodingKeys: String, CodingKey { case phoneSessionInfo, totpSessionInfo }
    enum SessionKeys: String, CodingKey { case sessionInfo }

    internal init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        phoneSessionInfo = try? c.nestedContainer(keyedBy: SessionKeys.self, forKey: .phoneSessionInfo).token(.sessionInfo, .visible)
        totpSession = try c.decodeIfPresent(TotpSecret.self, forKey: .totpSessionInfo)
    }
}

/// `totpSessionInfo`: the shared secret an authenticator app needs (the SDKs' `TotpSecret`).
internal struct TotpSecret: Decodable, Sendable, Equatable {
    /// Base32.
    internal var sharedSecretKey: String
    internal var hashingAlgorithm: String
    internal var verificationCodeLength: Int
    internal var periodSec: Int
    internal var sessionInfo: String

    enum CodingKeys: String, CodingKey { case sharedSecretKey, hashingAlgorithm, verificationCodeLength, periodSec, sessionInfo }

    internal init(sharedSecretKey: String, hashingAlgorithm: String, verificationCodeLength: Int, periodSec: Int, sessionInfo: String) {
        self.sharedSecretKey = sharedSecretKey
        self.hashingAlgorithm = hashingAlgorithm
        self.verificationCodeLength = verificationCodeLength
        self.periodSec = periodSec
        self.sessionInfo = sessionInfo
    }

    internal init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard let secret = c.string(.sharedSecretKey), !secret.isEmpty, secret.count <= 128,
            secret.utf8.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || (UInt8(ascii: "2")...UInt8(ascii: "7")).contains($0) || $0 == UInt8(ascii: "=") })
        else { throw ServerValueProblem(field: "sharedSecretKey", detail: "is not a base32 secret") }
        sharedSecretKey = secret
        let algorithm = c.string(.hashingAlgorithm) ?? "SHA1"
        guard ["SHA1", "SHA256", "SHA512"].contains(algorithm) else {
            throw ServerValueProblem(field: "hashingAlgorithm", detail: "is not SHA1, SHA256 or SHA512")
        }
        hashingAlgorithm = algorithm
        verificationCodeLength = try c.integer(.verificationCodeLength, in: 6...8) ?? 6
        periodSec = try c.integer(.periodSec, in: 15...300) ?? 30
        guard let session = try c.token(.sessionInfo, .visible) else { throw ServerValueProblem(field: "sessionInfo", detail: "is missing") }
        sessionInfo = session
    }
}

/// `mfaEnrollment:finalize`.
struct FinalizeMfaEnrollmentRequest: Encodable {
    var idToken: String
    var displayName: String?
    var phoneVerificationInfo: PhoneCode?
    var totpVerificationInfo: TotpCode?
    var tenantId: String?
}

/// `mfaEnrollment:withdraw`.
struct WithdrawMfaRequest: Encodable {
    var idToken: String
    var mfaEnrollmentId: String
    var tenantId: String?
}

/// `GET /v2/recaptchaConfig` (firebase-js-sdk `api/authentication/recaptcha.ts`): the site key
/// (`projects/P/keys/SITEKEY`) and, per provider, whether reCAPTCHA Enterprise is enforced.
internal struct RecaptchaConfigResponse: Decodable, Sendable {
    internal struct ProviderState: Decodable, Sendable {
        internal var provider: String?
        internal var enforcementState: String?
    }

    internal var recaptchaKey: String?
    internal var recaptchaEnforcementState: [ProviderState]?

    /// The site key, the last part of `recaptchaKey`.
    internal var siteKey: String? {
        recaptchaKey?.split(separator: "/").last.map(String.init).flatMap { HeaderValue.isSafe($0) && !$0.contains(" ") ? $0 : nil }
    }

    /// Whether Enterprise protects `provider` (`PHONE_PROVIDER`, `EMAIL_PASSWORD_PROVIDER`):
    /// enforced, or audited (the SDK sends a token then too).
    internal func protects(_ provider: String) -> Bool {
        let state = recaptchaEnforcementState?.first { $0.provider == provider }?.enforcementState
        return state == "ENFORCE" || state == "AUDIT"
    }
}

/// `GET /v1/recaptchaParams`: the reCAPTCHA v2 site key.
struct RecaptchaParamsResponse: Decodable {
    var recaptchaSiteKey: String?
}

extension KeyedDecodingContainer {
    /// An RFC 3339 timestamp or milliseconds since 1970, between 1970 and 2200; nil when absent.
    func timestamp(_ key: Key) throws -> Date? {
        guard let value = try? decodeIfPresent(JSONValue.self, forKey: key), value != .null else { return nil }
        switch value {
        case .string(let text):
            if let milliseconds = Int64(text), ServerValueBounds.accountMilliseconds.contains(milliseconds) {
                return Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
            }
            // `2026-11-22T03:04:05Z`, possibly with a fraction of a second.
            let whole = text.count > 20 && text.hasSuffix("Z") && text.dropFirst(19).first == "." ? String(text.prefix(19)) + "Z" : text
            if let seconds = Timestamp.secondsSince1970(whole) { return Date(timeIntervalSince1970: TimeInterval(seconds)) }
        case .integer(let milliseconds) where ServerValueBounds.accountMilliseconds.contains(milliseconds):
            return Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
        default:
            break
        }
        throw ServerValueProblem(field: key.stringValue, detail: "is not a time between 1970 and 2200")
    }

    /// A phone number, whole or masked (`+*******0100`): `+`, digits and `*`, at most 20.
    func phoneNumber(_ key: Key) throws -> String? {
        guard let text = string(key), !text.isEmpty else { return nil }
        guard text.count <= 20, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "+" || $0 == "*" || $0 == " " || $0 == "-") }) else {
            throw ServerValueProblem(field: key.stringValue, detail: "is not a phone number")
        }
        return text
    }
}

/// The code a second factor gave: an SMS code for its session, or a TOTP code (with the
/// enrolment's session while enrolling).
internal enum SecondFactorCode: Sendable {
    case phone(sessionInfo: String, code: String)
    case totp(code: String, enrollmentSession: String?)

    var phone: PhoneCode? {
        if case .phone(let sessionInfo, let code) = self { return PhoneCode(sessionInfo: sessionInfo, code: code) }
        return nil
    }

    var totp: TotpCode? {
        if case .totp(let code, let session) = self { return TotpCode(sessionInfo: session, verificationCode: code) }
        return nil
    }
}
