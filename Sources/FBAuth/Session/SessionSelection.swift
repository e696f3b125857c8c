/// Which saved session a command acts on: the project's current one, or the one named by
/// the global `--user UID-or-EMAIL`.
internal enum SessionSelector: Sendable, Equatable {
    case current
    case user(String)
    case exactly(SessionReference)
}

extension StoreContents {
    /// The selected session of the project, or a clear error: not signed in (exit 3), unknown
    /// user (exit 3), or an email that names several sessions (exit 2).
    internal func session(_ selector: SessionSelector, in key: ProjectKey) throws(FBAuthError) -> Session {
        let sessions = project(key)?.sessions ?? []
        let named = key.displayName(projectId: project(key)?.projectId)
        switch selector {
        case .current:
            guard let session = currentSession(of: key) else {
                throw sessions.isEmpty
                    ? .signInAgain("not signed in to \(named); sign in first", remedy: .signIn)
                    : .signInAgain("no current session on \(named); choose one of its saved sessions", remedy: .chooseSession)
            }
            return session
        case .exactly(let reference):
            guard let session = sessions.first(where: { $0.reference == reference }) else {
                throw .signInAgain("the session of \(reference.uid) is no longer saved; sign in again")
            }
            return session
        case .user(let name):
            let byUID = sessions.filter { $0.uid == name }
            let matches = byUID.isEmpty ? sessions.filter { $0.email?.lowercased() == name.lowercased() } : byUID
            guard !matches.isEmpty else {
                throw .signInAgain("no saved session for '\(name)' on \(named)", remedy: .listAllSessions)
            }
            guard matches.count == 1 else {
                let uids = matches.map { $0.uid + ($0.tenantId.map { " (tenant \($0))" } ?? "") }.joined(separator: ", ")
                throw .usage("'\(name)' matches several saved sessions (\(uids)); name one by its uid")
            }
            return matches[0]
        }
    }

    /// Removes one session; the project has no current session afterwards if it was current.
    internal mutating func remove(_ reference: SessionReference, in key: ProjectKey) {
        guard var project = projects[key.storageKey] else { return }
        project.sessions.removeAll { $0.reference == reference }
        project.forgetCurrent(reference)
        projects[key.storageKey] = project
    }

    /// Removes one session by the rule signing out and deleting share: when it was the current
    /// one, the saved session that signed in most recently becomes current (as `gh auth logout`
    /// does), and is returned; nil when another stays current, or none is left.
    internal mutating func removePromotingNext(_ reference: SessionReference, in key: ProjectKey) -> Session? {
        let wasCurrent = currentSession(of: key)?.reference == reference
        remove(reference, in: key)
        guard wasCurrent, let next = mostRecentSession(in: key) else { return nil }
        makeCurrent(next.reference, in: key)
        return next
    }

    /// The session that signed in last; of two in the same instant, the one saved later.
    internal func mostRecentSession(in key: ProjectKey) -> Session? {
        project(key)?.sessions.enumerated().max { ($0.element.lastSignInTime, $0.offset) < ($1.element.lastSignInTime, $1.offset) }?.element
    }

    internal mutating func makeCurrent(_ reference: SessionReference, in key: ProjectKey) {
        projects[key.storageKey]?.setCurrent(reference, of: key.app)
    }
}
