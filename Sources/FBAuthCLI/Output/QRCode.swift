/// A QR code (ISO/IEC 18004) of bytes, for the `otpauth://` URI of a TOTP enrolment, which an
/// authenticator app scans off the terminal. Byte mode, error correction level M (versions 1 to
/// 20, up to 666 bytes) or, where it makes the code a version smaller, L (versions 1 to 10):
/// an otpauth URI takes 100 to 150 bytes, and a smaller code fits an 80×24 terminal. No
/// library, only the standard's tables.
struct QRCode {
    /// `true` for a dark module; `modules[row][column]`.
    let modules: [[Bool]]
    let version: Int
    let level: Level

    var size: Int { modules.count }

    /// Error correction: L restores 7% of the code, M 15%. A code on a screen is not scratched.
    enum Level: Equatable {
        case low, medium

        /// The two bits of the format information (ISO/IEC 18004 table 12).
        var formatBits: Int { self == .low ? 0b01 : 0b00 }
        var blocks: [(ec: Int, groups: [(count: Int, data: Int)])] { self == .low ? QRCode.blocksL : QRCode.blocks }
    }

    /// The smallest code: the lowest version that holds `data`, at level M when that version
    /// allows it, else L. Nil when `data` is longer than version 20 holds at level M.
    init?(_ data: [UInt8]) {
        let choices = (1...20).flatMap { version in [Level.medium, .low].map { (version, $0) } }
            .filter { $0.1 == .medium || $0.0 <= QRCode.blocksL.count }
        guard let (version, level) = choices.first(where: { Self.capacity(version: $0.0, level: $0.1) >= data.count }) else { return nil }
        self.version = version
        self.level = level
        let codewords = Self.interleaved(Self.dataCodewords(data, version: version, level: level), version: version, level: level)
        var matrix = Matrix(version: version, level: level)
        matrix.place(codewords)
        modules = matrix.bestMasked()
    }

    // MARK: - The standard's tables

    /// Level L, versions 1 to 10 (ISO/IEC 18004 table 9).
    static let blocksL: [(ec: Int, groups: [(count: Int, data: Int)])] = [
        (7, [(1, 19)]), (10, [(1, 34)]), (15, [(1, 55)]), (20, [(1, 80)]), (26, [(1, 108)]),
        (18, [(2, 68)]), (20, [(2, 78)]), (24, [(2, 97)]), (30, [(2, 116)]), (18, [(2, 68), (2, 69)]),
    ]

    /// Level M: per version, error-correction codewords per block, then (blocks, data
    /// codewords) of each group (ISO/IEC 18004 table 9).
    static let blocks: [(ec: Int, groups: [(count: Int, data: Int)])] = [
        (10, [(1, 16)]), (16, [(1, 28)]), (26, [(1, 44)]), (18, [(2, 32)]), (24, [(2, 43)]),
        (16, [(4, 27)]), (18, [(4, 31)]), (22, [(2, 38), (2, 39)]), (22, [(3, 36), (2, 37)]), (26, [(4, 43), (1, 44)]),
        (30, [(1, 50), (4, 51)]), (22, [(6, 36), (2, 37)]), (22, [(8, 37), (1, 38)]), (24, [(4, 40), (5, 41)]), (24, [(5, 41), (5, 42)]),
        (28, [(7, 45), (3, 46)]), (28, [(10, 46), (1, 47)]), (26, [(9, 43), (4, 44)]), (26, [(3, 44), (11, 45)]), (26, [(3, 41), (13, 42)]),
    ]

    /// Centres of the alignment patterns (table E.1), versions 2 to 20.
    static let alignment: [[Int]] = [
        [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50],
        [6, 30, 54], [6, 32, 58], [6, 34, 62], [6, 26, 46, 66], [6, 26, 48, 70], [6, 26, 50, 74], [6, 30, 54, 78],
        [6, 30, 56, 82], [6, 30, 58, 86], [6, 34, 62, 90],
    ]

    static func dataCodewordCount(version: Int, level: Level = .medium) -> Int {
        level.blocks[version - 1].groups.reduce(0) { $0 + $1.count * $1.data }
    }

    /// Bytes that fit: mode (4 bits), count (8 bits to version 9, 16 from 10), the data.
    static func capacity(version: Int, level: Level = .medium) -> Int {
        (dataCodewordCount(version: version, level: level) * 8 - 4 - (version < 10 ? 8 : 16)) / 8
    }

    // MARK: - Codewords

    static func dataCodewords(_ data: [UInt8], version: Int, level: Level = .medium) -> [UInt8] {
        var bits = BitBuffer()
        bits.append(0b0100, count: 4)
        bits.append(data.count, count: version < 10 ? 8 : 16)
        for byte in data { bits.append(Int(byte), count: 8) }
        let capacity = dataCodewordCount(version: version, level: level) * 8
        bits.append(0, count: min(4, capacity - bits.count))
        while bits.count % 8 != 0 { bits.append(0, count: 1) }
        var codewords = bits.bytes
        var pad: UInt8 = 0xEC
        while codewords.count < capacity / 8 {
            codewords.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return codewords
    }

    /// Data split into blocks, each with its Reed-Solomon codewords; then interleaved.
    static func interleaved(_ data: [UInt8], version: Int, level: Level = .medium) -> [UInt8] {
        let layout = level.blocks[version - 1]
        var dataBlocks: [[UInt8]] = []
        var offset = 0
        for group in layout.groups {
            for _ in 0..<group.count {
                dataBlocks.append(Array(data[offset..<offset + group.data]))
                offset += group.data
            }
        }
        let generator = ReedSolomon.generator(degree: layout.ec)
        let ecBlocks = dataBlocks.map { ReedSolomon.remainder($0, generator: generator) }
        var result: [UInt8] = []
        for index in 0..<(dataBlocks.map(\.count).max() ?? 0) {
            for block in dataBlocks where index < block.count { result.append(block[index]) }
        }
        for index in 0..<layout.ec {
            for block in ecBlocks { result.append(block[index]) }
        }
        return result
    }
}

/// Bits, most significant first.
struct BitBuffer {
    private(set) var bits: [Bool] = []
    var count: Int { bits.count }

    mutating func append(_ value: Int, count: Int) {
        for shift in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
    }

    var bytes: [UInt8] {
        stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<min(start + 8, bits.count)].reduce(UInt8(0)) { ($0 << 1) | ($1 ? 1 : 0) }
        }
    }
}

/// Reed-Solomon over GF(2⁸) with the QR code's polynomial x⁸+x⁴+x³+x²+1.
enum ReedSolomon {
    static let (exp, log): ([UInt8], [Int]) = {
        var exp = [UInt8](repeating: 0, count: 512), log = [Int](repeating: 0, count: 256)
        var value = 1
        for power in 0..<255 {
            exp[power] = UInt8(value)
            log[value] = power
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        for power in 255..<512 { exp[power] = exp[power - 255] }
        return (exp, log)
    }()

    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        a == 0 || b == 0 ? 0 : exp[log[Int(a)] + log[Int(b)]]
    }

    /// (x − α⁰)(x − α¹)…(x − α^(degree−1)), highest coefficient first.
    static func generator(degree: Int) -> [UInt8] {
        var polynomial: [UInt8] = [1]
        for power in 0..<degree {
            var next = [UInt8](repeating: 0, count: polynomial.count + 1)
            for (index, coefficient) in polynomial.enumerated() {
                next[index] ^= coefficient
                next[index + 1] ^= multiply(coefficient, exp[power])
            }
            polynomial = next
        }
        return polynomial
    }

    /// The error-correction codewords: the remainder of data·x^degree divided by the generator.
    static func remainder(_ data: [UInt8], generator: [UInt8]) -> [UInt8] {
        let degree = generator.count - 1
        var remainder = [UInt8](repeating: 0, count: degree)
        for byte in data {
            let factor = byte ^ remainder[0]
            remainder.removeFirst()
            remainder.append(0)
            for index in 0..<degree { remainder[index] ^= multiply(generator[index + 1], factor) }
        }
        return remainder
    }
}

/// The module grid while it is built: function patterns first, then data, then the mask.
private struct Matrix {
    let version: Int
    let level: QRCode.Level
    let size: Int
    var dark: [[Bool]]
    /// Modules of function patterns (and reserved format/version areas): never data, never masked.
    var function: [[Bool]]

    init(version: Int, level: QRCode.Level) {
        self.version = version
        self.level = level
        size = 17 + 4 * version
        dark = Array(repeating: Array(repeating: false, count: size), count: size)
        function = dark
        for (row, column) in [(0, 0), (0, size - 7), (size - 7, 0)] { finder(row, column) }
        for index in 8..<(size - 8) {
            set(6, index, index % 2 == 0)
            set(index, 6, index % 2 == 0)
        }
        // Every pair of centres but the three that fall on finders (those on the timing
        // patterns are drawn over them).
        let centres = QRCode.alignment[version - 1]
        for (i, row) in centres.enumerated() {
            for (j, column) in centres.enumerated() {
                let last = centres.count - 1
                if (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0) { continue }
                alignment(row, column)
            }
        }
        // Format areas, reserved now, written with the mask; the dark module.
        for index in 0..<9 {
            reserve(8, index)
            reserve(index, 8)
        }
        for index in 0..<8 {
            reserve(8, size - 1 - index)
            reserve(size - 1 - index, 8)
        }
        set(size - 8, 8, true)
        if version >= 7 {
            let bits = Self.versionBits(version)
            for index in 0..<18 {
                let on = (bits >> index) & 1 == 1
                set(index / 3, size - 11 + index % 3, on)
                set(size - 11 + index % 3, index / 3, on)
            }
        }
    }

    mutating func set(_ row: Int, _ column: Int, _ on: Bool) {
        dark[row][column] = on
        function[row][column] = true
    }

    mutating func reserve(_ row: Int, _ column: Int) { function[row][column] = true }

    /// A finder pattern with its light separator.
    mutating func finder(_ top: Int, _ left: Int) {
        for row in -1...7 {
            for column in -1...7 {
                let (r, c) = (top + row, left + column)
                guard (0..<size).contains(r), (0..<size).contains(c) else { continue }
                let ring = max(abs(row - 3), abs(column - 3))
                set(r, c, ring != 2 && ring != 4)
            }
        }
    }

    mutating func alignment(_ row: Int, _ column: Int) {
        for dr in -2...2 {
            for dc in -2...2 { set(row + dr, column + dc, max(abs(dr), abs(dc)) != 1) }
        }
    }

    /// The codewords' bits in the standard's zigzag, right to left in column pairs.
    mutating func place(_ codewords: [UInt8]) {
        var bit = 0
        let total = codewords.count * 8
        var column = size - 1
        var upward = true
        while column > 0 {
            if column == 6 { column -= 1 }
            for step in 0..<size {
                let row = upward ? size - 1 - step : step
                for c in [column, column - 1] where !function[row][c] {
                    let on = bit < total && (codewords[bit / 8] >> (7 - bit % 8)) & 1 == 1
                    dark[row][c] = on
                    bit += 1
                }
            }
            upward.toggle()
            column -= 2
        }
    }

    /// The data masked with each of the eight patterns; the one with the lowest penalty.
    func bestMasked() -> [[Bool]] {
        var best: (penalty: Int, modules: [[Bool]]) = (.max, dark)
        for mask in 0..<8 {
            var candidate = self
            for row in 0..<size {
                for column in 0..<size where !function[row][column] && Self.masks(mask, row, column) {
                    candidate.dark[row][column].toggle()
                }
            }
            candidate.writeFormat(mask: mask)
            let penalty = Self.penalty(candidate.dark)
            if penalty < best.penalty { best = (penalty, candidate.dark) }
        }
        return best.modules
    }

    static func masks(_ mask: Int, _ row: Int, _ column: Int) -> Bool {
        switch mask {
        case 0: (row + column) % 2 == 0
        case 1: row % 2 == 0
        case 2: column % 3 == 0
        case 3: (row + column) % 3 == 0
        case 4: (row / 2 + column / 3) % 2 == 0
        case 5: (row * column) % 2 + (row * column) % 3 == 0
        case 6: ((row * column) % 2 + (row * column) % 3) % 2 == 0
        default: ((row + column) % 2 + (row * column) % 3) % 2 == 0
        }
    }

    /// The level (L 01, M 00) and the mask, BCH(15,5)-coded and masked with 101010000010010.
    mutating func writeFormat(mask: Int) {
        let data = (level.formatBits << 3) | mask
        var remainder = data << 10
        for shift in stride(from: 14, through: 10, by: -1) where (remainder >> shift) & 1 == 1 { remainder ^= 0x537 << (shift - 10) }
        let bits = ((data << 10) | remainder) ^ 0x5412
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        // Around the top-left finder: up column 8, then along row 8.
        for index in 0...5 { dark[index][8] = bit(index) }
        dark[7][8] = bit(6)
        dark[8][8] = bit(7)
        dark[8][7] = bit(8)
        for index in 9...14 { dark[8][14 - index] = bit(index) }
        // Beside the other two: row 8 at the right, column 8 at the bottom.
        for index in 0...7 { dark[8][size - 1 - index] = bit(index) }
        for index in 8...14 { dark[size - 15 + index][8] = bit(index) }
        dark[size - 8][8] = true
    }

    /// The version, BCH(18,6)-coded (versions 7 and up).
    static func versionBits(_ version: Int) -> Int {
        var remainder = version << 12
        for shift in stride(from: 17, through: 12, by: -1) where (remainder >> shift) & 1 == 1 { remainder ^= 0x1F25 << (shift - 12) }
        return (version << 12) | remainder
    }

    /// The standard's four penalty rules: runs, 2×2 blocks, finder-like patterns, balance.
    static func penalty(_ grid: [[Bool]]) -> Int {
        let size = grid.count
        var total = 0
        let columns = (0..<size).map { column in grid.map { $0[column] } }
        for line in grid + columns {
            var run = 1
            for index in 1..<size {
                if line[index] == line[index - 1] {
                    run += 1
                } else {
                    if run >= 5 { total += run - 2 }
                    run = 1
                }
            }
            if run >= 5 { total += run - 2 }
            let pattern: [Bool] = [true, false, true, true, true, false, true]
            for start in 0...(size - 7) where Array(line[start..<start + 7]) == pattern {
                let before = (max(0, start - 4)..<start).allSatisfy { !line[$0] } && start >= 4
                let after = (start + 7..<min(size, start + 11)).allSatisfy { !line[$0] } && start + 11 <= size
                if before || after { total += 40 }
            }
        }
        for row in 0..<(size - 1) {
            for column in 0..<(size - 1) {
                let value = grid[row][column]
                if grid[row][column + 1] == value, grid[row + 1][column] == value, grid[row + 1][column + 1] == value { total += 3 }
            }
        }
        let darkCount = grid.reduce(0) { $0 + $1.filter { $0 }.count }
        let percent = darkCount * 100 / (size * size)
        total += abs(percent - 50) / 5 * 10
        return total
    }
}

extension QRCode {
    /// How the code is drawn on a terminal.
    enum Drawing: Equatable {
        /// Black and white set by escape codes, whatever the terminal's theme: decodes on light
        /// and dark backgrounds alike, and the drawn white border is a quiet zone of its own, so
        /// two modules suffice (the code then fits an 80×24 terminal up to version 6).
        case colours
        /// Light modules drawn (`█`), dark ones left as the background, for the light-on-dark
        /// terminals most people use (as `qrencode -t UTF8`); four modules of quiet zone.
        case lightOnDark
        /// The other way round, for dark text on a light background (`--qr invert`).
        case darkOnLight

        var quietZone: Int { self == .colours ? 2 : 4 }
    }

    /// The code drawn with Unicode half blocks, two module rows a line.
    func halfBlocks(_ drawing: Drawing = .lightOnDark) -> String {
        let quietZone = drawing.quietZone
        let extent = size + 2 * quietZone
        func light(_ row: Int, _ column: Int) -> Bool {
            let (r, c) = (row - quietZone, column - quietZone)
            guard (0..<size).contains(r), (0..<size).contains(c) else { return true }
            return !modules[r][c]
        }
        var lines: [String] = []
        for row in stride(from: 0, to: extent, by: 2) {
            var line = ""
            for column in 0..<extent {
                // Below the last row: the background (dark, but light for the other two).
                let top = light(row, column), bottom = row + 1 < extent ? light(row + 1, column) : drawing != .lightOnDark
                switch drawing {
                case .colours:
                    // ▀: its upper half in the foreground colour, the lower in the background's.
                    line += "\u{1B}[\(top ? 97 : 30);\(bottom ? 107 : 40)m▀"
                case .lightOnDark:
                    line += top && bottom ? "█" : top ? "▀" : bottom ? "▄" : " "
                case .darkOnLight:
                    line += !top && !bottom ? "█" : !top ? "▀" : !bottom ? "▄" : " "
                }
            }
            lines.append(drawing == .colours ? line + "\u{1B}[0m" : line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
