@testable import FBAuth
@testable import FBAuthCLI
import Testing
@testable import FBAuthSupport

@Suite struct ArgumentParserTests {
    let parser = ArgumentParser(commands: CommandLineTool.commandSpecs)

    private func run(_ arguments: [String]) throws -> ParsedArguments {
        guard case .run(_, let parsed) = try parser.parse(arguments) else {
            Issue.record("not a run: \(arguments)")
            return ParsedArguments()
        }
        return parsed
    }

    @Test func readsBothSpellingsRepeatedOptionsAndFlags() throws {
        let parsed = try run(["signin", "--provider", "yahoo.com", "--scope=a", "--scope", "b", "--no-browser", "--param", "x=1=2"])
        #expect(parsed.value("provider") == "yahoo.com")
        #expect(parsed.all("scope") == ["a", "b"])
        #expect(parsed.flag("no-browser"))
        #expect(parsed.all("param") == ["x=1=2"])
    }

    @Test func globalOptionsWorkBeforeAndAfterTheCommand() throws {
        #expect(try run(["--api-key", "k", "signin", "--provider", "oidc.b"]).value("api-key") == "k")
        #expect(try run(["signin", "--provider", "oidc.b", "--api-key=k"]).value("api-key") == "k")
    }

    @Test func aDashIsAValueAndDoubleDashEndsOptions() throws {
        #expect(try run(["signin", "--provider", "oidc.b", "--email", "-"]).value("email") == "-")
        #expect(try run(["help", "--", "--provider"]).positionals == ["--provider"])
    }

    @Test func helpAndVersion() throws {
        #expect(try parser.parse([]) == .help(command: nil))
        #expect(try parser.parse(["--version"]) == .version)
        #expect(try parser.parse(["signin", "--bogus", "--help"]) == .help(command: "signin"))
        #expect(try parser.parse(["-h"]) == .help(command: nil))
        #expect(try parser.parse(["help", "--", "-h"]) != .help(command: nil))
    }

    @Test(arguments: [
        (["signn"], "did you mean 'signin'?"),
        (["demoo"], "did you mean 'demo'?"),
        (["zzzzzz"], "run 'fbauth --help' for the list"),
        (["signin", "--timeot", "3"], "did you mean '--timeout'?"),
        (["signin", "--prov", "x"], "did you mean '--provider'?"),
        (["signin", "--api-kye", "k"], "did you mean '--api-key'?"),
        (["signin", "--port"], "needs a value"),
        (["signin", "--port", "--timeout", "3"], "needs a value"),
        (["demo", "extra"], "unexpected argument 'extra' for 'demo'"),
    ])
    func usageErrors(arguments: [String], message: String) {
        #expect {
            try parser.parse(arguments)
        } throws: { error in
            guard case FBAuthError.usage(let text, _) = error else { return false }
            return text.contains(message)
        }
    }

    @Test func suggestionsNeedACloseMatch() {
        #expect(Suggestions.closest(to: "provder", among: ["provider", "port"]) == "provider")
        #expect(Suggestions.closest(to: "xyz", among: ["provider", "port"]) == nil)
        #expect(Suggestions.distance("kitten", "sitting") == 3)
    }
}

/// Help is prose: a backslash at a line's end in a spec's source (`\\` where a line continuation
/// `\` was meant) reaches `--help` and the man page as a stray character.
@Suite struct HelpTextTests {
    @Test func noCommandsDetailsHaveABackslashAtALinesEnd() {
        for spec in CommandLineTool.commandSpecs {
            let lines = (spec.details ?? "").split(separator: "\n")
            #expect(!lines.contains { $0.hasSuffix("\\") }, "fbauth \(spec.name)")
        }
    }
}

@Suite struct FlowOptionsTests {
    private func options(_ arguments: [String]) throws -> BrowserFlowRequest {
        guard case .run(_, let parsed) = try ArgumentParser(commands: CommandLineTool.commandSpecs).parse(["signin"] + arguments) else {
            throw FBAuthError.failed(.internalError, "not a run")
        }
        return try BrowserFlowRequest(arguments: parsed)
    }

    /// The flow the library runs for the request, as `AuthService` builds it from the provider and the
    /// settings the command line gives it.
    private func libraryFlow(_ request: BrowserFlowRequest) throws -> FlowOptions {
        var settings = AuthServiceSettings(apiKey: "k")
        settings.apply(request)
        return try AuthService(settings: settings).options(for: request.provider)
    }

    @Test func defaultsAndConversions() throws {
        let flow = try options(["--provider", "microsoft.com", "--param", "tenant=t1", "--email", "a@b.c", "--scope", "mail.read"])
        #expect(flow.port == BrowserFlowRequest.defaultPort)
        #expect(flow.timeout == .seconds(300))
        #expect(flow.redirectHost == .localhost)
        #expect(flow.openBrowser)
        #expect(try libraryFlow(flow).customParameterObject == ["tenant": "t1", "login_hint": "a@b.c"])
        #expect(try libraryFlow(flow).oauthScope == #"{"microsoft.com":"mail.read"}"#)
        #expect(try options(["--provider", "oidc.y", "--timeout", "1.5"]).timeout == .milliseconds(1500))
    }

    @Test func anExplicitLoginHintWinsOverEmail() throws {
        let flow = try options(["--provider", "oidc.y", "--param", "login_hint=h@x.y", "--email", "a@b.c"])
        #expect(try libraryFlow(flow).customParameterObject?["login_hint"] == "h@x.y")
    }

    @Test(arguments: ["client_id", "REDIRECT_URI", "response_type", "scope", "state", "response_mode"])
    func reservedParametersAreRefused(name: String) {
        #expect(throws: FBAuthError.self) { try options(["--provider", "oidc.y", "--param", "\(name)=v"]) }
    }

    @Test(arguments: ["yahoo.com", "oidc.my-provider", "saml.corp_idp", "microsoft.com"])
    func providerIdsThatAreValid(id: String) throws {
        #expect(try ProviderID.validate(id) == id)
    }

    @Test(arguments: ["yahoo", "", ".com", "yahoo.com.", "ya hoo.com", "yahoo.com;rm", "ユーザー.com"])
    func providerIdsThatAreNot(id: String) {
        #expect(throws: FBAuthError.self) { try ProviderID.validate(id) }
    }

    /// fish shows the option's help beside a value without words of its own (issue 41).
    @Test func everyValueCompletionOffersHasItsOwnWords() {
        for command in CommandLineTool.commandSpecs {
            for option in command.options + GlobalOptions.specs {
                for value in option.suggestions {
                    #expect(ValueWords.describe(value, of: option.name) != nil, "\(command.name) --\(option.name) \(value)")
                }
            }
        }
    }
}
