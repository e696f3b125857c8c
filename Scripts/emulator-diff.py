#!/usr/bin/env python3
"""The same requests to two Auth emulators, every answer compared field by field (issue 58).

  emulator-diff.py HOST:PORT HOST:PORT PROJECT

Both emulators serve PROJECT (Google's: the project it was started for). Each step sends one
request, as the JS SDK or the Admin SDK sends it, to both; the answers' shapes (every key, and
the JSON type of every value, arrays by their first element) are compared, and so are the values
that do not change from run to run: kinds, emails, names, flags, provider ids, error codes and
messages. A step's request may use what earlier steps answered (an ID token, an oobCode from
/emulator/v1), each emulator its own. Prints one JSON object, {"steps": N, "differences":
["step: what differs", ...]}; exits 0 whatever differs. The first HOST is the reference (Google's).
"""
import json
import re
import sys
import urllib.error
import urllib.parse
import urllib.request
import uuid

reference, candidate, project = sys.argv[1], sys.argv[2], sys.argv[3]
KEY = "fake-api-key"
TAG = uuid.uuid4().hex[:8]
# Values that are the same whoever answers: compared as values, not only as types.
STABLE = {"kind", "email", "displayName", "photoUrl", "emailVerified", "providerId", "isNewUser", "registered",
          "requestType", "signinMethods", "allProviders", "needConfirmation", "expiresIn", "expires_in", "token_type",
          "code", "message", "status", "reason", "domain", "disabled", "passwordHash", "federatedId", "rawId",
          "screenName", "localIdTaken", "newEmail", "sessionInfo_isString"}
# Keys whose values are the emulator's own (ids, tokens, times): their type is compared only.
# Anything else is compared as a value only when it is in STABLE.


def call(host, method, path, body=None, admin=False, form=False):
    url = f"http://{host}{path}"
    headers = {}
    data = None
    if body is not None:
        if form:
            data = urllib.parse.urlencode(body).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        else:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
    if admin:
        headers["Authorization"] = "Bearer owner"
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            text = response.read().decode()
            status = response.status
    except urllib.error.HTTPError as error:
        text = error.read().decode()
        status = error.code
    try:
        answer = json.loads(text) if text else {}
    except ValueError:
        answer = {"<not JSON>": text[:80]}
    return status, answer


def shape(value):
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [shape(value[0])] if value else []
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if value is None:
        return "null"
    return "string"


def stable(value):
    """A value as compared: a fake password hash without its random salt."""
    return re.sub(r"salt=[^:]*", "salt=SALT", value) if isinstance(value, str) else value


def compare(step, a, b, path, differences):
    """What differs between the reference's answer `a` and the candidate's `b`."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            where = f"{path}.{key}" if path else key
            if key not in b:
                differences.append(f"{step}: {where} missing (reference: {json.dumps(shape(a[key]))})")
            elif key not in a:
                differences.append(f"{step}: {where} extra ({json.dumps(shape(b[key]))})")
            else:
                compare(step, a[key], b[key], where, differences)
                if key in STABLE and not isinstance(a[key], (dict, list)) and stable(a[key]) != stable(b[key]) and shape(a[key]) == shape(b[key]):
                    differences.append(f"{step}: {where} is {json.dumps(b[key])}, reference {json.dumps(a[key])}")
        return
    if isinstance(a, list) and isinstance(b, list):
        if a and b:
            compare(step, a[0], b[0], path + "[0]", differences)
        elif a != b:
            differences.append(f"{step}: {path} has {len(b)} items, reference {len(a)}")
        return
    if shape(a) != shape(b):
        differences.append(f"{step}: {path or 'answer'} is {json.dumps(shape(b))}, reference {json.dumps(shape(a))}")


class Emulator:
    def __init__(self, host):
        self.host = host
        self.state = {}

    def v1(self, method, body=None):
        return call(self.host, "POST", f"/identitytoolkit.googleapis.com/v1/{method}?key={KEY}", body)

    def admin(self, method, body=None, verb="POST"):
        return call(self.host, verb, f"/identitytoolkit.googleapis.com/v1/projects/{project}/{method}", body, admin=True)

    def oob_code(self, email, request_type):
        _, listing = call(self.host, "GET", f"/emulator/v1/projects/{project}/oobCodes")
        codes = [c for c in listing.get("oobCodes", []) if c.get("email") == email and c.get("requestType") == request_type]
        return codes[-1]["oobCode"] if codes else "none"

    def sms_code(self, number):
        _, listing = call(self.host, "GET", f"/emulator/v1/projects/{project}/verificationCodes")
        codes = [c for c in listing.get("verificationCodes", []) if c.get("phoneNumber") == number]
        return codes[-1]["code"] if codes else "none"


def ours(result):
    """A listing with this run's own user only (the emulators hold other runs' users too)."""
    status, answer = result
    users = [u for u in answer.get("users", []) if u.get("email") == email]
    answer = {key: value for key, value in answer.items() if key != "nextPageToken"}
    if "users" in answer:
        answer["users"] = users
    return status, answer


def fake_id_token(claims):
    def part(value):
        import base64
        return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()
    return part({"alg": "none", "typ": "JWT"}) + "." + part(claims) + "."


email = f"diff-{TAG}@example.com"
phone = "+1555" + str(int(TAG, 16) % 10_000_000).zfill(7)
idp_email = f"idp-{TAG}@example.com"
STEPS = [
    ("signUp", lambda e: e.v1("accounts:signUp", {"email": email, "password": "correct horse", "returnSecureToken": True})),
    ("signUp again", lambda e: e.v1("accounts:signUp", {"email": email, "password": "correct horse", "returnSecureToken": True})),
    ("signUp weak password", lambda e: e.v1("accounts:signUp", {"email": f"weak-{TAG}@example.com", "password": "123", "returnSecureToken": True})),
    ("signInWithPassword", lambda e: e.v1("accounts:signInWithPassword", {"email": email, "password": "correct horse", "returnSecureToken": True})),
    ("signInWithPassword wrong", lambda e: e.v1("accounts:signInWithPassword", {"email": email, "password": "wrong horse", "returnSecureToken": True})),
    ("signInWithPassword unknown", lambda e: e.v1("accounts:signInWithPassword", {"email": f"nobody-{TAG}@example.com", "password": "x123456", "returnSecureToken": True})),
    ("lookup", lambda e: e.v1("accounts:lookup", {"idToken": e.state["idToken"]})),
    ("lookup bad token", lambda e: e.v1("accounts:lookup", {"idToken": "not-a-token"})),
    ("update profile", lambda e: e.v1("accounts:update", {"idToken": e.state["idToken"], "displayName": "Ada", "photoUrl": "https://example.com/a.png", "returnSecureToken": True})),
    ("update delete attribute", lambda e: e.v1("accounts:update", {"idToken": e.state["idToken"], "deleteAttribute": ["PHOTO_URL"], "returnSecureToken": True})),
    ("sendOobCode verify", lambda e: e.v1("accounts:sendOobCode", {"requestType": "VERIFY_EMAIL", "idToken": e.state["idToken"]})),
    ("sendOobCode reset", lambda e: e.v1("accounts:sendOobCode", {"requestType": "PASSWORD_RESET", "email": email})),
    ("sendOobCode reset unknown", lambda e: e.v1("accounts:sendOobCode", {"requestType": "PASSWORD_RESET", "email": f"nobody-{TAG}@example.com"})),
    ("sendOobCode sign-in link", lambda e: e.v1("accounts:sendOobCode", {"requestType": "EMAIL_SIGNIN", "email": email, "continueUrl": "https://example.com/done", "canHandleCodeInApp": True})),
    ("resetPassword check", lambda e: e.v1("accounts:resetPassword", {"oobCode": e.oob_code(email, "PASSWORD_RESET")})),
    ("resetPassword bad code", lambda e: e.v1("accounts:resetPassword", {"oobCode": "not-a-code", "newPassword": "another one"})),
    ("update apply verify", lambda e: e.v1("accounts:update", {"oobCode": e.oob_code(email, "VERIFY_EMAIL")})),
    ("resetPassword", lambda e: e.v1("accounts:resetPassword", {"oobCode": e.oob_code(email, "PASSWORD_RESET"), "newPassword": "battery staple"})),
    ("signInWithEmailLink", lambda e: e.v1("accounts:signInWithEmailLink", {"email": email, "oobCode": e.oob_code(email, "EMAIL_SIGNIN")})),
    ("createAuthUri", lambda e: e.v1("accounts:createAuthUri", {"identifier": email, "continueUri": "http://localhost/"})),
    ("createAuthUri provider", lambda e: e.v1("accounts:createAuthUri", {"providerId": "google.com", "continueUri": "http://localhost/"})),
    ("signInWithIdp", lambda e: e.v1("accounts:signInWithIdp", {
        "postBody": "id_token=" + fake_id_token({"sub": f"idp-{TAG}", "email": idp_email, "email_verified": True, "name": "Idp User"}) + "&providerId=google.com",
        "requestUri": "http://localhost", "returnSecureToken": True, "returnIdpCredential": True})),
    ("signInWithIdp again", lambda e: e.v1("accounts:signInWithIdp", {
        "postBody": "id_token=" + fake_id_token({"sub": f"idp-{TAG}", "email": idp_email, "email_verified": True}) + "&providerId=google.com",
        "requestUri": "http://localhost", "returnSecureToken": True, "returnIdpCredential": True})),
    ("signInWithIdp link taken", lambda e: e.v1("accounts:signInWithIdp", {
        "postBody": "id_token=" + fake_id_token({"sub": f"idp-{TAG}", "email": idp_email}) + "&providerId=google.com",
        "requestUri": "http://localhost", "returnSecureToken": True, "returnIdpCredential": True, "idToken": e.state["idToken"]})),
    ("token refresh", lambda e: call(e.host, "POST", f"/securetoken.googleapis.com/v1/token?key={KEY}",
                                     {"grant_type": "refresh_token", "refresh_token": e.state["refreshToken"]}, form=True)),
    ("token refresh bad", lambda e: call(e.host, "POST", f"/securetoken.googleapis.com/v1/token?key={KEY}",
                                         {"grant_type": "refresh_token", "refresh_token": "not-a-token"}, form=True)),
    ("signUp anonymous", lambda e: e.v1("accounts:signUp", {"returnSecureToken": True})),
    ("signInWithCustomToken", lambda e: e.v1("accounts:signInWithCustomToken", {"token": fake_id_token({
        "aud": "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit",
        "iss": "firebase-adminsdk@example.iam.gserviceaccount.com", "sub": "firebase-adminsdk@example.iam.gserviceaccount.com",
        "uid": f"custom-{TAG}", "iat": 1, "exp": 99999999999, "claims": {"role": "admin"}}), "returnSecureToken": True})),
    ("sendVerificationCode", lambda e: e.v1("accounts:sendVerificationCode", {"phoneNumber": phone, "recaptchaToken": "ignored"})),
    ("signInWithPhoneNumber", lambda e: e.v1("accounts:signInWithPhoneNumber", {"sessionInfo": e.state.get("sessionInfo", "x"), "code": e.sms_code(phone)})),
    ("signInWithPhoneNumber bad code", lambda e: e.v1("accounts:signInWithPhoneNumber", {"sessionInfo": e.state.get("sessionInfo", "x"), "code": "000000"})),
    ("admin lookup", lambda e: e.admin("accounts:lookup", {"localId": [e.state["firstUid"]]})),
    ("admin lookup by email", lambda e: e.admin("accounts:lookup", {"email": [email]})),
    ("admin update claims", lambda e: e.admin("accounts:update", {"localId": e.state["firstUid"], "customAttributes": json.dumps({"level": 3})})),
    ("admin create", lambda e: e.admin("accounts", {"localId": f"made-{TAG}", "email": f"made-{TAG}@example.com", "displayName": "Made"})),
    ("admin create duplicate", lambda e: e.admin("accounts", {"localId": f"made-{TAG}"})),
    ("admin batchGet", lambda e: ours(call(e.host, "GET", f"/identitytoolkit.googleapis.com/v1/projects/{project}/accounts:batchGet?maxResults=1000", admin=True))),
    ("admin query", lambda e: e.admin("accounts:query", {"returnUserInfo": True, "limit": "1", "expression": [{"email": email}]})),
    ("admin sendOobCode link", lambda e: e.admin("accounts:sendOobCode", {"requestType": "PASSWORD_RESET", "email": email, "returnOobLink": True})),
    ("admin createSessionCookie", lambda e: call(e.host, "POST", f"/identitytoolkit.googleapis.com/v1/projects/{project}:createSessionCookie",
                                                 {"idToken": e.state["idToken"], "validDuration": "3600"}, admin=True)),
    ("admin delete", lambda e: e.admin("accounts:delete", {"localId": f"made-{TAG}"})),
    ("admin delete again", lambda e: e.admin("accounts:delete", {"localId": f"made-{TAG}"})),
    ("admin batchDelete", lambda e: e.admin("accounts:batchDelete", {"localIds": [f"nobody-{TAG}"], "force": True})),
    ("delete", lambda e: e.v1("accounts:delete", {"idToken": e.state["idToken"]})),
    ("lookup after delete", lambda e: e.v1("accounts:lookup", {"idToken": e.state["idToken"]})),
    ("projects config", lambda e: call(e.host, "GET", f"/emulator/v1/projects/{project}/config")),
]


def remember(emulator, step, answer):
    """What later steps send, from what this one answered."""
    if step == "signUp":
        emulator.state["firstUid"] = answer.get("localId")
    if step in ("signUp", "signInWithPassword", "resetPassword", "signInWithEmailLink") and "idToken" in answer:
        emulator.state["idToken"] = answer["idToken"]
        emulator.state["refreshToken"] = answer.get("refreshToken", emulator.state.get("refreshToken"))
    if step == "sendVerificationCode" and "sessionInfo" in answer:
        emulator.state["sessionInfo"] = answer["sessionInfo"]


def main():
    a, b = Emulator(reference), Emulator(candidate)
    differences = []
    for name, step in STEPS:
        status_a, answer_a = step(a)
        status_b, answer_b = step(b)
        remember(a, name, answer_a)
        remember(b, name, answer_b)
        if status_a == 501 and status_b != 501:
            # Not implemented in the reference: nothing there to compare the answer with.
            differences.append(f"{name}: HTTP {status_b}, reference 501 (not implemented)")
            continue
        if status_a != status_b:
            differences.append(f"{name}: HTTP {status_b}, reference {status_a}")
        compare(name, answer_a, answer_b, "", differences)
    print(json.dumps({"steps": len(STEPS), "differences": [stable(line) for line in differences]}, indent=1))


main()
