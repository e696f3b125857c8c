#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

/// Email-link (passwordless) sign-in from a terminal (firebase-js-sdk
/// `packages/auth/src/core/strategies/email_link.ts`): Firebase mails a link whose continue
/// URL is fbauth's listener, `http://localhost:PORT/__/auth/emailLink?state=RANDOM`. Firebase's
/// action handler (`https://PROJECT.firebaseapp.com/__/auth/action`, or the Auth emulator's
/// `/emulator/action`) sends the browser on to that URL with the link's `mode`, `oobCode`,
/// `apiKey` and `lang` appended, so opening the mail on this machine completes the sign-in;
/// elsewhere the user pastes the link (or the address it ended on) into the terminal. The
/// continue URL's host must be an authorized domain: `localhost` is one in every new project.
/// Only a request carrying this sign-in's `state` is taken: another local user cannot end the
/// wait with a code of their own.
internal struct EmailLinkFlow: Sendable {
    let flow: BrowserSignInFlow
    /// reCAPTCHA Enterprise tokens, where the project protects email/password.
    var recaptchaTokens: RecaptchaTokenSource?

    internal static let path = "/__/auth/emailLink"

    internal init(flow: BrowserSignInFlow, recaptchaTokens: RecaptchaTokenSource?) {
        self.flow = flow
        self.recaptchaTokens = recaptchaTokens
    }

    /// Sends the link to `email`, waits for it and signs in (or links, for `.link`). Ctrl-C is
    /// watched from the start, as in `BrowserSignInFlow.run`: one pressed once the link is said
    /// to be sent, before the wait, ends the sign-in instead of killing the process.
    internal func run(email: String, port: UInt16, timeout: Duration, purpose: FlowPurpose) throws(FBAuthError) -> SignInRecord {
        let held = HeldInterrupts(beginning: flow.interrupts)
        defer { held.endUnused() }
        var watched = flow
        watched.interrupts = held
        return try EmailLinkFlow(flow: watched, recaptchaTokens: recaptchaTokens).sendAndWait(email: email, port: port, timeout: timeout, purpose: purpose)
    }

    private func sendAndWait(email: String, port: UInt16, timeout: Duration, purpose: FlowPurpose) throws(FBAuthError) -> SignInRecord {
        let receiver = try RedirectReceiver(port: port, host: .localhost, guard: flow.listenerGuard)
        defer { receiver.close() }
        let state = flow.secrets.make(bytes: 16)
        let continueUrl = "http://localhost:\(receiver.port)\(Self.path)?state=\(state)"
        try send(email: email, continueUrl: continueUrl)
        flow.observer.notice("A sign-in link was sent to \(email)\(flow.client.mailNote(knownProjectId: flow.projectId)). Open it on this machine and the sign-in completes here; on another device, copy the link (or the address it ends on) and paste it here.")
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let callback = try wait(receiver: receiver, state: state, timeout: max(.zero, clock.now.duration(to: deadline)))
            do throws(FBAuthError) {
                guard case .authorized(let parameters) = callback.verdict else { throw FBAuthError.flowIncomplete("the link did not arrive") }
                let link: EmailActionLink
                switch EmailActionLink.from(parameters) {
                case .success(let parsed): link = parsed
                case .failure(let problem): throw FBAuthError.usage("that is not a sign-in link: \(problem.reason)")
                }
                if link.operation != .emailLink, callback.held != nil {
                    callback.respond(ResultPage.rejected(status: 403, reason: "this is \(link.operation.sentence), not a sign-in link"))
                    flow.observer.notice("fbauth: \(link.operation.sentence) reached this sign-in and was refused; still waiting for the sign-in link sent to \(email).")
                    continue
                }
                let record = try credentials.emailLink(email: email, link: link, linkingTo: purpose.linkToken)
                callback.respond(ResultPage.success(signedInAs: record.displayLabel))
                return record
            } catch where error.isLinkForAnotherAddress && callback.held != nil {
                // The continue URL, state included, is no secret from whoever sees the mail or an
                // emulator's listing of links: someone may send a link of their own to it. Such a
                // link is refused like a wrong state, and the wait goes on for the user's own.
                callback.respond(ResultPage.rejected(status: 403, reason: "this link was sent to another address than \(email)"))
                flow.observer.notice("fbauth: a sign-in link sent to another address reached this sign-in and was refused; still waiting for the link sent to \(email).")
            } catch {
                callback.respond(ResultPage.failure(error.pageSentence))
                throw error
            }
        }
    }

    /// Has Firebase mail the sign-in link (`sendOobCode` `EMAIL_SIGNIN`).
    internal func send(email: String, continueUrl: String) throws(FBAuthError) {
        do {
            try credentials.recaptcha.perform(action: "getOobCode") { (fields) throws(FBAuthError) in
                try flow.client.sendOobCode(.signInLink(email: email, continueUrl: continueUrl), tenantId: flow.tenantId, recaptcha: fields)
            }
        } catch .server(let error, let action) where error.code == "UNAUTHORIZED_DOMAIN" {
            throw FBAuthError.failed(.unauthorizedDomain, "\(action) failed: the link returns to http://localhost, and localhost is not an authorized domain of this project; add it (Firebase console → Authentication → Settings → Authorized domains) [UNAUTHORIZED_DOMAIN]")
        } catch .server(let error, let action) where error.code == "OPERATION_NOT_ALLOWED" {
            throw FBAuthError.failed(.operationNotAllowed, "\(action) failed: email-link sign-in is not enabled for this project (Firebase console → Authentication → Sign-in method → Email/Password → Email link) [OPERATION_NOT_ALLOWED]")
        }
    }

    var credentials: CredentialSignIn {
        CredentialSignIn(client: flow.client, clock: flow.clock, tenantId: flow.tenantId, secondFactor: flow.secondFactor,
                         recaptchaTokens: recaptchaTokens)
    }

    /// The link's arrival at the listener, or a link pasted on the terminal.
    private func wait(receiver: RedirectReceiver, state: String, timeout: Duration) throws(FBAuthError) -> ReceivedCallback {
        let matcher = CallbackMatcher(redirectPath: Self.path, binding: .state(state), port: receiver.port, resultKeys: ["oobCode"])
        var wait = BrowserWait<ReceivedCallback>(
            observer: flow.observer, interrupts: flow.interrupts, hintAfter: .seconds(3600), launched: nil,
            showsStatusLine: flow.showsWaitingLine, address: "", instructions: { _, _ in "" },
            serve: { [observer = flow.observer] (deadline, watching) throws(FBAuthError) -> ListenerEvent<ReceivedCallback> in
                switch receiver.wait(for: matcher, until: deadline, watching: watching) {
                case .stopped: throw StartGate.replayError(observer)
                case .callback(let callback): return .delivered(callback)
                case .deadlineReached: return .deadlineReached
                case .readable(let fd): return .readable(fd)
                }
            },
            paste: { line in
                switch EmailActionLink.parse(line) {
                case .success(let link):
                    let parameters = ["oobCode": link.code, "mode": link.operation.rawValue, "apiKey": link.apiKey]
                    return .success(ReceivedCallback(verdict: .authorized(parameters: parameters), requestURI: "", postBody: nil, held: nil))
                case .failure(let problem):
                    return .failure(.notTheRedirect(problem.reason))
                }
            })
        wait.pastePrompt = "Paste the link from the email (or the address it ended on):"
        wait.awaited = "the email link"
        wait.showsStatusWhileReading = true
        return try wait.wait(timeout: timeout)
    }
}

extension FBAuthError {
    /// Firebase's answer to a link mailed to another address than the one signing in
    /// (`INVALID_EMAIL : The email provided does not match the sign-in email address.`).
    var isLinkForAnotherAddress: Bool {
        guard case .server(let error, _) = self else { return false }
        return error.code == "INVALID_EMAIL"
    }
}
