#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

/// The domain that serves Firebase's hosted auth handler (`https://DOMAIN/__/auth/handler`).
/// Every provider of a project has that handler registered as its redirect URI, which is what
/// lets the hosted flow work with no provider setup.
internal enum AuthDomain {
    /// The default domain of a project: `PROJECT_ID.firebaseapp.com`.
    internal static func `default`(projectId: String) -> String { "\(projectId).firebaseapp.com" }

    /// A bare host name (letters, digits, dots, hyphens), optionally with a port.
    internal static func isValid(_ domain: String) -> Bool {
        let parts = domain.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let host = parts.first, !host.isEmpty, host.count <= 253 else { return false }
        if parts.count == 2, UInt16(parts[1]) == nil { return false }
        return host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
            && !host.hasPrefix(".") && !host.hasPrefix("-")
    }
}

/// The domains a project allows browser sign-ins from (Firebase console → Authentication →
/// Settings → Authorized domains), matched as the JS SDK matches the page's origin
/// (packages/auth/src/core/util/validate_origin.ts): an IP address exactly, a name with its
/// subdomains.
internal enum AuthorizedDomains {
    internal static func allow(_ host: String, in domains: [String]) -> Bool {
        let host = host.lowercased().trimmed(where: { "[]".contains($0) })
        return domains.contains { domain in
            let domain = domain.lowercased()
            return host == domain || (!domain.allSatisfy { $0.isNumber || $0 == "." } && host.hasSuffix("." + domain))
        }
    }

    /// Fails at once, before any browser opens, when `host` may not run the sign-in.
    static func require(_ host: String, config: ProjectConfigResponse) throws(FBAuthError) {
        guard let domains = config.authorizedDomains, !allow(host, in: domains) else { return }
        let project = config.projectId.map { " of project \($0)" } ?? ""
        throw .failed(.unauthorizedDomain, "\(host) is not an authorized domain\(project), so Firebase would refuse this sign-in; add it in the Firebase console → Authentication → Settings → Authorized domains, then run the command again")
    }
}
