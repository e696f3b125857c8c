#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CCurl

/// The live `HTTPTransport` on Linux: one synchronous exchange through the system's libcurl
/// (the library FoundationNetworking's URLSession wraps), loaded on the first request so that
/// commands that make none never load it. Bounded by the request's timeout from start to
/// finish, connecting included. No cookies, no cache. Redirects are not followed (the 3xx
/// answer is returned), only http and https are spoken, and an answer larger than
/// `maximumBodyBytes` — after decompression, so a small gzip body cannot expand without
/// limit — is refused.
///
/// The HTTP transport on Linux (a seam a program may replace: `HTTPTransport`).
///
/// Proxies: libcurl reads `https_proxy`/`HTTPS_PROXY`, `http_proxy` and `no_proxy`/`NO_PROXY`
/// from the environment. CA certificates: the system's store, as for `curl`.
package struct CurlTransport: HTTPTransport {
    /// Identity Toolkit's answers are a few kilobytes; 1 MiB is plenty.
    package static let maximumBodyBytes = 1 << 20

    package init() {}

    package func send(_ request: HTTPClientRequest) throws(TransportError) -> HTTPClientResponse {
        let headerLines = request.headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        var response = ccurl_response()
        defer { ccurl_response_free(&response) }
        let body = request.body ?? Data()
        let code: Int32 = withCStrings(headerLines) { headers in
            body.withUnsafeBytes { bytes in
                request.url.absoluteString.withCString { url in
                    request.method.withCString { method in
                        var exchange = ccurl_request(
                            url: url, method: method, headers: headers, header_count: headerLines.count,
                            body: bytes.baseAddress, body_length: bytes.count,
                            timeout_ms: max(1, Int(request.timeout * 1000)), max_body: Self.maximumBodyBytes)
                        return ccurl_perform(&exchange, &response)
                    }
                }
            }
        }
        if response.too_large != 0 {
            throw TransportError(.tooLarge, "the answer is larger than \(Self.maximumBodyBytes / (1 << 20)) MiB")
        }
        guard code == 0 else { throw Self.classify(code, detail: Self.errorText(&response)) }
        let answer = response.body.map { Data(bytes: $0, count: response.body_length) } ?? Data()
        let headerText = response.headers.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: response.headers_length), as: UTF8.self) } ?? ""
        return HTTPClientResponse(status: Int(response.status), headers: Self.lastResponseHeaders(headerText), body: answer)
    }

    /// The headers of the final response (libcurl also reports a proxy's or a 100 Continue's).
    package static func lastResponseHeaders(_ text: String) -> [String: String] {
        var headers: [String: String] = [:]
        // "\r\n" is one Character in Swift: split on any line break.
        for line in text.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("HTTP/") {
                headers = [:]
            } else if let colon = line.firstIndex(of: ":") {
                let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
                headers[line[..<colon].lowercased()] = String(value)
            }
        }
        return headers
    }

    /// libcurl's error codes (curl/curl.h, `CURLcode`) as fbauth's kinds of failure.
    package static func classify(_ code: Int32, detail: String) -> TransportError {
        switch code {
        case CCURL_UNAVAILABLE: TransportError(.other, detail)
        case 6: TransportError(.cannotConnect, "host name not found")  // COULDNT_RESOLVE_HOST
        case 5: TransportError(.cannotConnect, "proxy host name not found")  // COULDNT_RESOLVE_PROXY
        case 7: TransportError(.cannotConnect, "connection refused")  // COULDNT_CONNECT
        case 28: TransportError(.timedOut, "timed out")  // OPERATION_TIMEDOUT
        case 52, 55, 56: TransportError(.cannotConnect, "the connection was lost")  // GOT_NOTHING, SEND/RECV_ERROR
        case 35, 51, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91:
            TransportError(.other, "TLS handshake failed (\(detail))")  // SSL_* and PEER_FAILED_VERIFICATION
        default: TransportError(.other, detail)
        }
    }

    private static func errorText(_ response: inout ccurl_response) -> String {
        withUnsafeBytes(of: &response.error) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

/// Calls `body` with the strings as a C array of C strings, valid for the call.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    var storage: [CChar] = []
    var offsets: [Int] = []
    for string in strings {
        offsets.append(storage.count)
        storage.append(contentsOf: string.utf8CString)
    }
    return storage.withUnsafeBufferPointer { buffer in
        // A trailing nil keeps the array non-empty, so it always has a base address.
        let pointers: [UnsafePointer<CChar>?] = offsets.map { buffer.baseAddress! + $0 } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
