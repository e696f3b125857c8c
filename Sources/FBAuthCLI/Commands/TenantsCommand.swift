import FBAuth
import FBAuthAdmin
import FBAuthHTTP
import FBAuthSupport
import FBAuthVerification

/// `fbauth tenants …`: a project's Identity Platform tenants, on the same engine as
/// FirebaseAdminAuth's `TenantManager` (FBAuthAdmin).
enum TenantsCommand: RunnableCommand {
    static let actions = ["list", "get", "create", "update", "delete"]

    static let spec = CommandSpec(
        name: "tenants",
        summary: "Manage the project's Identity Platform tenants with the Admin API: list, get, create, update, delete.",
        usage: ["list", "get TENANT", "create --display-name NAME [--password on|off] [--email-link on|off] [--anonymous on|off]",
                "update TENANT [--display-name NAME] [--password on|off] [--email-link on|off] [--anonymous on|off]", "delete TENANT"],
        options: [
            OptionSpec("display-name", value: "NAME", help: "The tenant's name: 4 to 20 letters, digits and hyphens, starting with a letter."),
            OptionSpec("password", value: "on|off", suggestions: ["on", "off"], help: "Whether the tenant's users may sign in with a password."),
            OptionSpec("email-link", value: "on|off", suggestions: ["on", "off"], help: "Whether they may sign in with an email link."),
            OptionSpec("anonymous", value: "on|off", suggestions: ["on", "off"], help: "Whether they may sign in anonymously."),
        ],
        positionals: [
            PositionalSpec("ACTION", suggestions: actions, help: actions.joined(separator: ", ") + "."),
            PositionalSpec("TENANT", optional: true, help: "The tenant's id (with get, update and delete)."),
        ],
        details: """
            Each result is JSON on stdout: a tenant as firebase-admin's Tenant.toJSON() writes \
            one, a list as {"tenants": […]}. The project and the credentials are those of \
            fbauth users. A tenant's users: fbauth --tenant-id TENANT users …

            Examples:
              fbauth tenants create --display-name staff --password on
              fbauth tenants list | jq -r '.tenants[].tenantId'
            """)

    struct Options: Equatable {
        var action: String
        var tenantId: String?
        var displayName: String?
        var password: Bool?
        var emailLink: Bool?
        var anonymous: Bool?
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        guard let action = arguments.positionals.first else { throw .usage("tenants needs an action: \(actions.joined(separator: ", "))") }
        guard actions.contains(action) else {
            throw .usage("'\(TerminalText.safe(String(action.prefix(40))))' is not a tenants action; use one of: \(actions.joined(separator: ", "))")
        }
        let tenant = arguments.positionals.dropFirst().first
        if ["get", "update", "delete"].contains(action), tenant == nil { throw .usage("tenants \(action) takes the tenant's id") }
        if ["list", "create"].contains(action), tenant != nil { throw .usage("tenants \(action) takes no tenant id") }
        func onOff(_ name: String) throws(FBAuthError) -> Bool? {
            guard let value = arguments.value(name) else { return nil }
            switch value {
            case "on": return true
            case "off": return false
            default: throw .usage("--\(name) takes on or off, not '\(TerminalText.safe(String(value.prefix(20))))'")
            }
        }
        return Options(action: action, tenantId: tenant, displayName: arguments.value("display-name"),
                       password: try onOff("password"), emailLink: try onOff("email-link"), anonymous: try onOff("anonymous"))
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        let api = AdminAPI(projectId: try VerifyTokenCommand.projectId(context), emulatorHost: context.settings.emulatorHost,
                           transport: context.dependencies.transport, clock: context.clock, credentials: .applicationDefault(environment: context.environment))
        var change = AdminTenantChange()
        (change.displayName, change.passwordSignInEnabled) = (options.displayName, options.password)
        (change.emailLinkSignInEnabled, change.anonymousSignInEnabled) = (options.emailLink, options.anonymous)
        let output: JSONValue
        do throws(TokenRefusal) {
            switch options.action {
            case "list":
                var tenants: [JSONValue] = [], token: String?
                repeat {
                    let page = try api.listTenants(pageToken: token)
                    tenants += page.tenants.map(json)
                    token = page.pageToken
                } while token != nil
                output = .object(["tenants": .array(tenants)])
            case "get": output = json(try api.getTenant(options.tenantId ?? ""))
            case "create": output = json(try api.createTenant(change))
            case "update": output = json(try api.updateTenant(options.tenantId ?? "", change))
            default:
                try api.deleteTenant(options.tenantId ?? "")
                output = .object(["deleted": .string(options.tenantId ?? "")])
            }
        } catch {
            throw UsersCommand.failure(error)
        }
        context.console.writeOutput(JSONOutput.render(output))
    }

    /// As firebase-admin-node's `Tenant.toJSON()`.
    static func json(_ tenant: AdminTenant) -> JSONValue { tenant.json }
}
