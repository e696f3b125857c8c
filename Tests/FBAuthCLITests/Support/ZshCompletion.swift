import Foundation

/// zsh's completion driven for real in a pseudo-terminal (zsh/zpty), with `fbauth completion zsh`
/// installed in a fresh `fpath`: types a line, presses Tab, and returns what zsh showed once
/// `expected` appears (or when it gives up).
enum ZshCompletion {
    static let zsh = ["/usr/bin/zsh", "/bin/zsh"].first(where: FileManager.default.isExecutableFile)

    /// `bin`: a directory whose `fbauth` the completion runs. The keys are typed only once the
    /// line editor has started (its zle-line-init hook says so): typed earlier, under load, zsh
    /// could drop them as it set the terminal up. Each wait has a deadline and says what the
    /// terminal showed; Tab is pressed again if no completion showed within 20 s (under the
    /// whole suite's load one press once showed nothing for 90 s).
    static func complete(_ typed: String, until expected: String, harness: Harness, bin: String) throws -> String {
        let zsh = try requireZsh()
        let functions = harness.directory + "/zsh-functions"
        if !FileManager.default.fileExists(atPath: functions + "/_fbauth") {
            try FileManager.default.createDirectory(atPath: functions, withIntermediateDirectories: true)
            try harness.run(["completion", "zsh"]).stdout.write(toFile: functions + "/_fbauth", atomically: true, encoding: .utf8)
        }
        let driver = """
            zmodload zsh/zpty zsh/zselect
            # await PATTERN SECONDS: reads the terminal until PATTERN shows (all of it in REPLY).
            await() {
              local seen= chunk deadline=$(( SECONDS + $2 ))
              while (( SECONDS < deadline )); do
                if zpty -rt z chunk; then seen+=$chunk; [[ $seen == $~1 ]] && { REPLY=$seen; return 0 }
                else zselect -t 5; fi
              done
              REPLY=$seen; return 1
            }
            fail() { print -u2 -r -- "$1; the terminal showed: ${(q+)REPLY}"; zpty -d z; exit 1 }
            zpty z zsh -f -i
            zpty -w z "PS1='READY> '; fpath=(\(functions) \\$fpath); PATH=\(bin):\\$PATH; autoload -U compinit; compinit -u -D; zle-line-init() { print -n 'LINE''-EDITOR-UP' }; zle -N zle-line-init; print 'ST''ART'"
            await '*START*' 30 || fail 'zsh did not run the set-up line'
            await '*LINE-EDITOR-UP*' 30 || fail 'the line editor did not start'
            zpty -w -n z $'\(typed)\\t'
            for press in 1 2 3; do
              await '*\(expected)*' 20 && break
              (( press == 3 )) && fail 'Tab, pressed 3 times, did not complete \(expected)'
              print -u2 -r -- "Tab pressed again: the terminal showed ${(q+)REPLY}"
              zpty -w -n z $'\\t'
            done
            print -r -- "$REPLY"
            zpty -w z $'\\x03'
            zpty -d z
            """
        return try Subprocess.run(URL(fileURLWithPath: zsh), ["-f", "-c", driver],
                                  environment: harness.environment.merging(["PATH": bin + ":/usr/bin:/bin", "TERM": "xterm"]) { $1 },
                                  // The deadlines above, and some: two zsh starts, compinit and fbauth runs.
                                  stdin: nil, directory: harness.directory, timeout: 150).stdout
    }

    private struct Missing: Error {}

    private static func requireZsh() throws -> String {
        guard let zsh else { throw Missing() }
        return zsh
    }
}
