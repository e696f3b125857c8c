#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

/// An error answered in Google's envelope (the Firebase Auth REST API reference, "Error responses";
/// firebase-js-sdk packages/auth/src/api/errors.ts):
/// `{"error": {"code": 400, "message": "CODE : detail", "errors": [{"message", "domain", "reason"}]}}`;
/// non-400 classes carry a `status` name.
struct APIError: Error {
    var httpStatus: Int
    var message: String
    var status: String?
    var reason = "invalid"
    /// `details[].reason` of Google's error model (API-key restrictions).
    var detailReason: String? = nil

    static func badRequest(_ message: String) -> APIError { APIError(httpStatus: 400, message: message) }

    static func invalidArgument(_ message: String) -> APIError {
        APIError(httpStatus: 400, message: message, status: "INVALID_ARGUMENT")
    }

    static let missingAPIKey = APIError(httpStatus: 403, message: "The request is missing a valid API key.", status: "PERMISSION_DENIED", reason: "forbidden")
    static let invalidAPIKey = APIError(httpStatus: 400, message: "API key not valid. Please pass a valid API key.", status: "INVALID_ARGUMENT", reason: "keyInvalid")
    static func blocked(_ message: String, reason: String) -> APIError {
        APIError(httpStatus: 403, message: message, status: "PERMISSION_DENIED", reason: "forbidden", detailReason: reason)
    }

    /// Google's emulator's InternalError (firebase-tools `errors.ts`): 500, INTERNAL.
    static func internalError(_ message: String) -> APIError { APIError(httpStatus: 500, message: message, status: "INTERNAL", reason: "internal") }

    static let notFound = APIError(httpStatus: 404, message: "Not Found", status: "NOT_FOUND", reason: "notFound")
    /// What the Auth emulator answers for operations it does not implement.
    static let notImplemented = APIError(httpStatus: 501, message: "NOT_IMPLEMENTED", status: "NOT_IMPLEMENTED", reason: "notImplemented")

    var response: HTTPResponse {
        var error: [String: Any] = [
            "code": httpStatus, "message": message,
            "errors": [["message": message, "domain": "global", "reason": reason]],
        ]
        if let status { error["status"] = status }
        if let detailReason {
            error["details"] = [["@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": detailReason, "domain": "googleapis.com"]]
        }
        return JSONResponse.make(httpStatus, ["error": error])
    }
}

enum JSONResponse {
    static func make(_ status: Int, _ object: [String: Any]) -> HTTPResponse {
        let data = JSONText.data(object)
        return .json(status, Array(data))
    }
}
