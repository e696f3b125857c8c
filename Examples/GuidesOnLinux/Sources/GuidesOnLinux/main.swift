import FirebaseAuth
import FirebaseCore
import Foundation

// MARK: The app's configuration: what differs from an app on Apple platforms.

let options = FirebaseOptions(googleAppID: "1:123456789012:ios:0a1b2c3d4e5f6a7b", gcmSenderID: "123456789012")
options.apiKey = ProcessInfo.processInfo.environment["FIREBASE_API_KEY"] ?? "demo-api-key"
options.projectID = ProcessInfo.processInfo.environment["FIREBASE_PROJECT_ID"] ?? "demo-fbauth"
FirebaseApp.configure(options: options)
if let emulator = ProcessInfo.processInfo.environment["FIREBASE_AUTH_EMULATOR_HOST"], let colon = emulator.lastIndex(of: ":"),
   let port = Int(emulator[emulator.index(after: colon)...]) {
    Auth.auth().useEmulator(withHost: String(emulator[..<colon]), port: port)
}

/// The steps below, one after the other (each calls `next()` when its completion has run).
var steps: [() -> Void] = []
func next() {
    guard !steps.isEmpty else { exit(0) }
    steps.removeFirst()()
}
func say(_ line: String) { print(line); fflush(stdout) }

// MARK: The guides' code (Yahoo, Twitter, Microsoft on Apple platforms), with the current names.

let listener = Auth.auth().addStateDidChangeListener { auth, user in
    say("state: \(user?.email ?? "signed out")")
}

// Sign in with Yahoo, with custom parameters and scopes.
steps.append {
    let provider = OAuthProvider(providerID: "yahoo.com")
    provider.customParameters = ["prompt": "login", "language": "fr"]
    provider.scopes = ["mail-r", "sdct-w"]
    provider.getCredentialWith(nil) { credential, error in
        if error != nil { say("error: \(error!.localizedDescription)"); exit(1) }
        if credential != nil {
            Auth.auth().signIn(with: credential!) { authResult, error in
                if error != nil { say("error: \(error!.localizedDescription)"); exit(1) }
                // User is signed in.
                // IdP data available in authResult.additionalUserInfo.profile.
                let profile = authResult?.additionalUserInfo?.profile
                say("signed in with \(authResult!.additionalUserInfo!.providerID): \(profile?["email"] as? String ?? "?")")
                // Yahoo OAuth access token can also be retrieved by:
                let accessToken = (authResult?.credential as? OAuthCredential)?.accessToken
                // Yahoo OAuth ID token can be retrieved by calling:
                let idToken = (authResult?.credential as? OAuthCredential)?.idToken
                say("access token: \(accessToken != nil), ID token: \(idToken != nil)")
                say("yahoo uid: \(Auth.auth().currentUser!.providerData[0].uid.isEmpty ? "none" : "present")")
                next()
            }
        }
    }
}

// Link Twitter to the signed-in user.
steps.append {
    let provider = OAuthProvider(providerID: "twitter.com")
    provider.customParameters = ["lang": "fr"]
    provider.getCredentialWith(nil) { credential, error in
        guard let credential else { say("error: \(error!.localizedDescription)"); exit(1) }
        Auth.auth().currentUser?.link(with: credential) { authResult, error in
            if error != nil { say("error: \(error!.localizedDescription)"); exit(1) }
            // Twitter credential is linked to the current user.
            let secret = (authResult?.credential as? OAuthCredential)?.secret
            say("linked \(authResult!.credential!.provider) (token secret: \(secret != nil)); providers: \(Auth.auth().currentUser!.providerData.map(\.providerID).sorted())")
            next()
        }
    }
}

// Reauthenticate with Yahoo before a sensitive operation.
steps.append {
    let provider = OAuthProvider(providerID: "yahoo.com")
    provider.getCredentialWith(nil) { credential, error in
        guard let credential else { say("error: \(error!.localizedDescription)"); exit(1) }
        Auth.auth().currentUser?.reauthenticate(with: credential) { authResult, error in
            if error != nil { say("error: \(error!.localizedDescription)"); exit(1) }
            // User is re-authenticated with fresh tokens minted.
            say("reauthenticated \(authResult!.user.email ?? "?")")
            next()
        }
    }
}

// Sign out.
steps.append {
    let firebaseAuth = Auth.auth()
    do {
        try firebaseAuth.signOut()
    } catch let signOutError as NSError {
        say("Error signing out: \(signOutError)")
    }
    next()
}

// Microsoft, whose email belongs to the Yahoo account: account exists with a different credential.
steps.append {
    let provider = OAuthProvider(providerID: "microsoft.com")
    provider.customParameters = ["prompt": "consent", "tenant": "contoso.onmicrosoft.com"]
    provider.scopes = ["mail.read", "calendars.read"]
    provider.getCredentialWith(nil) { credential, error in
        guard let credential else { say("error: \(error!.localizedDescription)"); exit(1) }
        Auth.auth().signIn(with: credential) { authResult, error in
            // An account with the same email already exists.
            if (error as NSError?)?.code == AuthErrorCode.accountExistsWithDifferentCredential.rawValue {
                // Get pending credential and email of existing account.
                let existingAcctEmail = (error! as NSError).userInfo[AuthErrorUserInfoEmailKey] as! String
                let pendingCred = (error! as NSError).userInfo[AuthErrorUserInfoUpdatedCredentialKey] as! AuthCredential
                say("account exists for \(existingAcctEmail): \(error!.localizedDescription)")
                // Sign in with the existing account (Yahoo), then link the pending credential.
                OAuthProvider(providerID: "yahoo.com").getCredentialWith(nil) { yahoo, _ in
                    Auth.auth().signIn(with: yahoo!) { _, error in
                        if error != nil { say("error: \(error!.localizedDescription)"); exit(1) }
                        Auth.auth().currentUser?.link(with: pendingCred) { result, error in
                            if error != nil { say("error: \(error!.localizedDescription)"); exit(1) }
                            say("linked the pending \(pendingCred.provider) credential; providers: \(result!.user.providerData.map(\.providerID).sorted())")
                            next()
                        }
                    }
                }
                return
            }
            say("expected account-exists, got \(String(describing: error))")
            exit(1)
        }
    }
}

// A wrong password, as the SDK describes it.
steps.append {
    Auth.auth().signIn(withEmail: "pat@example.com", password: "wrong password") { authResult, error in
        let error = error! as NSError
        say("wrong password: \(error.domain) \(error.code) \(error.localizedDescription)")
        Auth.auth().removeStateDidChangeListener(listener)
        next()
    }
}

next()
dispatchMain()
