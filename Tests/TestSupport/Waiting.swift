#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// How tests wait for what another process or thread does. No test waits for time to pass or
// orders events by sleeping: time-dependent behaviour runs on an injected clock (TestClock).

/// Checks `condition` until it holds or `seconds` have passed; true when it held. This waits for
/// an event (a file written, a request received, a line printed); the pause between checks is
/// only how often to look.
public func eventually(within seconds: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int64(seconds * 1000)))
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        pause(.milliseconds(10))
    }
    return true
}

/// Paces a simulated slow peer (a client sending one byte at a time, an attacker dribbling a
/// request): the server under test reads from a real socket, so the peer is slow in real time.
public func pace(_ interval: Duration) {
    pause(interval)
}

private func pause(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
}
