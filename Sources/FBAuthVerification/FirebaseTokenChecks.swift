import FBAuthHTTP

/// firebase-admin's `FirebaseTokenVerifier` checks, in its order and words
/// (firebase-admin-node `src/auth/token-verifier.ts`): the token decodes; it has a `kid` and
/// RS256 (except from an emulator); its audience and issuer are the project's; its subject is a
/// uid; its signature is one of Google's keys'; it has not expired. firebase-admin-go and .NET
/// add a token issued in the future (past five minutes of clock skew), and fbauth an
/// `auth_time` in the future.
struct FirebaseTokenChecks {
    static let customTokenAudience = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"
    /// firebase-admin-go's and .NET's allowance for the clocks of issuer and server.
    static let clockSkew: Int64 = 300

    let kind: FirebaseTokenKind
    let projectId: String
    /// With `FIREBASE_AUTH_EMULATOR_HOST`: unsigned tokens (`alg: none`) are taken, as the
    /// emulators make them; a signed one is still checked.
    let againstEmulator: Bool
    /// A blocking token's audience: its `aud` must hold it (the function's URL, or
    /// `PROJECT.cloudfunctions.net/` by default, as firebase-admin-node checks).
    var audience: String? = nil

    func decode(_ token: String) throws(TokenRefusal) -> DecodedJWT {
        guard let decoded = DecodedJWT(token) else {
            throw TokenRefusal("Decoding \(kind.jwtName) failed. Make sure you passed the entire string JWT which represents \(kind.article) \(kind.shortName)." + kind.docsSentence)
        }
        return decoded
    }

    /// Everything but the signature and the times.
    func checkContent(_ token: DecodedJWT) throws(TokenRefusal) {
        let header = token.header, payload = token.payload
        let projectMatch = " Make sure the \(kind.shortName) comes from the same Firebase project as the service account used to authenticate this SDK."
        let algorithm = header["alg"]?.stringValue
        let unsignedFromEmulator = againstEmulator && algorithm == "none" && token.signature.isEmpty
        if !unsignedFromEmulator, header["kid"]?.stringValue == nil {
            if payload["aud"]?.stringValue == Self.customTokenAudience {
                throw TokenRefusal("\(kind.verifyName) expects \(kind.article) \(kind.shortName), but was given a custom token." + kind.docsSentence)
            }
            throw TokenRefusal("\(kind.jwtName) has no \"kid\" claim." + kind.docsSentence)
        }
        if !unsignedFromEmulator, algorithm != "RS256" {
            throw TokenRefusal("\(kind.jwtName) has incorrect algorithm. Expected \"RS256\" but got \"\(Self.shown(header["alg"]))\"." + kind.docsSentence)
        }
        if kind == .authBlockingToken {
            let expected = audience ?? "\(projectId).cloudfunctions.net/"
            if !(payload["aud"]?.stringValue ?? "").contains(expected) {
                throw TokenRefusal("\(kind.jwtName) has incorrect \"aud\" (audience) claim. Expected \"\(expected)\" but got \"\(Self.shown(payload["aud"]))\"." + kind.docsSentence)
            }
        } else if payload["aud"]?.stringValue != projectId {
            throw TokenRefusal("\(kind.jwtName) has incorrect \"aud\" (audience) claim. Expected \"\(projectId)\" but got \"\(Self.shown(payload["aud"]))\"." + projectMatch + kind.docsSentence)
        }
        let issuer = kind.issuerPrefix + projectId
        if payload["iss"]?.stringValue != issuer {
            throw TokenRefusal("\(kind.jwtName) has incorrect \"iss\" (issuer) claim. Expected \"\(issuer)\" but got \"\(Self.shown(payload["iss"]))\"." + projectMatch + kind.docsSentence)
        }
        // A blocking token of a mail or an SMS has no user, and so no subject to check.
        if kind == .authBlockingToken, ["beforeSendSms", "beforeSendEmail"].contains(payload["event_type"]?.stringValue ?? "") { return }
        guard let subject = payload["sub"]?.stringValue else { throw TokenRefusal("\(kind.jwtName) has no \"sub\" (subject) claim." + kind.docsSentence) }
        if subject.isEmpty { throw TokenRefusal("\(kind.jwtName) has an empty \"sub\" (subject) claim." + kind.docsSentence) }
        // JavaScript's length, as firebase-admin-node counts (`payload.sub.length > 128`): UTF-16 code
        // units, not graphemes (a 3,001-byte sub of combining marks is one grapheme).
        if subject.utf16.count > 128 { throw TokenRefusal("\(kind.jwtName) has a \"sub\" (subject) claim longer than 128 characters." + kind.docsSentence) }
    }

    /// The signature, by the key its `kid` names; an unsigned emulator token has none to check.
    func checkSignature(_ token: DecodedJWT, keys: [String: RSAPublicKey]) throws(TokenRefusal) {
        if againstEmulator, token.header["alg"]?.stringValue == "none", token.signature.isEmpty { return }
        guard let kid = token.header["kid"]?.stringValue, let key = keys[kid] else {
            throw TokenRefusal("\(kind.jwtName) has \"kid\" claim which does not correspond to a known public key. Most likely the \(kind.shortName) is expired, so get a fresh token from your client app and try again.")
        }
        guard RS256.verify(token.signature, of: token.signingInput, with: key) else {
            throw TokenRefusal("\(kind.jwtName) has invalid signature." + kind.docsSentence)
        }
    }

    /// Expiry (as jsonwebtoken: expired once now reaches `exp`), then a token issued, or a user
    /// authenticated, after now and the clock skew.
    func checkTimes(_ token: DecodedJWT, now: Int64) throws(TokenRefusal) {
        guard let expires = token.payload["exp"]?.integer, expires > now else {
            throw TokenRefusal("\(kind.jwtName) has expired. Get a fresh \(kind.shortName) from your client app and try again (\(kind.expiredCode))." + kind.docsSentence,
                               code: kind.expiredCode)
        }
        guard let issued = token.payload["iat"]?.integer, issued <= now + Self.clockSkew else {
            throw TokenRefusal("\(kind.jwtName) is not yet valid: issued at future timestamp \(Self.shown(token.payload["iat"]))." + kind.docsSentence)
        }
        // A blocking token is about a sign-in under way: it has no `auth_time` of its own.
        if kind == .authBlockingToken { return }
        guard let authenticated = token.payload["auth_time"]?.integer, authenticated <= now + Self.clockSkew else {
            throw TokenRefusal("\(kind.jwtName) has no valid \"auth_time\" claim: it must be a time not in the future." + kind.docsSentence)
        }
    }

    /// A claim as a message shows it: its text, else its JSON.
    private static func shown(_ value: JSONValue?) -> String {
        guard let value else { return "undefined" }
        return value.stringValue ?? value.json
    }
}
