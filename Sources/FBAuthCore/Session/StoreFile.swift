import Foundation

/// The versioned envelope of `sessions.json`. `version` says how the rest is laid out, so a
/// later fbauth can read what an earlier one wrote, and an earlier one refuses (rather than
/// overwrites) a file from a later one.
struct StoreFile: Codable {
    static let currentVersion = 1

    var version: Int
    var projects: [String: ProjectState]
    var currentProject: String?

    static func decode(_ data: Data) throws(StoreFileProblem) -> StoreContents {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard case .object(let root)? = try? decoder.decode(JSONValue.self, from: data) else { throw .notJSON }
        guard let value = root["version"] else { throw .noVersion }
        // A positive whole number: not "1", 1.5, true or -7.
        guard case .integer(let number) = value, number >= 1, number <= Int64(Int32.max) else {
            throw .unsupportedVersion(value.compactText)
        }
        let version = Int(number)
        guard version <= currentVersion else { throw .newerVersion(version) }
        do {
            let file = try decoder.decode(StoreFile.self, from: data)
            return StoreContents(projects: file.projects, currentProject: file.currentProject)
        } catch {
            throw .malformed(String(describing: error))
        }
    }

    static func encode(_ contents: StoreContents) -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain value types cannot fail.
        return (try? encoder.encode(StoreFile(version: currentVersion, projects: contents.projects, currentProject: contents.currentProject))) ?? Data()
    }
}

enum StoreFileProblem: Error {
    case notJSON
    case noVersion
    case unsupportedVersion(String)
    case newerVersion(Int)
    case malformed(String)

    var description: String {
        switch self {
        case .notJSON: "it is not valid JSON"
        case .noVersion: "it has no \"version\" field"
        case .unsupportedVersion(let value): "unsupported store version \(value) (a positive whole number is expected)"
        case .newerVersion(let version): "it was written by a newer fbauth (format version \(version)); upgrade fbauth"
        case .malformed(let detail): "it does not have the expected layout (\(detail))"
        }
    }
}

extension StoreFile {
    /// Reads only what choosing a session and printing its ID token needs (`fbauth token`'s fast
    /// path); the sessions it returns carry just uid, tenant, email, tokens and expiry. Nil when
    /// the file is not exactly as expected: the caller then uses `decode` and its errors.
    static func decodeTokenFields(_ data: Data) -> StoreContents? {
        (try? JSONDecoder().decode(TokenFields.self, from: data))?.contents
    }
}

/// `sessions.json` read with a single coding-key type and primitive values only.
/// swift-foundation's JSONDecoder checks every distinct Decodable type it meets with a dynamic
/// cast, and in a statically linked program each first cast scans the runtime's conformance
/// tables — together more than everything else `fbauth token` does.
private struct TokenFields: Decodable {
    var contents = StoreContents()

    init(from decoder: Decoder) throws {
        let root = try decoder.container(keyedBy: AnyKey.self)
        guard (1...StoreFile.currentVersion).contains(try root.decode(Int.self, forKey: AnyKey("version"))) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "newer version"))
        }
        contents.currentProject = try root.decodeIfPresent(String.self, forKey: AnyKey("currentProject"))
        let projects = try root.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("projects"))
        for name in projects.allKeys {
            let project = try projects.nestedContainer(keyedBy: AnyKey.self, forKey: name)
            var state = ProjectState(key: ProjectKey(
                apiKey: try project.decode(String.self, forKey: AnyKey("apiKey")),
                emulatorHost: try project.decodeIfPresent(String.self, forKey: AnyKey("emulatorHost"))))
            if project.contains(AnyKey("current")) {
                let current = try project.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("current"))
                state.current = SessionReference(
                    uid: try current.decode(String.self, forKey: AnyKey("uid")),
                    tenantId: try current.decodeIfPresent(String.self, forKey: AnyKey("tenantId")))
            }
            var sessions = try project.nestedUnkeyedContainer(forKey: AnyKey("sessions"))
            while !sessions.isAtEnd {
                let session = try sessions.nestedContainer(keyedBy: AnyKey.self)
                guard let expiry = Timestamp.parse(try session.decode(String.self, forKey: AnyKey("expirationTime"))) else {
                    throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unexpected timestamp"))
                }
                state.sessions.append(Session(
                    uid: try session.decode(String.self, forKey: AnyKey("uid")),
                    tenantId: try session.decodeIfPresent(String.self, forKey: AnyKey("tenantId")),
                    email: try session.decodeIfPresent(String.self, forKey: AnyKey("email")),
                    idToken: try session.decode(String.self, forKey: AnyKey("idToken")),
                    refreshToken: try session.decode(String.self, forKey: AnyKey("refreshToken")),
                    expirationTime: expiry,
                    lastSignInTime: Date(timeIntervalSince1970: 0)))
            }
            contents.projects[name.stringValue] = state
        }
    }
}
