import FBAuthAdmin
import Foundation

/// The 13 password-hash algorithms the Admin API imports (firebase-admin's `HashAlgorithmType`).
public enum HashAlgorithmType: String, Sendable, CaseIterable {
    /// Firebase's own modified scrypt (what `firebase auth:export` holds): key, salt separator, rounds, memory cost.
    case scrypt = "SCRYPT"
    /// Standard scrypt: CPU/memory cost, parallelization, block size, key length.
    case standardScrypt = "STANDARD_SCRYPT"
    /// HMAC-SHA512 with a key.
    case hmacSHA512 = "HMAC_SHA512"
    /// HMAC-SHA256 with a key.
    case hmacSHA256 = "HMAC_SHA256"
    /// HMAC-SHA1 with a key.
    case hmacSHA1 = "HMAC_SHA1"
    /// HMAC-MD5 with a key.
    case hmacMD5 = "HMAC_MD5"
    /// MD5, 0 to 8192 rounds.
    case md5 = "MD5"
    /// PBKDF with SHA-1, 0 to 120,000 rounds.
    case pbkdfSHA1 = "PBKDF_SHA1"
    /// bcrypt (its parameters are in the hash).
    case bcrypt = "BCRYPT"
    /// PBKDF2 with SHA-256, 0 to 120,000 rounds.
    case pbkdf2SHA256 = "PBKDF2_SHA256"
    /// SHA-512, 1 to 8192 rounds.
    case sha512 = "SHA512"
    /// SHA-256, 1 to 8192 rounds.
    case sha256 = "SHA256"
    /// SHA-1, 1 to 8192 rounds.
    case sha1 = "SHA1"
}

/// How the imported password hashes were made (firebase-admin's `UserImportOptions`): needed
/// when any user has a `passwordHash`, and checked as the Admin SDK checks it.
public struct UserImportOptions: Sendable {
    /// The algorithm and its parameters (firebase-admin's `hash`).
    public struct Hash: Sendable {
        /// The algorithm the hashes were made with.
        public var algorithm: HashAlgorithmType
        /// The signing key: required by `SCRYPT` and the four `HMAC_` algorithms.
        public var key: Data?
        /// Appended to the salt by `SCRYPT` (Firebase's modified scrypt); empty when nil.
        public var saltSeparator: Data?
        /// Rounds: 1–8 for `SCRYPT`, 0–8192 for `MD5`, 1–8192 for the `SHA`s, 0–120,000 for the PBKDFs.
        public var rounds: Int?
        /// `SCRYPT`'s memory cost (1–14), or `STANDARD_SCRYPT`'s CPU/memory cost.
        public var memoryCost: Int?
        /// `STANDARD_SCRYPT`'s parallelization.
        public var parallelization: Int?
        /// `STANDARD_SCRYPT`'s block size (normally 8).
        public var blockSize: Int?
        /// `STANDARD_SCRYPT`'s derived key length.
        public var derivedKeyLength: Int?

        /// The algorithm with the parameters given.
        public init(algorithm: HashAlgorithmType, key: Data? = nil, saltSeparator: Data? = nil, rounds: Int? = nil, memoryCost: Int? = nil,
                    parallelization: Int? = nil, blockSize: Int? = nil, derivedKeyLength: Int? = nil) {
            (self.algorithm, self.key, self.saltSeparator, self.rounds) = (algorithm, key, saltSeparator, rounds)
            (self.memoryCost, self.parallelization, self.blockSize, self.derivedKeyLength) = (memoryCost, parallelization, blockSize, derivedKeyLength)
        }
    }

    /// The password hashing information.
    public var hash: Hash

    /// Options for hashes made with `hash`.
    public init(hash: Hash) { self.hash = hash }

    var engine: AdminHashOptions {
        var options = AdminHashOptions(algorithm: hash.algorithm.rawValue)
        (options.key, options.saltSeparator) = (hash.key.map { [UInt8]($0) }, hash.saltSeparator.map { [UInt8]($0) })
        (options.rounds, options.memoryCost, options.parallelization) = (hash.rounds, hash.memoryCost, hash.parallelization)
        (options.blockSize, options.derivedKeyLength) = (hash.blockSize, hash.derivedKeyLength)
        return options
    }
}

/// The times to give an imported user (firebase-admin's `UserMetadataRequest`).
public struct UserMetadataRequest: Sendable {
    /// When the user last signed in.
    public var lastSignInTime: Date?
    /// When the user was created.
    public var creationTime: Date?

    /// The times given; nil: now.
    public init(lastSignInTime: Date? = nil, creationTime: Date? = nil) {
        (self.lastSignInTime, self.creationTime) = (lastSignInTime, creationTime)
    }
}

/// A provider account of an imported user (firebase-admin's `UserProviderRequest`).
public struct UserProviderRequest: Sendable {
    /// The user's id at the provider.
    public var uid: String
    /// The provider (`google.com`).
    public var providerId: String
    /// The name the provider has for the user.
    public var displayName: String?
    /// The address the provider has for the user.
    public var email: String?
    /// The phone number the provider has for the user (not sent: the Admin API takes none here).
    public var phoneNumber: String?
    /// The picture the provider has for the user.
    public var photoURL: String?

    /// The account `uid` at `providerId`.
    public init(uid: String, providerId: String, displayName: String? = nil, email: String? = nil, phoneNumber: String? = nil, photoURL: String? = nil) {
        (self.uid, self.providerId, self.displayName, self.email, self.phoneNumber, self.photoURL) = (uid, providerId, displayName, email, phoneNumber, photoURL)
    }
}

/// A phone second factor to set on a user (firebase-admin's `UpdatePhoneMultiFactorInfoRequest`).
public struct UpdatePhoneMultiFactorInfoRequest: Sendable {
    /// The factor's id; nil: Firebase makes one.
    public var uid: String?
    /// The factor's name.
    public var displayName: String?
    /// When it was enrolled.
    public var enrollmentTime: Date?
    /// Always `phone`.
    public var factorId: String
    /// The factor's phone number (E.164).
    public var phoneNumber: String

    /// A phone factor of `phoneNumber`.
    public init(uid: String? = nil, displayName: String? = nil, enrollmentTime: Date? = nil, factorId: String = "phone", phoneNumber: String) {
        (self.uid, self.displayName, self.enrollmentTime, self.factorId, self.phoneNumber) = (uid, displayName, enrollmentTime, factorId, phoneNumber)
    }

    var engine: AdminImportUser.SecondFactor {
        var engine = AdminImportUser.SecondFactor(phoneNumber: phoneNumber)
        (engine.uid, engine.displayName, engine.enrollmentTime, engine.factorId) = (uid, displayName, enrollmentTime, factorId)
        return engine
    }
}

/// The second factors of a user to import or update (firebase-admin's `MultiFactorUpdateSettings`).
public struct MultiFactorUpdateSettings: Sendable {
    /// The factors the user is to have; nil or empty: none.
    public var enrolledFactors: [UpdatePhoneMultiFactorInfoRequest]?

    /// The factors given.
    public init(enrolledFactors: [UpdatePhoneMultiFactorInfoRequest]?) { self.enrolledFactors = enrolledFactors }
}

/// A user to import (firebase-admin's `UserImportRecord`).
public struct UserImportRecord: @unchecked Sendable {
    /// The user's id: 1 to 128 characters.
    public var uid: String
    /// The user's primary email address.
    public var email: String?
    /// Whether that address is verified.
    public var emailVerified: Bool?
    /// The user's name.
    public var displayName: String?
    /// The user's phone number (E.164).
    public var phoneNumber: String?
    /// The address of the user's picture.
    public var photoURL: String?
    /// Whether the user is disabled.
    public var disabled: Bool?
    /// When the user was created and last signed in.
    public var metadata: UserMetadataRequest?
    /// The user's provider accounts.
    public var providerData: [UserProviderRequest]?
    /// The user's custom claims (a JSON object; at most 1,000 characters, none reserved).
    /// `@unchecked Sendable`: the claims are JSON values, copied to the engine's before use.
    public var customClaims: [String: Any]?
    /// The password's hash, made as the import's `UserImportOptions` say.
    public var passwordHash: Data?
    /// The password's salt.
    public var passwordSalt: Data?
    /// The tenant to import the user to; nil: the project (or the `TenantAwareAuth`'s tenant).
    public var tenantId: String?
    /// The user's second factors.
    public var multiFactor: MultiFactorUpdateSettings?

    /// A user of `uid` with the properties given.
    public init(uid: String, email: String? = nil, emailVerified: Bool? = nil, displayName: String? = nil, phoneNumber: String? = nil,
                photoURL: String? = nil, disabled: Bool? = nil, metadata: UserMetadataRequest? = nil, providerData: [UserProviderRequest]? = nil,
                customClaims: [String: Any]? = nil, passwordHash: Data? = nil, passwordSalt: Data? = nil, tenantId: String? = nil,
                multiFactor: MultiFactorUpdateSettings? = nil) {
        (self.uid, self.email, self.emailVerified, self.displayName, self.phoneNumber) = (uid, email, emailVerified, displayName, phoneNumber)
        (self.photoURL, self.disabled, self.metadata, self.providerData) = (photoURL, disabled, metadata, providerData)
        (self.customClaims, self.passwordHash, self.passwordSalt, self.tenantId, self.multiFactor) = (customClaims, passwordHash, passwordSalt, tenantId, multiFactor)
    }

    func engine() throws -> AdminImportUser {
        var user = AdminImportUser(uid: uid)
        (user.email, user.emailVerified, user.displayName, user.phoneNumber) = (email, emailVerified, displayName, phoneNumber)
        (user.photoURL, user.disabled, user.tenantId) = (photoURL, disabled, tenantId)
        (user.creationTime, user.lastSignInTime) = (metadata?.creationTime, metadata?.lastSignInTime)
        user.providerData = (providerData ?? []).map { provider in
            var engine = AdminImportUser.Provider(uid: provider.uid, providerId: provider.providerId)
            (engine.displayName, engine.email, engine.photoURL) = (provider.displayName, provider.email, provider.photoURL)
            return engine
        }
        user.customClaims = try customClaims.map(AdminAuth.jsonClaims)
        (user.passwordHash, user.passwordSalt) = (passwordHash.map { [UInt8]($0) }, passwordSalt.map { [UInt8]($0) })
        user.secondFactors = (multiFactor?.enrolledFactors ?? []).map(\.engine)
        return user
    }
}

/// What `importUsers` came to (firebase-admin's `UserImportResult`).
public struct UserImportResult: Sendable {
    /// How many users could not be imported.
    public let failureCount: Int
    /// How many were imported.
    public let successCount: Int
    /// Each user that was not imported: its index in the list given, and why.
    public let errors: [(index: Int, error: AdminAuthError)]
}

extension AdminAuth {
    /// Imports up to 1,000 users at once; `options` say how their password hashes were made
    /// (required when any has one). A user refused, here or by Firebase, is counted in the
    /// result, not thrown; bad options or more than 1,000 users throw.
    public func importUsers(_ users: [UserImportRecord], options: UserImportOptions? = nil) async throws -> UserImportResult {
        let engine = try users.map { try $0.engine() }
        let (hash, tenant) = (options?.engine, scopedTenant)
        return try await adminCall { api in
            let outcome = try api.importUsers(engine, hash: hash, tenantId: tenant)
            return UserImportResult(failureCount: outcome.failures.count, successCount: outcome.successCount,
                                    errors: outcome.failures.map { ($0.index, AdminAuthError($0.error)) })
        }
    }
}
