import FBAuthStandIn
import Foundation
import Testing

/// Issue 56, item 5: the emulator made a state for every project name it was ever asked about,
/// and kept it: a client naming a new project in each request grew it without end. At most
/// 1,000 projects besides its own are kept; an idle one (nothing a client made in it) makes
/// room for a new one, and when every one holds users the new one is refused, nothing dropped.
@Suite struct ProjectBoundTests {
    @Test func idleProjectsMakeRoomAndProjectsWithUsersAreKept() throws {
        let standIn = try StandIn()
        standIn.start()
        defer { standIn.stop() }
        let client = StandInClient(standIn: standIn, apiKey: nil)
        func config(_ project: String) -> StandInClient.Answer { client.send("GET", "/emulator/v1/projects/\(project)/config") }
        func signUp(_ project: String) -> StandInClient.Answer {
            client.post("/identitytoolkit.googleapis.com/v1/projects/\(project)/accounts", json: ["email": "ada@example.com", "password": "correct horse"],
                        headers: ["Authorization: Bearer owner"])
        }
        // Twice the bound of idle projects: each is answered, the oldest forgotten.
        for index in 0..<2_000 {
            let answer = config("idle-\(index)")
            try #require(answer.status == 200, "idle-\(index): \(answer.json)")
        }
        // A thousand with a user each fill it: the idle ones give way.
        for index in 0..<1_000 {
            let answer = signUp("used-\(index)")
            try #require(answer.status == 200 && answer.json["localId"] is String, "used-\(index): \(answer.json)")
        }
        let refused = config("one-too-many")
        #expect(refused.status == 429 && (refused.json["error"] as? [String: Any])?["status"] as? String == "RESOURCE_EXHAUSTED", "\(refused.json)")
        #expect(refused.errorMessage?.hasPrefix("RESOURCE_EXHAUSTED : ((This emulator keeps at most 1000 projects besides its own") == true, "\(refused.json)")
        // Every user is still there, and the emulator's own project is always served.
        for index in [0, 499, 999] {
            let listed = client.send("GET", "/identitytoolkit.googleapis.com/v1/projects/used-\(index)/accounts:batchGet?maxResults=10", headers: ["Authorization: Bearer owner"])
            #expect((listed.json["users"] as? [[String: Any]])?.count == 1, "used-\(index): \(listed.json)")
        }
        #expect(config("fbauth-stand-in").status == 200)
    }
}
