// Terminal prompts without echo (see Platform.swift for the split).
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

extension Platform {
    /// What a prompt got: a line, the end of input, or Ctrl-C.
    package enum PromptAnswer: Equatable {
        case line(String)
        case endOfInput
        case interrupted
    }

    /// Reads one line from the terminal on stdin with echo off, restoring the terminal whatever
    /// happens: Ctrl-C (or SIGTERM) ends the read instead of the process, so the terminal is
    /// never left silent. `prompt` runs once echo is off, as getpass(3) does: switching echo off
    /// flushes what was typed before, so a prompt shown earlier would let a quick typist's (or a
    /// paste's) first characters be echoed and then lost.
    package static func readLineWithoutEcho(prompt: () -> Void) -> PromptAnswer {
        guard let interrupts = SignalInterrupts() else {
            return withTerminalEchoDisabled { prompt(); return Swift.readLine(strippingNewline: true) }.map { .line($0) } ?? .endOfInput
        }
        defer { interrupts.end() }
        return withTerminalEchoDisabled {
            prompt()
            var bytes: [UInt8] = []
            while true {
                var entries = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: interrupts.descriptor, events: Int16(POLLIN), revents: 0)]
                if poll(&entries, 2, -1) < 0 {
                    if errno == EINTR { continue }
                    return .endOfInput
                }
                if entries[1].revents != 0 { return .interrupted }
                var byte: UInt8 = 0
                let count = read(0, &byte, 1)
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                if count <= 0 { return bytes.isEmpty ? .endOfInput : .line(String(decoding: bytes, as: UTF8.self)) }
                if byte == UInt8(ascii: "\n") { return .line(String(decoding: bytes, as: UTF8.self)) }
                bytes.append(byte)
                if bytes.count > 64 * 1024 { return .line(String(decoding: bytes, as: UTF8.self)) }
            }
        }
    }

    /// Runs `body` with terminal echo off on stdin (for password prompts), restoring it after.
    package static func withTerminalEchoDisabled<T>(_ body: () -> T) -> T {
        var original = termios()
        guard tcgetattr(0, &original) == 0 else { return body() }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(0, TCSAFLUSH, &silent)
        defer { tcsetattr(0, TCSAFLUSH, &original) }
        return body()
    }
}
