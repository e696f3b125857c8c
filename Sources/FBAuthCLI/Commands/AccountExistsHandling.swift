import FBAuth
import LoopbackHTTP
/// "Account exists with different credential" (`needConfirmation`): saves the provider's
/// credential for `fbauth link --pending`, tells the user which methods the account uses and
/// what to do next, and exits 5.
struct AccountExistsHandling {
    let project: ProjectContext
    let store: SessionStore
    let context: CommandContext

    func savePending(_ response: SignInWithIdpResponse, providerId: String) throws(FBAuthError) -> Never {
        let conflict = AccountExistsConflict.reported(response, providerId: providerId)
        let pending = PendingCredential(credential: conflict.updatedCredential, email: conflict.email, savedAt: context.clock.now())
        try store.update { (contents: inout StoreContents) throws(FBAuthError) in
            contents.modifyProject(project.key) { $0.pendingCredential = pending }
        }
        var methods = conflict.existingProviders
        if let email = conflict.email, let registered = try? project.client.signInMethods(email: email, tenantId: project.tenantId) {
            methods += (registered.signinMethods ?? []).filter { !methods.contains($0) }
        }
        let email = conflict.email ?? "this email address"
        let console = context.console
        console.say(methods.isEmpty
            ? "An account already exists for \(email) (the project does not say which sign-in methods it uses)."
            : "An account already exists for \(email); it signs in with: \(methods.joined(separator: ", ")).")
        console.say("The \(pending.providerId) credential was saved. Sign in to that account, then link it:")
        for method in methods.prefix(3) where method != "emailLink" {
            console.say(method == "password"
                ? "  fbauth signin --provider password --email \(email)"
                : "  fbauth signin --provider \(method)" + (conflict.email.map { " --email \($0)" } ?? ""))
        }
        console.say("  fbauth link --pending")
        throw .accountExists(conflict)
    }
}

extension AccountExistsConflict {
    /// The conflict with fbauth's exit-5 message.
    static func reported(_ response: SignInWithIdpResponse, providerId: String) -> AccountExistsConflict {
        let email = response.email ?? "this email address"
        let provider = response.providerId ?? providerId
        let methods = response.verifiedProvider.flatMap { $0.isEmpty ? nil : $0.joined(separator: ", ") }
        return AccountExistsConflict(
            response: response, providerId: providerId,
            message: "an account already exists for \(email) with a different sign-in method" + (methods.map { " (\($0))" } ?? "")
                + "; sign in with that method first, then run `fbauth link --pending` to add \(provider)")
    }
}
