@testable import FBAuthCLI
import Foundation
import TestSupport
import Testing

/// The QR code `fbauth mfa enroll totp` draws: checked by a real decoder (zbarimg, from
/// Debian's zbar-tools, which `.ci/run` installs) and against the standard's structure.
@Suite struct QRCodeTests {
    static let zbarimg = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first(where: FileManager.default.isExecutableFile)

    /// The modules with a quiet zone of four, decoded by zbarimg.
    private func decoded(_ code: QRCode) throws -> String {
        let quiet = 4
        let dark = (0..<code.size + 2 * quiet).map { y in
            (0..<code.size + 2 * quiet).map { x in
                let (row, column) = (y - quiet, x - quiet)
                return (0..<code.size).contains(row) && (0..<code.size).contains(column) && code.modules[row][column]
            }
        }
        return try decodedImage(dark, surroundIsDark: false)
    }

    /// otpauth URIs (ASCII, as their label and query are percent-encoded) and text of every version's size.
    static let samples: [String] = [
        "otpauth://totp/fbauth-stand-in:ada%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=fbauth-stand-in&algorithm=SHA1&digits=6&period=30",
        "otpauth://totp/" + String(repeating: "long-project-name-", count: 8) + ":someone.with.a.long.name%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
        "A", String(repeating: "0123456789", count: 3), "~!@#$%^&*()_+{}|:<>?`-=[];,./ \"'",
    ] + [17, 32, 53, 78, 100, 106, 122, 130, 152, 180, 190, 213, 230, 251, 270, 400, 666].map { String(repeating: "y", count: $0) }

    @Test(.enabled(if: zbarimg != nil, "zbarimg (Debian's zbar-tools) is not installed; .ci/run installs it"), arguments: samples)
    func aDecoderReadsBackWhatWasEncoded(text: String) throws {
        let code = try #require(QRCode(Array(text.utf8)))
        #expect(try decoded(code) == text, "version \(code.version)")
    }

    @Test func theStructureFollowsTheStandard() throws {
        for length in [1, 14, 26, 42, 62, 84, 106, 122, 152, 180, 213, 251, 287, 331, 400, 500, 666] {
            let code = try #require(QRCode([UInt8](repeating: 0x41, count: length)), "\(length) bytes")
            #expect(code.size == 17 + 4 * code.version)
            // The three finders: a dark ring, a light ring, a dark 3×3 centre.
            for (top, left) in [(0, 0), (0, code.size - 7), (code.size - 7, 0)] {
                #expect(code.modules[top][left] && code.modules[top + 3][left + 3] && !code.modules[top + 1][left + 1])
            }
            // The timing patterns alternate, starting dark.
            #expect((8..<(code.size - 8)).allSatisfy { code.modules[6][$0] == ($0 % 2 == 0) && code.modules[$0][6] == ($0 % 2 == 0) })
            #expect(code.modules[code.size - 8][8], "the dark module")
        }
        #expect(QRCode([UInt8](repeating: 0, count: 667)) == nil, "longer than version 20 holds at level M")
        #expect(QRCode.capacity(version: 1) == 14 && QRCode.capacity(version: 7) == 122 && QRCode.capacity(version: 10) == 213)
    }

    @Test func reedSolomonMatchesTheStandardsExample() {
        // ISO/IEC 18004 annex I: "01234567" at 1-M has these ten error-correction codewords.
        let data: [UInt8] = [0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11]
        #expect(ReedSolomon.remainder(data, generator: ReedSolomon.generator(degree: 10)) == [0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55])
    }

    @Test func levelLMakesACodeAVersionSmallerWhereItCan() throws {
        let uri = "otpauth://totp/fbauth-stand-in:ada%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=fbauth-stand-in"
        let code = try #require(QRCode(Array(uri.utf8)))
        #expect(code.version == 6 && code.level == .low, "M would need version 7")
        #expect(try #require(QRCode(Array("A".utf8))).level == .medium, "M where the version is the same")
    }

    /// A drawing as a camera sees it, on a terminal whose text is `foreground` on
    /// `background` (true: light): each character cell two modules high.
    private func seen(_ drawing: String, foreground: Bool, background: Bool) -> [[Bool]] {
        var rows: [[Bool]] = []
        for line in drawing.split(separator: "\n") {
            var top: [Bool] = [], bottom: [Bool] = []
            var colours = (foreground, background)
            var rest = Substring(line)
            while let character = rest.first {
                if character == "\u{1B}", let end = rest.firstIndex(of: "m") {
                    let codes = rest[rest.index(rest.startIndex, offsetBy: 2)..<end].split(separator: ";").compactMap { Int($0) }
                    for code in codes {
                        switch code {
                        case 97: colours.0 = true
                        case 30: colours.0 = false
                        case 107: colours.1 = true
                        case 40: colours.1 = false
                        case 0: colours = (foreground, background)
                        default: break
                        }
                    }
                    rest = rest[rest.index(after: end)...]
                    continue
                }
                switch character {
                case "█": top.append(colours.0); bottom.append(colours.0)
                case "▀": top.append(colours.0); bottom.append(colours.1)
                case "▄": top.append(colours.1); bottom.append(colours.0)
                default: top.append(colours.1); bottom.append(colours.1)
                }
                rest = rest.dropFirst()
            }
            rows += [top, bottom]
        }
        return rows
    }

    /// Issue 29, item 8: the drawing decodes on light and dark terminals (colours), or on the
    /// theme it is meant for (plain, invert); the colour one fits 24 lines.
    @Test(.enabled(if: zbarimg != nil, "zbarimg (Debian's zbar-tools) is not installed; .ci/run installs it"),
          arguments: [(QRCode.Drawing.colours, true), (.colours, false), (.lightOnDark, false), (.darkOnLight, true)])
    func theDrawingDecodesOnTheTerminalItIsFor(drawing: QRCode.Drawing, lightTheme: Bool) throws {
        let uri = "otpauth://totp/fbauth-stand-in:ada%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=fbauth-stand-in"
        let code = try #require(QRCode(Array(uri.utf8)))
        let text = code.halfBlocks(drawing)
        if drawing == .colours { #expect(text.split(separator: "\n").count <= 24, "fits an 80×24 terminal") }
        let light = seen(text, foreground: !lightTheme, background: lightTheme)
        #expect(try decodedImage(light.map { $0.map { !$0 } }, surroundIsDark: !lightTheme) == uri, "\(drawing) on a \(lightTheme ? "light" : "dark") theme")
    }

    /// A grid of dark pixels (a module each), decoded by zbarimg, amid the terminal's
    /// background (`surroundIsDark`): only the drawing's own quiet zone separates them.
    private func decodedImage(_ dark: [[Bool]], surroundIsDark: Bool) throws -> String {
        let scale = 4, border = 4, height = dark.count, width = dark.map(\.count).max() ?? 0
        var pixels = ""
        for y in 0..<(height + 2 * border) * scale {
            for x in 0..<(width + 2 * border) * scale {
                let (row, column) = (y / scale - border, x / scale - border)
                let inside = (0..<height).contains(row) && (0..<dark[row].count).contains(column)
                let isDark = inside ? dark[row][column] : surroundIsDark
                pixels += isDark ? "1 " : "0 "
            }
            pixels += "\n"
        }
        let path = NSTemporaryDirectory() + "fbauth-qr-\(UUID().uuidString).pbm"
        try "P1\n\((width + 2 * border) * scale) \((height + 2 * border) * scale)\n\(pixels)".write(toFile: path, atomically: true, encoding: .ascii)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = Pipe()
        let process = try ChildProcess(try #require(Self.zbarimg), ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", path], environment: [:],
                                       stdout: output.fileHandleForWriting.fileDescriptor)
        try output.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.wait()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    @Test func halfBlocksDrawTwoRowsALineWithAQuietZone() throws {
        let code = try #require(QRCode(Array("fbauth".utf8)))
        let lines = code.halfBlocks().split(separator: "\n")
        #expect(lines.count == (code.size + 8 + 1) / 2)
        #expect(lines.allSatisfy { $0.count == code.size + 8 })
        #expect(lines[0].allSatisfy { $0 == "█" }, "the quiet zone is light")
        #expect(Set(lines.joined()).isSubset(of: ["█", "▀", "▄", " "]))
    }
}
