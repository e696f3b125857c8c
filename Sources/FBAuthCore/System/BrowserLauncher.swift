/// Why no browser could be opened.
public struct BrowserLaunchError: Error, Sendable, Equatable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}

/// Opens a URL for the user to visit.
public protocol BrowserLauncher: Sendable {
    func open(_ url: String) throws(BrowserLaunchError)
}

/// `$BROWSER` with the URL as its single argument, else `xdg-open` (Linux) or `open` (macOS),
/// executed directly — never through a shell, so nothing in the URL is interpreted.
/// `$BROWSER` names one program (a path or a name in PATH); arguments in it are not split.
public struct SystemBrowserLauncher: BrowserLauncher {
    let environment: [String: String]

    public init(environment: [String: String]) {
        self.environment = environment
    }

    public func open(_ url: String) throws(BrowserLaunchError) {
        let program = Self.program(environment: environment)
        switch Platform.spawn([program, url], environment: environment) {
        case .success:
            return
        case .failure(let problem):
            throw BrowserLaunchError(problem.description)
        }
    }

    static func program(environment: [String: String]) -> String {
        if let browser = environment["BROWSER"], !browser.isEmpty { return browser }
        #if os(macOS)
        return "open"
        #else
        return "xdg-open"
        #endif
    }
}

extension SystemBrowserLauncher {
    /// Why no browser can be launched here, or nil when one can.
    public static func unavailability(environment: [String: String]) -> String? {
        if let browser = environment["BROWSER"], !browser.isEmpty { return nil }
        #if os(macOS)
        return nil
        #else
        let hasDisplay = [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]].contains { !($0 ?? "").isEmpty }
        guard hasDisplay else { return "no display: DISPLAY and WAYLAND_DISPLAY are unset and BROWSER is not set" }
        guard Platform.findExecutable("xdg-open", path: environment["PATH"]) != nil else { return "xdg-open is not installed" }
        return nil
        #endif
    }
}
