#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A project's blocking functions as its configuration holds them (Identity Toolkit v2
/// `BlockingFunctionsConfig`, kept as firebase-tools' `state.ts` keeps it): each event's function
/// and when it was set, and which of a sign-in's credentials are to be forwarded to them (kept
/// and read back; not yet sent).
struct BlockingFunctionsConfig: Equatable {
    struct Trigger: Equatable {
        var functionUri: String
        var updateTime: String?
    }

    var triggers: [BlockingEvent: Trigger] = [:]
    var forwardInboundCredentials: [String: Bool] = [:]

    static let credentials: Set<String> = ["idToken", "accessToken", "refreshToken"]

    init() {}

    /// `--blocking-function EVENT=URL`.
    init(uris: [String: String]) {
        for (event, uri) in uris { if let event = BlockingEvent(rawValue: event) { triggers[event] = Trigger(functionUri: uri) } }
    }

    /// The configuration's `blockingFunctions` as a request gives it, checked as Google's
    /// emulator checks it (an event it knows, an absolute URI).
    init(json: Any?) throws(APIError) {
        let object = json as? [String: Any] ?? [:]
        for (name, value) in object["triggers"] as? [String: Any] ?? [:] {
            guard let event = BlockingEvent(rawValue: name) else { throw .badRequest("INVALID_BLOCKING_FUNCTION : ((Event type is invalid.))") }
            let trigger = value as? [String: Any]
            guard let uri = trigger?["functionUri"] as? String, let url = URLComponents(string: uri), url.scheme != nil, url.host != nil else {
                throw .badRequest("INVALID_BLOCKING_FUNCTION : ((Expected an absolute URI with valid scheme and host.))")
            }
            triggers[event] = Trigger(functionUri: uri, updateTime: trigger?["updateTime"] as? String)
        }
        for (name, value) in object["forwardInboundCredentials"] as? [String: Any] ?? [:] {
            if Self.credentials.contains(name), let flag = value as? Bool { forwardInboundCredentials[name] = flag }
        }
    }

    var isEmpty: Bool { triggers.isEmpty && forwardInboundCredentials.isEmpty }

    /// As the configuration reads it back.
    var json: [String: Any] {
        var json: [String: Any] = [:]
        if !triggers.isEmpty {
            json["triggers"] = Dictionary(uniqueKeysWithValues: triggers.map { event, trigger in
                (event.rawValue, ["functionUri": trigger.functionUri].merging(trigger.updateTime.map { ["updateTime": $0] } ?? [:]) { $1 })
            })
        }
        if !forwardInboundCredentials.isEmpty { json["forwardInboundCredentials"] = forwardInboundCredentials }
        return json
    }
}

/// A project's phone sign-in settings as its configuration holds them (`signIn.phoneNumber`):
/// whether it is on, and production's fixed test numbers and their codes.
struct PhoneSignInConfig: Equatable {
    var enabled: Bool?
    var testPhoneNumbers: [String: String] = [:]

    init() {}

    /// As a request gives it; the numbers are checked by `checkTestPhoneNumbers` first.
    init(json: [String: Any]) {
        enabled = json["enabled"] as? Bool
        testPhoneNumbers = (json["testPhoneNumbers"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
    }

    var isEmpty: Bool { enabled == nil && testPhoneNumbers.isEmpty }

    var json: [String: Any] {
        var json: [String: Any] = [:]
        if let enabled { json["enabled"] = enabled }
        if !testPhoneNumbers.isEmpty { json["testPhoneNumbers"] = testPhoneNumbers }
        return json
    }
}
