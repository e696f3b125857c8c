import Foundation

/// zsh's completion driven for real in a pseudo-terminal (zsh/zpty), with `fbauth completion zsh`
/// installed in a fresh `fpath`: types a line, presses Tab, and returns what zsh showed once
/// `expected` appears (or when it gives up).
enum ZshCompletion {
    static let zsh = ["/usr/bin/zsh", "/bin/zsh"].first(where: FileManager.default.isExecutableFile)

    /// `bin`: a directory whose `fbauth` the completion runs. The keys are typed only once the
    /// line editor has started (its zle-line-init hook says so): typed earlier, under load, zsh
    /// could drop them as it set the terminal up, and the read would wait for ever.
    static func complete(_ typed: String, until expected: String, harness: Harness, bin: String) throws -> String {
        let zsh = try requireZsh()
        let functions = harness.directory + "/zsh-functions"
        if !FileManager.default.fileExists(atPath: functions + "/_fbauth") {
            try FileManager.default.createDirectory(atPath: functions, withIntermediateDirectories: true)
            try harness.run(["completion", "zsh"]).stdout.write(toFile: functions + "/_fbauth", atomically: true, encoding: .utf8)
        }
        let driver = """
            zmodload zsh/zpty
            zpty z zsh -f -i
            zpty -w z "PS1='READY> '; fpath=(\(functions) \\$fpath); PATH=\(bin):\\$PATH; autoload -U compinit; compinit -u -D; zle-line-init() { print -n 'LINE''-EDITOR-UP' }; zle -N zle-line-init; print 'ST''ART'"
            zpty -r z line '*START*'
            zpty -r z line '*LINE-EDITOR-UP*'
            zpty -w -n z $'\(typed)\\t'
            zpty -r z out '*\(expected)*'
            print -r -- "$out"
            zpty -w z $'\\x03'
            zpty -d z
            """
        return try Subprocess.run(URL(fileURLWithPath: zsh), ["-f", "-c", driver],
                                  environment: harness.environment.merging(["PATH": bin + ":/usr/bin:/bin", "TERM": "xterm"]) { $1 },
                                  // Two zsh starts, compinit and an fbauth run: under the whole suite's
                                  // load on two cores this once took longer than 30 s.
                                  stdin: nil, directory: harness.directory, timeout: 90).stdout
    }

    private struct Missing: Error {}

    private static func requireZsh() throws -> String {
        guard let zsh else { throw Missing() }
        return zsh
    }
}
