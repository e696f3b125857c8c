import LoopbackHTTP
import FBAuthSupport

/// A link Firebase mailed (password reset, verification, email change, email-link sign-in), as
/// the SDKs' `ActionCodeURL.parseLink` reads it (firebase-js-sdk
/// `packages/auth/src/core/action_code_url.ts`): the query's `apiKey`, `oobCode` and `mode`,
/// possibly inside a `link` or `deep_link_id` parameter (Dynamic Links, iOS custom schemes).
/// The code is a one-time secret: it is never printed.
internal struct EmailActionLink: Sendable, Equatable {
    internal var operation: ActionLinkOperation
    internal var code: String
    internal var apiKey: String
    internal var continueUrl: String?
    internal var tenantId: String?

    /// Reads a pasted link (quotes and angle brackets around it are ignored); nil with the
    /// reason when it is not an email action link.
    internal static func parse(_ text: String) -> Result<EmailActionLink, LinkProblem> {
        let link = unwrap(text.trimmed().trimmed(where: { "\"'<>".contains($0) }))
        guard link.contains("?") else { return .failure(.notALink) }
        return from(parameters(of: link))
    }

    /// From the query parameters (of a link, or of the request the link led to).
    internal static func from(_ parameters: [String: String]) -> Result<EmailActionLink, LinkProblem> {
        guard let code = parameters["oobCode"], let mode = parameters["mode"], let apiKey = parameters["apiKey"] else {
            return .failure(.notALink)
        }
        guard let operation = ActionLinkOperation(rawValue: mode) else { return .failure(.unknownMode) }
        // Firebase's codes are base64url-like; anything else is not one of its links.
        guard TokenAlphabet.visible.accepts(code), code.count <= 512, TokenAlphabet.visible.accepts(apiKey), apiKey.count <= 128 else {
            return .failure(.malformedCode)
        }
        return .success(EmailActionLink(operation: operation, code: code, apiKey: apiKey, continueUrl: parameters["continueUrl"],
                                        tenantId: parameters["tenantId"]))
    }

    /// The innermost link: `deep_link_id` (iOS) or `link` (Dynamic Links), as `parseDeepLink`.
    static func unwrap(_ url: String) -> String {
        let outer = parameters(of: url)
        let link = outer["link"]
        let doubleDeepLink = link.flatMap { parameters(of: $0)["deep_link_id"] }
        let iOSDeepLink = outer["deep_link_id"]
        let iOSDoubleDeepLink = iOSDeepLink.flatMap { parameters(of: $0)["link"] }
        return iOSDoubleDeepLink ?? iOSDeepLink ?? doubleDeepLink ?? link ?? url
    }

    /// The query of a URL (before any fragment), first value of each name.
    static func parameters(of url: String) -> [String: String] {
        guard let question = url.firstIndex(of: "?") else { return [:] }
        let query = url[url.index(after: question)...].prefix { $0 != "#" }
        var parameters: [String: String] = [:]
        for item in FormEncoding.decode(String(query)) where parameters[item.name] == nil { parameters[item.name] = item.value }
        return parameters
    }

    internal enum LinkProblem: Error, Sendable, Equatable {
        case notALink, unknownMode, malformedCode

        internal var reason: String {
            switch self {
            case .notALink: "it is not a link from a Firebase email (one has mode, oobCode and apiKey in its query)"
            case .unknownMode: "its mode is not one Firebase sends"
            case .malformedCode: "its code is malformed"
            }
        }
    }
}

/// What a link from one of Firebase's emails does, as the SDK's `ActionCodeOperation` (its
/// `mode` parameter).
package enum ActionLinkOperation: String, Sendable, CaseIterable {
    case passwordReset = "resetPassword"
    /// A sign-in link (`signIn`; the SDK's `.emailLink`).
    case emailLink = "signIn"
    case verifyEmail
    case verifyAndChangeEmail
    case recoverEmail
    case revertSecondFactorAddition

    /// In words, for "this is a … link".
    package var sentence: String {
        switch self {
        case .passwordReset: "a password-reset link"
        case .emailLink: "a sign-in link"
        case .verifyEmail: "an email-verification link"
        case .verifyAndChangeEmail: "an email-change link"
        case .recoverEmail: "an email-recovery link"
        case .revertSecondFactorAddition: "a link that removes a second factor"
        }
    }
}
