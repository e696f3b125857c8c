#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A request as the stand-in received it, for tests to count and inspect.
public struct RecordedRequest: Sendable {
    public var method: String
    /// The request-target as sent: absolute (`http://host/…`) when it came through a proxy.
    public var target: String
    public var path: String
    public var query: String?
    public var contentType: String?
    /// The `Origin` header: browsers send it with a page's cross-origin `fetch`; fbauth does not.
    public var origin: String?
    /// Every header, by lower-case name.
    public var headers: [String: String]
    public var body: String
    public var receivedAt: Date

    /// The last path segment: `accounts:signInWithIdp`, `token`, `authorize`, …
    public var endpoint: String { path.split(separator: "/").last.map(String.init) ?? path }
}

/// A visit to a fake provider's authorization endpoint.
public struct RecordedAuthorization: Sendable {
    public var providerId: String
    /// Microsoft's tenant, from the path.
    public var tenant: String?
    public var parameters: [String: String]
}

/// A server failure to inject, for testing how clients cope.
public struct Fault: Sendable {
    public enum Behaviour: Sendable {
        /// Answer with this status and a Google error envelope.
        case status(Int, message: String)
        /// Answer with this exact body and content type.
        case raw(status: Int, contentType: String, body: String)
        /// Answer with these exact headers and bytes (redirects, compressed bodies).
        case bytes(status: Int, headers: [(name: String, value: String)], body: [UInt8])
        /// Answer normally, but only after this many seconds.
        case delay(TimeInterval)
        /// Answer normally, with these top-level fields of the JSON answer set to raw JSON text
        /// (a value no real server sends: `-1e11`, a token with a line break).
        case amend([(field: String, json: String)])
        /// Close the connection without answering.
        case dropConnection
        /// Answer with a Google error envelope whose message starts with `code` and quotes the
        /// whole request, query and body, as a careless front end does.
        case echo(status: Int, code: String)
    }

    /// Applies to requests whose path ends with this (e.g. `accounts:lookup`, `/v1/token`).
    public var pathSuffix: String
    public var behaviour: Behaviour
    /// How many matching requests it applies to.
    public var count: Int

    public init(_ pathSuffix: String, _ behaviour: Behaviour, count: Int = 1) {
        self.pathSuffix = pathSuffix
        self.behaviour = behaviour
        self.count = count
    }
}
