#!/usr/bin/env python3
"""The real Firebase Admin SDK for Python (firebase-admin, from PyPI) against an Auth emulator.

  admin-sdk-check.py HOST:PORT PROJECT

Makes the everyday calls of `firebase_admin.auth` against the emulator at HOST:PORT
(FIREBASE_AUTH_EMULATOR_HOST), project PROJECT, and prints one JSON object: each call's name
with "ok", or the error it met. Issue 49: what firebase-admin does against an Auth emulator,
asked of `fbauth emulator` and of Google's, the same way. Exits 0 whatever the calls met.
"""
import json
import os
import sys
import time
import urllib.request
import uuid

host, project = sys.argv[1], sys.argv[2]
os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = host
os.environ.pop("GOOGLE_APPLICATION_CREDENTIALS", None)

import firebase_admin  # noqa: E402
from firebase_admin import _utils, auth, credentials, tenant_mgt  # noqa: E402


class EmulatorCredential(credentials.Base):
    """What the SDK's auth client uses against an emulator (`Bearer owner`), for the parts of the
    SDK that ask the app for a credential even then (tenant_mgt)."""

    def get_credential(self):
        return _utils.EmulatorAdminCredentials()


app = firebase_admin.initialize_app(EmulatorCredential(), options={"projectId": project}, name=f"check-{uuid.uuid4().hex[:8]}")
results = {}
tag = uuid.uuid4().hex[:8]


def check(name, call):
    try:
        outcome = call()
        results[name] = "ok" if outcome in (None, True) else f"wrong: {outcome}"
    except Exception as error:  # every failure is a result here
        results[name] = f"{type(error).__name__}: {str(error)[:300]}"


def rest(path, body):
    """A client call with an API key, as an app makes it."""
    request = urllib.request.Request(f"http://{host}/identitytoolkit.googleapis.com/v1/{path}?key=fake-api-key",
                                     data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def refresh(refresh_token):
    request = urllib.request.Request(f"http://{host}/securetoken.googleapis.com/v1/token?key=fake-api-key",
                                     data=f"grant_type=refresh_token&refresh_token={refresh_token}".encode(),
                                     headers={"Content-Type": "application/x-www-form-urlencoded"})
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def expect(condition, what):
    return None if condition else what


email, phone = f"ada-{tag}@example.com", f"+1555{int(tag[:7], 16) % 10_000_000:07d}"
state = {}

check("create_user", lambda: expect(auth.create_user(uid=f"ada-{tag}", email=email, phone_number=phone, password="correct horse",
                                                     display_name="Ada", app=app).uid == f"ada-{tag}", "uid"))
check("get_user", lambda: expect(auth.get_user(f"ada-{tag}", app=app).email == email, "email"))
check("get_user_by_email", lambda: expect(auth.get_user_by_email(email, app=app).uid == f"ada-{tag}", "uid"))
check("get_user_by_phone_number", lambda: expect(auth.get_user_by_phone_number(phone, app=app).uid == f"ada-{tag}", "uid"))
check("get_users", lambda: expect(len(auth.get_users([auth.UidIdentifier(f"ada-{tag}"), auth.EmailIdentifier("nobody@example.com")], app=app).users) == 1, "one found"))
check("update_user", lambda: expect(auth.update_user(f"ada-{tag}", display_name="Ada L", email_verified=True, app=app).display_name == "Ada L", "name"))


def claims():
    auth.set_custom_user_claims(f"ada-{tag}", {"admin": True, "level": 3}, app=app)
    read = auth.get_user(f"ada-{tag}", app=app).custom_claims
    if read != {"admin": True, "level": 3}:
        return f"read back {read}"
    signed_in = rest("accounts:signInWithPassword", {"email": email, "password": "correct horse", "returnSecureToken": True})
    state["signed_in"] = signed_in
    decoded = auth.verify_id_token(signed_in["idToken"], app=app)
    return expect(decoded.get("admin") is True and decoded.get("level") == 3, f"not in the next ID token: {decoded}")


check("set_custom_user_claims", claims)
check("verify_id_token", lambda: expect(auth.verify_id_token(state["signed_in"]["idToken"], app=app)["uid"] == f"ada-{tag}", "uid"))
check("create_session_cookie", lambda: expect(
    auth.verify_session_cookie(auth.create_session_cookie(state["signed_in"]["idToken"], expires_in=3600, app=app), app=app)["uid"] == f"ada-{tag}", "uid"))


def revoke():
    time.sleep(1.1)  # validSince is in seconds: a token of this second would still pass
    auth.revoke_refresh_tokens(f"ada-{tag}", app=app)
    try:
        auth.verify_id_token(state["signed_in"]["idToken"], check_revoked=True, app=app)
        return "the older ID token still passes check_revoked"
    except auth.RevokedIdTokenError:
        pass
    try:
        refresh(state["signed_in"]["refreshToken"])
        return "the refresh token still works"
    except urllib.error.HTTPError as error:
        return expect(error.code == 400, f"refresh answered {error.code}")


check("revoke_refresh_tokens", revoke)


def listing():
    for index in range(3):
        auth.create_user(uid=f"list-{tag}-{index}", app=app)
    page = auth.list_users(max_results=2, app=app)
    seen = [user.uid for user in page.users]
    if not page.has_next_page:
        return "no second page"
    everyone = [user.uid for user in auth.list_users(app=app).iterate_all()]
    return expect(len(seen) == 2 and all(f"list-{tag}-{index}" in everyone for index in range(3)), f"{seen} / {len(everyone)}")


check("list_users", listing)


def importing():
    users = [auth.ImportUserRecord(uid=f"imp-{tag}", email=f"imp-{tag}@example.com", password_hash=b"secret-hash", password_salt=b"salt"),
             auth.ImportUserRecord(uid=f"imp2-{tag}", display_name="Imported")]
    result = auth.import_users(users, hash_alg=auth.UserImportHash.hmac_sha256(key=b"hmac-key"), app=app)
    if result.failure_count:
        return f"{result.failure_count} failed: {[e.reason for e in result.errors]}"
    return expect(auth.get_user(f"imp2-{tag}", app=app).display_name == "Imported", "imported user")


check("import_users", importing)
check("delete_user", lambda: auth.delete_user(f"imp2-{tag}", app=app))
check("delete_users", lambda: expect(auth.delete_users([f"list-{tag}-0", f"list-{tag}-1"], app=app).success_count == 2, "two deleted"))

settings = auth.ActionCodeSettings(url="https://www.example.com/finish", handle_code_in_app=True)
check("generate_password_reset_link", lambda: expect("oobCode=" in auth.generate_password_reset_link(email, app=app), "a link"))
check("generate_email_verification_link", lambda: expect("oobCode=" in auth.generate_email_verification_link(email, app=app), "a link"))
check("generate_sign_in_with_email_link", lambda: expect("oobCode=" in auth.generate_sign_in_with_email_link(email, settings, app=app), "a link"))


def custom_token():
    token = auth.create_custom_token(f"custom-{tag}", {"team": "blue"}, app=app)
    signed_in = rest("accounts:signInWithCustomToken", {"token": token.decode(), "returnSecureToken": True})
    decoded = auth.verify_id_token(signed_in["idToken"], app=app)
    return expect(decoded["uid"] == f"custom-{tag}" and decoded.get("team") == "blue", f"{decoded}")


check("create_custom_token", custom_token)


def admin_rest(method, path, body=None):
    """An Admin API call as the Admin SDKs make it to an emulator (`Bearer owner`)."""
    request = urllib.request.Request(f"http://{host}/identitytoolkit.googleapis.com/{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", "Authorization": "Bearer owner"})
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def tenants():
    # firebase-admin's tenant_mgt does not go to an emulator (it has no emulator host), so the
    # tenant is made over REST as the Node and Go Admin SDKs make it; its users through the
    # Python SDK's tenant client, which does.
    tenant = admin_rest("POST", f"v2/projects/{project}/tenants", {"displayName": f"t-{tag[:6]}"})
    tenant_id = tenant["name"].rsplit("/", 1)[-1]
    client = tenant_mgt.auth_for_tenant(tenant_id, app=app)
    user = client.create_user(email=f"tenant-{tag}@example.com")
    found = client.get_user(user.uid)
    listed = [t["name"].rsplit("/", 1)[-1] for t in admin_rest("GET", f"v2/projects/{project}/tenants").get("tenants", [])]
    outside = [u.uid for u in auth.list_users(app=app).iterate_all()]
    admin_rest("DELETE", f"v2/projects/{project}/tenants/{tenant_id}")
    return expect(found.tenant_id == tenant_id and tenant_id in listed and user.uid not in outside, f"{found.tenant_id} / {listed}")


check("tenants", tenants)


def provider_configs():
    oidc = auth.create_oidc_provider_config(f"oidc.{tag}", client_id="client", issuer="https://issuer.example.com", display_name="Corp", app=app)
    got = auth.get_oidc_provider_config(oidc.provider_id, app=app)
    auth.update_oidc_provider_config(oidc.provider_id, display_name="Corp 2", app=app)
    saml = auth.create_saml_provider_config(f"saml.{tag}", idp_entity_id="idp", sso_url="https://idp.example.com/sso",
                                            x509_certificates=["-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----"],
                                            rp_entity_id="rp", callback_url="https://project.firebaseapp.com/__/auth/handler", app=app)
    listed = [c.provider_id for c in auth.list_saml_provider_configs(app=app).iterate_all()]
    auth.delete_oidc_provider_config(oidc.provider_id, app=app)
    auth.delete_saml_provider_config(saml.provider_id, app=app)
    return expect(got.issuer == "https://issuer.example.com" and saml.provider_id in listed, f"{got.issuer} / {listed}")


check("provider_configs", provider_configs)
print(json.dumps(results, indent=1, sort_keys=True))
