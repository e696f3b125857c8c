@testable import FBAuthStandIn
import Foundation
import Testing

/// The stand-in's JSON writer against Foundation's reader and writer: every string comes back
/// as it went in, and its escapes are the ones JSONSerialization writes.
@Suite struct JSONTextTests {
    static let strings = ["", "plain", "a/b", "q\"uote", "back\\slash", "line\nbreak\r\n", "tab\t", "\u{1}\u{1F}", "é and 漢字 and 🙂",
                          "e\u{301}/\"", "ends with /", "/", "\"", "abc+/=="]

    @Test(arguments: strings)
    func stringsComeBackAsTheyWent(text: String) throws {
        for escapingSlashes in [false, true] {
            let data = JSONText.data(["value": text], escapingSlashes: escapingSlashes)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
            #expect(object == ["value": text])
            let written = String(decoding: data, as: UTF8.self)
            #expect(written.contains("\\/") == (escapingSlashes && text.contains("/")))
        }
        let foundation = try JSONSerialization.data(withJSONObject: ["value": text], options: [.withoutEscapingSlashes])
        #expect(String(decoding: JSONText.data(["value": text]), as: UTF8.self).filter { $0 != " " && $0 != "\n" }
                == String(decoding: foundation, as: UTF8.self).filter { $0 != " " && $0 != "\n" })
    }
}
