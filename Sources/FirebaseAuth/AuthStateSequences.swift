import Foundation

// `authStateChanges` and `idTokenChanges` as the SDK types them (Auth/Auth+Async.swift): named
// sequences of `User?` that never fail. The two types are alike, as the SDK's are: each is a
// public name apps write, with an `Iterator` of its own. Here they are told at once, on no queue, so a program
// without a main loop reads them too.
extension Auth {
    /// The signed-in user now, then at every sign-in and sign-out through this `Auth`; the
    /// sequence ends when its reader stops reading.
    public var authStateChanges: AuthStateChangesSequence { AuthStateChangesSequence(self) }

    /// The same at every change of the ID token too (a refresh).
    public var idTokenChanges: IDTokenChangesSequence { IDTokenChangesSequence(self) }

    /// The users `authStateChanges` gives.
    public struct AuthStateChangesSequence: AsyncSequence, @unchecked Sendable {
        /// A signed-in user, or nil once signed out.
        public typealias Element = User?
        /// Its iterator.
        public typealias AsyncIterator = Iterator
        private let auth: Auth

        /// The changes of `auth`.
        public init(_ auth: Auth) { self.auth = auth }

        /// Starts listening.
        public func makeAsyncIterator() -> Iterator { Iterator(auth.changes(ofTokens: false)) }

        /// Reads the changes one at a time.
        public struct Iterator: AsyncIteratorProtocol {
            private var changes: AsyncStream<User?>.Iterator
            init(_ stream: AsyncStream<User?>) { changes = stream.makeAsyncIterator() }
            /// The next user (`.some(nil)`: signed out).
            public mutating func next() async -> User?? { await changes.next() }
        }
    }

    /// The users `idTokenChanges` gives.
    public struct IDTokenChangesSequence: AsyncSequence, @unchecked Sendable {
        /// A signed-in user, or nil once signed out.
        public typealias Element = User?
        /// Its iterator.
        public typealias AsyncIterator = Iterator
        private let auth: Auth

        /// The changes of `auth`.
        public init(_ auth: Auth) { self.auth = auth }

        /// Starts listening.
        public func makeAsyncIterator() -> Iterator { Iterator(auth.changes(ofTokens: true)) }

        /// Reads the changes one at a time.
        public struct Iterator: AsyncIteratorProtocol {
            private var changes: AsyncStream<User?>.Iterator
            init(_ stream: AsyncStream<User?>) { changes = stream.makeAsyncIterator() }
            /// The next user (`.some(nil)`: signed out).
            public mutating func next() async -> User?? { await changes.next() }
        }
    }
}
