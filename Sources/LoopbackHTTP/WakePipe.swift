/// A pipe a poll loop watches so another thread (or a signal handler) can wake it.
public final class WakePipe: @unchecked Sendable {
    // The descriptors never change after init; writing a byte is async-signal-safe.
    public let readDescriptor: Int32
    private let writeDescriptor: Int32

    public init?() {
        guard let pipe = Socket.makeWakePipe() else { return nil }
        readDescriptor = pipe.read
        writeDescriptor = pipe.write
    }

    deinit {
        Socket.close(readDescriptor)
        Socket.close(writeDescriptor)
    }

    /// Wakes the loop watching `readDescriptor`.
    public func wake() { Socket.writeByte(writeDescriptor) }

    /// The write end, for a signal handler that can only call `write(2)`.
    public var signalDescriptor: Int32 { writeDescriptor }
}
