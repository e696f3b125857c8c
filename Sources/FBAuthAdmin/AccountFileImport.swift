#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthHTTP
import FBAuthSupport
import FBAuthVerification

/// Reading the files of `firebase auth:export` back as users to import, checked as
/// `firebase auth:import` checks them (`validateUserJson`, `transArrayToUser`). A file that
/// fails is refused whole, naming the user by position and uid only: the user's fields may
/// hold a password hash, which is not to reach a terminal or a log.
extension AccountFile {
    /// The names a user may have in a JSON file (`ALLOWED_JSON_KEYS`), and its providers' names.
    static let userKeys: Set<String> = ["localId", "email", "emailVerified", "passwordHash", "salt", "displayName", "photoUrl", "createdAt",
                                        "lastSignedInAt", "providerUserInfo", "phoneNumber", "disabled", "customAttributes", "mfaInfo"]
    static let providerKeys: Set<String> = ["providerId", "rawId", "email", "displayName", "photoUrl"]

    package static func users(from data: Data, format: Format) throws(TokenRefusal) -> [AdminImportUser] {
        switch format {
        case .json: try usersFromJSON(data)
        case .csv: try usersFromCSV(data)
        }
    }

    static func refusal(_ message: String) -> TokenRefusal { AdminErrors.client("INVALID_USER_IMPORT", message: message) }

    // MARK: - JSON

    static func usersFromJSON(_ data: Data) throws(TokenRefusal) -> [AdminImportUser] {
        guard case .object(let file)? = JSONValue.decoded(data) else { throw refusal("the file is not a JSON object") }
        guard case .array(let entries)? = file["users"] else { throw refusal("the file has no \"users\" list, as firebase auth:export writes") }
        var users: [AdminImportUser] = []
        users.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            let place = "user \(index + 1)" + (entry["localId"]?.stringValue.map { " (uid \(TerminalText.safe(String($0.prefix(128)))))" } ?? "")
            guard case .object(let fields) = entry else { throw refusal("\(place) is not a JSON object") }
            do throws(TokenRefusal) {
                users.append(try user(fields))
            } catch {
                throw refusal("\(place): \(error.message)")
            }
        }
        return users
    }

    private static func user(_ fields: [String: JSONValue]) throws(TokenRefusal) -> AdminImportUser {
        let unknown = fields.keys.filter { !userKeys.contains($0) }.sorted()
        guard unknown.isEmpty else { throw refusal("has unsupported keys: \(unknown.map { TerminalText.safe(String($0.prefix(40))) }.joined(separator: ","))") }
        func text(_ name: String) throws(TokenRefusal) -> String? {
            switch fields[name] {
            case nil, .null?: return nil
            case .string(let value)?: return value
            default: throw refusal("\(name) is not a string")
            }
        }
        func flag(_ name: String) throws(TokenRefusal) -> Bool? {
            switch fields[name] {
            case nil, .null?: return nil
            case .bool(let value)?: return value
            case .string("true")?: return true
            case .string("false")?: return false
            default: throw refusal("\(name) is not true or false")
            }
        }
        guard let uid = try text("localId"), !uid.isEmpty else { throw refusal("has no localId") }
        var user = AdminImportUser(uid: uid)
        user.email = try text("email")
        user.emailVerified = try flag("emailVerified")
        user.displayName = try text("displayName")
        user.photoURL = try text("photoUrl")
        user.phoneNumber = try text("phoneNumber")
        user.disabled = try flag("disabled")
        user.passwordHash = try text("passwordHash").map { (hash: String) throws(TokenRefusal) -> [UInt8] in try bytes(hash, "Password hash") }
        user.passwordSalt = try text("salt").map { (salt: String) throws(TokenRefusal) -> [UInt8] in try bytes(salt, "Password salt") }
        user.creationTime = try time(fields["createdAt"], "createdAt")
        user.lastSignInTime = try time(fields["lastSignedInAt"], "lastSignedInAt")
        user.customClaims = try claims(try text("customAttributes"))
        if case .array(let providers)? = fields["providerUserInfo"] {
            for provider in providers { if let linked = try self.provider(provider) { user.providerData.append(linked) } }
        } else if fields["providerUserInfo"] != nil, fields["providerUserInfo"] != .null {
            throw refusal("providerUserInfo is not a list")
        }
        if case .array(let factors)? = fields["mfaInfo"] {
            for factor in factors { user.secondFactors.append(try secondFactor(factor)) }
        }
        return user
    }

    private static func provider(_ entry: JSONValue) throws(TokenRefusal) -> AdminImportUser.Provider? {
        guard case .object(let fields) = entry else { throw refusal("a providerUserInfo entry is not a JSON object") }
        let providerId = fields["providerId"]?.stringValue ?? ""
        guard providerColumns.contains(where: { $0.providerId == providerId }) else {
            throw refusal("a providerUserInfo entry has unsupported providerId \"\(TerminalText.safe(String(providerId.prefix(60))))\"")
        }
        let unknown = fields.keys.filter { !providerKeys.contains($0) }.sorted()
        guard unknown.isEmpty else { throw refusal("a providerUserInfo entry has unsupported keys: \(unknown.map { TerminalText.safe(String($0.prefix(40))) }.joined(separator: ","))") }
        var provider = AdminImportUser.Provider(uid: fields["rawId"]?.stringValue ?? "", providerId: providerId)
        provider.email = fields["email"]?.stringValue
        provider.displayName = fields["displayName"]?.stringValue
        provider.photoURL = fields["photoUrl"]?.stringValue
        return provider
    }

    private static func secondFactor(_ entry: JSONValue) throws(TokenRefusal) -> AdminImportUser.SecondFactor {
        guard let phone = entry["phoneInfo"]?.stringValue else { throw refusal("an mfaInfo entry has no phoneInfo: only phone second factors are imported") }
        var factor = AdminImportUser.SecondFactor(phoneNumber: phone)
        factor.uid = entry["mfaEnrollmentId"]?.stringValue
        factor.displayName = entry["displayName"]?.stringValue
        if let enrolled = entry["enrolledAt"]?.stringValue {
            guard let date = (try? Date(enrolled, strategy: .iso8601)) ?? (try? Date(enrolled, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))) else {
                throw refusal("an mfaInfo entry's enrolledAt is not an ISO 8601 time")
            }
            factor.enrollmentTime = date
        }
        return factor
    }

    // MARK: - CSV

    static func usersFromCSV(_ data: Data) throws(TokenRefusal) -> [AdminImportUser] {
        var users: [AdminImportUser] = []
        for (index, record) in try CSVRecords.parse(data).enumerated() {
            // As firebase-tools: trimmed, one pair of surrounding quotes taken off, empty is absent.
            let fields: [String?] = record.map { raw in
                var text = raw.trimmed()
                if text.count >= 2, let first = text.first, let last = text.last, "\"|'".contains(first), "\"|'".contains(last) {
                    text = String(text.dropFirst().dropLast())
                }
                return text.isEmpty ? nil : text
            }
            func field(_ column: Int) -> String? { column < fields.count ? fields[column] : nil }
            let place = "line \(index + 1)" + (field(0).map { " (uid \(TerminalText.safe(String($0.prefix(128)))))" } ?? "")
            do throws(TokenRefusal) {
                guard let uid = field(0) else { throw refusal("has no uid in its first field") }
                var user = AdminImportUser(uid: uid)
                user.email = field(1)
                user.emailVerified = field(2) == "true"
                user.passwordHash = try field(3).map { (hash: String) throws(TokenRefusal) -> [UInt8] in try bytes(hash, "Password hash") }
                user.passwordSalt = try field(4).map { (salt: String) throws(TokenRefusal) -> [UInt8] in try bytes(salt, "Password salt") }
                user.displayName = field(5)
                user.photoURL = field(6)
                user.creationTime = try time(field(23).map(JSONValue.string), "createdAt")
                user.lastSignInTime = try time(field(24).map(JSONValue.string), "lastSignedInAt")
                user.phoneNumber = field(25)
                user.disabled = field(26).map { $0 == "true" }
                user.customClaims = try claims(field(27))
                for (providerId, column) in providerColumns {
                    guard let rawId = field(column) else { continue }
                    var provider = AdminImportUser.Provider(uid: rawId, providerId: providerId)
                    (provider.email, provider.displayName, provider.photoURL) = (field(column + 1), field(column + 2), field(column + 3))
                    user.providerData.append(provider)
                }
                users.append(user)
            } catch {
                throw refusal("\(place): \(error.message)")
            }
        }
        return users
    }

    // MARK: - Values

    /// Base64 in either alphabet, padded or not (`isValidBase64`).
    package static func bytes(_ text: String, _ what: String) throws(TokenRefusal) -> [UInt8] {
        var standard = text.replacing("-", with: "+").replacing("_", with: "/")
        if standard.count % 4 != 0 { standard += String(repeating: "=", count: 4 - standard.count % 4) }
        guard let data = Data(base64Encoded: standard) else { throw refusal("\(what) should be base64 encoded.") }
        return [UInt8](data)
    }

    /// Milliseconds since 1970, as a number or its digits.
    static func time(_ value: JSONValue?, _ name: String) throws(TokenRefusal) -> Date? {
        let milliseconds: Int64?
        switch value {
        case nil, .null?: return nil
        case .integer(let number)?: milliseconds = number
        case .string(let digits)?: milliseconds = Int64(digits)
        default: milliseconds = nil
        }
        guard let milliseconds, milliseconds >= 0 else { throw refusal("\(name) is not a time in milliseconds") }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    static func claims(_ text: String?) throws(TokenRefusal) -> [String: JSONValue]? {
        guard let text else { return nil }
        guard case .object(let claims)? = JSONValue.decoded(Data(text.utf8)) else { throw refusal("customAttributes is not a JSON object") }
        return claims
    }
}

/// Records of comma-separated values as csv-parse reads them with its defaults: fields in
/// double quotes may hold commas, line breaks and doubled quotes; a record ends at a line
/// break outside quotes; blank lines are skipped.
enum CSVRecords {
    static func parse(_ data: Data) throws(TokenRefusal) -> [[String]] {
        var records: [[String]] = [], record: [String] = [], field: [UInt8] = []
        var quoted = false, wasQuoted = false
        let bytes = [UInt8](data)
        var index = 0
        func endField() {
            record.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            wasQuoted = false
        }
        func endRecord() {
            endField()
            if !(record.count == 1 && record[0].isEmpty) { records.append(record) }
            record.removeAll(keepingCapacity: true)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(byte)
                }
            } else {
                switch byte {
                case UInt8(ascii: "\"") where field.isEmpty && !wasQuoted: quoted = true; wasQuoted = true
                case UInt8(ascii: ","): endField()
                case UInt8(ascii: "\n"): endRecord()
                case UInt8(ascii: "\r") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n"): break
                default: field.append(byte)
                }
            }
            index += 1
        }
        guard !quoted else { throw AccountFile.refusal("the file ends inside a quoted field") }
        if !field.isEmpty || !record.isEmpty { endRecord() }
        return records
    }
}
