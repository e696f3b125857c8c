import Foundation

/// How much the Firebase libraries log, as the SDK's `FirebaseLoggerLevel`.
public enum FirebaseLoggerLevel: Int, Sendable, Comparable {
    /// Errors only (the default).
    case error = 3
    /// Warnings too.
    case warning = 4
    /// Notices too.
    case notice = 5
    /// Information too.
    case info = 6
    /// Everything: FirebaseAuth logs each exchange with Firebase, every secret in it redacted.
    case debug = 7

    /// The least: `error`.
    public static let min = FirebaseLoggerLevel.error
    /// The most: `debug`.
    public static let max = FirebaseLoggerLevel.debug

    /// Less verbose first.
    public static func < (lhs: FirebaseLoggerLevel, rhs: FirebaseLoggerLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Settings of all Firebase libraries, as the SDK's `FirebaseConfiguration.shared`.
open class FirebaseConfiguration: NSObject, @unchecked Sendable {
    /// The one configuration.
    public static let shared = FirebaseConfiguration()

    private let lock = NSLock()
    private var level = FirebaseLoggerLevel.error

    /// How much is logged from now on.
    open func setLoggerLevel(_ loggerLevel: FirebaseLoggerLevel) {
        lock.withLock { level = loggerLevel }
    }

    /// The level in force, read by the libraries of this package at each message.
    open func loggerLevel() -> FirebaseLoggerLevel { lock.withLock { level } }
}

/// The version of Firebase's Apple SDK whose API these libraries have (what an app compares
/// against, as it would `FirebaseVersion()` of the SDK); fbauth's own version is `fbauth --version`.
public func FirebaseVersion() -> String { "12.19.0" }
