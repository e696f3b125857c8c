#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthHTTP
import FBAuthSupport
import FBAuthVerification

/// The files `firebase auth:export` writes and `firebase auth:import` reads (firebase-tools
/// `src/accountExporter.ts`, `src/accountImporter.ts`), so that a project's users move between
/// the two tools, and between projects, tenants and emulators.
package enum AccountFile {
    package enum Format: String, Sendable { case json, csv }

    /// The format a file's name says (`.json`, `.csv`, in any case), else `format`, as
    /// firebase-tools decides; nil when neither says.
    package static func format(of path: String, given format: String?) -> Format? {
        let lower = path.lowercased()
        if lower.hasSuffix(".csv") { return .csv }
        if lower.hasSuffix(".json") { return .json }
        return format.flatMap { Format(rawValue: $0.lowercased()) }
    }

    /// The provider accounts the files carry, and the CSV column each one's four start at.
    static let providerColumns: [(providerId: String, column: Int)] = [
        ("google.com", 7), ("facebook.com", 11), ("twitter.com", 15), ("github.com", 19), ("apple.com", 28), ("microsoft.com", 32),
        ("gc.apple.com", 36), ("playgames.google.com", 40), ("linkedin.com", 44), ("yahoo.com", 48),
    ]
    /// Every CSV line has this many fields (the last provider's four end it).
    static let csvColumns = 52

    /// A JSON file's beginning and end, between which `jsonEntry`s are joined by `jsonSeparator`.
    package static let jsonStart = "{\"users\": [\n", jsonSeparator = ",\n", jsonEnd = "\n]}\n"

    // MARK: - Export

    /// One user as `auth:export` writes it to JSON (`transUserJson`): the account's own names,
    /// times in milliseconds as strings, hashes in standard base64.
    package static func jsonEntry(_ user: AdminUserRecord) -> String {
        var fields: [String: JSONValue] = ["localId": .string(user.uid), "emailVerified": .bool(user.emailVerified), "disabled": .bool(user.disabled)]
        fields["email"] = user.email.map(JSONValue.string)
        fields["passwordHash"] = user.passwordHash.map { .string(standardBase64($0)) }
        fields["salt"] = user.passwordSalt.map { .string(standardBase64($0)) }
        fields["displayName"] = user.displayName.map(JSONValue.string)
        fields["photoUrl"] = user.photoURL.map(JSONValue.string)
        fields["lastSignedInAt"] = user.lastSignInTime.map { .string(milliseconds($0)) }
        fields["createdAt"] = user.creationTime.map { .string(milliseconds($0)) }
        fields["phoneNumber"] = user.phoneNumber.map(JSONValue.string)
        fields["customAttributes"] = user.customClaims.map { .string(claimsText($0)) }
        let providers = user.providerData.filter { provider in providerColumns.contains { $0.providerId == provider.providerId } }
        if !providers.isEmpty {
            fields["providerUserInfo"] = .array(providers.map { provider in
                var info: [String: JSONValue] = ["providerId": .string(provider.providerId), "rawId": .string(provider.uid)]
                info["email"] = provider.email.map(JSONValue.string)
                info["displayName"] = provider.displayName.map(JSONValue.string)
                info["photoUrl"] = provider.photoURL.map(JSONValue.string)
                return .object(info)
            })
        }
        if !user.secondFactors.isEmpty {
            fields["mfaInfo"] = .array(user.secondFactors.map { factor in
                var info: [String: JSONValue] = ["mfaEnrollmentId": .string(factor.uid)]
                info["displayName"] = factor.displayName.map(JSONValue.string)
                info["phoneInfo"] = factor.phoneNumber.map(JSONValue.string)
                info["enrolledAt"] = factor.enrollmentTime.map { .string($0.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))) }
                return .object(info)
            })
        }
        return String(decoding: JSONValue.object(fields).sortedData(escapingSlashes: false), as: UTF8.self)
    }

    /// One user as `auth:export` writes it to CSV (`transUserToArray`): 52 fields and a
    /// trailing comma. Every text field that needs it is quoted (firebase-tools quotes only
    /// some), so that any address or URL reads back whole.
    package static func csvLine(_ user: AdminUserRecord) -> String {
        var fields = [String](repeating: "", count: csvColumns)
        fields[0] = csvField(user.uid)
        fields[1] = csvField(user.email ?? "")
        fields[2] = user.emailVerified ? "true" : "false"
        fields[3] = csvField(user.passwordHash.map(standardBase64) ?? "")
        fields[4] = csvField(user.passwordSalt.map(standardBase64) ?? "")
        fields[5] = csvField(user.displayName ?? "")
        fields[6] = csvField(user.photoURL ?? "")
        for provider in user.providerData {
            guard let column = providerColumns.first(where: { $0.providerId == provider.providerId })?.column else { continue }
            fields[column] = csvField(provider.uid)
            fields[column + 1] = csvField(provider.email ?? "")
            fields[column + 2] = csvField(provider.displayName ?? "")
            fields[column + 3] = csvField(provider.photoURL ?? "")
        }
        fields[23] = user.creationTime.map(milliseconds) ?? ""
        fields[24] = user.lastSignInTime.map(milliseconds) ?? ""
        fields[25] = csvField(user.phoneNumber ?? "")
        fields[26] = user.disabled ? "true" : "false"
        // Claims are always quoted, as firebase-tools writes them.
        fields[27] = user.customClaims.map { "\"" + claimsText($0).replacing("\"", with: "\"\"") + "\"" } ?? ""
        return fields.joined(separator: ",") + ",\n"
    }

    /// Claims as compact JSON, keys sorted, so that the same claims always read the same.
    static func claimsText(_ claims: [String: JSONValue]) -> String {
        String(decoding: JSONValue.object(claims).sortedData(escapingSlashes: false), as: UTF8.self)
    }

    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }

    static func milliseconds(_ date: Date) -> String { String(Int64((date.timeIntervalSince1970 * 1000).rounded())) }

    /// The Admin API's web-safe base64 in the standard alphabet, as the files keep hashes.
    static func standardBase64(_ text: String) -> String { text.replacing("_", with: "/").replacing("-", with: "+") }
}
