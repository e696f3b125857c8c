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
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = Timestamp.stored(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a timestamp such as 2026-11-22T03:04:05Z")
            }
            return date
        }
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
