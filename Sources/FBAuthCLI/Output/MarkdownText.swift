/// fbauth's guides (Markdown) as a terminal shows text, for `fbauth help TOPIC` on a terminal, as
/// `gh help` does: headings underlined, code blocks indented, tables in aligned columns, list
/// bullets as bullets, and the marks of emphasis and code dropped. Piped, a guide is printed as
/// the Markdown it is, for tools that read Markdown.
enum MarkdownText {
    static func render(_ markdown: String) -> String {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var output: [String] = []
        var index = 0
        var inCode = false
        while index < lines.count {
            let line = lines[index]
            index += 1
            if line.trimmingLeadingSpaces.hasPrefix("```") {
                inCode.toggle()
                continue
            }
            if inCode {
                output.append("    " + line)
                continue
            }
            if line.hasPrefix("|") {
                var rows = [line]
                while index < lines.count, lines[index].hasPrefix("|") {
                    rows.append(lines[index])
                    index += 1
                }
                output += table(rows)
                continue
            }
            let hashes = line.prefix { $0 == "#" }.count
            if (1...6).contains(hashes), line.dropFirst(hashes).first == " " {
                let title = inline(String(line.dropFirst(hashes + 1)))
                output.append(title)
                output.append(String(repeating: hashes == 1 ? "=" : "-", count: title.count))
                continue
            }
            let indent = line.prefix { $0 == " " }
            let rest = line.dropFirst(indent.count)
            if rest.hasPrefix("- ") || rest.hasPrefix("* ") {
                output.append(indent + "• " + inline(String(rest.dropFirst(2))))
            } else {
                output.append(inline(line))
            }
        }
        return output.joined(separator: "\n")
    }

    /// The cells of a table's rows in columns as wide as their widest cell; the `|---|` row
    /// becomes a rule under the header.
    private static func table(_ rows: [String]) -> [String] {
        let cells = rows.map { row in
            row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast().map { inline($0.trimmingCharacters) }
        }
        let isRule = { (row: [String]) in !row.isEmpty && row.allSatisfy { !$0.isEmpty && $0.allSatisfy { "-:".contains($0) } } }
        let content = cells.filter { !isRule($0) }
        let columns = content.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in content.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        func line(_ row: [String]) -> String {
            (0..<columns).map { column in
                let cell = column < row.count ? row[column] : ""
                return column == columns - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }
        var lines: [String] = []
        for row in cells {
            lines.append(isRule(row) ? widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") : line(row))
        }
        return lines
    }

    /// Text without Markdown's inline marks: `code`, **strong**, *emphasis*, and links as
    /// their text.
    static func inline(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let first = rest.first {
            if rest.hasPrefix("**") {
                rest = rest.dropFirst(2)
            } else if first == "`" {
                rest = rest.dropFirst()
            } else if first == "[", let close = rest.firstIndex(of: "]"), rest[rest.index(after: close)...].hasPrefix("("),
                      let end = rest[close...].firstIndex(of: ")") {
                result += rest[rest.index(after: rest.startIndex)..<close]
                rest = rest[rest.index(after: end)...]
            } else {
                result.append(first)
                rest = rest.dropFirst()
            }
        }
        return result
    }
}

private extension StringProtocol {
    var trimmingLeadingSpaces: SubSequence { drop { $0 == " " } }
    var trimmingCharacters: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
