#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
@testable import FBAuthSupport

/// A descriptor closed twice closes whatever another thread opened under the same number in
/// between: a CI run lost the directory walk's descriptor of `/` that way ("cannot open /tmp:
/// Bad file descriptor"), from a failed bus connection closed by its initializer and again by
/// its deinit. Each of these failing paths runs many times while a second thread keeps opening
/// descriptors and checks that each is still its own when it closes it.
@Suite struct DescriptorOwnershipTests {
    @Test func aBusConnectionThatFailsClosesOnlyItsOwnSocket() throws {
        let missing = NSTemporaryDirectory() + "fbauth-no-bus-\(UUID().uuidString)"
        let lost = Self.descriptorsLost(whileRepeating: 3000) {
            _ = try? Platform.UnixSocket(path: missing, abstract: false, deadline: .now + .seconds(1))
        }
        #expect(lost == 0, "\(lost) descriptors of another thread were closed under it")
    }

    @Test func aLockThatCannotBeTakenClosesOnlyItsOwnFile() throws {
        let path = NSTemporaryDirectory() + "fbauth-lock-\(UUID().uuidString)"
        defer { unlink(path) }
        let holder = try Platform.FileLock(descriptor: open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600), path: path)
        defer { holder.unlock() }
        let lost = Self.descriptorsLost(whileRepeating: 3000) {
            _ = try? Platform.FileLock(descriptor: open(path, O_RDWR | O_CLOEXEC), path: path, timeout: .zero)
        }
        #expect(lost == 0, "\(lost) descriptors of another thread were closed under it")
    }

    /// Runs `failing` `count` times while another thread opens /dev/null again and again; the
    /// number of its descriptors found closed (or replaced) before it closed them itself.
    private static func descriptorsLost(whileRepeating count: Int, _ failing: () -> Void) -> Int {
        let done = Flag(), lost = Counter()
        let watcher = Thread {
            var nullDevice = stat()
            stat("/dev/null", &nullDevice)
            while !done.isSet {
                let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else { continue }
                var seen = stat()
                if fstat(fd, &seen) != 0 || seen.st_rdev != nullDevice.st_rdev {
                    lost.add()
                    continue
                }
                close(fd)
            }
            done.acknowledge()
        }
        watcher.start()
        for _ in 0..<count { failing() }
        done.set()
        done.waitForAcknowledgement()
        return lost.value
    }
}

private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false
    private let acknowledged = DispatchSemaphore(value: 0)
    var isSet: Bool { lock.withLock { raised } }
    func set() { lock.withLock { raised = true } }
    func acknowledge() { acknowledged.signal() }
    func waitForAcknowledgement() { acknowledged.wait() }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}
