/// `{"error": {"code": 400, "message": "…", "errors": [{"reason": "…"}], "status": "…"}}`
struct ErrorEnvelope: Decodable {
    struct Body: Decodable {
        struct Item: Decodable { var reason: String? }
        var code: Int?
        var message: String
        var errors: [Item]?
        var status: String?
    }

    var error: Body
}
