#if canImport(Glibc)
import Glibc
#endif
@testable import FBAuthSupport
import Foundation
import Testing

/// stdin's lines without read-ahead, and whether it ended, asked without waiting.
@Suite struct StandardInputTests {
    func pipeWith(_ text: String, closing: Bool) -> (input: StandardInput, writer: Int32) {
        var ends: [Int32] = [0, 0]
        _ = pipe(&ends)
        _ = Array(text.utf8).withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        if closing { close(ends[1]) }
        return (StandardInput(descriptor: ends[0]), closing ? -1 : ends[1])
    }

    @Test func aPasswordAloneThenTheEnd() {
        let (input, _) = pipeWith("pw\n", closing: true)
        #expect(input.readLine() == "pw")
        #expect(input.hasEnded())
        #expect(input.readLine() == nil)
    }

    @Test func theNextLineIsStillThereAfterAsking() {
        let (input, _) = pipeWith("pw\n123456\n", closing: true)
        #expect(input.readLine() == "pw")
        #expect(!input.hasEnded() && !input.hasEnded(), "asked twice, the byte it looked at is kept once")
        #expect(input.readLine() == "123456")
        #expect(input.hasEnded())
    }

    @Test func aWriterThatMaySendMoreHasNotEnded() {
        let (input, writer) = pipeWith("pw\n", closing: false)
        #expect(input.readLine() == "pw")
        let started = ContinuousClock.now
        #expect(!input.hasEnded())
        #expect(ContinuousClock.now - started < .seconds(1), "asked without waiting")
        _ = Array("654321\n".utf8).withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
        close(writer)
        #expect(input.readLine() == "654321")
    }

    @Test func readingAllAfterALineMissesNothing() {
        let (input, _) = pipeWith("first\nthe rest\nof it", closing: true)
        #expect(input.readLine() == "first")
        #expect(!input.hasEnded())
        #expect(input.readAll() == Data("the rest\nof it".utf8))
    }
}
