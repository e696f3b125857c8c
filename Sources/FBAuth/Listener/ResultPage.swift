import LoopbackHTTP

/// The small page the browser shows after the redirect. Every value is HTML-escaped; no token
/// is ever put on it.
internal enum ResultPage {
    static let closeTabSentence = "You can close this tab and return to the terminal."
    static let failureSuffix = " You can close this tab; details are in the terminal."

    internal static func success(signedInAs who: String) -> HTTPResponse {
        page(status: 200, title: "Signed in", heading: "Signed in as \(who)", text: closeTabSentence)
    }

    internal static func failure(_ what: String) -> HTTPResponse {
        page(status: 400, title: "Sign-in failed", heading: "Sign-in failed", text: what + failureSuffix)
    }

    internal static func rejected(status: Int, reason: String) -> HTTPResponse {
        page(status: status, title: "fbauth", heading: HTTPResponse.reasonPhrase(status),
             text: "This address only receives the sign-in redirect for fbauth (\(reason)).")
    }

    static func page(status: Int, title: String, heading: String, text: String) -> HTTPResponse {
        .html(status, """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
            <style>body{font-family:system-ui,sans-serif;margin:4em auto;max-width:36em;padding:0 1em}</style>
            </head><body><h1>\(escape(heading))</h1><p>\(escape(text))</p></body></html>

            """)
    }

    /// Escapes text for use in HTML element content and attribute values.
    internal static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
