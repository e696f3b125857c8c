import FBAuth
import Foundation

/// What a program on Linux may set that the SDK has no need of: where the user is told how a
/// browser sign-in goes. Set before the first `Auth.auth()`. Everything else is the SDK's API.
public enum LinuxSeams {
    /// Told where to sign in while a browser sign-in waits (the address to open when no
    /// browser can be started, what happened); by default, lines on stderr.
    nonisolated(unsafe) public static var signInObserver: any SignInObserver = StandardErrorObserver()
}

/// The notices of a browser sign-in, one line each on stderr.
struct StandardErrorObserver: SignInObserver {
    func signIn(_ event: SignInEvent) {
        guard case .notice(let text) = event else { return }
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    var pasteInput: PasteInput? { nil }
}
