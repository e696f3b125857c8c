@testable import FBAuthStandIn
import Foundation
import TestSupport
import Testing

/// The emulator's own JSON reader against Foundation's JSONDecoder, which it replaced (the
/// decoder's generic containers were a third of a 1,000-user import): seeded random documents,
/// and thousands of truncations and byte changes of them, must read as JSONDecoder reads them —
/// the same value, or refused by both. Nesting is bounded, so no body can exhaust the stack.
@Suite struct JSONReaderTests {
    /// What JSONText.parse was: Foundation's JSONDecoder into free-form values.
    struct DecoderReference: Decodable {
        let value: Any
        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { value = JSONNull() }
            else if let text = try? container.decode(String.self) { value = text }
            else if let object = try? container.decode([String: DecoderReference].self) { value = object.mapValues(\.value) }
            else if let flag = try? container.decode(Bool.self) { value = flag }
            else if let number = try? container.decode(Int.self) { value = number }
            else if let number = try? container.decode(Double.self) { value = number }
            else { value = try container.decode([DecoderReference].self).map(\.value) }
        }
        static func read(_ bytes: [UInt8]) -> Any? { (try? JSONDecoder().decode(Self.self, from: Data(bytes)))?.value }
    }

    static let pieces = ["", "a", "é", "漢字", "🙂", "\\\"", "\\\\", "\\/", "\\n", "\\t", "\\u0041", "\\u00e9", "\\ud83d\\ude42", "tenant", " ", "'"]
    static let numbers = ["0", "-0", "7", "-12", "2e3", "1.5", "-0.25", "1E-2", "12345678901234567890", "1.0", "9007199254740993", "3.14159"]

    static func document(_ random: inout SplitMix, depth: Int = 0) -> String {
        switch random.next(depth > 4 ? 5 : 7) {
        case 0: return "null"
        case 1: return random.next(2) == 0 ? "true" : "false"
        case 2: return numbers[random.next(numbers.count)]
        case 3, 4: return "\"" + (0..<random.next(4)).map { _ in pieces[random.next(pieces.count)] }.joined() + "\""
        case 5: return "[" + (0..<random.next(4)).map { _ in document(&random, depth: depth + 1) }.joined(separator: random.next(3) == 0 ? " , " : ",") + "]"
        default:
            // Each name once: of a name given twice JSONDecoder keeps the first, this reader the last.
            let names = (0..<5).map { "k\($0)" }.shuffled(using: &random).prefix(random.next(4))
            return "{" + names.map { "\"\($0)\":" + document(&random, depth: depth + 1) }.joined(separator: ",") + "}"
        }
    }

    /// Read as JSONDecoder reads `bytes`, but for the two deliberate differences: a trailing
    /// comma is refused (as by Node's `JSON.parse`, and so by Google's emulator), and of a name
    /// given twice the last value counts (as JSONSerialization and `JSON.parse` read it).
    static func same(_ bytes: [UInt8]) -> Bool {
        let mine = JSONReader.value(bytes), reference = DecoderReference.read(bytes)
        if mine == nil, reference != nil { return hasTrailingComma(bytes) }
        guard let mine, let reference else { return (mine == nil) == (reference == nil) }
        if JSONText.data(["v": mine]) == JSONText.data(["v": reference]) { return true }
        let serialized = (try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)).map(freeForm)
        return serialized.map { JSONText.data(["v": mine]) == JSONText.data(["v": $0]) } ?? false
    }

    /// A `,` before a closing `]` or `}`, outside strings.
    static func hasTrailingComma(_ bytes: [UInt8]) -> Bool {
        var inString = false, escaped = false, lastSignificant: UInt8 = 0
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
                continue
            }
            if byte == 0x22 { inString = true }
            if (byte == 0x5D || byte == 0x7D) && lastSignificant == 0x2C { return true }
            if ![0x20, 0x0A, 0x0D, 0x09].contains(byte) { lastSignificant = byte }
        }
        return false
    }

    /// JSONSerialization's value in the reader's types (its numbers are NSNumbers).
    static func freeForm(_ value: Any) -> Any {
        switch value {
        case let object as [String: Any]: return object.mapValues(freeForm)
        case let array as [Any]: return array.map(freeForm)
        case is NSNull: return JSONNull()
        case let text as String: return text
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c": return number.boolValue
            case "d", "f": return number.doubleValue == number.doubleValue.rounded() ? (Int(exactly: number.doubleValue) as Any? ?? number.doubleValue) : number.doubleValue
            default: return number.intValue
            }
        default: return value
        }
    }

    @Test(arguments: [1, 7, 99] as [UInt64])
    func documentsAndTheirDamageReadAsJSONDecoderReadsThem(seed: UInt64) {
        var random = SplitMix(seed: seed)
        var differences: [String] = []
        for _ in 0..<400 {
            let text = Self.document(&random)
            var variants = [Array(text.utf8), Array((" \n" + text + "\t ").utf8)]
            for _ in 0..<6 {
                var damaged = Array(text.utf8)
                guard !damaged.isEmpty else { break }
                switch random.next(3) {
                case 0: damaged.removeLast(random.next(damaged.count) + 1)
                case 1: damaged[random.next(damaged.count)] = [0x00, 0x09, 0x22, 0x2C, 0x5C, 0x5D, 0x7D, 0xFF, 0x30, 0x2E][random.next(10)]
                default: damaged.insert([0x2C, 0x22, 0x20, 0x5B, 0x7B, 0x31][random.next(6)], at: random.next(damaged.count))
                }
                variants.append(damaged)
            }
            for bytes in variants where !Self.same(bytes) { differences.append(String(decoding: bytes, as: UTF8.self)) }
        }
        #expect(differences.isEmpty, "\(differences.prefix(10))")
    }

    @Test func edgesOfTheGrammarReadAsJSONDecoderReadsThem() {
        let cases = ["01", "-", "1.", ".5", "1e", "1e+", "-01", "tru", "nul", "[", "]", "{", #"{"a"}"#, #"{"a":}"#, #"{1:2}"#,
                     #""\u00""#, #""\uD800""#, #""\uDC00""#, #""\uD83D\uDE42""#, "\"a\tb\"", #""\x""#, " 1 ", "1 2", "\"\u{7F}\"", "[1 2]", "{\"a\":1 \"b\":2}",
                     "[-]", "[+1]", "[1e400]", "[-1e400]", "[NaN]", "[Infinity]", "\"\\u0000\"", "[[[[]]]]", "\u{FEFF}1", "", "[1,]", #"{"a":1,}"#]
        let different = cases.filter { !Self.same(Array($0.utf8)) }
        #expect(different.isEmpty, "\(different)")
        #expect(JSONReader.value([0x22, 0xFF, 0x22]) == nil && DecoderReference.read([0x22, 0xFF, 0x22]) == nil)  // not UTF-8
        // The deliberate differences: no trailing comma; a name given twice keeps its last value.
        #expect(JSONReader.value(Array("[1,]".utf8)) == nil && DecoderReference.read(Array("[1,]".utf8)) != nil)
        #expect((JSONReader.value(Array(#"{"a":1,"a":2}"#.utf8)) as? [String: Any])?["a"] as? Int == 2)
    }

    /// What the emulator keeps as given (tenants, provider configurations, settings, claims) is
    /// kept as JSONValue: every document reads back as it was, and a value that is no JSON is
    /// not kept.
    @Test func keptValuesReadBackAsTheyWere() throws {
        var random = SplitMix(seed: 5)
        for _ in 0..<500 {
            let text = Self.document(&random)
            let read = try #require(JSONReader.value(Array(text.utf8)))
            let kept = try #require(JSONValue(read))
            #expect(JSONText.data(["v": kept.any]) == JSONText.data(["v": read]), "\(text)")
            #expect(JSONValue(kept.any) == kept)
        }
        #expect(JSONValue(["id": Int64(7), "small": UInt8(3), "flag": true, "half": 0.5] as [String: Any])
                == .object(["id": .int(7), "small": .int(3), "flag": .bool(true), "half": .double(0.5)]))
        #expect(JSONValue(["date": Date()] as [String: Any]) == nil && JSONValue.members(["a": [1, Date()] as [Any]]) == nil)
    }

    @Test func nestingIsBoundedInsteadOfRecursedInto() {
        let deepest = String(repeating: "[", count: JSONReader.deepest) + String(repeating: "]", count: JSONReader.deepest)
        #expect(JSONReader.value(Array(deepest.utf8)) != nil)
        let deeper = "[" + deepest + "]"
        #expect(JSONReader.value(Array(deeper.utf8)) == nil)
        // A body of a million openings is refused at once, not with a crash.
        #expect(JSONReader.value(Array(repeating: UInt8(ascii: "["), count: 1_000_000)) == nil)
        #expect(JSONReader.value(Array(repeating: UInt8(ascii: "{"), count: 1_000_000)) == nil)
    }
}
