#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthHTTP

/// Identity Platform's blocking functions, called as Google's emulator calls them (firebase-tools
/// `operations.ts`, `fetchBlockingFunction`): a POST of `{"data":{"jwt":…}}` to the trigger's
/// `functionUri`, the JWT unsigned (`alg: none`, which firebase-functions takes from an emulator)
/// with `iss`, `aud`, `event_type` and the user's record. An answer's `userRecord` (with its
/// `updateMask`) changes the user; `sessionClaims` go into that sign-in's tokens. Besides Google's
/// `beforeCreate` and `beforeSignIn`, `beforeSendEmail` and `beforeSendSms` run before a mail or
/// a text is "sent", as production's do, and may refuse it.
///
/// Only the URLs the operator configured are called (`--blocking-function`, the Admin API's
/// `blockingFunctions.triggers`); a redirect is not followed; an answer must come within
/// production's deadline (7 seconds) and be at most 1 MiB. The call is made without the
/// emulator's lock, so a slow function stalls no other client.
enum BlockingEvent: String, CaseIterable, Sendable {
    case beforeCreate, beforeSignIn, beforeSendEmail, beforeSendSms
}

extension Backend {
    /// Production's deadline: "a blocking function must respond within 7 seconds".
    static let blockingFunctionDeadline: TimeInterval = 7

    func blockingFunctionURI(_ event: BlockingEvent) -> URL? {
        blockingFunctions.triggers[event].flatMap { URL(string: $0.functionUri) }
    }

    /// Whether any trigger is configured: requests are then answered off the serving thread.
    var hasBlockingFunctions: Bool { BlockingEvent.allCases.contains { blockingFunctionURI($0) != nil } }

    /// A sign-in's functions, as Google's emulator runs them: beforeCreate for a new user (who is
    /// not kept when it is refused), then beforeSignIn unless the user is disabled; what they
    /// change is saved, and a user they disable is refused. Returns the session claims.
    ///
    /// The lock is let go during each call, so the state is read again after it: a new user
    /// whose address, number or provider identity another client took meanwhile is refused as
    /// that client's would have been, and a user deleted or disabled meanwhile does not come back.
    func runSignInFunctions(_ account: inout Account, isNewUser: Bool, signInMethod: String,
                            details: [String: Any] = [:]) throws(APIError) -> [String: Any] {
        guard hasBlockingFunctions else { return [:] }
        if isNewUser {
            do throws(APIError) {
                let created = try callBlockingFunction(.beforeCreate, for: account, signInMethod: signInMethod, details: details)
                if let taken = takenByAnotherAccount(account) { throw .badRequest(taken) }
                created.apply(to: &account)
            } catch {
                accounts[account.key] = nil
                throw error
            }
            accounts[account.key] = account
        }
        guard !account.disabled else { throw .badRequest("USER_DISABLED") }
        let signedIn = try callBlockingFunction(.beforeSignIn, for: account, signInMethod: signInMethod, details: details)
        guard let stored = accounts[account.key] else { throw .badRequest("USER_NOT_FOUND") }
        if stored.disabled { account.disabled = true }
        signedIn.apply(to: &account)
        accounts[account.key] = account
        guard !account.disabled else { throw .badRequest("USER_DISABLED") }
        return signedIn.sessionClaims
    }

    /// The record a send function is given for an address or number no user has yet: the
    /// caller adds that address or number.
    func noUserYet(tenantId: String?) -> Account {
        Account(localId: "", tenantId: tenantId, createdAt: now(), lastLoginAt: now(), validSince: now())
    }

    /// The error another client's sign-up would get, if another user now has `account`'s email,
    /// phone number or a provider identity of it.
    private func takenByAnotherAccount(_ account: Account) -> String? {
        let isOther = { (owner: Account?) in owner.map { $0.localId != account.localId } ?? false }
        if let email = account.email, isOther(self.account(withEmail: email, tenantId: account.tenantId)) { return "EMAIL_EXISTS" }
        if let number = account.phoneNumber, isOther(self.account(withPhoneNumber: number, tenantId: account.tenantId)) { return "PHONE_NUMBER_EXISTS" }
        for link in account.links where link.providerId != "phone"
            && isOther(self.account(linkedTo: link.providerId, rawId: link.rawId, tenantId: account.tenantId)) {
            return "FEDERATED_USER_ID_ALREADY_LINKED"
        }
        return nil
    }

    /// Calls `event`'s function, if one is configured, for `account` (as it is, or is about to
    /// be), and returns the user changes and session claims (beforeSignIn only) it answers. A
    /// refusal, a failure or a late answer is thrown, as production answers the client.
    @discardableResult
    func callBlockingFunction(_ event: BlockingEvent, for account: Account, signInMethod: String?,
                              details: [String: Any] = [:]) throws(APIError) -> BlockingAnswer {
        guard let url = blockingFunctionURI(event) else { return BlockingAnswer() }
        let body = JSONText.data(["data": ["jwt": UnsignedJWT.none(blockingClaims(event, account, url: url, signInMethod: signInMethod, details: details))]])
        let transport = configuration.blockingFunctionTransport ?? CurlTransport()
        let request = HTTPClientRequest(method: "POST", url: url, headers: ["Content-Type": "application/json"], body: body,
                                        timeout: Self.blockingFunctionDeadline)
        var result: Result<HTTPClientResponse, TransportError> = .failure(TransportError(.other, "not sent"))
        outsideLock {
            do throws(TransportError) { result = .success(try transport.send(request)) } catch { result = .failure(error) }
        }
        let address = url.absoluteString
        let response: HTTPClientResponse
        switch result {
        case .success(let answer): response = answer
        case .failure(let error) where error.kind == .timedOut:
            throw .internalError("BLOCKING_FUNCTION_ERROR_RESPONSE : ((Deadline exceeded making request to \(address).))")
        case .failure(let error) where error.kind == .tooLarge:
            throw .internalError("BLOCKING_FUNCTION_ERROR_RESPONSE : ((The answer of \(address) is larger than 1 MiB.))")
        case .failure:
            throw .internalError("BLOCKING_FUNCTION_ERROR_RESPONSE : ((Failed to make request to \(address).))")
        }
        // A refusal, in production's words: the function's own error, for the client. (Google's
        // emulator says "((HTTP request to URL returned HTTP error STATUS: TEXT))" instead.)
        guard (200..<300).contains(response.status) else {
            let text = String(decoding: response.body.prefix(4096), as: UTF8.self)
            throw .badRequest("BLOCKING_FUNCTION_ERROR_RESPONSE : HTTP Cloud Function returned an error: \(text)")
        }
        guard let answer = JSONText.parse(response.body) as? [String: Any] else {
            throw .internalError("BLOCKING_FUNCTION_ERROR_RESPONSE : ((Response body is not valid JSON.))")
        }
        return try BlockingAnswer(answer, event: event)
    }

    /// The JWT's claims, as firebase-tools' `generateBlockingFunctionJwt` makes them.
    private func blockingClaims(_ event: BlockingEvent, _ account: Account, url: URL, signInMethod: String?, details: [String: Any]) -> [String: Any] {
        let issuedAt = Int(now().timeIntervalSince1970)
        // A password is a provider of its own here, as in Google's emulator's providerUserInfo.
        let passwordProvider = account.hasPassword ? account.email.map { [ProviderLink(providerId: "password", rawId: $0, federatedId: $0,
                                                                                       email: $0, displayName: account.displayName, photoUrl: account.photoUrl)] } ?? [] : []
        var record: [String: Any] = [
            "uid": account.localId, "email_verified": account.emailVerified,
            "custom_claims": account.customClaims,
            "provider_data": (passwordProvider + account.links).map { link -> [String: Any] in
                var provider: [String: Any] = ["provider_id": link.providerId, "uid": link.rawId]
                provider["display_name"] = link.displayName
                provider["photo_url"] = link.photoUrl
                provider["email"] = link.email
                provider["phone_number"] = link.phoneNumber
                return provider
            },
            "metadata": ["last_sign_in_time": Int64(account.lastLoginAt.timeIntervalSince1970 * 1000), "creation_time": Int64(account.createdAt.timeIntervalSince1970 * 1000)],
        ]
        // Sent only when true, as Google's emulator sends it.
        if account.disabled { record["disabled"] = true }
        record["email"] = account.email
        record["display_name"] = account.displayName
        record["photo_url"] = account.photoUrl
        record["phone_number"] = account.phoneNumber
        record["tenant_id"] = account.tenantId
        var claims: [String: Any] = [
            "iss": "https://securetoken.google.com/\(configuration.projectId)", "aud": url.absoluteString,
            "iat": issuedAt, "exp": issuedAt + Int(Self.blockingFunctionDeadline) * 10,
            "event_id": RandomToken.make(bytes: 16), "event_type": event.rawValue,
            "user_agent": "fbauth-emulator", "ip_address": "127.0.0.1", "locale": "en",
            "user_record": record, "sub": account.localId,
        ]
        claims["tenant_id"] = account.tenantId
        claims["sign_in_method"] = signInMethod
        for (name, value) in details { claims[name] = value }
        return claims
    }
}

/// What a blocking function answered: the changes to the user its `userRecord.updateMask`
/// names, and (beforeSignIn only) the session claims for this sign-in's tokens. Every value is
/// checked as the Admin API checks it: the function is another program.
struct BlockingAnswer {
    var displayName: String??
    var photoUrl: String??
    var disabled: Bool?
    var emailVerified: Bool?
    var customClaims: [String: Any]?
    var sessionClaims: [String: Any] = [:]

    init() {}

    init(_ answer: [String: Any], event: BlockingEvent) throws(APIError) {
        guard event == .beforeCreate || event == .beforeSignIn, let record = answer["userRecord"] as? [String: Any] else { return }
        guard let mask = record["updateMask"] as? String else {
            throw .badRequest("BLOCKING_FUNCTION_ERROR_RESPONSE : ((Response UserRecord is missing updateMask.))")
        }
        for field in mask.split(separator: ",").map({ String($0).trimmed() }) {
            switch field {
            // firebase-functions (Python and Node) sends photoURL; Google's emulator takes only photoUrl.
            case "displayName": displayName = .some(Self.text(record[field], limit: 256))
            case "photoUrl", "photoURL": photoUrl = .some(Self.text(record[field], limit: 2048))
            case "disabled": disabled = Self.truthy(record[field])
            case "emailVerified": emailVerified = Self.truthy(record[field])
            case "customClaims":
                let claims = record[field] as? [String: Any] ?? [:]
                customClaims = try Backend.customClaims(String(decoding: JSONText.data(claims), as: UTF8.self))
            case "sessionClaims" where event == .beforeSignIn:
                guard let claims = record[field] as? [String: Any] else {
                    throw .badRequest("BLOCKING_FUNCTION_ERROR_RESPONSE : ((Response has malformed session claims.))")
                }
                sessionClaims = try Backend.customClaims(String(decoding: JSONText.data(claims), as: UTF8.self))
            default: break
            }
        }
    }

    func apply(to account: inout Account) {
        if let displayName { account.displayName = displayName }
        if let photoUrl { account.photoUrl = photoUrl }
        if let disabled { account.disabled = disabled }
        if let emailVerified { account.emailVerified = emailVerified }
        if let customClaims { account.customClaims = customClaims }
    }

    /// JavaScript's `!!value`, as Google's emulator reads these flags.
    private static func truthy(_ value: Any?) -> Bool {
        switch value {
        case let flag as Bool: flag
        case let number as Int: number != 0
        case let number as Double: number != 0 && !number.isNaN
        case let text as String: !text.isEmpty
        case nil, is JSONNull: false
        default: true
        }
    }

    /// A text field's value, bounded; absent or null clears it.
    private static func text(_ value: Any?, limit: Int) -> String? {
        switch value {
        case let text as String: String(text.prefix(limit))
        case let number as Int: String(number)
        case let number as Double: String(number)
        case let flag as Bool: String(flag)
        default: nil
        }
    }
}
