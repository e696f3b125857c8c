@testable import FBAuth
import Foundation
import Testing

/// What a logger of the library (`--verbose`, or any program's) is handed: never a secret of the
/// request, even where the server's answer quotes it.
@Suite struct LoggedExchangeTests {
    final class Recorder: HTTPExchangeLogger, @unchecked Sendable {
        private let lock = NSLock()
        private var logged: [LoggedExchange] = []
        func log(_ exchange: LoggedExchange) { lock.withLock { logged.append(exchange) } }
        var exchanges: [LoggedExchange] { lock.withLock { logged } }
    }

    @Test func aLoggerSeesNoSecretOfTheRequest() throws {
        let password = "correct horse battery staple", apiKey = "AIzaSyA-logged-key-0123456789abcdefghi"
        let transport = ScriptedTransport([
            ScriptedTransport.json(400, #"{"error":{"code":400,"message":"INVALID_PASSWORD : \#(password) is wrong"}}"#),
        ])
        let recorder = Recorder()
        let client = FirebaseAuthClient(endpoints: .production, apiKey: apiKey, transport: transport, logger: recorder)
        #expect(throws: FBAuthError.self) { try client.signInWithPassword(email: "ada@example.com", password: password, tenantId: nil) }
        let exchange = try #require(recorder.exchanges.first)
        #expect(exchange.method == "POST" && exchange.status == 400)
        #expect(exchange.url.contains("accounts:signInWithPassword") && !exchange.url.contains(apiKey), "\(exchange.url)")
        #expect(exchange.requestBody.contains("ada@example.com") && !exchange.requestBody.contains(password), "\(exchange.requestBody)")
        let answer = try #require(exchange.responseBody)
        #expect(answer.contains("INVALID_PASSWORD") && !answer.contains(password), "\(answer)")
    }
}
