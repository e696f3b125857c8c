import FBAuth
/// `fbauth.1`, generated from the command specs, exit codes and environment table — the same
/// source as `--help`, so the two cannot drift apart.
enum ManPage {
    static func render(commands: [CommandSpec]) -> String {
        var page = """
            .TH FBAUTH 1 "" "fbauth \(CommandLineTool.version)" "User Commands"
            .SH NAME
            fbauth \\- sign in to Firebase Authentication from the command line
            .SH SYNOPSIS
            .B fbauth
            .I COMMAND
            [\\fIoptions\\fR]
            .SH DESCRIPTION
            fbauth signs in to Firebase Authentication with any OAuth provider Firebase supports
            (Yahoo, Microsoft, Twitter, Google, GitHub, Apple, OIDC, SAML), through the browser and a
            loopback listener, and keeps sessions for scripts: \\fBfbauth token\\fR prints a Firebase
            ID token, refreshed when needed.
            .SH COMMANDS

            """
        for spec in commands {
            page += ".SS \(escape("fbauth \(spec.name)"))\n"
            for line in spec.usage { page += ".B fbauth \(escape(spec.name))\n\(escape(line))\n.br\n" }
            page += ".PP\n\(escape(spec.summary))\n"
            if let details = spec.details {
                for paragraph in details.split(separator: "\n", omittingEmptySubsequences: true) {
                    page += ".PP\n\(escape(String(paragraph)))\n"
                }
            }
            for option in spec.options { page += entry(option) }
        }
        page += ".SH GLOBAL OPTIONS\n"
        for option in GlobalOptions.specs { page += entry(option) }
        page += ".SH ENVIRONMENT\n"
        for variable in EnvironmentVariables.all { page += ".TP\n.B \(variable.name)\n\(escape(variable.meaning))\n" }
        page += ".SH EXIT STATUS\n"
        for code in ExitCode.allCases { page += ".TP\n.B \(code.rawValue)\n\(escape(code.meaning))\n" }
        page += """
            .SH FILES
            .TP
            .I ~/.config/fbauth/sessions.json
            Saved sessions (mode 0600, in a 0700 directory), with the lock file sessions.lock.
            .SH EXAMPLES
            .nf
            fbauth signin \\-\\-provider yahoo.com
            curl \\-H "Authorization: Bearer $(fbauth token)" https://example.com/api
            fbauth signin \\-\\-provider microsoft.com \\-\\-param tenant=contoso.onmicrosoft.com
            .fi

            """
        return page
    }

    private static func entry(_ option: OptionSpec) -> String {
        ".TP\n.B \(escape(option.synopsis))\n\(escape(option.help))\n"
    }

    /// Escapes text for roff: backslashes, hyphens, non-ASCII characters (`\[uXXXX]`), and a
    /// leading dot or quote.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case _ where scalar.isASCII: escaped.unicodeScalars.append(scalar)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped
    }
}
