/// A pipe a poll loop watches so another thread (or a signal handler) can wake it.
package final class WakePipe: @unchecked Sendable {
    // The descriptors never change after init; writing a byte is async-signal-safe.
    package let readDescriptor: Int32
    private let writeDescriptor: Int32

    package init?() {
        guard let pipe = Socket.makeWakePipe() else { return nil }
        readDescriptor = pipe.read
        writeDescriptor = pipe.write
    }

    deinit {
        Socket.close(readDescriptor)
        Socket.close(writeDescriptor)
    }

    /// Wakes the loop watching `readDescriptor`.
    package func wake() { Socket.writeByte(writeDescriptor) }

    /// The write end, for a signal handler that can only call `write(2)`.
    package var signalDescriptor: Int32 { writeDescriptor }
}
