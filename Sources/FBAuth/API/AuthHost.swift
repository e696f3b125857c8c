import FBAuthSupport

/// What an `AuthService` takes from the process it runs in: the time of day, Ctrl-C while a sign-in
/// waits, the randomness of a sign-in's one-time values, and the environment (where sessions
/// are kept, whether the user is on SSH without a display). A test gives fixed ones.
package struct AuthHost: Sendable {
    package var clock: WallClock
    package var interrupts: InterruptSource
    package var secrets: SecretTokens
    package var environment: [String: String]
    /// The OS keyring refresh tokens are kept in; nil: the system's (a test gives its own).
    internal var keyring: (any SecretKeeper)?
    /// Whether an emulator still answers at `host:port` (a connection to a loopback port).
    package var emulatorRunning: @Sendable (String) -> Bool = EmulatorHosts.isRunning

    /// The process's own: the system clock, the system's secure generator and its environment.
    /// No Ctrl-C handling: a library does not take the process's signals unless asked
    /// (`interrupts: SignalInterruptSource()` ends a waiting sign-in on SIGINT or SIGTERM).
    package init() {
        self.init(clock: SystemClock(), interrupts: NoInterrupts(), secrets: SystemSecretTokens(), environment: Platform.environment())
    }

    package init(clock: WallClock, interrupts: InterruptSource, secrets: SecretTokens, environment: [String: String]) {
        self.clock = clock
        self.interrupts = interrupts
        self.secrets = secrets
        self.environment = environment
    }
}
