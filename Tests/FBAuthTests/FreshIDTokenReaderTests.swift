@testable import FBAuth
@testable import FBAuthCLI
import Foundation
import Testing
@testable import FBAuthSupport

/// `fbauth token`'s quick read of `sessions.json` must never answer differently from the full
/// path (load the store, choose the session, check its expiry): it answers the plain case the
/// same way, and leaves everything else to the full path by returning nil.
@Suite struct FreshIDTokenReaderTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let key = ProjectKey(apiKey: "AIzaKey", emulatorHost: nil)
    static let emulatorKey = ProjectKey(apiKey: "AIzaKey", emulatorHost: "127.0.0.1:9099")

    static func session(_ uid: String, tenantId: String? = nil, expiresIn seconds: TimeInterval = 3000, refreshToken: String = "refresh") -> Session {
        Session(uid: uid, tenantId: tenantId, email: "\(uid)@example.com", displayName: "Ada \"the first\" Lovelace ✓",
                idToken: "id.\(uid).\(tenantId ?? "-")", refreshToken: refreshToken,
                expirationTime: now.addingTimeInterval(seconds), lastSignInTime: now.addingTimeInterval(-600),
                providerCredentials: [ProviderCredential(providerId: "yahoo.com", accessToken: "a/b\\c", obtainedAt: now)])
    }

    /// Two projects, the current one with three sessions: the current one in the middle.
    static func store(current: SessionReference? = SessionReference(uid: "b", tenantId: "t1"), expiresIn: TimeInterval = 3000,
                      refreshToken: String = "refresh") -> StoreContents {
        var contents = StoreContents()
        contents.save(session("other"), in: emulatorKey, makeCurrent: true)
        for session in [session("a"), session("b", tenantId: "t1", expiresIn: expiresIn, refreshToken: refreshToken), session("b")] {
            contents.save(session, in: key, makeCurrent: false)
        }
        contents.projects[key.storageKey]?.current = current
        contents.currentProject = key.storageKey
        return contents
    }

    static func quick(_ text: String, _ project: ProjectChoice, minValid: TimeInterval = 300) -> FreshIDToken? {
        Array(text.utf8).withUnsafeBytes { FreshIDTokenReader.read($0, project: project, minValid: minValid, now: now) }
    }

    /// What the full path prints without a refresh, or nil when it refreshes or fails.
    static func full(_ text: String, _ project: ProjectChoice, minValid: TimeInterval = 300) -> FreshIDToken? {
        guard let contents = try? StoreFile.decode(Data(text.utf8)) else { return nil }
        let key: ProjectKey?
        switch project {
        case .key(let named): key = named
        case .remembered(let host):
            key = SavedProjects(contents: contents, location: "").remembered(onEmulator: host).map { ProjectKey(apiKey: $0.apiKey, emulatorHost: $0.emulatorHost) }
        }
        guard let key, let session = try? TokenRefresher.cachedSession(in: contents, .current, project: key, minValid: minValid, now: now)
        else { return nil }
        return FreshIDToken(session)
    }

    static func text(_ contents: StoreContents) -> String { String(decoding: StoreFile.encode(contents), as: UTF8.self) }

    @Test func thePlainCaseIsAnsweredAsTheFullPathAnswersIt() throws {
        let text = Self.text(Self.store())
        for project in [ProjectChoice.key(Self.key), .remembered(emulatorHost: nil)] {
            let answer = try #require(Self.quick(text, project), "\(project)")
            #expect(answer == Self.full(text, project))
            #expect(answer.idToken == "id.b.t1" && answer.uid == "b", "the current session, tenant included")
            #expect(answer.expirationTime == Self.now.addingTimeInterval(3000))
        }
        let other = try #require(Self.quick(text, .key(Self.emulatorKey)))
        #expect(other == Self.full(text, .key(Self.emulatorKey)) && other.idToken == "id.other.-")
    }

    @Test func everyOtherCaseIsLeftToTheFullPath() {
        let plain = Self.text(Self.store())
        let cases: [(String, String, ProjectChoice)] = [
            ("expiring", Self.text(Self.store(expiresIn: 299)), .key(Self.key)),
            ("expired", Self.text(Self.store(expiresIn: -5)), .key(Self.key)),
            ("no refresh token", Self.text(Self.store(refreshToken: "")), .key(Self.key)),
            ("no current session", Self.text(Self.store(current: nil)), .key(Self.key)),
            ("current session not saved", Self.text(Self.store(current: SessionReference(uid: "gone", tenantId: nil))), .key(Self.key)),
            ("unknown project", plain, .key(ProjectKey(apiKey: "elsewhere", emulatorHost: nil))),
            ("remembered project on another emulator", plain, .remembered(emulatorHost: "127.0.0.1:9099")),
            ("newer version", plain.replacingOccurrences(of: "\"version\" : 1", with: "\"version\" : 2"), .key(Self.key)),
            ("no version", plain.replacingOccurrences(of: "\"version\" : 1", with: "\"versions\" : 1"), .key(Self.key)),
            ("version as text", plain.replacingOccurrences(of: "\"version\" : 1", with: "\"version\" : \"1\""), .key(Self.key)),
            ("trailing garbage", plain + "}", .key(Self.key)),
            ("broken JSON after the answer", plain.replacingOccurrences(of: "\"version\" : 1", with: "\"version\" : 1,"), .key(Self.key)),
            ("duplicate key", plain.replacingOccurrences(of: "\"version\" : 1", with: "\"version\" : 1, \"version\" : 1"), .key(Self.key)),
            ("expiry not a timestamp", plain.replacingOccurrences(of: "\"expirationTime\" : \"2027", with: "\"expirationTime\" : \"x027"), .key(Self.key)),
            ("not JSON", "sessions", .key(Self.key)),
            ("a kept value with escapes", plain.replacingOccurrences(of: "\"id.b.t1\"", with: #""id.b\/t1""#), .key(Self.key)),
        ]
        for (name, text, project) in cases {
            #expect(Self.quick(text, project) == nil, "\(name)")
        }
        #expect(Self.full(Self.text(Self.store(expiresIn: 299)), .key(Self.key)) == nil, "the full path refreshes it too")
    }

    @Test func aProjectWhoseCurrentComesAfterItsSessionsIsLeftToTheFullPath() throws {
        let ordered = #"{"version": 1, "currentProject": "k", "projects": {"k": {"apiKey": "k", "current": {"uid": "u"}, "sessions": [{"uid": "u", "idToken": "h.p.s", "refreshToken": "r", "expirationTime": "2027-01-15T10:00:00Z", "lastSignInTime": "2027-01-15T07:00:00Z", "emailVerified": false, "isAnonymous": false, "providerData": [], "providerCredentials": []}]}}}"#
        let reordered = ordered.replacingOccurrences(of: #""current": {"uid": "u"}, "#, with: "")
            .replacingOccurrences(of: "]}}}", with: #"], "current": {"uid": "u"}}}}"#)
        let key = ProjectKey(apiKey: "k", emulatorHost: nil)
        #expect(Self.quick(ordered, .key(key)) == Self.full(ordered, .key(key)))
        #expect(Self.quick(ordered, .key(key))?.idToken == "h.p.s")
        #expect(Self.quick(reordered, .key(key)) == nil)
        #expect(Self.full(reordered, .key(key))?.idToken == "h.p.s", "the full path still answers it")
    }

    @Test func keysAreMatchedHoweverTheyAreSpelled() throws {
        let plain = Self.text(Self.store())
        let escaped = plain.replacingOccurrences(of: "\"version\"", with: #""\u0076ersion""#)
            .replacingOccurrences(of: "\"idToken\"", with: #""id\u0054oken""#)
        let answer = try #require(Self.quick(escaped, .key(Self.key)))
        #expect(answer == Self.full(escaped, .key(Self.key)) && answer.idToken == "id.b.t1")
    }

    @Test func invalidUTF8AnywhereIsLeftToTheFullPath() throws {
        let plain = Array(Self.text(Self.store()).utf8)
        #expect(Self.quick(bytes: plain, .key(Self.key)) != nil)
        // In a value the reader only steps over: the display name's last character.
        let check = Array("✓".utf8)
        let at = try #require(plain.indices.first { plain[$0...].starts(with: check) })
        for broken in [[UInt8(0xFF)], [0xE2, 0x9C], [0xC0, 0xAF], [0xED, 0xA0, 0x80]] {
            var bytes = plain
            bytes.replaceSubrange(at..<at + check.count, with: broken)
            #expect(Self.quick(bytes: bytes, .key(Self.key)) == nil, "\(broken)")
            #expect((try? StoreFile.decode(Data(bytes))) == nil, "the full path refuses the file too")
        }
    }

    static func quick(bytes: [UInt8], _ project: ProjectChoice) -> FreshIDToken? {
        bytes.withUnsafeBytes { FreshIDTokenReader.read($0, project: project, minValid: 300, now: now) }
    }

    @Test func theFixtureOfFbauth01IsRead() throws {
        let answer = Self.quick(StoreCompatibilityTests.version1, .key(ProjectKey(apiKey: "AIzaKey", emulatorHost: nil)), minValid: -1e12)
        #expect(answer?.idToken == "id.token.one" && answer?.uid == "uid-1")
    }
}

@Suite struct ParsingTests {
    @Test func jsonValuesParseAsRFC8259Says() throws {
        let value = try #require(JSONValue.parse(#" {"a": [1, -2.5e3, true, false, null], "s": "x\"\\\/\n\u00e9\ud83d\ude00", "e": {}, "f": []} "#))
        #expect(value["a"] == .array([.integer(1), .number(-2500), .bool(true), .bool(false), .null]))
        #expect(value["s"]?.stringValue == "x\"\\/\né😀")
        #expect(value["e"] == .object([:]) && value["f"] == .array([]))
        for bad in ["", "{", "[1,]", "{\"a\" 1}", "01", "1.", "\"\u{01}\"", "\"\\x\"", "\"\\ud83d\"", "tru", "[1] 2", String(repeating: "[", count: 300) + String(repeating: "]", count: 300)] {
            #expect(JSONValue.parse(bad) == nil, "\(bad)")
        }
        #expect(JSONValue.parse(Data([0x22, 0xFF, 0x22])) == nil, "invalid UTF-8 is refused")
    }

    @Test func timestampsAreReadByArithmeticOverTheWholeCalendar() {
        // Every day from 1970 to 2100 at a time that moves through the day, against Foundation.
        var seconds = 0
        while seconds < 4_102_444_800 {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            #expect(Timestamp.secondsSince1970(Timestamp.string(date)) == seconds, "\(Timestamp.string(date))")
            seconds += 86_400 + 3_607
        }
        #expect(Timestamp.parse("2024-02-29T23:59:59Z") == Date(timeIntervalSince1970: 1_709_251_199))
        for bad in ["2023-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-00-10T00:00:00Z", "2026-01-10T24:00:00Z"] {
            #expect(Timestamp.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func utf8IsCheckedAsSwiftDecodesIt() {
        // Every sequence of one or two bytes, and longer ones around each boundary of table 3-7.
        func agrees(_ bytes: [UInt8]) -> Bool {
            let valid = Array(String(decoding: bytes, as: UTF8.self).utf8) == bytes
            return bytes.withUnsafeBytes(UTF8Check.isWellFormed) == valid
        }
        var disagreements: [[UInt8]] = []
        for first in 0...255 {
            if !agrees([UInt8(first)]) { disagreements.append([UInt8(first)]) }
            for second in 0...255 where !agrees([UInt8(first), UInt8(second)]) { disagreements.append([UInt8(first), UInt8(second)]) }
        }
        let edges: [UInt8] = [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
        for lead in 0xC0...0xFF {
            for second in edges {
                for third in edges where !agrees([UInt8(lead), second, third]) { disagreements.append([UInt8(lead), second, third]) }
                for third in edges {
                    for fourth in edges where !agrees([UInt8(lead), second, third, fourth]) {
                        disagreements.append([UInt8(lead), second, third, fourth])
                    }
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    @Test func integersAreReadFromTheBytes() {
        func integer(_ text: String) -> Int64? {
            Array(text.utf8).withUnsafeBytes { bytes in
                var cursor = JSONCursor(bytes)
                return cursor.integer()
            }
        }
        let cases: [(String, Int64?)] = [
            ("0", 0), (" 1", 1), ("-0", 0), ("42", 42), ("9223372036854775807", .max), ("-9223372036854775808", .min),
            ("9223372036854775808", nil), ("-9223372036854775809", nil), ("01", nil), ("1.0", nil), ("1e3", nil), ("1E3", nil),
            ("-", nil), ("+1", nil), ("\"1\"", nil), ("", nil),
        ]
        for (text, expected) in cases {
            #expect(integer(text) == expected, "\(text)")
        }
    }

    @Test func theEmulatorHostMustBeHostAndPort() throws {
        for good in ["127.0.0.1:9099", "localhost:0", "[::1]:9099", "auth-emulator.internal:65535", "my_host%41:1"] {
            #expect(try FirebaseEndpoints.emulatorHost(setting: good) == good, "\(good)")
        }
        #expect(try FirebaseEndpoints.emulatorHost(setting: "") == nil)
        #expect(try FirebaseEndpoints.emulatorHost(setting: nil) == nil)
        for bad in ["localhost", "http://localhost:9099", "localhost:9099/", "user@localhost:9099", ":9099", "localhost:", "localhost:65536",
                    "localhost:123456", "local host:9099", "[::1:9099", "[xyz]:9099", "h%4:1", "h?:1"] {
            #expect(throws: FBAuthError.self, "\(bad)") { try FirebaseEndpoints.emulatorHost(setting: bad) }
        }
    }
}

extension FreshIDTokenReaderTests {
    /// A saved ID token that is not a JWT (an older fbauth saved what the server sent) is never
    /// printed from the store: both paths leave it to a refresh.
    @Test func aSavedTokenThatIsNotAJWTIsRefreshedNotPrinted() throws {
        let good = #"{"version": 1, "currentProject": "k", "projects": {"k": {"apiKey": "k", "current": {"uid": "u"}, "sessions": [{"uid": "u", "idToken": "h.p.s", "refreshToken": "r", "expirationTime": "2027-01-15T10:00:00Z", "lastSignInTime": "2027-01-15T07:00:00Z", "emailVerified": false, "isAnonymous": false, "providerData": [], "providerCredentials": []}]}}}"#
        let key = ProjectKey(apiKey: "k", emulatorHost: nil)
        #expect(Self.quick(good, .key(key))?.idToken == "h.p.s")
        for token in [#"h.p.s\r\nX-Evil: 1"#, "h.p.s X-Evil:1", "h.p"] {
            let injected = good.replacingOccurrences(of: "h.p.s", with: token)
            #expect(Self.quick(injected, .key(key)) == nil, "\(token)")
            #expect(Self.full(injected, .key(key)) == nil, "\(token)")
        }
    }
}
