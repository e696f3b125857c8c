@testable import FBAuthCore
import Foundation
import Testing

@Suite struct ErrorMappingTests {
    private func server(_ message: String, status: Int = 400, reasons: [String] = []) -> FBAuthError {
        .server(ServerError(httpStatus: status, message: message, reasons: reasons, host: "h"), action: "sign-in")
    }

    @Test(arguments: [
        ("INVALID_IDP_RESPONSE : bad code", "INVALID_IDP_RESPONSE", "bad code"),
        ("INVALID_IDP_RESPONSE: tight", "INVALID_IDP_RESPONSE", "tight"),
        ("USER_NOT_FOUND", "USER_NOT_FOUND", nil),
        ("USER_NOT_FOUND ((emulator note))", "USER_NOT_FOUND", "((emulator note))"),
        ("API key not valid. Please pass a valid API key.", nil, "API key not valid. Please pass a valid API key."),
        ("Invalid JSON payload received.", nil, "Invalid JSON payload received."),
        ("OK", nil, "OK"),
    ] as [(String, String?, String?)])
    func leadingCodes(message: String, code: String?, detail: String?) {
        let error = ServerError(httpStatus: 400, message: message, host: "h")
        #expect(error.code == code)
        #expect(error.detail == detail)
    }

    @Test(arguments: [
        ("TOKEN_EXPIRED", ExitCode.signInAgain),
        ("INVALID_REFRESH_TOKEN", .signInAgain),
        ("INVALID_ID_TOKEN", .signInAgain),
        ("USER_NOT_FOUND", .signInAgain),
        ("USER_DISABLED", .failure),
        ("INVALID_IDP_RESPONSE : x", .failure),
        ("FEDERATED_USER_ID_ALREADY_LINKED", .failure),
        ("SOMETHING_NEW : unknown to the table", .failure),
    ])
    func exitCodesFollowTheTable(message: String, exitCode: ExitCode) {
        #expect(server(message).exitCode == exitCode)
    }

    @Test func transientAnswersAreNetworkErrors() {
        #expect(server("UNAVAILABLE", status: 503).exitCode == .network)
        #expect(server("RESOURCE_EXHAUSTED", status: 429).exitCode == .network)
        #expect(server("UNAVAILABLE", status: 503).message.contains("try again later"))
    }

    @Test func messagesExplainKnownCodesAndShowUnknownOnes() {
        #expect(server("OPERATION_NOT_ALLOWED").message == "sign-in failed: this sign-in provider is not enabled for the project (Firebase console → Authentication → Sign-in method) [OPERATION_NOT_ALLOWED]")
        #expect(server("INVALID_IDP_RESPONSE : code used").message.hasSuffix("[INVALID_IDP_RESPONSE] (code used)"))
        #expect(server("BRAND_NEW_CODE : whatever").message == "sign-in failed: BRAND_NEW_CODE : whatever")
        #expect(server("Bad key", reasons: ["keyInvalid"]).message.contains("the API key is not valid"))
    }

    @Test func everyErrorKindHasItsExitCode() {
        #expect(FBAuthError.usage("x").exitCode == .usage)
        #expect(FBAuthError.network(host: "h", reason: "r").exitCode == .network)
        #expect(FBAuthError.network(host: "h", reason: "r").message == "could not reach h: r")
        #expect(FBAuthError.badResponse(host: "h", reason: "r").exitCode == .failure)
        #expect(FBAuthError.signInAgain("x").exitCode == .signInAgain)
        #expect(FBAuthError.flowIncomplete("x").exitCode == .flowIncomplete)
        #expect(FBAuthError.accountExists("x").exitCode == .accountExists)
        #expect(FBAuthError.store("x").exitCode == .store)
        #expect(ExitCode.allCases.map(\.rawValue) == Array(0...7))
    }

    @Test func clientTurnsAnswersIntoErrors() {
        func failure(_ status: Int, _ body: String, type: String = "application/json") -> FBAuthError {
            FirebaseAuthClient.failure(
                from: HTTPClientResponse(status: status, headers: ["Content-Type": type], body: Data(body.utf8)), host: "h", action: "a")
        }
        guard case .server(let error, _) = failure(400, #"{"error":{"code":400,"message":"EMAIL_EXISTS","errors":[{"reason":"invalid"}]}}"#) else {
            Issue.record("envelope not read"); return
        }
        #expect(error.code == "EMAIL_EXISTS" && error.reasons == ["invalid"])
        guard case .server(let transient, _) = failure(502, "<html>Bad gateway</html>", type: "text/html") else {
            Issue.record("5xx without envelope"); return
        }
        #expect(transient.isTransient)
        guard case .badResponse = failure(404, "<html>nope</html>", type: "text/html") else {
            Issue.record("4xx without envelope"); return
        }
    }
}
