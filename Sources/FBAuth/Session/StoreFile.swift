#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
        JSONParser.parse(data).flatMap(tokenFields)
    }

    /// Nil unless every field it reads has the expected type.
    private static func tokenFields(_ root: JSONValue) -> StoreContents? {
        guard let version = root["version"]?.integerValue, (1...Int64(currentVersion)).contains(version),
            case .object(let projects)? = root["projects"]
        else { return nil }
        var contents = StoreContents()
        guard let currentProject = optionalString(root["currentProject"]) else { return nil }
        contents.currentProject = currentProject
        for (name, project) in projects {
            guard let apiKey = project["apiKey"]?.stringValue, let emulatorHost = optionalString(project["emulatorHost"]),
                case .array(let sessions)? = project["sessions"]
            else { return nil }
            var state = ProjectState(key: ProjectKey(apiKey: apiKey, emulatorHost: emulatorHost))
            if let current = project["current"], current != .null {
                guard let uid = current["uid"]?.stringValue, let tenantId = optionalString(current["tenantId"]) else { return nil }
                state.current = SessionReference(uid: uid, tenantId: tenantId)
            }
            for session in sessions {
                guard let uid = session["uid"]?.stringValue, let idToken = session["idToken"]?.stringValue,
                    let refreshToken = session["refreshToken"]?.stringValue,
                    let expiry = session["expirationTime"]?.stringValue.flatMap(Timestamp.parse),
                    let tenantId = optionalString(session["tenantId"]), let email = optionalString(session["email"])
                else { return nil }
                state.sessions.append(Session(
                    uid: uid, tenantId: tenantId, email: email, idToken: idToken, refreshToken: refreshToken,
                    expirationTime: expiry, lastSignInTime: Date(timeIntervalSince1970: 0)))
            }
            contents.projects[name] = state
        }
        return contents
    }

    /// `.some(nil)` for a missing or null field, `.some(text)` for a string, nil for anything else.
    private static func optionalString(_ value: JSONValue?) -> String?? {
        switch value {
        case nil, .null?: .some(nil)
        case .string(let text)?: .some(text)
        default: nil
        }
    }
}
