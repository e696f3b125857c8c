import FBAuth
/// "Account exists with different credential" (`needConfirmation`): saves the provider's
/// credential for `fbauth link --pending`, tells the user which methods the account uses and
/// what to do next, and exits 5.
struct AccountExistsHandling {
    let auth: AuthService
    let context: CommandContext

    /// What a command does with the conflict: a sign-in keeps the credential and says how to
    /// link it (`keep`); a link only words it for the command line.
    enum Outcome { case keep, report }

    /// `body`, with an account-exists conflict handled as `outcome` says: the one place the
    /// sign-in and link commands (each in one step and in two) catch it.
    static func handling<T>(_ outcome: Outcome, auth: AuthService, context: CommandContext, _ body: () throws(FBAuthError) -> T) throws(FBAuthError) -> T {
        do throws(FBAuthError) {
            return try body()
        } catch {
            guard case .accountExists(let conflict) = error else { throw error }
            if outcome == .keep { try AccountExistsHandling(auth: auth, context: context).keep(conflict) }
            throw .accountExists(conflict.reported)
        }
    }

    func keep(_ conflict: AccountExistsConflict) throws(FBAuthError) -> Never {
        try auth.keep(conflict)
        let provider = conflict.updatedCredential.providerID
        var methods = conflict.existingProviders
        if let email = conflict.email, let registered = try? Waiting.result({ auth.fetchSignInMethods(forEmail: email, completion: $0) }) {
            methods += registered.filter { !methods.contains($0) }
        }
        let email = conflict.email ?? "this email address"
        let console = context.console
        console.say(methods.isEmpty
            ? "An account already exists for \(email) (the project does not say which sign-in methods it uses)."
            : "An account already exists for \(email); it signs in with: \(methods.joined(separator: ", ")).")
        console.say("The \(provider) credential was saved. Sign in to that account, then link it:")
        for method in methods.prefix(3) where method != "emailLink" {
            console.say(method == "password"
                ? "  fbauth signin --provider password --email \(email)"
                : "  fbauth signin --provider \(method)" + (conflict.email.map { " --email \($0)" } ?? ""))
        }
        console.say("  fbauth link --pending")
        throw .accountExists(conflict.reported)
    }
}

extension AccountExistsConflict {
    /// The conflict with fbauth's exit-5 message.
    var reported: AccountExistsConflict {
        let email = email ?? "this email address"
        let methods = existingProviders.isEmpty ? nil : existingProviders.joined(separator: ", ")
        return rewording("an account already exists for \(email) with a different sign-in method" + (methods.map { " (\($0))" } ?? "")
            + "; sign in with that method first, then run `fbauth link --pending` to add \(updatedCredential.providerID)")
    }
}
