import FirebaseAdminAuth

// Each line of stdin is an Authorization header; each answer is the status and the uid (or
// the reason). The project comes from GOOGLE_CLOUD_PROJECT, the emulator, if any, from
// FIREBASE_AUTH_EMULATOR_HOST, as for the Admin SDKs; `--check-revoked` looks each user up
// with the credentials GOOGLE_APPLICATION_CREDENTIALS names.
let auth = AdminAuth()
let checkRevoked = CommandLine.arguments.contains("--check-revoked")
while let line = readLine() {
    do {
        let user = try await authenticatedUser(authorization: line, auth: auth, checkRevoked: checkRevoked)
        print("200 \(user.uid) \(user.email ?? "-") admin=\(user.claims["admin"] as? Bool ?? false)")
    } catch let refusal as Unauthorized {
        print("\(refusal.status) \(refusal.reason)")
    }
}
