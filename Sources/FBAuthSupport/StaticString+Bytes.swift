extension StaticString {
    /// The literal's UTF-8 bytes, without the NUL that follows them in memory.
    package var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: utf8Start, count: utf8CodeUnitCount) }
}
