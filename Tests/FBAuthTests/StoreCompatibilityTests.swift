@testable import FBAuth
@testable import FBAuthCLI
import Foundation
import Testing
@testable import FBAuthSupport

/// Files that earlier fbauth versions wrote must keep reading. Each fixture is a file as that
/// version wrote it; never edit one — add a new one when the format changes.
@Suite struct StoreCompatibilityTests {
    /// `sessions.json` as fbauth 0.1 (format version 1) writes it.
    static let version1 = #"""
        {
          "projects" : {
            "AIzaKey" : {
              "apiKey" : "AIzaKey",
              "current" : {
                "uid" : "uid-1"
              },
              "sessions" : [
                {
                  "creationTime" : "2026-11-20T10:00:00Z",
                  "displayName" : "Ada Lovelace",
                  "email" : "ada@example.com",
                  "emailVerified" : true,
                  "expirationTime" : "2026-11-22T04:00:00Z",
                  "idToken" : "id.token.one",
                  "isAnonymous" : false,
                  "lastSignInTime" : "2026-11-22T03:00:00Z",
                  "providerCredentials" : [
                    {
                      "accessToken" : "yahoo-access",
                      "expirationTime" : "2026-11-22T04:00:00Z",
                      "obtainedAt" : "2026-11-22T03:00:00Z",
                      "providerId" : "yahoo.com"
                    }
                  ],
                  "providerData" : [
                    {
                      "displayName" : "Ada Lovelace",
                      "email" : "ada@example.com",
                      "providerId" : "yahoo.com",
                      "uid" : "YAHOO1"
                    }
                  ],
                  "refreshToken" : "refresh-one",
                  "uid" : "uid-1"
                }
              ]
            }
          },
          "version" : 1
        }
        """#

    @Test func version1FilesRead() throws {
        let contents = try StoreFile.decode(Data(Self.version1.utf8))
        let key = ProjectKey(apiKey: "AIzaKey", emulatorHost: nil)
        let session = try #require(contents.currentSession(of: key))
        #expect(session.uid == "uid-1")
        #expect(session.email == "ada@example.com")
        #expect(session.providerData.first?.uid == "YAHOO1")
        #expect(session.providerCredentials.first?.accessToken == "yahoo-access")
        #expect(session.expirationTime == ISO8601DateFormatter().date(from: "2026-11-22T04:00:00Z"))
        #expect(session.canRefresh)
    }

    @Test func writingKeepsEverySessionAndTheVersion() throws {
        var contents = try StoreFile.decode(Data(Self.version1.utf8))
        let key = ProjectKey(apiKey: "AIzaKey", emulatorHost: nil)
        contents.save(Session(uid: "uid-2", idToken: "i", refreshToken: "r", expirationTime: Date(), lastSignInTime: Date()), in: key, makeCurrent: false)
        let written = StoreFile.encode(contents)
        let reread = try StoreFile.decode(written)
        #expect(reread.project(key)?.sessions.map(\.uid) == ["uid-1", "uid-2"])
        #expect(reread.currentSession(of: key)?.uid == "uid-1")
        #expect((try JSONSerialization.jsonObject(with: written) as? [String: Any])?["version"] as? Int == StoreFile.currentVersion)
    }
}

@Suite struct TimestampTests {
    @Test func timestampsRoundTrip() {
        let date = Date(timeIntervalSince1970: 1_795_318_457)
        #expect(Timestamp.parse(Timestamp.string(date)) == date)
        #expect(Timestamp.parse("2026-11-22T03:34:17Z") == date)
        for bad in ["2026-11-22T04:34:17", "2026-13-22T04:34:17Z", "2026-11-22 04:34:17Z", "2026-11-22T04:34:17.5Z", ""] {
            #expect(Timestamp.parse(bad) == nil, "\(bad)")
        }
    }
}
