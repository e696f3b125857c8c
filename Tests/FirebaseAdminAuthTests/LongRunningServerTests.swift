import FBAuthHTTP
import FBAuthSupport
@testable import FirebaseAdminAuth
import Foundation
import LoopbackHTTP
import Testing

/// Issue 56, item 7: a Swift server verifying tokens for a minute from 64 tasks at once, while
/// Google's key endpoint (a loopback server here, reached through libcurl as Google's would be)
/// rotates its keys, fails and stalls. Every verdict is checked against what the published keys
/// allow; memory and open descriptors stay flat; and while a key fetch stalls, verifications
/// with the keys already held go on.
@Suite struct LongRunningServerTests {
    /// The fixture (Scripts/gen-key-rotation-vectors.py): certificates by kid, tokens by name.
    struct Fixture: Decodable {
        let now: Int
        let project: String
        let certificates: [String: String]
        let tokens: [String: String]
    }

    static let fixture: Fixture = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/key-rotation.json")
        return try! JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
    }()

    /// What a verification of each token may come to, given which rotating key is published:
    /// `ok` with the uid, or a refusal whose message names the check.
    enum Verdict: Hashable, CustomStringConvertible {
        case ok(String)
        case refused(String)

        var description: String {
            switch self {
            case .ok(let uid): "ok \(uid)"
            case .refused(let why): "refused (\(why))"
            }
        }

        init(_ result: Result<DecodedIDToken, Error>) {
            switch result {
            case .success(let token): self = .ok(token.uid)
            case .failure(let error as AdminAuthError):
                let message = error.message
                let why = message.contains("invalid signature") ? "signature"
                    : message.contains("\"kid\" claim") ? "kid"
                    : message.contains("has expired") ? "expired"
                    : message.contains("\"aud\"") ? "aud"
                    : message.contains("Error fetching public keys") ? "keys unavailable"
                    : "other: \(error)"
                self = .refused(why)
            case .failure(let error): self = .refused("not an AdminAuthError: \(error)")
            }
        }
    }

    /// The verdicts a token may get. A rotating key's token is taken only while its key is
    /// published, and around a rotation either verdict may be seen; an unknown kid, or one
    /// looked for while the endpoint fails, is refused for that, never for anything else.
    static func allowed(_ name: String) -> Set<Verdict> {
        switch name {
        case "stable": [.ok("uid-stable")]
        case "stable, tampered": [.refused("signature")]
        case "stable, expired": [.refused("expired")]
        case "stable, another project": [.refused("aud")]
        case "rot-1": [.ok("uid-rot-1"), .refused("kid"), .refused("keys unavailable")]
        case "rot-2": [.ok("uid-rot-2"), .refused("kid"), .refused("keys unavailable")]
        default: [.refused("kid"), .refused("keys unavailable")]
        }
    }

    /// No time limit: under the full suite's load Swift Testing's clock counts the time the test
    /// waits for a thread too; every wait inside is bounded (a minute of work, a stall of at
    /// most 20 s, libcurl's 30 s), so it ends by itself.
    @Test func sixtyFourTasksForAMinuteWhileKeysRotateFailAndStall() throws {
        let fixture = Self.fixture
        let keys = try RotatingKeyServer(stable: fixture.certificates["stable"]!, rotating: ["rot-1": fixture.certificates["rot-1"]!, "rot-2": fixture.certificates["rot-2"]!])
        defer { keys.stop() }
        let clock = MovableClock(start: TimeInterval(fixture.now))
        let auth = AdminAuth(projectID: fixture.project, certificatesURL: keys.url, transport: CurlTransport(), clock: clock)
        let tokens = fixture.tokens.sorted { $0.key < $1.key }
        let tally = Tally()
        let deadline = ContinuousClock.now + .seconds(60)

        // The key endpoint's life: every phase a few seconds, the clock moved past `refetchAfter`
        // so that an unknown kid fetches again (and past the keys' max-age now and then).
        let controller = TestThread {
            var phase = 0
            while ContinuousClock.now < deadline - .seconds(4) {
                switch phase % 4 {
                case 0: keys.rotate()
                case 1: keys.mode = .failing
                case 2:
                    // A stall while the keys are fresh: an unknown kid's fetch hangs; the
                    // verifications of known keys must go on meanwhile.
                    keys.mode = .stalling
                    clock.advance(by: 61)
                    let stalled = keys.waitForStalledFetch(within: 15)
                    // Counted from once the fetch is held (what was under way then has had its
                    // moment): wait for the verifications of known keys to go on (at most
                    // 15 s), and check that the fetch was held all along.
                    let before = tally.completedStable
                    _ = tally.wait(until: 15) { stable, _ in stable > before + 50 }
                    tally.duringStalls(stalled: stalled && keys.isStalled, completed: tally.completedStable - before)
                    keys.mode = .serving
                    keys.releaseStall()
                default:
                    keys.mode = .serving
                    clock.advance(by: 3601)  // past the keys' max-age: fetched again
                }
                if phase % 4 != 2 { clock.advance(by: 61) }
                phase += 1
                tally.phaseBegan()
                // Each phase lasts until some verifications have met it (at most 5 s).
                let phaseStart = tally.completedAll
                _ = tally.wait(until: 5) { _, all in all >= phaseStart + 500 }
            }
            keys.mode = .serving
            keys.releaseStall()
        }

        // The workers are threads of their own (the synchronous API, which the async one runs
        // on a thread too), and the test is synchronous: in the full suite the cooperative
        // pool's two threads may be held by other tests, and tasks on it would starve.
        let workers = (0..<64).map { worker in
            TestThread {
                var index = worker
                while ContinuousClock.now < deadline {
                    let (name, token) = tokens[index % tokens.count]
                    index += 1
                    let result: Result<DecodedIDToken, Error>
                    do { result = .success(try auth.verifyIDToken(token)) } catch { result = .failure(error) }
                    tally.record(name, Verdict(result))
                }
            }
        }
        // The baseline once the verifier is warm: a few thousand verifications in (at most 20 s).
        _ = tally.wait(until: 20) { _, all in all >= 5000 }
        let start = (memory: ProcessFacts.residentBytes(), descriptors: ProcessFacts.openSockets(toPort: keys.port))
        for worker in workers { worker.wait() }
        controller.wait()
        let end = (memory: ProcessFacts.residentBytes(), descriptors: ProcessFacts.openSockets(toPort: keys.port))

        let seen = tally.verdicts
        for (name, verdicts) in seen.sorted(by: { $0.key < $1.key }) {
            let wrong = verdicts.keys.filter { !Self.allowed(name).contains($0) }
            #expect(wrong.isEmpty, "\(name): \(wrong.map { "\($0) ×\(verdicts[$0]!)" })")
        }
        #expect(seen["stable"]?[.ok("uid-stable")] ?? 0 > 1_000, "verifications of the stable key: \(seen["stable"] ?? [:])")
        #expect(seen["rot-1"]?[.ok("uid-rot-1")] ?? 0 > 0 && seen["rot-2"]?[.ok("uid-rot-2")] ?? 0 > 0, "each rotating key was taken while published")
        #expect(seen["rot-1"]?[.refused("kid")] ?? 0 > 0 || seen["rot-2"]?[.refused("kid")] ?? 0 > 0, "and refused once rotated out")
        // One fetch serves many: a phase (its clock moved past `refetchAfter`, or past max-age)
        // makes at most a few, however many verifications meet it. Phases are as many as a
        // machine's speed makes them in the minute, so the bound is per phase.
        let phases = tally.phases
        #expect(phases > 4 && keys.fetchCount > 10 && keys.fetchCount <= phases * 3 + 10, "\(keys.fetchCount) fetches in \(phases) phases")
        let stalls = tally.stalls
        // A stall phase whose fetch no worker reached in time (a loaded machine) proves nothing
        // either way; at least one must have been held, and each held one let known keys
        // through: a verifier that held its lock across the fetch would let none, while a
        // loaded machine may reach the wait's bound before 50 have gone (30 were seen once).
        #expect(stalls.contains { $0.stalled } && stalls.filter(\.stalled).allSatisfy { $0.completed >= 10 }
                    && stalls.filter(\.stalled).contains { $0.completed > 50 },
                "while a fetch stalled, known keys kept verifying: \(stalls)")
        // The whole suite shares this process, so memory is given room for the other tests; a
        // leak of a kilobyte a verification would be 100 MiB here. The descriptors counted are
        // this test's own: sockets to or from the key server.
        #expect(end.memory - start.memory < 64 << 20, "resident memory grew \((end.memory - start.memory) >> 20) MiB")
        #expect(end.descriptors <= start.descriptors + 2, "sockets of the key server's port: \(start.descriptors) → \(end.descriptors)")
    }
}

/// A thread running `body`, whose end can be awaited.
final class TestThread: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> Void) {
        Thread.detachNewThread { [done] in
            body()
            done.signal()
        }
    }

    func wait() { done.wait() }
}

/// What the tasks saw: each token's verdicts, counted.
final class Tally: @unchecked Sendable {
    private let lock = NSCondition()
    private var counts: [String: [LongRunningServerTests.Verdict: Int]] = [:]
    private var stable = 0, all = 0, phaseCount = 0
    private var stallRecords: [(stalled: Bool, completed: Int)] = []

    func phaseBegan() { lock.withLock { phaseCount += 1 } }
    var phases: Int { lock.withLock { phaseCount } }

    func record(_ name: String, _ verdict: LongRunningServerTests.Verdict) {
        lock.withLock {
            counts[name, default: [:]][verdict, default: 0] += 1
            if name == "stable" { stable += 1 }
            all += 1
            lock.broadcast()
        }
    }

    /// Waits until `condition` holds of the stable key's and all verifications' counts, or
    /// `seconds` have passed; whether it held.
    func wait(until seconds: TimeInterval, _ condition: (_ stable: Int, _ all: Int) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        return lock.withLock {
            while !condition(stable, all) {
                guard lock.wait(until: deadline) else { return condition(stable, all) }
            }
            return true
        }
    }

    var completedAll: Int { lock.withLock { all } }

    var verdicts: [String: [LongRunningServerTests.Verdict: Int]] { lock.withLock { counts } }
    var completedStable: Int { lock.withLock { stable } }
    func duringStalls(stalled: Bool, completed: Int) { lock.withLock { stallRecords.append((stalled, completed)) } }
    var stalls: [(stalled: Bool, completed: Int)] { lock.withLock { stallRecords } }
}

/// The time of day the verifier reads, moved by the test.
final class MovableClock: WallClock, @unchecked Sendable {
    private let lock = NSLock()
    private var seconds: TimeInterval

    init(start: TimeInterval) { seconds = start }
    func now() -> Date { lock.withLock { Date(timeIntervalSince1970: seconds) } }
    func advance(by interval: TimeInterval) { lock.withLock { seconds += interval } }
}

/// This process's resident memory and open descriptors (Linux's /proc; elsewhere 0).
enum ProcessFacts {
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// A /proc file read to its end (it reports no size, and a busy machine's socket table is
    /// many pages long).
    static func readWhole(_ path: String) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// This process's open sockets whose local or remote port is `port` (the kernel's
    /// /proc/net/tcp tables, matched to /proc/self/fd by inode); other tests' descriptors are not
    /// counted.
    static func openSockets(toPort port: UInt16) -> Int {
        let hex = String(format: "%04X", Int(port))
        var inodes: Set<String> = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            for line in readWhole(table).split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 9 else { continue }
                if fields[1].hasSuffix(":" + hex) || fields[2].hasSuffix(":" + hex) { inodes.insert(String(fields[9])) }
            }
        }
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.filter { fd in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd),
                  target.hasPrefix("socket:[") else { return false }
            return inodes.contains(String(target.dropFirst(8).dropLast()))
        }.count
    }
}

/// Google's x509 endpoint for securetoken, on loopback: the stable key and one rotating key at
/// a time, with `max-age=3600`; it can fail (503) or stall (hold the request until released).
final class RotatingKeyServer: @unchecked Sendable {
    enum Mode { case serving, failing, stalling }

    private let lock = NSCondition()
    private let stable: String
    private let rotating: [(kid: String, pem: String)]
    private var current = 0
    private var currentMode = Mode.serving
    private var fetches = 0
    private var stalledNow = false
    private var stopped = false
    private let release = DispatchSemaphore(value: 0)
    private let server: LoopbackServer
    private let finished = DispatchSemaphore(value: 0)
    let url: URL
    var port: UInt16 { server.port }

    init(stable: String, rotating: [String: String]) throws {
        self.stable = stable
        self.rotating = rotating.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        server = try LoopbackServer(port: 0)
        url = URL(string: "http://127.0.0.1:\(server.port)/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com")!
        Thread.detachNewThread { [self] in
            while !lock.withLock({ stopped }) {
                _ = server.next(until: .now + .milliseconds(200)) { _ in self.answer() }
            }
            server.close()
            finished.signal()
        }
    }

    var mode: Mode {
        get { lock.withLock { currentMode } }
        set { lock.withLock { currentMode = newValue } }
    }

    var fetchCount: Int { lock.withLock { fetches } }

    func rotate() { lock.withLock { current = (current + 1) % rotating.count } }

    func releaseStall() { release.signal() }

    /// Whether a fetch came and is being held, within `seconds`.
    func waitForStalledFetch(within seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        return lock.withLock {
            while !stalledNow {
                guard lock.wait(until: deadline) else { return stalledNow }
            }
            return true
        }
    }

    /// Whether a fetch is being held now.
    var isStalled: Bool { lock.withLock { stalledNow } }

    func stop() {
        lock.withLock { stopped = true }
        release.signal()
        finished.wait()
    }

    private func answer() -> Disposition {
        let (mode, kid, pem) = lock.withLock { () -> (Mode, String, String) in
            fetches += 1
            return (currentMode, rotating[current].kid, rotating[current].pem)
        }
        switch mode {
        case .failing:
            return .respond(HTTPResponse(status: 503, headers: [("Content-Type", "text/plain")], body: Array("unavailable".utf8)))
        case .stalling:
            lock.withLock {
                stalledNow = true
                lock.broadcast()
            }
            _ = release.wait(timeout: .now() + 20)
            lock.withLock { stalledNow = false }
        case .serving:
            break
        }
        let body = try! JSONSerialization.data(withJSONObject: ["stable": stable, kid: pem])
        return .respond(HTTPResponse(status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "public, max-age=3600")], body: Array(body)))
    }
}
