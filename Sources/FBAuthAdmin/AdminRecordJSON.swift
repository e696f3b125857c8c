#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthHTTP

/// Users as firebase-admin-node's `toJSON()` methods write them (`UserRecord`, `UserInfo`,
/// `UserMetadata`, `MultiFactorInfo`, `MultiFactorSettings`), times as UTC date strings: what
/// `fbauth users` prints and what FirebaseAdminAuth's `toJSON()` give.
package enum AdminRecordJSON {
    package static func user(_ user: AdminUserRecord) -> JSONValue {
        func string(_ value: String?) -> JSONValue? { value.map(JSONValue.string) }
        var fields: [String: JSONValue] = ["uid": .string(user.uid), "emailVerified": .bool(user.emailVerified), "disabled": .bool(user.disabled)]
        fields["email"] = string(user.email)
        fields["displayName"] = string(user.displayName)
        fields["photoURL"] = string(user.photoURL)
        fields["phoneNumber"] = string(user.phoneNumber)
        fields["passwordHash"] = string(user.passwordHash)
        fields["passwordSalt"] = string(user.passwordSalt)
        fields["tenantId"] = string(user.tenantId)
        fields["customClaims"] = user.customClaims.map(JSONValue.object)
        fields["tokensValidAfterTime"] = user.tokensValidAfterTime.map { .string(utc($0)) }
        fields["metadata"] = metadata(creationTime: user.creationTime, lastSignInTime: user.lastSignInTime, lastRefreshTime: user.lastRefreshTime)
        fields["providerData"] = .array(user.providerData.map { provider($0) })
        if !user.secondFactors.isEmpty { fields["multiFactor"] = factors(user.secondFactors) }
        return .object(fields)
    }

    package static func provider(_ provider: AdminUserRecord.Provider) -> JSONValue {
        var info: [String: JSONValue] = ["uid": .string(provider.uid), "providerId": .string(provider.providerId)]
        info["displayName"] = provider.displayName.map(JSONValue.string)
        info["email"] = provider.email.map(JSONValue.string)
        info["photoURL"] = provider.photoURL.map(JSONValue.string)
        info["phoneNumber"] = provider.phoneNumber.map(JSONValue.string)
        return .object(info)
    }

    package static func metadata(creationTime: Date?, lastSignInTime: Date?, lastRefreshTime: Date?) -> JSONValue {
        var metadata: [String: JSONValue] = [:]
        metadata["creationTime"] = creationTime.map { .string(utc($0)) }
        metadata["lastSignInTime"] = lastSignInTime.map { .string(utc($0)) }
        metadata["lastRefreshTime"] = lastRefreshTime.map { .string(utc($0)) }
        return .object(metadata)
    }

    package static func factor(_ factor: AdminUserRecord.SecondFactor) -> JSONValue {
        var info: [String: JSONValue] = ["uid": .string(factor.uid), "factorId": .string(factor.factorId)]
        info["displayName"] = factor.displayName.map(JSONValue.string)
        info["phoneNumber"] = factor.phoneNumber.map(JSONValue.string)
        info["enrollmentTime"] = factor.enrollmentTime.map { .string(utc($0)) }
        return .object(info)
    }

    package static func factors(_ factors: [AdminUserRecord.SecondFactor]) -> JSONValue {
        .object(["enrolledFactors": .array(factors.map { factor($0) })])
    }

    /// JavaScript's `Date.toUTCString()`: `Tue, 01 Dec 2026 22:37:05 GMT`.
    package static func utc(_ date: Date) -> String {
        let days = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"], months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let dayNumber = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let civil = civilDate(days: dayNumber)
        let inDay = seconds - dayNumber * 86400
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(((dayNumber % 7) + 7) % 7)]), \(two(civil.day)) \(months[Int(civil.month) - 1]) \(civil.year) \(two(inDay / 3600)):\(two(inDay / 60 % 60)):\(two(inDay % 60)) GMT"
    }

    /// The proleptic Gregorian date of a day number since 1970 (Howard Hinnant's `civil_from_days`).
    package static func civilDate(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
