@testable import FBAuthCLI
import Testing

/// Issue 51, item 5: a guide shown on a terminal is text, not Markdown.
@Suite struct MarkdownTextTests {
    @Test func headingsCodeTablesListsAndInlineMarksBecomeText() {
        let markdown = """
        # Verifying tokens

        A **server** checks `X-Firebase-AppCheck` ([App Check](app-check.md)).

        ## In CI

        ```sh
        fbauth token | fbauth verify-token
        ```

        | check | Google's | `fbauth` |
        |---|---|---|
        | specs | 298 | **298** |
        | start-up (ms) | 5415 | 11 |

        - one
          - two
        """
        #expect(MarkdownText.render(markdown) == """
        Verifying tokens
        ================

        A server checks X-Firebase-AppCheck (App Check).

        In CI
        -----

            fbauth token | fbauth verify-token

        check          Google's  fbauth
        -------------  --------  ------
        specs          298       298
        start-up (ms)  5415      11

        • one
          • two
        """)
    }
}
