#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import LoopbackHTTP

/// `fbauth link`: adds a provider to the current user, through the browser or from the
/// credential saved by an "account exists" failure.
enum LinkCommand {
    static let spec = CommandSpec(
        name: "link",
        summary: "Link another identity provider to the current user.",
        usage: ["--provider ID " + FlowOptionSpecs.usage, FlowOptionSpecs.twoStepUsage, "--pending"],
        options: FlowOptionSpecs.all + [
            OptionSpec("pending", help: "Link the credential saved when a sign-in ended with exit 5 (account exists with a different credential)."),
        ],
        details: """
            Runs the same browser flow as signin with the current user's ID token, so Firebase adds \
            the provider to that user. Refuses at once when the provider is already linked.

            --pending links the provider credential that a sign-in saved when its email already \
            belonged to another account: sign in to that account first, then run it.

            Examples:
              fbauth link --provider github.com
              fbauth signin --provider password --email pat@example.com && fbauth link --pending
            """)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(FBAuthError) {
        if arguments.flag("pending") {
            try arguments.allowOnly([], with: "--pending")
            if arguments.value("provider") != nil { throw .usage("--pending links the saved credential; leave out --provider") }
            try linkPending(context)
            return
        }
        let project = try context.project()
        let store = context.sessionStore()
        let refresher = context.tokenRefresher(for: project.key)
        if let address = arguments.value("complete") {
            try arguments.allowOnly(["complete", "loopback"], with: "--complete")
            // The user being linked is known once the address names its pending flow.
            var linking: (session: Session, providerId: String)?
            let result: BrowserSignInFlow.Result
            do throws(FBAuthError) {
                result = try context.twoStepFlow(for: project)
                    .complete(try context.completionAddress(address), command: "link") { (pending: PendingFlow) throws(FBAuthError) -> FlowPurpose in
                        guard let user = pending.user else { throw .failed(.internalError, "the pending link names no user; start again with --print-url") }
                        let session = try refresher.session(.exactly(user), minValid: 60)
                        linking = (session, pending.providerId)
                        return .link(idToken: session.idToken)
                    }.1
            } catch {
                guard let linking else { throw error }
                if error.rejectsSession { try refresher.reject(linking.session, because: error) }
                throw error.explainingLink(of: linking.providerId)
            }
            try finishLink(result, providerId: linking!.providerId, over: linking!.session, project: project, store: store, context: context)
            return
        }
        let options = try FlowOptions(arguments: arguments)
        let saved = try store.load().session(context.selector, in: project.key)
        if saved.providerData.contains(where: { $0.providerId == options.providerId }) {
            throw .failed(.providerAlreadyLinked, "\(options.providerId) is already linked to \(saved.displayLabel); nothing to do (unlink it first to link another \(ProviderNames.name(of: options.providerId)) account)")
        }
        if arguments.flag("print-url") {
            try context.printAuthorizationURL(options, command: "link", user: saved.reference, project: project)
            return
        }
        try store.checkWritable()
        // Enough time left for a slow consent screen.
        let session = try refresher.session(.exactly(saved.reference), minValid: 600)
        let result: BrowserSignInFlow.Result
        do throws(FBAuthError) {
            result = try context.browserFlow(for: project).run(options, purpose: .link(idToken: session.idToken))
        } catch where error.rejectsSession {
            try refresher.reject(session, because: error)
        } catch {
            throw error.explainingLink(of: options.providerId)
        }
        try finishLink(result, providerId: options.providerId, over: session, project: project, store: store, context: context)
    }

    private static func finishLink(_ result: BrowserSignInFlow.Result, providerId: String, over session: Session, project: ProjectContext,
                                   store: SessionStore, context: CommandContext) throws(FBAuthError) {
        switch result {
        case .signedIn(let record):
            try saveLinked(record, over: session, project: project, store: store, context: context, clearPending: false)
        case .accountExists(let response):
            throw AccountExistsReport(response: response, providerId: providerId).error
        }
    }

    private static func linkPending(_ context: CommandContext) throws(FBAuthError) {
        let project = try context.project()
        let store = context.sessionStore()
        let contents = try store.load()
        guard let pending = contents.project(project.key)?.pendingCredential else {
            throw .signInAgain("no pending credential is saved for this project (one is saved when a sign-in ends with exit 5)")
        }
        let age = context.clock.now().timeIntervalSince(pending.savedAt)
        if age > PendingCredential.probableLifetime {
            context.console.say("The pending \(pending.providerId) credential was saved \(Int(age / 60)) minutes ago and has probably expired; trying anyway.")
        }
        let refresher = context.tokenRefresher(for: project.key)
        let session = try refresher.session(context.selector, minValid: 60)
        var request = pending.request
        request.idToken = session.idToken
        request.tenantId = project.tenantId
        let record: SignInRecord
        do throws(FBAuthError) {
            let response = try project.client.signInWithIdp(request, action: "linking")
            guard case .signedIn(let linked) = try SignInCompletion(client: project.client, clock: context.clock, tenantId: project.tenantId)
                .complete(response, providerId: pending.providerId, purpose: .link(idToken: session.idToken))
            else { throw FBAuthError.failed(.accountExistsWithDifferentCredential, "linking failed: Firebase asked for confirmation again; sign in with \(pending.providerId) again") }
            record = linked
        } catch where error.rejectsSession {
            try refresher.reject(session, because: error)
        } catch {
            if case .server(let serverError, _) = error, serverError.code == "INVALID_PENDING_TOKEN" {
                try store.update { (contents: inout StoreContents) throws(FBAuthError) in
                    contents.modifyProject(project.key) { $0.pendingCredential = nil }
                }
                throw .failed(.serverRefused, "the pending \(pending.providerId) credential is no longer valid and was removed; sign in with \(pending.providerId) again [INVALID_PENDING_TOKEN]")
            }
            throw error.explainingLink(of: pending.providerId)
        }
        try saveLinked(record, over: session, project: project, store: store, context: context, clearPending: true)
    }

    /// Saves the user with the new provider and prints the result.
    private static func saveLinked(_ record: SignInRecord, over session: Session, project: ProjectContext, store: SessionStore,
                                   context: CommandContext, clearPending: Bool) throws(FBAuthError) {
        guard record.account.localId == session.uid else {
            throw .failed(.userMismatch, "linking answered for another user (\(record.account.localId ?? "?")); the session was left unchanged")
        }
        // Merged into the session as it is now, not as it was before the browser: a concurrent
        // link keeps its provider token, and a signout meanwhile is not undone.
        let linked = try store.update { (contents: inout StoreContents) throws(FBAuthError) -> Session in
            guard let current = try? contents.session(.exactly(session.reference), in: project.key) else {
                throw .signInAgain("\(session.displayLabel) was signed out while linking; \(record.method ?? "the provider") was linked on the server, but the session stays signed out (sign in again to use it)")
            }
            var linked = record.session(replacing: current)
            linked.lastSignInTime = current.lastSignInTime
            contents.save(linked, in: project.key, makeCurrent: false)
            if clearPending { contents.modifyProject(project.key) { $0.pendingCredential = nil } }
            return linked
        }
        context.console.writeOutput(JSONOutput.render(AuthDataResultJSON(record: record, session: linked)))
        context.console.say("Linked \(record.method ?? "the provider") to \(linked.displayLabel).")
    }
}
