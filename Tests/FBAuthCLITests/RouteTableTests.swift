import FBAuthStandIn
import Foundation
import TestSupport
import Testing

/// Issue 59, item 6: the emulator's route table (RouteTable.swift) against Google's own description
/// of the API, which Google's emulator serves at `/emulator/openapi.json` (firebase-tools
/// `src/emulator/auth/apiSpec.js`): every operation fbauth serves — the client API, the Admin
/// API's users and v2 resources, securetoken and the emulator's own — is a path and method
/// there, and takes no request field that the description's request schema lacks.
@Suite struct RouteTableTests {
    /// Fields fbauth takes that Google's description does not list, each for a reason.
    static let extraFields: [String: Set<String>] = [
        // Every SDK sends it to signUp and production takes it; the description omits it.
        "/v1/accounts:signUp": ["returnSecureToken"],
    ]

    /// What fbauth serves beyond Google's description (docs/emulator.md lists them): forgetting
    /// the mail and texts the emulator recorded, which Google's answers with 405.
    static let beyondGoogles: Set<String> = [
        "DELETE /emulator/v1/projects/{targetProjectId}/oobCodes", "DELETE /emulator/v1/projects/{targetProjectId}/tenants/{tenantId}/oobCodes",
        "DELETE /emulator/v1/projects/{targetProjectId}/verificationCodes", "DELETE /emulator/v1/projects/{targetProjectId}/tenants/{tenantId}/verificationCodes",
    ]

    @Test(.enabled(if: GoogleAuthEmulator.host != nil, "needs Google's Auth emulator (FBAUTH_TEST_AUTH_EMULATOR)"))
    func everyServedOperationIsInGooglesAPIDescriptionWithItsFields() throws {
        let host = try #require(GoogleAuthEmulator.host)
        let spec = try EmulatorHTTP.call("GET", host, "/emulator/openapi.json")
        let paths = try #require(spec["paths"] as? [String: [String: Any]])
        let schemas = try #require((spec["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]])
        var problems: [String] = []
        for operation in StandIn.servedOperations {
            let named = "\(operation.method) \(operation.path)"
            guard let described = paths[operation.path]?[operation.method.lowercased()] as? [String: Any] else {
                if !Self.beyondGoogles.contains(named) { problems.append("\(named): not in Google's description") }
                continue
            }
            if Self.beyondGoogles.contains(named) { problems.append("\(named): in Google's description after all") }
            // A GET's and a DELETE's fields are none; a resource kept as given is not read as fields.
            guard operation.method != "GET", operation.method != "DELETE", let fields = operation.fields else { continue }
            // The body is described in place or shared (`#/components/requestBodies/…`).
            var requestBody = described["requestBody"] as? [String: Any]
            if let shared = requestBody?["$ref"] as? String {
                requestBody = ((spec["components"] as? [String: Any])?["requestBodies"] as? [String: Any])?[String(shared.split(separator: "/").last ?? "")] as? [String: Any]
            }
            let content = requestBody?["content"] as? [String: Any]
            let reference = ((content?["application/json"] as? [String: Any])?["schema"] as? [String: Any])?["$ref"] as? String
            let schema = reference.flatMap { schemas[String($0.split(separator: "/").last ?? "")] }
            let properties = Set((schema?["properties"] as? [String: Any] ?? [:]).keys)
            let unknown = fields.subtracting(properties).subtracting(Self.extraFields[operation.path] ?? [])
            if !unknown.isEmpty { problems.append("\(operation.method) \(operation.path): \(unknown.sorted()) not in \(reference ?? "no schema")") }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        #expect(StandIn.servedOperations.count == 87, "\(StandIn.servedOperations.count)")
    }
}
