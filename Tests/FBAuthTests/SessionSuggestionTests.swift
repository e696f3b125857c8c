@testable import FBAuthCLI
import Testing

/// Issue 60: `fbauth use NAME` suggests a saved session only where NAME looks like a typo of it:
/// an address by its own part at the same domain, not another person's address of the domain.
@Suite struct SessionSuggestionTests {
    @Test func anAddressIsSuggestedOnlyForATypoOfItsOwnPart() {
        let saved = ["ada@example.com", "grace@example.com", "bob@other.example"]
        #expect(UseCommand.suggestion(for: "pat@example.com", among: saved) == nil, "another person, not a typo")
        #expect(UseCommand.suggestion(for: "grac@example.com", among: saved) == "grace@example.com")
        #expect(UseCommand.suggestion(for: "bob@example.com", among: saved) == nil, "the same name at another domain is someone else")
        #expect(UseCommand.suggestion(for: "ada@example.co", among: saved) == "ada@example.com", "a typo of the domain")
    }
}
