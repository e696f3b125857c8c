#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport

extension AuthService {
    /// Writes `contents` (a token for another program, such as google-auth's output file) to
    /// `path`, mode 0600, replaced whole, and remembers it with the session of `uid`: signing
    /// that session out, or deleting its account, removes the file, unless something else has
    /// been written there since. For the command line.
    package func writeFile(_ contents: String, to path: String, forSessionOf uid: String) throws(FBAuthError) {
        let data = Data(contents.utf8)
        let absolute = Platform.absolutePath(path)
        do {
            try Platform.writeAtomically(data, to: absolute)
        } catch {
            throw .store("cannot write \(TerminalText.safe(absolute)): \(error.description)")
        }
        try store.recordWrittenFile(WrittenFile(path: absolute, contents: data), for: SessionReference(uid: uid, tenantId: tenantID), in: project)
    }
}
