#!/usr/bin/env python3
"""The real Firebase Admin SDK for Python (firebase-admin, from PyPI) managing users on an Auth
emulator, for FirebaseAdminAuth to be compared with (issue 57).

  admin-users-check.py HOST:PORT PROJECT TAG

Runs one scenario of `firebase_admin.auth` calls with uids and addresses made from TAG, and
prints one JSON object: each step's outcome, a user record as the fields both SDKs share, or
"error: KIND" (not found, already exists, invalid argument). AdminUserManagementTests runs the
same scenario through FirebaseAdminAuth with another TAG and compares the two.
"""
import base64
import json
import os
import sys
import urllib.parse
import urllib.request
import uuid

host, project, tag = sys.argv[1], sys.argv[2], sys.argv[3]
os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = host
os.environ.pop("GOOGLE_APPLICATION_CREDENTIALS", None)

import firebase_admin  # noqa: E402
from firebase_admin import _utils, auth, credentials, exceptions  # noqa: E402


class EmulatorCredential(credentials.Base):
    def get_credential(self):
        return _utils.EmulatorAdminCredentials()


app = firebase_admin.initialize_app(EmulatorCredential(), options={"projectId": project}, name=f"users-{uuid.uuid4().hex[:8]}")


def record(user):
    """The fields of a UserRecord both SDKs have, with the tag taken out."""
    def untag(value):
        return value.replace(tag, "TAG").replace(phone, "PHONE") if isinstance(value, str) else value
    return {
        "uid": untag(user.uid), "email": untag(user.email), "emailVerified": user.email_verified,
        "displayName": user.display_name, "photoURL": user.photo_url, "phoneNumber": untag(user.phone_number),
        # These two as firebase-admin-node reads them (FirebaseAdminAuth follows it): Python's
        # custom_claims gives None for "{}", and tokens_valid_after_timestamp 0 when there is none.
        "disabled": user.disabled, "customClaims": json.loads(user._data["customAttributes"]) if user._data.get("customAttributes") else None,
        "providers": sorted(untag(info.provider_id) + ":" + untag(info.uid) for info in user.provider_data),
        "hasCreationTime": user.user_metadata.creation_timestamp is not None,
        "hasValidAfter": bool(user._data.get("validSince")),
    }


def kind(error):
    if isinstance(error, (auth.UserNotFoundError, auth.EmailNotFoundError, auth.ConfigurationNotFoundError)):
        return "not found"
    if isinstance(error, (auth.EmailAlreadyExistsError, auth.UidAlreadyExistsError, auth.PhoneNumberAlreadyExistsError)):
        return "already exists"
    if isinstance(error, (ValueError, exceptions.InvalidArgumentError)):
        return "invalid argument"
    # Another refusal: the SDKs word and class these differently (firebase-admin-node, which
    # FirebaseAdminAuth follows, says auth/internal-error where Python says UnknownError).
    return "other"


results = {}
uid = f"user-{tag}"
email = f"ada-{tag}@example.com"
phone = "+1555" + str(int(tag, 16) % 10_000_000).zfill(7)


def step(name, call):
    try:
        results[name] = call()
    except Exception as error:  # every failure is an outcome here
        results[name] = "error: " + kind(error)


step("create", lambda: record(auth.create_user(uid=uid, email=email, password="correct horse", display_name="Ada", phone_number=phone,
                                               email_verified=True, photo_url="https://example.com/ada.png", app=app)))
step("get", lambda: record(auth.get_user(uid, app=app)))
step("getByEmail", lambda: record(auth.get_user_by_email(email.upper(), app=app)))
step("getByPhone", lambda: record(auth.get_user_by_phone_number(phone, app=app)))
step("update", lambda: record(auth.update_user(uid, display_name="Ada Lovelace", photo_url=auth.DELETE_ATTRIBUTE, disabled=True, app=app)))
step("removePhone", lambda: record(auth.update_user(uid, phone_number=auth.DELETE_ATTRIBUTE, app=app)))
step("claims", lambda: (auth.set_custom_user_claims(uid, {"admin": True, "level": 3}, app=app), record(auth.get_user(uid, app=app)))[1])
step("revoke", lambda: (auth.revoke_refresh_tokens(uid, app=app), record(auth.get_user(uid, app=app)))[1])
step("getUsers", lambda: (lambda found: {"users": sorted(record(user)["uid"] for user in found.users),
                                         "notFound": sorted(str(getattr(i, "uid", None) or getattr(i, "email", None)).replace(tag, "TAG") for i in found.not_found)})(
    auth.get_users([auth.UidIdentifier(uid), auth.EmailIdentifier(f"nobody-{tag}@example.com")], app=app)))
step("missing", lambda: record(auth.get_user(f"missing-{tag}", app=app)))
step("duplicateEmail", lambda: record(auth.create_user(email=email, app=app)))
step("duplicateUid", lambda: record(auth.create_user(uid=uid, app=app)))
step("longUid", lambda: record(auth.create_user(uid="u" * 129, app=app)))
step("shortPassword", lambda: record(auth.create_user(password="12345", app=app)))
step("badEmail", lambda: record(auth.create_user(email="not-an-address", app=app)))
step("badPhone", lambda: record(auth.create_user(phone_number="5551234", app=app)))
step("reservedClaim", lambda: auth.set_custom_user_claims(uid, {"sub": "x"}, app=app))
step("largeClaims", lambda: auth.set_custom_user_claims(uid, {"blob": "x" * 1000}, app=app))
step("clearClaims", lambda: (auth.set_custom_user_claims(uid, None, app=app), record(auth.get_user(uid, app=app)))[1])
def link(text):
    """What an email action link says: its mode, where it continues, and that it has a code."""
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(text).query))
    continued = query.get("continueUrl")
    return {"mode": query.get("mode"), "continueUrl": continued.replace(tag, "TAG") if continued else None, "hasOobCode": bool(query.get("oobCode"))}


def sign_in_with_custom_token(token):
    request = urllib.request.Request(f"http://{host}/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=fake-api-key",
                                     data=json.dumps({"token": token, "returnSecureToken": True}).encode(), headers={"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(request))["idToken"]


def custom_token_round_trip():
    id_token = sign_in_with_custom_token(auth.create_custom_token(f"token-{tag}", {"role": "editor"}, app=app).decode())
    claims = auth.verify_id_token(id_token, app=app)
    return {"uid": claims["uid"].replace(tag, "TAG"), "role": claims.get("role"), "provider": claims["firebase"]["sign_in_provider"]}


def session_cookie_round_trip():
    id_token = sign_in_with_custom_token(auth.create_custom_token(f"cookie-{tag}", app=app).decode())
    cookie = auth.create_session_cookie(id_token, expires_in=3600, app=app)
    claims = auth.verify_session_cookie(cookie, app=app)
    return {"uid": claims["uid"].replace(tag, "TAG"), "issuer": claims["iss"]}


settings = auth.ActionCodeSettings(url=f"https://example.com/done-{tag}")
step("linker", lambda: record(auth.create_user(uid=f"linker-{tag}", email=f"linker-{tag}@example.com", app=app)))
step("resetLink", lambda: link(auth.generate_password_reset_link(f"linker-{tag}@example.com", settings, app=app)))
step("verifyLink", lambda: link(auth.generate_email_verification_link(f"linker-{tag}@example.com", settings, app=app)))
step("signInLink", lambda: link(auth.generate_sign_in_with_email_link(f"linker-{tag}@example.com",
                                                                       auth.ActionCodeSettings(url=f"https://example.com/done-{tag}", handle_code_in_app=True), app=app)))
step("linkForNobody", lambda: link(auth.generate_password_reset_link(f"nobody-{tag}@example.com", app=app)))
step("customToken", custom_token_round_trip)
step("sessionCookie", session_cookie_round_trip)
step("shortCookie", lambda: auth.create_session_cookie("x.y.z", expires_in=60, app=app))
step("second", lambda: record(auth.create_user(uid=f"second-{tag}", app=app)))
step("deleteUsers", lambda: (lambda result: {"success": result.success_count, "failure": result.failure_count})(
    auth.delete_users([uid, f"second-{tag}", f"never-{tag}"], app=app)))
step("afterDelete", lambda: record(auth.get_user(uid, app=app)))
# importUsers: Firebase's own modified-scrypt parameters (as `firebase auth:export` reports them),
# times, a provider account and claims; a phone number only the server refuses counts as a failure.
SCRYPT_KEY = base64.b64decode("jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==")
scrypt = auth.UserImportHash.scrypt(key=SCRYPT_KEY, rounds=8, memory_cost=14, salt_separator=base64.b64decode("Bw=="))
imported = [
    auth.ImportUserRecord(uid=f"imported-{tag}", email=f"imported-{tag}@example.com", email_verified=True, display_name="Imported",
                          user_metadata=auth.UserMetadata(creation_timestamp=1_600_000_000_000, last_sign_in_timestamp=1_600_000_001_000),
                          provider_data=[auth.UserProvider(uid=f"g-{tag}", provider_id="google.com", email=f"imported-{tag}@example.com")],
                          custom_claims={"plan": "pro"}, password_hash=b"not-a-real-hash", password_salt=b"salt"),
    auth.ImportUserRecord(uid=f"badphone-{tag}", phone_number="+1abc"),
]
step("import", lambda: (lambda result: {"success": result.success_count, "failure": result.failure_count, "failed": [e.index for e in result.errors]})(
    auth.import_users(imported, hash_alg=scrypt, app=app)))
step("imported", lambda: (lambda user: dict(record(user), created=user.user_metadata.creation_timestamp, lastSignIn=user.user_metadata.last_sign_in_timestamp))(auth.get_user(f"imported-{tag}", app=app)))
step("importWithoutHash", lambda: auth.import_users(imported, app=app))
step("importBadRounds", lambda: auth.import_users(imported, hash_alg=auth.UserImportHash.scrypt(key=SCRYPT_KEY, rounds=9, memory_cost=14), app=app))
step("importTooMany", lambda: auth.import_users([auth.ImportUserRecord(uid=f"many-{i}") for i in range(1001)], app=app))


# Provider configurations: the fields both SDKs read back, the tag taken out.
def oidc(config):
    return {"providerId": config.provider_id.replace(tag, "TAG"), "displayName": config.display_name, "enabled": config.enabled,
            "issuer": config.issuer, "clientId": config.client_id, "clientSecret": config.client_secret,
            "idToken": config.id_token_response_type, "code": config.code_response_type}


def saml(config):
    return {"providerId": config.provider_id.replace(tag, "TAG"), "displayName": config.display_name, "enabled": config.enabled,
            "idpEntityId": config.idp_entity_id, "ssoURL": config.sso_url, "x509Certificates": config.x509_certificates,
            "rpEntityId": config.rp_entity_id, "callbackURL": config.callback_url}


step("oidcCreate", lambda: oidc(auth.create_oidc_provider_config(f"oidc.p{tag}", client_id="client-1", issuer="https://issuer.example.com",
                                                                 display_name="Corp SSO", enabled=True, app=app)))
step("oidcUpdate", lambda: oidc(auth.update_oidc_provider_config(f"oidc.p{tag}", display_name="Corp SSO 2", client_secret="s3cret",
                                                                 code_response_type=True, id_token_response_type=False, app=app)))
step("oidcGet", lambda: oidc(auth.get_oidc_provider_config(f"oidc.p{tag}", app=app)))
step("oidcList", lambda: sorted(oidc(c)["providerId"] for c in auth.list_oidc_provider_configs(app=app).provider_configs if tag in c.provider_id))
step("samlCreate", lambda: saml(auth.create_saml_provider_config(f"saml.p{tag}", idp_entity_id="idp-1", sso_url="https://idp.example.com/sso",
                                                                 x509_certificates=["CERT-1"], rp_entity_id="rp-1",
                                                                 callback_url="https://demo.firebaseapp.com/__/auth/handler", app=app)))
step("samlUpdate", lambda: saml(auth.update_saml_provider_config(f"saml.p{tag}", x509_certificates=["CERT-2", "CERT-3"], enabled=True, app=app)))
step("oidcDelete", lambda: (auth.delete_oidc_provider_config(f"oidc.p{tag}", app=app), "deleted")[1])
step("oidcGone", lambda: oidc(auth.get_oidc_provider_config(f"oidc.p{tag}", app=app)))
step("oidcBadIssuer", lambda: oidc(auth.create_oidc_provider_config(f"oidc.q{tag}", client_id="c", issuer="not a url", app=app)))
# FirebaseAdminAuth's own ID token (from its custom token) and session cookie, when given: firebase-admin must take them.
if os.environ.get("FBAUTH_SWIFT_TOKENS"):
    swift_id_token, swift_cookie = os.environ["FBAUTH_SWIFT_TOKENS"].split(" ")
    def cross_check():
        claims = auth.verify_id_token(swift_id_token, app=app)
        return {"uid": claims["uid"], "from": claims.get("from"), "cookieUid": auth.verify_session_cookie(swift_cookie, app=app)["uid"]}
    step("swiftTokens", cross_check)
print(json.dumps(results, sort_keys=True))
