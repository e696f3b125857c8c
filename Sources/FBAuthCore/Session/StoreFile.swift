import Foundation

/// The versioned envelope of `sessions.json`. `version` says how the rest is laid out, so a
/// later fbauth can read what an earlier one wrote, and an earlier one refuses (rather than
/// overwrites) a file from a later one.
struct StoreFile: Codable {
    static let currentVersion = 1

    var version: Int
    var projects: [String: ProjectState]

    static func decode(_ data: Data) throws(StoreFileProblem) -> StoreContents {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        struct VersionOnly: Decodable { var version: Int? }
        guard let probe = try? decoder.decode(VersionOnly.self, from: data) else { throw .notJSON }
        guard let version = probe.version else { throw .noVersion }
        guard version <= currentVersion else { throw .newerVersion(version) }
        do {
            return StoreContents(projects: try decoder.decode(StoreFile.self, from: data).projects)
        } catch {
            throw .malformed(String(describing: error))
        }
    }

    static func encode(_ contents: StoreContents) -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain value types cannot fail.
        return (try? encoder.encode(StoreFile(version: currentVersion, projects: contents.projects))) ?? Data()
    }
}

enum StoreFileProblem: Error {
    case notJSON
    case noVersion
    case newerVersion(Int)
    case malformed(String)

    var description: String {
        switch self {
        case .notJSON: "it is not valid JSON"
        case .noVersion: "it has no \"version\" field"
        case .newerVersion(let version): "it was written by a newer fbauth (format version \(version)); upgrade fbauth"
        case .malformed(let detail): "it does not have the expected layout (\(detail))"
        }
    }
}
