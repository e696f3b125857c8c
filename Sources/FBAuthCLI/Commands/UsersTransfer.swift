#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthAdmin
import FBAuthHTTP
import FBAuthSupport
import FBAuthVerification

/// `fbauth users export FILE` and `fbauth users import FILE`: a project's or tenant's users in
/// the files of `firebase auth:export` / `auth:import` (JSON or CSV), with `auth:import`'s hash
/// flags, on the engine's listUsers and importUsers.
enum UsersTransfer {
    /// The largest file `import` reads: about three million users of JSON.
    static let largestImport = 1 << 30

    static let options: [OptionSpec] = [
        OptionSpec("format", value: "json|csv", help: "With export and import: the file's format, where its name does not end in .json or .csv."),
        OptionSpec("hash-algo", value: "ALGORITHM", help: "With import: how the file's password hashes were made (SCRYPT, STANDARD_SCRYPT, BCRYPT, HMAC_SHA256, PBKDF2_SHA256, MD5, SHA256, …), as auth:import takes it."),
        OptionSpec("hash-key-stdin", help: "With import: read the hash's signer key (base64) from stdin; never from arguments."),
        OptionSpec("hash-key-file", value: "FILE", help: "With import: read the hash's signer key (base64) from FILE."),
        OptionSpec("salt-separator", value: "BASE64", help: "With import and SCRYPT: the salt separator (Firebase's is Bw==)."),
        OptionSpec("rounds", value: "N", help: "With import: the hash's rounds."),
        OptionSpec("mem-cost", value: "N", help: "With import: SCRYPT's memory cost, or STANDARD_SCRYPT's CPU/memory cost."),
        OptionSpec("parallelization", value: "N", help: "With import and STANDARD_SCRYPT: the parallelization."),
        OptionSpec("block-size", value: "N", help: "With import and STANDARD_SCRYPT: the block size."),
        OptionSpec("dk-len", value: "N", help: "With import and STANDARD_SCRYPT: the derived key length."),
        OptionSpec("hash-input-order", value: "SALT_FIRST|PASSWORD_FIRST", help: "With import: whether the salt or the password was hashed first."),
        OptionSpec("hash-key", value: "BASE64", help: "Refused: the key would be in the process list; use --hash-key-stdin or --hash-key-file."),
    ]

    /// Where the hash's signer key comes from: never an argument, which other users can read.
    enum KeySource: Equatable { case stdin, file(String) }

    struct HashFlags: Equatable {
        var algorithm: String
        var key: KeySource?
        var saltSeparator: String?
        var rounds: Int?
        var memoryCost: Int?
        var parallelization: Int?
        var blockSize: Int?
        var derivedKeyLength: Int?
        var order: String?
    }

    static func format(_ path: String, _ arguments: ParsedArguments) throws(FBAuthError) -> AccountFile.Format {
        let given = try arguments.nonEmpty("format")
        guard let format = AccountFile.format(of: path, given: given) else {
            if let given { throw .usage("--format '\(TerminalText.safe(String(given.prefix(20))))' is not json or csv") }
            throw .usage("say the file's format with a name ending in .json or .csv, or with --format json|csv")
        }
        return format
    }

    static func hashFlags(_ arguments: ParsedArguments) throws(FBAuthError) -> HashFlags? {
        if arguments.value("hash-key") != nil {
            throw .usage("--hash-key would put the signer key in the process list, where other users see it; give it with --hash-key-stdin or --hash-key-file FILE")
        }
        let hashNames = ["hash-key-file", "salt-separator", "rounds", "mem-cost", "parallelization", "block-size", "dk-len", "hash-input-order"]
        guard let algorithm = try arguments.nonEmpty("hash-algo") else {
            if let given = hashNames.first(where: { arguments.value($0) != nil }) ?? (arguments.flag("hash-key-stdin") ? "hash-key-stdin" : nil) {
                throw .usage("--\(given) needs --hash-algo, the algorithm it is a parameter of")
            }
            return nil
        }
        func number(_ name: String) throws(FBAuthError) -> Int? {
            guard let text = arguments.value(name) else { return nil }
            guard let value = Int(text) else { throw .usage("--\(name) '\(TerminalText.safe(String(text.prefix(20))))' is not a whole number") }
            return value
        }
        var flags = HashFlags(algorithm: algorithm.uppercased())
        if arguments.flag("hash-key-stdin") { flags.key = .stdin }
        if let file = try arguments.nonEmpty("hash-key-file") {
            guard flags.key == nil else { throw .usage("give the signer key one way: --hash-key-stdin or --hash-key-file") }
            flags.key = .file(file)
        }
        flags.saltSeparator = arguments.value("salt-separator")
        (flags.rounds, flags.memoryCost, flags.parallelization) = (try number("rounds"), try number("mem-cost"), try number("parallelization"))
        (flags.blockSize, flags.derivedKeyLength) = (try number("block-size"), try number("dk-len"))
        if let order = arguments.value("hash-input-order") {
            switch order.uppercased() {
            case "SALT_FIRST": flags.order = "SALT_AND_PASSWORD"
            case "PASSWORD_FIRST": flags.order = "PASSWORD_AND_SALT"
            default: throw .usage("--hash-input-order '\(TerminalText.safe(String(order.prefix(20))))' is not SALT_FIRST or PASSWORD_FIRST")
            }
        }
        return flags
    }

    // MARK: - Export

    /// Every user, a page at a time, into `path` (mode 0600: the file holds password hashes),
    /// which is replaced only once it is whole.
    static func export(to path: String, _ format: AccountFile.Format, api: AdminAPI, context: CommandContext) throws(FBAuthError) -> JSONValue {
        let absolute = Platform.absolutePath(path)
        let file: Platform.AtomicFile
        do throws(Platform.FileProblem) {
            try Platform.refuseToReplace(absolute)
            file = try Platform.AtomicFile(absolute)
        } catch {
            throw .usage(error.description)
        }
        func stored(_ step: () throws(Platform.FileProblem) -> Void) throws(FBAuthError) {
            do throws(Platform.FileProblem) { try step() } catch { throw .store(error.description) }
        }
        var count = 0, token: String?
        if format == .json { try stored { () throws(Platform.FileProblem) in try file.write(AccountFile.jsonStart) } }
        repeat {
            let page: AdminUserPage
            do throws(TokenRefusal) { page = try api.listUsers(maxResults: AdminAPI.maxListUsers, pageToken: token) } catch { throw UsersCommand.failure(error) }
            var chunk = ""
            for user in page.users {
                switch format {
                case .json: chunk += (count == 0 ? "" : AccountFile.jsonSeparator) + AccountFile.jsonEntry(user)
                case .csv: chunk += AccountFile.csvLine(user)
                }
                count += 1
            }
            try stored { () throws(Platform.FileProblem) in try file.write(chunk) }
            token = page.pageToken
            progress("Exported \(count) users…", context)
        } while token != nil
        if format == .json { try stored { () throws(Platform.FileProblem) in try file.write(AccountFile.jsonEnd) } }
        try stored { () throws(Platform.FileProblem) in try file.commit() }
        endProgress(context)
        return .object(["exported": .integer(Int64(count)), "file": .string(absolute), "format": .string(format.rawValue)])
    }

    // MARK: - Import

    /// The file's users, in batches of 1,000; a user refused counts, by its place in the file.
    static func importUsers(from path: String, _ format: AccountFile.Format, flags: HashFlags?, api: AdminAPI, context: CommandContext) throws(FBAuthError) -> JSONValue {
        let read: Data?
        do throws(Platform.FileProblem) {
            read = try Platform.readUserFile(Platform.absolutePath(path), limit: largestImport)
        } catch {
            throw .usage(error.description)
        }
        guard let data = read else { throw .usage("there is no file \(TerminalText.safe(path)) to import") }
        do throws(TokenRefusal) {
            let users = try AccountFile.users(from: data, format: format)
            let hash = try flags.map { (flags: HashFlags) throws(TokenRefusal) -> AdminHashOptions in try options(flags, context) }
            if hash == nil, users.contains(where: { $0.passwordHash != nil }) {
                throw AdminErrors.client("MISSING_HASH_ALGORITHM", message: "the file has password hashes: say how they were made with --hash-algo and its parameters (firebase auth:export's are SCRYPT with the project's key, --salt-separator, --rounds and --mem-cost)")
            }
            var imported = 0
            var errors: [JSONValue] = []
            var start = 0
            while start < users.count {
                let batch = Array(users[start..<min(start + AdminAPI.maxImportUsers, users.count)])
                let outcome = try api.importUsers(batch, hash: hash)
                imported += outcome.successCount
                for failure in outcome.failures {
                    errors.append(.object(["index": .integer(Int64(start + failure.index)), "uid": .string(batch[failure.index].uid),
                                           "message": .string(failure.error.message), "code": .string(failure.error.code)]))
                }
                start += batch.count
                progress("Imported \(start) of \(users.count) users…", context)
            }
            if start > 0 { endProgress(context) }
            return .object(["successCount": .integer(Int64(imported)), "failureCount": .integer(Int64(errors.count)), "errors": .array(errors)])
        } catch {
            throw UsersCommand.failure(error)
        }
    }

    private static func options(_ flags: HashFlags, _ context: CommandContext) throws(TokenRefusal) -> AdminHashOptions {
        var options = AdminHashOptions(algorithm: flags.algorithm)
        if let source = flags.key {
            let text: String?
            switch source {
            case .stdin: text = try? SecretInput.text(from: "-", option: "--hash-key-stdin", console: context.console)
            case .file(let path): text = (try? Platform.readUserFile(Platform.absolutePath(path))).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) }
            }
            guard let text = text?.trimmed(), !text.isEmpty else { throw AdminErrors.client("INVALID_HASH_KEY", message: "the signer key could not be read, or is empty") }
            options.key = try AccountFile.bytes(text, "The hash key")
        }
        if let separator = flags.saltSeparator { options.saltSeparator = try AccountFile.bytes(separator, "The salt separator") }
        (options.rounds, options.memoryCost, options.parallelization) = (flags.rounds, flags.memoryCost, flags.parallelization)
        (options.blockSize, options.derivedKeyLength, options.passwordHashOrder) = (flags.blockSize, flags.derivedKeyLength, flags.order)
        return options
    }

    /// A line on a terminal's stderr while a long transfer goes on; nothing for a pipe or a log.
    static func progress(_ line: String, _ context: CommandContext) {
        guard context.console.isErrorTerminal else { return }
        context.console.writeError("\r" + line)
    }

    static func endProgress(_ context: CommandContext) {
        if context.console.isErrorTerminal { context.console.writeError("\n") }
    }
}
