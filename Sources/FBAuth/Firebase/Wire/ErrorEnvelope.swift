/// `{"error": {"code": 400, "message": "…", "errors": [{"reason": "…"}], "status": "…",
/// "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "…"}]}}`: Google's
/// error model (cloud.google.com/apis/design/errors); API-key restrictions put their reason in
/// `details[].reason` (`API_KEY_IOS_APP_BLOCKED`, …).
struct ErrorEnvelope: Decodable {
    struct Body: Decodable {
        struct Item: Decodable { var reason: String? }
        var code: Int?
        var message: String
        var errors: [Item]?
        var status: String?
        var details: [Item]?
    }

    var error: Body
}
