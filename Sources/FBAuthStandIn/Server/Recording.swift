#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A request as the stand-in received it, for tests to count and inspect.
package struct RecordedRequest: Sendable {
    package var method: String
    /// The request-target as sent: absolute (`http://host/…`) when it came through a proxy.
    package var target: String
    package var path: String
    package var query: String?
    package var contentType: String?
    /// The `Origin` header: browsers send it with a page's cross-origin `fetch`; fbauth does not.
    package var origin: String?
    /// Every header, by lower-case name.
    package var headers: [String: String]
    package var body: String
    package var receivedAt: Date

    /// The last path segment: `accounts:signInWithIdp`, `token`, `authorize`, …
    package var endpoint: String { path.split(separator: "/").last.map(String.init) ?? path }
}

/// A visit to a fake provider's authorization endpoint.
package struct RecordedAuthorization: Sendable {
    package var providerId: String
    /// Microsoft's tenant, from the path.
    package var tenant: String?
    package var parameters: [String: String]
}

/// A server failure to inject, for testing how clients cope.
package struct Fault: Sendable {
    package enum Behaviour: Sendable {
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
    package var pathSuffix: String
    package var behaviour: Behaviour
    /// How many matching requests it applies to.
    package var count: Int

    package init(_ pathSuffix: String, _ behaviour: Behaviour, count: Int = 1) {
        self.pathSuffix = pathSuffix
        self.behaviour = behaviour
        self.count = count
    }
}
