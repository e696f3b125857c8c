#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthSupport

/// The JSON printed by `signin`, `link` and `reauth`, shaped like the Firebase SDK's
/// `AuthOutcome` (docs/commands.md, "Output"). Every documented key is always present; absent values
/// are `null`.
struct AuthDataResultJSON: Encodable {
    var user: UserJSON
    var credential: CredentialJSON?
    var additionalUserInfo: AdditionalUserInfoJSON?
    /// The second factor that completed the sign-in (the ID token's `sign_in_second_factor`).
    var secondFactor: EnrolledFactorJSON?

    init(_ result: AuthOutcome) {
        user = UserJSON(user: result.user, includeTokens: true)
        credential = result.credential.map(CredentialJSON.init)
        let info = result.additionalUserInfo
        additionalUserInfo = AdditionalUserInfoJSON(providerId: info?.providerID, isNewUser: result.isNewUser, username: info?.username,
                                                    profile: info?.profile)
        secondFactor = result.secondFactor.map(EnrolledFactorJSON.init)
    }

    enum CodingKeys: String, CodingKey { case user, credential, additionalUserInfo, secondFactor }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(user, forKey: .user)
        try c.encode(credential, forKey: .credential)
        try c.encode(additionalUserInfo, forKey: .additionalUserInfo)
        try c.encode(secondFactor, forKey: .secondFactor)
    }
}

/// A second factor as the SDKs' `MultiFactorInfo` (`PhoneMultiFactorInfo` adds `phoneNumber`).
struct EnrolledFactorJSON: Encodable {
    var factor: EnrolledSecondFactor

    enum CodingKeys: String, CodingKey { case uid, factorId, displayName, enrollmentTime, phoneNumber }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(factor.uid, forKey: .uid)
        try c.encode(factor.factorID, forKey: .factorId)
        try c.encode(factor.displayName, forKey: .displayName)
        try c.encode(factor.enrollmentDate.map(Timestamp.string), forKey: .enrollmentTime)
        try c.encode(factor.phoneNumber, forKey: .phoneNumber)
    }
}

/// The contract's `user` object (also printed alone by `whoami`).
struct UserJSON: Encodable {
    var user: SignedInUser
    var includeTokens: Bool

    enum CodingKeys: String, CodingKey {
        case uid, email, emailVerified, displayName, photoURL, phoneNumber, isAnonymous, tenantId, providerData
        case metadata, idToken, refreshToken, expirationTime, multiFactor
    }

    /// `multiFactor(user).enrolledFactors`, as the SDKs have it.
    struct MultiFactorJSON: Encodable {
        var enrolledFactors: [EnrolledFactorJSON]
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(user.uid, forKey: .uid)
        try c.encode(user.email, forKey: .email)
        try c.encode(user.isEmailVerified, forKey: .emailVerified)
        try c.encode(user.displayName, forKey: .displayName)
        try c.encode(user.photoURL, forKey: .photoURL)
        try c.encode(user.phoneNumber, forKey: .phoneNumber)
        try c.encode(user.isAnonymous, forKey: .isAnonymous)
        try c.encode(user.tenantID, forKey: .tenantId)
        try c.encode(user.providerData.map(ProviderDataJSON.init), forKey: .providerData)
        try c.encode(MetadataJSON(metadata: user.metadata), forKey: .metadata)
        try c.encode(MultiFactorJSON(enrolledFactors: user.multiFactor.enrolledFactors.map(EnrolledFactorJSON.init)), forKey: .multiFactor)
        if includeTokens {
            // A session whose tokens Firebase refused keeps none: empty, with the epoch.
            try c.encode(user.savedIDToken?.token ?? "", forKey: .idToken)
            try c.encode(user.refreshToken ?? "", forKey: .refreshToken)
            try c.encode(Timestamp.string(user.tokenExpiration), forKey: .expirationTime)
        }
    }
}

struct ProviderDataJSON: Encodable {
    var profile: LinkedProvider

    enum CodingKeys: String, CodingKey { case providerId, uid, email, displayName, photoURL, phoneNumber, oid }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        // Microsoft only: the object id that matches Firebase's id for the account.
        try c.encodeIfPresent(profile.microsoftObjectID, forKey: .oid)
        try c.encode(profile.providerID, forKey: .providerId)
        try c.encode(profile.uid, forKey: .uid)
        try c.encode(profile.email, forKey: .email)
        try c.encode(profile.displayName, forKey: .displayName)
        try c.encode(profile.photoURL, forKey: .photoURL)
        try c.encode(profile.phoneNumber, forKey: .phoneNumber)
    }
}

struct MetadataJSON: Encodable {
    var metadata: AccountDates

    enum CodingKeys: String, CodingKey { case creationTime, lastSignInTime }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(metadata.creationDate.map(Timestamp.string), forKey: .creationTime)
        try c.encode(Timestamp.string(metadata.lastSignInDate), forKey: .lastSignInTime)
    }
}

struct CredentialJSON: Encodable {
    var credential: OAuthTokens

    enum CodingKeys: String, CodingKey { case providerId, signInMethod, accessToken, idToken, secret }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(credential.providerID, forKey: .providerId)
        try c.encode(credential.providerID, forKey: .signInMethod)
        try c.encode(credential.accessToken, forKey: .accessToken)
        try c.encode(credential.idToken, forKey: .idToken)
        try c.encode(credential.secret, forKey: .secret)
    }
}

struct AdditionalUserInfoJSON: Encodable {
    var providerId: String?
    var isNewUser: Bool
    var username: String?
    var profile: JSONValue?

    enum CodingKeys: String, CodingKey { case providerId, isNewUser, username, profile }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(providerId, forKey: .providerId)
        try c.encode(isNewUser, forKey: .isNewUser)
        try c.encode(username, forKey: .username)
        try c.encode(profile, forKey: .profile)
    }
}

/// Pretty-printed JSON for stdout, keys sorted (stable output), followed by a newline.
enum JSONOutput {
    /// A JSON value written directly, as the encoder below would write it (`verify-token`'s
    /// claims): the encoder's start-up, with its protocol and metadata lookups, was a third of
    /// that command's time. Values with fractions still go through the encoder, whose number
    /// formatting is its own.
    static func render(_ value: JSONValue) -> String {
        guard !containsFraction(value) else { return render(EncodedJSON(value: value)) }
        var text = ""
        write(value, indent: "", into: &text)
        return escapingReorderingCharacters(text) + "\n"
    }

    private struct EncodedJSON: Encodable {
        let value: JSONValue
        func encode(to encoder: Encoder) throws { try value.encode(to: encoder) }
    }

    private static func containsFraction(_ value: JSONValue) -> Bool {
        switch value {
        case .number(let number): !(number.rounded() == number && abs(number) < 1e15)
        case .array(let values): values.contains(where: containsFraction)
        case .object(let members): members.values.contains(where: containsFraction)
        default: false
        }
    }

    /// Pretty-printed as `.prettyPrinted, .sortedKeys, .withoutEscapingSlashes` print: two
    /// spaces a level, `"key" : value`, keys in UTF-8 order, `{}` and `[]` when empty.
    private static func write(_ value: JSONValue, indent: String, into text: inout String) {
        switch value {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .integer(let number): text += String(number)
        case .number(let number): text += String(Int64(number))
        case .string(let string): writeString(string, into: &text)
        case .array(let values):
            guard !values.isEmpty else { text += "[]"; return }
            let inner = indent + "  "
            text += "[\n"
            for (index, element) in values.enumerated() {
                text += inner
                write(element, indent: inner, into: &text)
                text += index == values.count - 1 ? "\n" : ",\n"
            }
            text += indent + "]"
        case .object(let members):
            guard !members.isEmpty else { text += "{}"; return }
            let inner = indent + "  "
            text += "{\n"
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (index, key) in keys.enumerated() {
                text += inner
                writeString(key, into: &text)
                text += " : "
                write(members[key]!, indent: inner, into: &text)
                text += index == keys.count - 1 ? "\n" : ",\n"
            }
            text += indent + "}"
        }
    }

    /// A JSON string as the encoder escapes it: quote, backslash and control characters.
    private static func writeString(_ string: String, into text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{08}": text += "\\b"
            case "\u{0C}": text += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    static func render<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("null".utf8)
        return escapingReorderingCharacters(compactingEmpty(String(decoding: data, as: UTF8.self))) + "\n"
    }

    /// The encoder escapes control characters but leaves bidirectional controls (U+202E turns
    /// `RED\u{202E}gnp.exe` into what reads as `REDexe.png`) and the line and paragraph
    /// separators raw: each is written as `\uXXXX`, the same JSON value for every parser, so a
    /// claim cannot reorder or break what the terminal shows (issue 47). Outside strings JSON
    /// has none of them, so the whole text can be rewritten.
    static func escapingReorderingCharacters(_ text: String) -> String {
        func escaped(_ scalar: Unicode.Scalar) -> Bool { TextChecks.isBidiControl(scalar) || scalar == "\u{2028}" || scalar == "\u{2029}" }
        guard text.unicodeScalars.contains(where: escaped) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard escaped(scalar) else {
                result.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16)
            result.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
        }
        return String(result)
    }

    /// The encoder prints an empty array or object over three lines; scripts and people expect
    /// `[]` and `{}`. (A newline inside JSON is always layout: strings escape theirs.)
    static func compactingEmpty(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(where: { $0 == "[" || $0 == "{" }) {
            result += rest[...open]
            let after = rest[rest.index(after: open)...]
            let blank = after.prefix { $0 == "\n" || $0 == " " }
            let close: Character = rest[open] == "[" ? "]" : "}"
            if blank.contains("\n"), after.dropFirst(blank.count).first == close {
                result.append(close)
                rest = after.dropFirst(blank.count + 1)
            } else {
                rest = after
            }
        }
        return result + rest
    }
}
