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

    /// Each JSON type is read as the free-form type it stands for, however deep.
    @Test func everyTypeIsReadAsItsOwn() throws {
        let parsed = try #require(JSONText.parse(#"{"a": 1, "b": 1.5, "c": true, "d": null, "e": [1, "x", {"f": false, "g": 2e3}], "h": "s", "i": {}}"#) as? [String: Any])
        #expect(parsed["a"] as? Int == 1 && parsed["b"] as? Double == 1.5 && parsed["c"] as? Bool == true && parsed["d"] is JSONNull && parsed["h"] as? String == "s")
        let array = try #require(parsed["e"] as? [Any])
        let inner = try #require(array[2] as? [String: Any])
        #expect(array[0] as? Int == 1 && array[1] as? String == "x" && inner["f"] as? Bool == false && inner["g"] as? Int == 2000)  // a whole number, as JSONDecoder reads 2e3
        #expect((parsed["i"] as? [String: Any])?.isEmpty == true)
        #expect(JSONText.parse("[1, 2") == nil && JSONText.parse(#"{"a": }"#) == nil && JSONText.parse("") == nil)
        #expect(String(decoding: JSONText.data(parsed), as: UTF8.self) == #"{"a":1,"b":1.5,"c":true,"d":null,"e":[1,"x",{"f":false,"g":2000}],"h":"s","i":{}}"#)
    }
}
