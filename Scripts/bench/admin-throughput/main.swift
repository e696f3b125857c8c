// The Admin API's throughput through FirebaseAdminAuth against an emulator (issue 57, item 6),
// for Scripts/bench.sh to print beside firebase-admin's (Scripts/admin-bench.py):
//
//   fbauth-admin-throughput HOST:PORT PROJECT SECONDS
//
// Imports 10,000 users in batches of 1,000, lists them all (pages of 1,000, resident memory
// sampled after each page), then calls getUser from 16 concurrent tasks for SECONDS. Prints one
// JSON object: import_10000_seconds, list_10000_seconds, list_memory_growth_mib,
// getUser_per_second.
import FirebaseAdminAuth
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 4, let seconds = Double(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: fbauth-admin-throughput HOST:PORT PROJECT SECONDS\n".utf8))
    exit(2)
}
let auth = AdminAuth(projectID: arguments[2], emulatorHost: arguments[1], log: { _ in })

/// Resident memory now, in bytes (Linux's /proc; elsewhere 0).
func residentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
          let kib = Int(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
    return kib * 1024
}

let clock = ContinuousClock()
func elapsed(_ start: ContinuousClock.Instant) -> Double {
    let duration = clock.now - start
    return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

let importStart = clock.now
for batch in 0..<10 {
    let users = (0..<1000).map { index in
        UserImportRecord(uid: "swift-\(batch * 1000 + index)", email: "swift-\(batch * 1000 + index)@example.com", emailVerified: true, displayName: "User \(index)")
    }
    let result = try await auth.importUsers(users)
    guard result.successCount == 1000 else { fatalError("import: \(result.failureCount) failed: \(result.errors.prefix(3))") }
}
let importSeconds = elapsed(importStart)

let listStart = clock.now
var listed = 0, token: String?
let before = residentBytes()
var most = before
repeat {
    let page = try await auth.listUsers(maxResults: 1000, pageToken: token)
    listed += page.users.count
    token = page.pageToken
    most = max(most, residentBytes())
} while token != nil
let listSeconds = elapsed(listStart)

let deadline = clock.now + .milliseconds(Int64(seconds * 1000))
let calls = try await withThrowingTaskGroup(of: Int.self) { group in
    for worker in 0..<16 {
        group.addTask {
            var count = 0
            while clock.now < deadline {
                _ = try await auth.getUser("swift-\((worker * 613 + count) % 10_000)")
                count += 1
            }
            return count
        }
    }
    var total = 0
    for try await count in group { total += count }
    return total
}

let result: [String: Any] = [
    "import_10000_seconds": (importSeconds * 100).rounded() / 100, "list_10000_seconds": (listSeconds * 100).rounded() / 100, "listed": listed,
    "list_memory_growth_mib": Double((most - before) >> 10) / 1024, "getUser_per_second": Int(Double(calls) / seconds),
]
print(String(decoding: try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys]), as: UTF8.self))
