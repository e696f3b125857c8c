/// Environment variables as the bytes libc keeps, looked up by C name: what `fbauth token`'s
/// quick path reads, since making Swift strings there costs more than the command's own work
/// (docs/speed.md). `getenv` when live; a table in tests.
package struct RawEnvironment {
    private let lookup: (UnsafePointer<CChar>) -> UnsafeRawBufferPointer?

    /// `lookup` returns a value's bytes (no NUL), valid for as long as the environment is used.
    package init(lookup: @escaping (UnsafePointer<CChar>) -> UnsafeRawBufferPointer?) {
        self.lookup = lookup
    }

    /// The process environment.
    package static var live: RawEnvironment { RawEnvironment(lookup: Platform.variableBytes) }

    /// A variable's bytes; nil when it is unset.
    package func bytes(_ name: StaticString) -> UnsafeRawBufferPointer? {
        lookup(UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self))  // literals end in NUL
    }

    /// A variable as a String, for what is not on the quick path (messages).
    package func string(_ name: String) -> String? {
        name.withCString(lookup).map { String(decoding: $0, as: UTF8.self) }
    }
}
