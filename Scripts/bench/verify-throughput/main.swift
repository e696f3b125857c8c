// How many Firebase ID tokens one core verifies per second with the keys in memory
// (Scripts/bench.sh, issue 42): `fbauth-verify-throughput TOKENS.json SECONDS`, where TOKENS.json
// is what Scripts/gen-firebase-token-vectors.py --now writes. Prints tokens per second.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FBAuthHTTP
import FBAuthVerification

/// Serves the certificates from memory, as Google would, with a day's max-age.
struct Certificates: HTTPTransport {
    let body: Data
    func send(_ request: HTTPClientRequest) throws(TransportError) -> HTTPClientResponse {
        HTTPClientResponse(status: 200, headers: ["Cache-Control": "max-age=86400"], body: body)
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let seconds = Double(arguments[2]), let data = FileManager.default.contents(atPath: arguments[1]),
      case .object(let fixture)? = JSONValue.parse(String(decoding: data, as: UTF8.self)),
      case .object(let certificates)? = fixture["certificates"], let token = fixture["tokens"]?["valid"]?.stringValue,
      let project = fixture["project"]?.stringValue
else {
    print("usage: fbauth-verify-throughput TOKENS.json SECONDS")
    exit(2)
}
let body = try JSONEncoder().encode(JSONValue.object(certificates))
let verifier = FirebaseTokenVerifier(projectId: project, transport: Certificates(body: body))
_ = try verifier.verify(token)  // fetches the keys once
let clock = ContinuousClock()
let end = clock.now.advanced(by: .seconds(seconds))
var count = 0
while clock.now < end {
    for _ in 0..<50 { _ = try verifier.verify(token) }
    count += 50
}
print(Int(Double(count) / seconds))
