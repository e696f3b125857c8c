// Lines of stdin read without stdio's read-ahead (see Platform.swift for the split).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

/// stdin when it is not a terminal: a password on the first line, a second factor's code on
/// the next, or all of it for `-`. Read a byte at a time, with no buffer ahead of the reader
/// (the inputs are a few lines): so a later read of all of it misses nothing, and whether the
/// input has ended can be asked without waiting, which stdio's hidden buffer would not allow.
package final class StandardInput: @unchecked Sendable {
    package static let shared = StandardInput(descriptor: 0)

    private let descriptor: Int32
    private let lock = Lock()
    /// A byte read to learn whether the input had ended, given back to the next read.
    private var pushedBack: UInt8?

    package init(descriptor: Int32) { self.descriptor = descriptor }

    /// One line without its newline; nil at the end of input.
    package func readLine() -> String? {
        lock.withLock {
            var line: [UInt8] = []
            while let byte = nextByte() {
                if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
                line.append(byte)
            }
            return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
        }
    }

    /// All that is left.
    package func readAll() -> Data {
        lock.withLock {
            let rest = (try? Platform.readAll(descriptor)) ?? Data()
            defer { pushedBack = nil }
            return pushedBack.map { Data([$0]) + rest } ?? rest
        }
    }

    /// Whether the input is known to have ended, without waiting: nothing is pending and a
    /// read now would return the end (a closed pipe, the end of a file). False while a writer
    /// may still send more (`(printf 'pw\n'; sleep 30; echo 123456) |`).
    package func hasEnded() -> Bool {
        lock.withLock {
            guard pushedBack == nil else { return false }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            // Readable or hung up: a read cannot block now.
            guard poll(&entry, 1, 0) == 1, entry.revents & Int16(POLLIN | POLLHUP) != 0 else { return false }
            guard let byte = nextByte() else { return true }
            pushedBack = byte
            return false
        }
    }

    private func nextByte() -> UInt8? {
        if let byte = pushedBack {
            pushedBack = nil
            return byte
        }
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count == 1 { return byte }
            if count < 0, errno == EINTR { continue }
            return nil
        }
    }
}
