import FBAuthStandIn
import Foundation
import TestSupport
import Testing

/// The third hardening pass, hostile input on this machine: saved emails that a shell would
/// run, options and app configs that would add HTTP headers, numbers that would crash, files
/// that are not files, an SDK address that is not https.
@Suite struct HostileInputTests {
    private func store(_ harness: Harness) -> Data? { FileManager.default.contents(atPath: harness.sessionsPath) }

    // MARK: Item 2: completion never runs what a session holds

    /// Two saved sessions, one of them renamed to `email` in the file (a valid RFC 5322 address
    /// that holds a command substitution), and a bin directory whose `fbauth` is this build.
    private func sessionsWithHostileEmails(_ emails: [String]) throws -> (Harness, bin: String) {
        let harness = try Harness()
        #expect(try harness.signIn("yahoo.com", ["--email", "grace@example.com"]).status == 0)
        var text = ""
        for (index, email) in emails.enumerated() {
            #expect(try harness.signIn("github.com", ["--email", "victim\(index)@example.com"]).status == 0)
            text = try String(contentsOfFile: harness.sessionsPath, encoding: .utf8)
            let encoded = String(decoding: try JSONEncoder().encode(email), as: UTF8.self)
            text = text.replacing("\"victim\(index)@example.com\"", with: encoded)
            try text.write(toFile: harness.sessionsPath, atomically: true, encoding: .utf8)
        }
        let bin = harness.directory + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/fbauth", withDestinationPath: Binaries.url("fbauth").path)
        return (harness, bin)
    }

    /// Issue 37, item 6: a token file that is a FIFO nobody writes to is given up after the
    /// documented 30 s, naming the file, instead of waiting for ever.
    @Test func aFIFOThatNobodyWritesToIsGivenUpIn30Seconds() throws {
        let harness = try Harness()
        let path = harness.directory + "/token-fifo"
        #expect(mkfifo(path, 0o600) == 0)
        let started = Date()
        let result = try harness.run(["signin", "--provider", "custom", "--token-file", path], timeout: 90)
        let took = Date().timeIntervalSince(started)
        #expect(result.status == 2 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr == "fbauth: cannot read --token-file: \(path) is a FIFO that no program wrote to and closed within 30 s\n", "\(result.stderr)")
        #expect(took >= 29 && took < 80, "\(took)")
        #expect(harness.standIn.requests.isEmpty)
    }

    @Test func bashCompletionRunsNothingFromASavedEmail() throws {
        let bash = try #require(["/usr/bin/bash", "/bin/bash"].first(where: FileManager.default.isExecutableFile))
        let marker = NSTemporaryDirectory() + "fbauth-pwned-" + UUID().uuidString
        let emails = ["`touch${IFS}\(marker)-1`@evil.example", "$(touch${IFS}\(marker)-2)@evil.example", "'$(touch${IFS}\(marker)-3)'@evil.example"]
        let (harness, bin) = try sessionsWithHostileEmails(emails)
        let words = try harness.run(["__complete", "sessions"]).stdout.split(separator: "\n").map(String.init)
        #expect(words.contains("grace@example.com"))
        #expect(!words.contains { $0.contains("touch") }, "words a shell would expand are left out: \(words)")
        #expect(words.count == 5, "the one email that is a plain word and the four uids: \(words)")

        try harness.run(["completion", "bash"]).stdout.write(toFile: harness.directory + "/completion.bash", atomically: true, encoding: .utf8)
        let probe = """
            source \(harness.directory)/completion.bash
            COMP_WORDS=(fbauth use ''); COMP_CWORD=2; _fbauth; printf '1: %s\\n' "${COMPREPLY[@]}"
            COMP_WORDS=(fbauth token --user gr); COMP_CWORD=3; _fbauth; printf '2: %s\\n' "${COMPREPLY[@]}"
            COMP_WORDS=(fbauth use '$(touch'); COMP_CWORD=2; _fbauth; printf '3: %s\\n' "${COMPREPLY[@]}"
            """
        let completed = try Subprocess.run(URL(fileURLWithPath: bash), ["-c", probe],
                                           environment: harness.environment.merging(["PATH": bin + ":/usr/bin:/bin"]) { $1 },
                                           stdin: nil, directory: harness.directory, timeout: 30).stdout
        for index in 1...3 {
            #expect(!FileManager.default.fileExists(atPath: "\(marker)-\(index)"), "completion ran the email's command \(index)")
            try? FileManager.default.removeItem(atPath: "\(marker)-\(index)")
        }
        #expect(completed.contains("1: grace@example.com"), "\(completed)")
        #expect(completed.split(separator: "\n").filter { $0.hasPrefix("2: ") } == ["2: grace@example.com"], "\(completed)")
        #expect(!completed.contains("touch"), "\(completed)")
    }

    /// zsh, driven for real in a pseudo-terminal (zsh/zpty): Tab after `fbauth use `.
    @Test(.enabled(if: ZshCompletion.zsh != nil, "zsh is not installed"))
    func zshCompletionRunsNothingFromASavedEmail() throws {
        let marker = NSTemporaryDirectory() + "fbauth-pwned-" + UUID().uuidString
        let (harness, bin) = try sessionsWithHostileEmails(["`touch${IFS}\(marker)-1`@evil.example", "$(touch${IFS}\(marker)-2)@evil.example"])
        let result = RunResult(status: 0, stdout: try ZshCompletion.complete("fbauth use ", until: "grace@example.com", harness: harness, bin: bin), stderr: "")
        #expect(result.stdout.contains("grace@example.com"), "\(result)")
        #expect(!result.stdout.contains("touch"), "words a shell would expand are not offered: \(result.stdout)")
        for index in 1...2 {
            #expect(!FileManager.default.fileExists(atPath: "\(marker)-\(index)"))
            try? FileManager.default.removeItem(atPath: "\(marker)-\(index)")
        }
    }

    // MARK: Item 6: header injection through options and app configs

    @Test(arguments: [
        ["--referer", "https://x.example/\r\nX-Evil: 1"],
        ["--ios-bundle-id", "b\nY-Evil: 2"],
        ["--android-package", "p\rZ-Evil: 3", "--android-cert", String(repeating: "a", count: 40)],
        ["--tenant-id", "t\n1"],
        ["--api-key", "key\r\nX-Evil: 1"],
    ])
    func optionsThatWouldAddHeadersAreUsageErrors(arguments: [String]) throws {
        let harness = try Harness()
        let result = try harness.run(["signin", "--provider", "anonymous"] + arguments)
        #expect(result.status == 2, "\(arguments): \(result)")
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(arguments[0]), "\(result.stderr)")
        #expect(harness.standIn.requests.isEmpty, "nothing was sent")
    }

    @Test func anAPIKeyFromTheEnvironmentThatIsNotOneIsRefused() throws {
        let harness = try Harness()
        let result = try harness.run(["signin", "--provider", "anonymous"], environment: ["FIREBASE_API_KEY": "key\nX-Evil: 1"])
        #expect(result.status == 2 && result.stderr.contains("FIREBASE_API_KEY is not an API key"), "\(result)")
        #expect(harness.standIn.requests.isEmpty)
    }

    @Test(arguments: [
        ("GoogleService-Info.plist", "BUNDLE_ID", "<string>com.example.app&#13;&#10;X-Evil: 1</string>"),
        ("GoogleService-Info.plist", "GOOGLE_APP_ID", "<string>1:2:ios:3&#10;X-Evil: 1</string>"),
        ("GoogleService-Info.plist", "PROJECT_ID", "<string>demo&#27;]0;pwned</string>"),
    ])
    func anAppConfigThatWouldAddHeadersIsRefusedNamingTheFile(file: String, key: String, value: String) throws {
        let harness = try Harness()
        var fields = ["API_KEY": "<string>test-api-key</string>", "PROJECT_ID": "<string>demo-project</string>",
                      "GOOGLE_APP_ID": "<string>1:2:ios:3</string>", "BUNDLE_ID": "<string>com.example.app</string>"]
        fields[key] = value
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>\(fields.sorted { $0.key < $1.key }.map { "<key>\($0.key)</key>\($0.value)" }.joined())</dict></plist>
            """
        let path = harness.directory + "/" + file
        try plist.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try harness.run(["signin", "--provider", "anonymous", "--app-config", path])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("\(file): \(key)"), "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1b}"))
        #expect(harness.standIn.requests.isEmpty)
    }

    @Test func aGoogleServicesJSONThatWouldAddHeadersIsRefused() throws {
        let harness = try Harness()
        let json = #"{"project_info":{"project_id":"demo-project"},"client":[{"client_info":{"mobilesdk_app_id":"1:2:android:3","android_client_info":{"package_name":"com.example\r\nX-Evil: 1"}},"api_key":[{"current_key":"test-api-key"}]}]}"#
        let path = harness.directory + "/google-services.json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try harness.run(["signin", "--provider", "anonymous", "--app-config", path])
        #expect(result.status == 2 && result.stderr.contains("google-services.json: android_client_info.package_name"), "\(result)")
        #expect(harness.standIn.requests.isEmpty)
    }

    // MARK: Item 7: numbers

    @Test(arguments: [
        (["token", "--force-refresh"], ["FBAUTH_HTTP_TIMEOUT": "1e308"], "FBAUTH_HTTP_TIMEOUT '1e308' is not a number of seconds from 0.1 to 3600"),
        (["token", "--force-refresh"], ["FBAUTH_HTTP_TIMEOUT": "9999999999999999999"], "from 0.1 to 3600"),
        (["token", "--force-refresh"], ["FBAUTH_HTTP_TIMEOUT": "nan"], "from 0.1 to 3600"),
        (["signin", "--provider", "yahoo.com", "--timeout", "1e308"], [:], "--timeout '1e308' is not a number of seconds from 0.001 to 604800"),
        (["token", "--min-valid", "9999999999999999999"], [:], "--min-valid '9999999999999999999' is not a whole number of seconds from 0 to 3599"),
        (["token", "--min-valid", "-1"], [:], "from 0 to 3599"),
        (["signin", "--provider", "yahoo.com", "--port", "99999999999999999999"], [:], "is not a port number (0-65535"),
        (["emulator", "--token-lifetime", "1e308"], [:], "--token-lifetime '1e308' is not a whole number of seconds from 1 to 86400"),
    ] as [([String], [String: String], String)])
    func numbersOutOfRangeAreUsageErrorsNamingTheRange(arguments: [String], environment: [String: String], message: String) throws {
        let harness = try Harness()
        #expect(try harness.signIn("yahoo.com").status == 0)
        let result = try harness.run(arguments, environment: environment)
        #expect(result.status == 2, "\(arguments) \(environment): \(result)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func coreDumpsAreOffWhileTokensAreInMemory() throws {
        let harness = try Harness()
        let fbauth = Binaries.url("fbauth").path
        // The parent allows core dumps; fbauth turns them off for itself (and whatever it starts).
        let running = try BackgroundProcess(["signin", "--loopback", "--provider", "yahoo.com", "--port", "0", "--timeout", "30", "--no-browser"],
                                            harness: harness, shell: "ulimit -S -c unlimited 2>/dev/null || ulimit -c 1000000; exec '\(fbauth)' \"$@\"")
        #expect(running.waitForStderr(containing: "open this address"))
        let limits = try String(contentsOfFile: "/proc/\(running.pid)/limits", encoding: .utf8)
        let core = limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") }.map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(core?.dropFirst(4).prefix(2).map(String.init) == ["0", "0"], "\(limits)")
        running.interrupt()
        _ = running.finish()
    }

    // MARK: Item 8: files that are not files

    @Test func aFIFOInPlaceOfTheStoreIsRefusedAtOnce() throws {
        let harness = try Harness()
        #expect(try harness.signIn("yahoo.com").status == 0)
        unlink(harness.sessionsPath)
        #expect(mkfifo(harness.sessionsPath, 0o600) == 0)
        for arguments in [["token"], ["status"], ["token", "--json"], ["signout"]] {
            let result = try harness.run(arguments, timeout: 20)
            #expect(result.status == 7, "\(arguments): \(result)")
            #expect(result.stderr.contains("is not a regular file"), "\(result.stderr)")
        }
    }

    @Test func aStoreLargerThan16MiBIsRefusedWithoutReadingIt() throws {
        let harness = try Harness()
        #expect(try harness.signIn("yahoo.com").status == 0)
        let before = try #require(store(harness))
        // 300 MB, sparse: refused from its size, not read.
        let fd = open(harness.sessionsPath, O_WRONLY)
        #expect(ftruncate(fd, 300_000_000) == 0)
        close(fd)
        for arguments in [["token"], ["status"]] {
            let result = try harness.run(arguments)
            #expect(result.status == 7, "\(arguments): \(result)")
            #expect(result.stderr.contains("is larger than 16 MiB"), "\(result.stderr)")
        }
        #expect((try FileManager.default.attributesOfItem(atPath: harness.sessionsPath)[.size] as? NSNumber)?.intValue == 300_000_000,
                "the file was left as it was")
        _ = before
    }

    // MARK: Item 9: where the page loads the SDK from

    @Test(arguments: ["http://sdk.example/firebasejs", "javascript:alert(1)", "file:///tmp/sdk", "https://x.example/\"</script>",
                      "https://user:pw@x.example/sdk", "https://x.example/sdk?v=1", "ftp://x.example/sdk", "//x.example/sdk"])
    func anSDKAddressThatIsNotHTTPSIsRefused(base: String) throws {
        let harness = try Harness()
        let result = try harness.run(["signin", "--provider", "yahoo.com", "--port", "0", "--timeout", "5"],
                                     environment: ["FBAUTH_FIREBASE_JS_URL": base])
        #expect(result.status == 2, "\(base): \(result)")
        #expect(result.stderr.contains("FBAUTH_FIREBASE_JS_URL"), "\(result.stderr)")
        #expect(harness.browserPages.isEmpty, "no browser was opened")
    }
}
