#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport

/// The versioned envelope of `sessions.json`. `version` says how the rest is laid out, so a
/// later fbauth can read what an earlier one wrote, and an earlier one refuses (rather than
/// overwrites) a file from a later one.
struct StoreFile: Codable {
    static let currentVersion = 1

    var version: Int
    var projects: [String: ProjectState]
    var currentProject: String?
    var secretStore: SecretStorage?

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
            return StoreContents(projects: file.projects, currentProject: file.currentProject, secretStorage: file.secretStore)
        } catch let error as DecodingError {
            throw .malformed(StoreFileProblem.Location(error))
        } catch {
            throw .malformed(StoreFileProblem.Location(sentence: "it is not laid out as a session store"))
        }
    }

    static func encode(_ contents: StoreContents) -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain value types cannot fail.
        return (try? encoder.encode(StoreFile(version: currentVersion, projects: contents.projects, currentProject: contents.currentProject,
                                                       secretStore: contents.secretStorage))) ?? Data()
    }
}

enum StoreFileProblem: Error {
    case notJSON
    case noVersion
    case unsupportedVersion(String)
    case newerVersion(Int)
    case malformed(Location)

    /// Which value of the file fbauth cannot read, and why, in words.
    struct Location {
        var sentence: String

        init(sentence: String) { self.sentence = sentence }

        init(_ error: DecodingError) {
            switch error {
            case .typeMismatch(let type, let context):
                self.init(sentence: "the value at \(Self.path(context.codingPath)) should be \(Self.kind(type))")
            case .valueNotFound(let type, let context):
                self.init(sentence: "the value at \(Self.path(context.codingPath)) should be \(Self.kind(type)), not null")
            case .keyNotFound(let key, let context):
                self.init(sentence: "the field \(Self.path(context.codingPath + [key])) is missing")
            case .dataCorrupted(let context):
                self.init(sentence: "the value at \(Self.path(context.codingPath)) is wrong: \(TerminalText.safe(String(context.debugDescription.prefix(120))))")
            @unknown default:
                self.init(sentence: "it is not laid out as a session store")
            }
        }

        static func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue, key.stringValue.hasPrefix("Index") || Int(key.stringValue) == index { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + TerminalText.safe(String(key.stringValue.prefix(60))) }
            }
            return text
        }

        /// What a Swift type is in JSON's words.
        static func kind(_ type: Any.Type) -> String {
            switch type {
            case is String.Type: "text"
            case is Bool.Type: "true or false"
            case is Int.Type, is Int64.Type, is Double.Type: "a number"
            case is Date.Type: "a timestamp such as 2026-11-22T03:04:05Z"
            default:
                String(describing: type).hasPrefix("Array") ? "a list" : String(describing: type).hasPrefix("Dictionary") ? "an object" : "an object"
            }
        }
    }

    var description: String {
        switch self {
        case .notJSON: "it is not valid JSON"
        case .noVersion: "it has no \"version\" field"
        case .unsupportedVersion(let value): "its \"version\" is \(value), not a positive whole number"
        case .newerVersion(let version): "a newer version wrote it (store format \(version); this version reads format \(StoreFile.currentVersion))"
        case .malformed(let location): location.sentence
        }
    }

    /// The ways out, in words.
    var remedy: String {
        switch self {
        case .newerVersion: "upgrade to use it, or move it aside to start afresh (you then sign in again)"
        case .malformed: "correct that value, or move the file aside to start afresh (you then sign in again)"
        default: "repair it, or move it aside to start afresh (you then sign in again)"
        }
    }
}
