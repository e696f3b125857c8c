import FirebaseAdminAuth

/// Why a request is not let in: the HTTP status to answer and the reason.
struct Unauthorized: Error {
    let status: Int
    let reason: String
}

/// The signed-in user of a request, from its `Authorization: Bearer <ID token>` header: what a
/// middleware calls before a handler runs. A missing header is 401; a refused token is 401 with
/// the Admin SDK's reason (with `checkRevoked`, a disabled, deleted or revoked user too); Google
/// out of reach is 503, and the server's own Admin API credentials refused 500.
func authenticatedUser(authorization: String?, auth: AdminAuth, checkRevoked: Bool = false) async throws -> DecodedIDToken {
    guard let authorization, authorization.hasPrefix("Bearer "), authorization.count > 7 else {
        throw Unauthorized(status: 401, reason: "no bearer token")
    }
    do {
        return try await auth.verifyIDToken(String(authorization.dropFirst(7)), checkRevoked: checkRevoked)
    } catch let error as AdminAuthError {
        switch error.cause {
        case .unavailable: throw Unauthorized(status: 503, reason: error.message)
        case .serverCredentials: throw Unauthorized(status: 500, reason: error.message)
        case .invalidToken: throw Unauthorized(status: 401, reason: error.message)
        }
    }
}

// In Hummingbird, for one:
//
//     struct FirebaseAuthMiddleware<Context: RequestContext>: RouterMiddleware {
//         let auth = AdminAuth(projectID: "my-project")
//         func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
//             let user = try await authenticatedUser(authorization: request.headers[.authorization], auth: auth)
//             ...
//         }
//     }
