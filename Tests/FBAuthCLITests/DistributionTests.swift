import FBAuthStandIn
import Foundation
import Testing

/// What ships around the binary: help topics, the man page, completions, the installer, the
/// README, and the single executable.
@Suite struct DistributionTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized

    /// Runs `swift` with these arguments: the toolchain at its usual places, else the one on PATH.
    static func swift(_ arguments: [String], in directory: String, timeout: TimeInterval) throws -> RunResult {
        let swift = ["/opt/swift/usr/bin/swift", "/usr/bin/swift"].first(where: FileManager.default.isExecutableFile) ?? "/usr/bin/env"
        // One toolchain build at a time: several at once on a two-core runner starve the tests
        // that run beside them for minutes (a sign-in in process once failed so).
        return try toolchain.withLock {
            try Subprocess.run(URL(fileURLWithPath: swift), (swift == "/usr/bin/env" ? ["swift"] : []) + arguments,
                               environment: ProcessInfo.processInfo.environment, stdin: nil, directory: directory, timeout: timeout)
        }
    }

    private static let toolchain = NSLock()

    /// Copies `Examples/NAME` into `directory`, points its fbauth dependency at this
    /// repository, builds it as a package outside the repository would be, and returns the
    /// path of its executable, `NAME`.
    static func buildExample(_ name: String, in directory: String) throws -> String {
        let package = directory + "/" + name
        try FileManager.default.copyItem(atPath: repository.appendingPathComponent("Examples/" + name).path, toPath: package)
        try? FileManager.default.removeItem(atPath: package + "/.build")
        let manifest = try String(contentsOfFile: package + "/Package.swift", encoding: .utf8)
            .replacingOccurrences(of: #"path: "../..""#, with: #"path: "\#(repository.path)""#)
        try manifest.write(toFile: package + "/Package.swift", atomically: true, encoding: .utf8)
        let built = try swift(["build", "--package-path", package], in: package, timeout: 900)
        try #require(built.status == 0, "\(built)")
        return package + "/.build/debug/" + name
    }

    /// The command names, as `fbauth --help` lists them ("  name  summary").
    static func commands(_ harness: Harness) throws -> [String] {
        try harness.run(["--help"]).stdout.split(separator: "\n").drop { !$0.hasPrefix("Commands:") }.dropFirst()
            .prefix { !$0.isEmpty }
            .filter { $0.hasPrefix("  ") && $0.dropFirst(2).first?.isLowercase == true }
            .map { String($0.dropFirst(2).split(separator: " ")[0]).trimmingCharacters(in: CharacterSet(charactersIn: ",")) }
    }

    /// Whether `text` has `word` as a whole word (not as part of a longer option).
    static func mentions(_ text: String, _ word: String) -> Bool {
        var rest = Substring(text)
        while let range = rest.range(of: word) {
            let next = rest[range.upperBound...].first
            if next.map({ !($0.isLetter || $0.isNumber || $0 == "-") }) ?? true { return true }
            rest = rest[range.upperBound...]
        }
        return false
    }

    /// The options a command's `--help` lists.
    static func options(of command: String, _ harness: Harness) throws -> [String] {
        try harness.run([command, "--help"]).stdout.split(separator: "\n")
            .filter { $0.hasPrefix("  --") }
            .map { String($0.dropFirst(2).split(separator: " ")[0]) }
    }

    private func shell(_ program: String) -> String? {
        ["/usr/bin", "/bin", "/usr/local/bin", "/opt/homebrew/bin"].map { "\($0)/\(program)" }.first(where: FileManager.default.isExecutableFile)
    }

    private func run(_ program: String, _ arguments: [String], in harness: Harness, environment: [String: String] = [:]) throws -> RunResult {
        try Subprocess.run(URL(fileURLWithPath: program), arguments, environment: harness.environment.merging(environment) { $1 },
                           stdin: nil, directory: harness.directory, timeout: 60)
    }

    @Test func helpTopicsListEveryExitCodeAndVariable() throws {
        let harness = try Harness()
        let codes = try harness.run(["help", "exit-codes"])
        #expect(codes.status == 0)
        for code in 0...7 { #expect(codes.stdout.contains("\n  \(code)  "), "exit code \(code)") }
        let environment = try harness.run(["help", "environment"]).stdout
        for name in ["FIREBASE_API_KEY", "FIREBASE_AUTH_EMULATOR_HOST", "FBAUTH_CONFIG_DIR", "BROWSER", "NO_COLOR", "HTTPS_PROXY", "FBAUTH_HTTP_TIMEOUT"] {
            #expect(environment.contains(name), "\(name)")
        }
        #expect(try harness.run(["help", "exit-code"]).stderr.contains("did you mean 'exit-codes'?"))
    }

    @Test func theManPageComesFromTheSameSpecsAndIsCleanRoff() throws {
        let harness = try Harness()
        let page = try harness.run(["help", "man"]).stdout
        #expect(page.hasPrefix(".TH FBAUTH 1"))
        let commands = try Self.commands(harness)
        #expect(commands.count >= 15)
        for command in commands {
            #expect(page.contains(".SS fbauth \(command.replacingOccurrences(of: "-", with: "\\-"))"), "\(command)")
            for option in try Self.options(of: command, harness) {
                #expect(page.contains(option.replacingOccurrences(of: "-", with: "\\-")), "\(command) \(option)")
            }
        }
        if let groff = shell("groff") {
            let file = harness.directory + "/fbauth.1"
            try page.write(toFile: file, atomically: true, encoding: .utf8)
            let rendered = try run(groff, ["-man", "-Tutf8", "-ww", file], in: harness)
            #expect(rendered.status == 0 && rendered.stderr.isEmpty, "\(rendered.stderr)")
            #expect(!rendered.stdout.isEmpty)
        }
    }

    @Test func completionScriptsParseAndCompleteInBash() throws {
        let harness = try Harness()
        for shellName in ["bash", "zsh", "fish"] {
            let script = try harness.run(["completion", shellName])
            #expect(script.status == 0 && script.stdout.contains("fbauth"), "\(shellName)")
            let file = harness.directory + "/completion.\(shellName)"
            try script.stdout.write(toFile: file, atomically: true, encoding: .utf8)
            if let program = shell(shellName) {
                let check = try run(program, ["-n", file], in: harness)
                #expect(check.status == 0, "\(shellName) -n: \(check.stderr)")
            }
        }
        #expect(try harness.run(["completion", "tcsh"]).status == 2)
        let bash = try #require(shell("bash"))
        let probe = """
            source \(harness.directory)/completion.bash
            COMP_WORDS=(fbauth signin --provider ''); COMP_CWORD=3; _fbauth; echo "1: ${COMPREPLY[*]}"
            COMP_WORDS=(fbauth tok); COMP_CWORD=1; _fbauth; echo "2: ${COMPREPLY[*]}"
            COMP_WORDS=(fbauth token --forc); COMP_CWORD=2; _fbauth; echo "3: ${COMPREPLY[*]}"
            """
        let completed = try run(bash, ["-c", probe], in: harness).stdout
        #expect(completed.contains("1: yahoo.com microsoft.com twitter.com"))
        #expect(completed.contains("2: token"))
        #expect(completed.contains("3: --force-refresh"))
    }

    @Test func theInstallerLaysOutBinariesManPageAndCompletions() throws {
        let harness = try Harness()
        let prefix = harness.directory + "/prefix"
        let install = try Subprocess.run(
            Self.repository.appendingPathComponent("Scripts/install.sh"), [prefix],
            environment: harness.environment.merging(["FBAUTH_INSTALL_BINARIES": Binaries.directory.path]) { $1 },
            stdin: nil, directory: harness.directory, timeout: 120)
        #expect(install.status == 0, "\(install)")
        for path in ["bin/fbauth", "share/man/man1/fbauth.1", "share/bash-completion/completions/fbauth",
                     "share/zsh/site-functions/_fbauth", "share/fish/vendor_completions.d/fbauth.fish"] {
            #expect(FileManager.default.fileExists(atPath: prefix + "/" + path), "\(path)")
        }
        let installed = prefix + "/bin/fbauth"
        #expect(try run(installed, ["--version"], in: harness).stdout.hasPrefix("fbauth "))
        // A command that talks to Firebase.
        let lookup = try run(installed, ["providers", "--email", "x@example.com"], in: harness)
        #expect(lookup.status == 0, "\(lookup)")
        #expect(harness.standIn.requests(to: "accounts:createAuthUri").count == 1)
    }

    @Test func oneExecutableThatLoadsLibcurlOnlyForARequest() throws {
        let harness = try Harness()
        #expect(try harness.signIn("yahoo.com").status == 0)
        // Alone in a directory, it does everything: nothing else is installed beside it.
        let lonely = harness.directory + "/lonely"
        try FileManager.default.createDirectory(atPath: lonely, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Binaries.url("fbauth").path, toPath: lonely + "/fbauth")
        let alone = lonely + "/fbauth"
        for command in [["token"], ["whoami"], ["accounts"], ["help", "man"]] {
            let result = try run(alone, command, in: harness)
            #expect(result.status == 0, "\(command): \(result)")
        }
        #if os(Linux)
        // glibc's loader reports every library it loads (LD_DEBUG=files): libcurl only when a
        // request is made, Foundation (with ICU's data) never.
        let fresh = try run(alone, ["token"], in: harness, environment: ["LD_DEBUG": "files"])
        #expect(fresh.status == 0 && fresh.stderr.contains("libc.so") && !fresh.stderr.contains("libcurl"), "\(fresh.stderr.suffix(400))")
        let online = try run(alone, ["whoami"], in: harness, environment: ["LD_DEBUG": "files"])
        #expect(online.status == 0 && online.stderr.contains("libcurl"), "\(online.stderr.suffix(400))")
        for result in [fresh, online] {
            #expect(!result.stderr.contains("libFoundation.so") && !result.stderr.contains("FoundationICU") && !result.stderr.contains("FoundationNetworking"))
        }
        #endif
    }

    @Test func theReadmeDocumentsEveryCommandOptionVariableAndExitCode() throws {
        // The README and the reference it links to, docs/*.md, together.
        let docs = Self.repository.appendingPathComponent("docs")
        let pages = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
        #expect(pages.contains("commands.md"))
        let readme = try ([Self.repository.appendingPathComponent("README.md")] + pages.map { docs.appendingPathComponent($0) })
            .map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
        let harness = try Harness()
        for command in try Self.commands(harness) {
            #expect(readme.contains("fbauth \(command)"), "command \(command)")
            for option in try Self.options(of: command, harness) {
                #expect(Self.mentions(readme, option), "\(command) \(option)")
            }
        }
        let variables = try harness.run(["help", "environment"]).stdout.split(separator: "\n")
            .filter { $0.hasPrefix("  ") && $0.dropFirst(2).first?.isUppercase == true }
            .map { String($0.dropFirst(2).split(separator: " ")[0]) }
        #expect(variables.count >= 10)
        for variable in variables { #expect(readme.contains("`\(variable)`"), "variable \(variable)") }
        for code in 0...7 { #expect(readme.contains("| \(code) |"), "exit code \(code)") }
    }

    @Test func colourAndTheLiveStatusLineOnlyOnATerminalWithoutNoColor() throws {
        let harness = try Harness()
        let coloured = try BackgroundProcess(["token"], harness: harness, environment: ["TERM": "xterm"], stderrOnTerminal: true)
        #expect(coloured.finish().status == 3)
        #expect(coloured.terminal?.screen().contains("\u{1B}[1;31mfbauth:") == true)

        let plain = try BackgroundProcess(["token"], harness: harness, environment: ["TERM": "xterm", "NO_COLOR": "1"], stderrOnTerminal: true)
        #expect(plain.finish().status == 3)
        let plainScreen = plain.terminal?.screen() ?? ""
        #expect(plainScreen.contains("fbauth: not signed in") && !plainScreen.contains("\u{1B}"))

        // The hosted flow takes no pasted address, so its waiting line is drawn (see the paste
        // prompt test for the loopback flow on a terminal).
        let waiting = try BackgroundProcess(["signin", "--hosted", "--provider", "yahoo.com", "--port", "0", "--timeout", "2", "--no-browser"],
                                            harness: harness, environment: ["TERM": "xterm"], stderrOnTerminal: true)
        #expect(waiting.finish().status == 4)
        let screen = waiting.terminal?.screen() ?? ""
        #expect(screen.contains("\r\u{1B}[2KWaiting for the browser… 1 s"), "\(screen.suffix(300))")

        // Not a terminal: no escape codes at all.
        let file = try harness.run(["signin", "--loopback", "--provider", "yahoo.com", "--port", "0", "--timeout", "1", "--no-browser"], environment: ["TERM": "xterm"])
        #expect(file.status == 4 && !file.stderr.contains("\u{1B}"))
    }
}

/// `--app-config`: the API key and project id from GoogleService-Info.plist or google-services.json.
@Suite struct AppConfigTests {
    static let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict>
        <key>API_KEY</key><string>AIzaFromPlist</string>
        <key>GCM_SENDER_ID</key><string>123</string>
        <key>BUNDLE_ID</key><string>com.example.app</string>
        <key>PROJECT_ID</key><string>plist-project</string>
        <key>IS_ADS_ENABLED</key><false/>
        <key>GOOGLE_APP_ID</key><string>1:123:ios:abc</string>
        </dict></plist>
        """

    static func services(_ clients: [(id: String, package: String, key: String)], projectId: String? = "json-project") -> String {
        let entries = clients.map { """
            {"client_info": {"mobilesdk_app_id": "\($0.id)", "android_client_info": {"package_name": "\($0.package)"}},
             "oauth_client": [], "api_key": [{"current_key": "\($0.key)"}]}
            """ }.joined(separator: ",")
        let project = projectId.map { "\"project_id\": \"\($0)\", " } ?? ""
        return "{\"project_info\": {\(project)\"project_number\": \"123\"}, \"client\": [\(entries)], \"configuration_version\": \"1\"}"
    }

    private func write(_ text: String, _ name: String, in harness: Harness) throws -> String {
        let path = harness.directory + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func theKeyComesFromAPlist() throws {
        let harness = try Harness()
        let plist = try write(Self.plist, "GoogleService-Info.plist", in: harness)
        let result = try harness.signIn("yahoo.com", ["--app-config", plist], environment: ["FIREBASE_API_KEY": "overridden"])
        #expect(result.status == 0, "\(result)")
        #expect(harness.standIn.requests.first?.query == "key=AIzaFromPlist")
        let accounts = try harness.run(["accounts", "--json", "--app-config", plist])
        #expect(accounts.stdout.contains("\"projectId\" : \"plist-project\""))
        #expect(try harness.run(["token", "--app-config", plist]).status == 0)
    }

    @Test func theKeyComesFromGoogleServicesJSON() throws {
        let harness = try Harness()
        let single = try write(Self.services([("1:1:android:a", "com.example.a", "AIzaA")]), "google-services.json", in: harness)
        #expect(try harness.run(["providers", "--email", "x@example.com", "--app-config", single]).status == 0)
        #expect(harness.standIn.requests.last?.query == "key=AIzaA")

        let several = try write(Self.services([("1:1:android:a", "com.example.a", "AIzaA"), ("1:1:android:b", "com.example.b", "AIzaB")]), "several.json", in: harness)
        let ambiguous = try harness.run(["providers", "--email", "x@example.com", "--app-config", several])
        #expect(ambiguous.status == 2 && ambiguous.stderr.contains("choose one with --app-id") && ambiguous.stderr.contains("com.example.b"))
        #expect(try harness.run(["providers", "--email", "x@example.com", "--app-config", several, "--app-id", "com.example.b"]).status == 0)
        #expect(harness.standIn.requests.last?.query == "key=AIzaB")
        #expect(try harness.run(["providers", "--email", "x@example.com", "--app-config", several, "--app-id", "1:1:android:a"]).status == 0)
        #expect(harness.standIn.requests.last?.query == "key=AIzaA")
    }

    @Test(arguments: [
        ("no-key.plist", AppConfigTests.plist.replacingOccurrences(of: "<key>API_KEY</key><string>AIzaFromPlist</string>", with: ""), "has no API_KEY"),
        ("no-project.plist", AppConfigTests.plist.replacingOccurrences(of: "<key>PROJECT_ID</key><string>plist-project</string>", with: ""), "has no PROJECT_ID"),
        ("no-project.json", AppConfigTests.services([("a", "p", "k")], projectId: nil), "has no project_info.project_id"),
        ("no-key.json", AppConfigTests.services([("a", "p", "")]), "has no client[].api_key[].current_key"),
        ("garbage.json", "{not json", "neither a GoogleService-Info.plist nor a google-services.json"),
    ])
    func missingPiecesAreNamed(name: String, text: String, message: String) throws {
        let harness = try Harness()
        let path = try write(text, name, in: harness)
        let result = try harness.run(["token", "--app-config", path])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func conflictingOrDanglingOptions() throws {
        let harness = try Harness()
        let plist = try write(Self.plist, "GoogleService-Info.plist", in: harness)
        #expect(try harness.run(["token", "--app-config", plist, "--api-key", "k"]).stderr.contains("not both"))
        #expect(try harness.run(["token", "--app-id", "x"]).stderr.contains("--app-id 'x' needs --app-config, or must be a Firebase app id"))
        #expect(try harness.run(["token", "--app-config", harness.directory + "/missing.plist"]).stderr.contains("cannot read --app-config"))
        let wrong = try harness.run(["token", "--app-config", plist, "--app-id", "com.other"])
        #expect(wrong.status == 2 && wrong.stderr.contains("is for app 1:123:ios:abc"))
    }
}

/// Issue 28, item 4: the library speaks of Firebase, not of the command line. Files that have
/// been cleaned stay clean: no string there names an `fbauth` command or a `--flag`.
@Suite struct LibraryWordsTests {
    /// Issue 28, item 4: the library speaks of Firebase; the command line words its remedies.
    @Test func noLibraryStringNamesACommandOrAnOption() throws {
        let library = DistributionTests.repository.appendingPathComponent("Sources/FBAuth")
        let files = try #require(FileManager.default.enumerator(atPath: library.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 80)
        for file in files {
            let text = try String(contentsOf: library.appendingPathComponent(file), encoding: .utf8)
            // Code lines (comments may cite commands), and every line of a multi-line literal.
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            let strings = code.flatMap { $0.matches(of: /"([^"\\]|\\.)*"/).map { String($0.output.0) } }
            // `--\(name)` builds an option's name too.
            let offending = strings.filter { $0.contains(/fbauth [a-z]|[^-\w]--[a-z]|^"--[a-z]|--\\\(/) }
            #expect(offending.isEmpty, "\(file): \(offending)")
            let multiLine = text.components(separatedBy: "\"\"\"").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            #expect(!multiLine.contains { $0.contains(/fbauth (signin|link|reauth|token|--)|[^-\w]--[a-z]/) }, "\(file)")
        }
        #expect(!FileManager.default.fileExists(atPath: library.appendingPathComponent("Firebase/AppConfigFile.swift").path),
                "app config files are the command line's business")
    }
}

/// Issue 48, item 2: one public library. The products (FirebaseAuth, FirebaseCore,
/// FirebaseAdminAuth) are the only modules with public declarations; the engine under them
/// (FBAuth and every other module) is `package`, for the library and the command line alone,
/// and no type name is declared both in a product and in the engine.
@Suite struct OnePublicLibraryTests {
    static let products = ["FirebaseAuth", "FirebaseCore", "FirebaseAdminAuth"]

    /// Each Swift file of Sources/, by module, as code only: no string literals (multi-line
    /// ones included) and no comments.
    static func code() throws -> [(module: String, file: String, code: String)] {
        let sources = DistributionTests.repository.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        return try files.map { file in
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            let withoutBlocks = text.components(separatedBy: "\"\"\"").enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined()
            let code = withoutBlocks.split(separator: "\n").map { line in
                String(line.replacing(/"([^"\\]|\\.)*"/, with: "\"\"").split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            }.joined(separator: "\n")
            return (String(file.split(separator: "/")[0]), file, code)
        }
    }

    @Test func theEngineHasNoPublicDeclaration() throws {
        var public_: [String] = []
        // Executables are not modules anyone imports (fbauth-fuzz's libFuzzer entry is public).
        for (module, file, code) in try Self.code() where !Self.products.contains(module) && !module.hasPrefix("fbauth") {
            for match in code.matches(of: /(?m)^\s*(?:@\w+(?:\([^)]*\))?\s+)*(public|open)\s+(?:\w+\s+)*?(func|var|let|init|struct|enum|class|protocol|typealias|extension|subscript|actor|case)\b/) {
                public_.append("\(file): \(match.output.0.trimmingCharacters(in: .whitespacesAndNewlines))")
            }
        }
        #expect(public_.isEmpty, "\(public_.prefix(20))")
    }

    @Test func noTypeNameIsInBothAProductAndTheEngine() throws {
        var declared: [String: Set<String>] = [:]  // type name → modules
        for (module, _, code) in try Self.code() {
            for match in code.matches(of: /(?m)^\s*(?:@\w+\s+)*(?:public |open |package |internal |fileprivate |private )?(?:final )?(?:struct|enum|protocol|class|actor|typealias) ([A-Z]\w*)/) {
                declared[String(match.output.1), default: []].insert(module)
            }
        }
        let both = declared.filter { _, modules in modules.contains { Self.products.contains($0) } && modules.contains { !Self.products.contains($0) } }
        #expect(both.isEmpty, "\(both.sorted { $0.key < $1.key })")
        // The test can fail: the products declare the SDK's names, which the engine once did too.
        #expect(declared["Auth"] == ["FirebaseAuth"] && declared["AuthService"] == ["FBAuth"], "\(declared["Auth"] ?? [])")
    }
}

/// Issue 28, item 5: the library's folders use only the folders below them (docs/architecture.md);
/// `Errors/` is the exception every folder uses.
@Suite struct LayerTests {
    static let layers = ["API", "Flow", "Account", "Session", "Keyring", "Listener", "Firebase", "System"]

    /// Issue 48, item 5: a server's token verification takes what it needs of the engine (one
    /// HTTP exchange and JSON, FBAuthHTTP) and nothing of the session store, the keyring or the
    /// browser flows (FBAuth).
    @Test func firebaseAdminAuthTakesNothingOfTheSessionStoreOrTheBrowser() throws {
        // A scratch path of its own: the repository's .build is locked by the running tests.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("fbauth-dump-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let dump = try DistributionTests.swift(["package", "--scratch-path", scratch, "dump-package"], in: DistributionTests.repository.path, timeout: 300)
        #expect(dump.status == 0, "\(dump)")
        let targets = try #require((try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])?["targets"] as? [[String: Any]])
        var dependencies: [String: [String]] = [:]
        for target in targets {
            let names = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                (dependency["byName"] ?? dependency["target"] ?? dependency["product"]).flatMap { ($0 as? [Any])?.first as? String }
            }
            dependencies[target["name"] as? String ?? ""] = names
        }
        var closure: Set<String> = [], pending = ["FirebaseAdminAuth"]
        while let next = pending.popLast() {
            for dependency in dependencies[next] ?? [] where closure.insert(dependency).inserted { pending.append(dependency) }
        }
        // FBAuthAdmin: the Admin API's user management (issue 57), which needs no more than verification does.
        #expect(closure == ["FBAuthAdmin", "FBAuthVerification", "FBAuthHTTP", "FBAuthSupport", "LoopbackHTTP", "CCurl"], "\(closure.sorted())")
    }

    @Test func everyArrowBetweenTheLibrarysFoldersPointsDown() throws {
        let library = DistributionTests.repository.appendingPathComponent("Sources/FBAuth")
        let files = try #require(FileManager.default.enumerator(atPath: library.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        let folders = Set(files.map { String($0.split(separator: "/")[0]) })
        #expect(folders == Set(Self.layers + ["Errors"]), "a folder the layers do not place: \(folders)")
        var code: [String: String] = [:]
        var home: [String: String] = [:]
        for file in files {
            let text = try String(contentsOf: library.appendingPathComponent(file), encoding: .utf8)
            // Code only: no string literals (multi-line ones included), then no comments.
            let withoutBlocks = text.components(separatedBy: "\"\"\"").enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined()
            code[file] = withoutBlocks.split(separator: "\n").map { line in
                String(line.replacing(/"([^"\\]|\\.)*"/, with: "\"\"").split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            }.joined(separator: "\n")
            // Every access written or not: a type written `internal` is placed too (issue 48).
            for match in code[file]!.matches(of: /(?m)^(?:public |open |package |internal |fileprivate )?(?:final )?(?:struct|enum|protocol|class|actor) ([A-Z]\w+)/) {
                home[String(match.output.1)] = String(file.split(separator: "/")[0])
            }
        }
        var upward: [String] = []
        for (file, text) in code {
            let folder = String(file.split(separator: "/")[0])
            guard let rank = Self.layers.firstIndex(of: folder) else { continue }
            for (type, typeFolder) in home {
                guard let typeRank = Self.layers.firstIndex(of: typeFolder), typeRank < rank else { continue }
                // Simple word boundaries: Unicode's (the default) join `Type.member` into one word.
                if text.contains(try Regex("\\b\(type)\\b").wordBoundaryKind(.simple)) {
                    upward.append("\(file) uses \(type) (\(typeFolder)/)")
                }
            }
        }
        #expect(upward.isEmpty, "\(upward.sorted())")
    }
}

/// Issue 58, item 3: the docs' Swift compiles as pasted. Scripts/gen-doc-snippets.py writes every
/// Swift block of docs/library.md, verify.md and engine.md into the test targets, so building the
/// tests compiles them; the files must be what it writes from the docs as they are now. The
/// manifest block asks for fbauth at a version that exists: the one this tree is.
@Suite struct DocSnippetTests {
    @Test func theCompiledSnippetsAreTheDocsAsTheyAre() throws {
        let check = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", DistributionTests.repository.appendingPathComponent("Scripts/gen-doc-snippets.py").path, "--check"],
                                       environment: ProcessInfo.processInfo.environment, stdin: nil, directory: DistributionTests.repository.path, timeout: 60)
        #expect(check.status == 0 && check.stdout == "doc snippets match the docs\n", "\(check)")
    }

    @Test func theManifestAsksForAVersionThatExists() throws {
        let library = try String(contentsOf: DistributionTests.repository.appendingPathComponent("docs/library.md"), encoding: .utf8)
        let identity = try String(contentsOf: DistributionTests.repository.appendingPathComponent("Sources/FBAuth/Firebase/ClientIdentity.swift"), encoding: .utf8)
        let version = try #require(identity.firstMatch(of: /static let current = "([0-9.]+)"/)?.1)
        let asked = try #require(library.firstMatch(of: /github\.com\/fbauth\/fbauth", from: "([0-9.]+)"/)?.1, "docs/library.md names no version of fbauth")
        #expect(asked == version, "docs/library.md asks for fbauth \(asked); this tree is \(version)")
    }
}

/// Issue 40, item 6: the guides travel with the binary. `fbauth help TOPIC` prints docs/'s text,
/// generated from it (not copied by hand), and no --help text points to a repository path.
@Suite struct GuidesInTheBinaryTests {
    @Test func theTopicsAreWhatTheGeneratorWritesFromDocs() throws {
        let check = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", DistributionTests.repository.appendingPathComponent("Scripts/gen-help-topics.py").path, "--check"],
                                       environment: ProcessInfo.processInfo.environment, stdin: nil, directory: DistributionTests.repository.path, timeout: 60)
        #expect(check.status == 0 && check.stdout == "help topics match docs/\n", "\(check)")
    }

    @Test(arguments: [("tokens", "docs/tokens.md"), ("app-check", "docs/app-check.md"), ("headless", "docs/headless.md"),
                      ("security", "docs/security.md"), ("sessions", "docs/sessions.md")])
    func eachTopicIsItsGuide(topic: String, file: String) throws {
        let harness = try Harness()
        let help = try harness.run(["help", topic])
        #expect(help.status == 0 && help.stderr.isEmpty, "\(help)")
        let markdown = try String(contentsOf: DistributionTests.repository.appendingPathComponent(file), encoding: .utf8)
        // Every heading and every command example of the guide is in the help text.
        for line in markdown.split(separator: "\n") where (line.hasPrefix("#") || line.hasPrefix("fbauth ")) && !line.contains("](") {
            #expect(help.stdout.contains(line), "\(topic): \(line)")
        }
        #expect(!help.stdout.contains("](") && !help.stdout.contains(".md)") && !help.stdout.contains("<!--"), "no repository links: \(topic)")
    }

    @Test func noHelpTextNamesARepositoryPath() throws {
        let harness = try Harness()
        for command in try DistributionTests.commands(harness) + ["help"] {
            let help = try harness.run([command, "--help"])
            #expect(help.status == 0 && !help.stdout.contains("docs/") && !help.stdout.contains(".md"), "\(command): \(help.stdout)")
        }
        let man = try harness.run(["help", "man"])
        #expect(!man.stdout.contains("docs/") && !man.stdout.contains(".md"), "the man page too")
    }
}
