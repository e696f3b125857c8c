/// The domain that serves Firebase's hosted auth handler (`https://DOMAIN/__/auth/handler`).
/// Every provider of a project has that handler registered as its redirect URI, which is what
/// lets the hosted flow work with no provider setup.
public enum AuthDomain {
    /// The default domain of a project: `PROJECT_ID.firebaseapp.com`.
    public static func `default`(projectId: String) -> String { "\(projectId).firebaseapp.com" }

    /// A bare host name (letters, digits, dots, hyphens), optionally with a port.
    public static func isValid(_ domain: String) -> Bool {
        let parts = domain.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let host = parts.first, !host.isEmpty, host.count <= 253 else { return false }
        if parts.count == 2, UInt16(parts[1]) == nil { return false }
        return host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
            && !host.hasPrefix(".") && !host.hasPrefix("-")
    }
}
