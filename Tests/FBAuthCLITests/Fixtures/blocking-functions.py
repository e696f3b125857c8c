"""Blocking functions written with firebase-functions (PyPI), served by functions-framework on
loopback ports, run against one or more Auth emulators (issue 59, item 1).

  blocking-functions.py compare PROJECT HOST...   one JSON line per HOST: what the same
      configuration (the Admin API's blockingFunctions) and the same sign-ups and sign-ins gave:
      the answers, the users, the tokens' claims and what each function was sent.
  blocking-functions.py safety PROJECT HOST       one JSON line: beforeSendEmail and
      beforeSendSms, and functions that hang, answer 1 GB or redirect, against fbauth's.

Environment: FIREBASE_AUTH_EMULATOR_HOST must be set (to any emulator) before firebase-functions
is imported, so that it reads the unsigned tokens as an emulator's; GCLOUD_PROJECT = PROJECT.
"""

import base64
import http.server
import json
import os
import sys
import threading
import time
import urllib.error
import urllib.request

PROJECT = sys.argv[2]
os.environ.setdefault("FIREBASE_AUTH_EMULATOR_HOST", sys.argv[3])
os.environ["GCLOUD_PROJECT"] = PROJECT

from firebase_functions import https_fn, identity_fn  # noqa: E402
import functions_framework  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402


@identity_fn.before_user_created()
def before_create(event: identity_fn.AuthBlockingEvent) -> identity_fn.BeforeCreateResponse | None:
    if (event.data.email or "").endswith("@blocked.example"):
        raise https_fn.HttpsError(code=https_fn.FunctionsErrorCode.PERMISSION_DENIED, message="Unauthorized email")
    return identity_fn.BeforeCreateResponse(display_name="Made by beforeCreate", email_verified=True,
                                            custom_claims={"role": "reader"})


@identity_fn.before_user_signed_in()
def before_sign_in(event: identity_fn.AuthBlockingEvent) -> identity_fn.BeforeSignInResponse | None:
    if (event.data.email or "").startswith("disable-me"):
        return identity_fn.BeforeSignInResponse(disabled=True)
    return identity_fn.BeforeSignInResponse(session_claims={"signedInVia": "beforeSignIn", "seenRole": event.data.custom_claims.get("role") if event.data.custom_claims else None})


RECEIVED = []  # the JWT claims each function was sent, in order


def recording(app):
    """A WSGI wrapper that keeps the claims of the JWT each call carries, then calls the function."""
    def wrapped(environ, start_response):
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(length)
        try:
            payload = json.loads(body)["data"]["jwt"].split(".")[1]
            RECEIVED.append(json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))))
        except Exception as error:  # noqa: BLE001 - what arrived is reported, whatever it is
            RECEIVED.append({"unreadable": repr(error)})
        import io
        environ["wsgi.input"] = io.BytesIO(body)
        return app(environ, start_response)
    return wrapped


def serve_wsgi(app):
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}/"


def call(method, host, path, body=None, owner=False, timeout=30):
    request = urllib.request.Request(f"http://{host}{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", **({"Authorization": "Bearer owner"} if owner else {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def claims(token):
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


# Claims that differ between any two runs (times, generated ids) are left out of the comparison.
VOLATILE = {"iat", "exp", "auth_time", "user_id", "sub", "uid", "event_id", "aud", "creation_time", "last_sign_in_time", "metadata"}


def stable(value):
    if isinstance(value, dict):
        return {key: stable(item) for key, item in sorted(value.items()) if key not in VOLATILE and item is not None}
    if isinstance(value, list):
        return [stable(item) for item in value]
    return value


def outcome(status, answer):
    """An answer as the comparison sees it: the status and error, or the token's stable claims."""
    if "error" in answer:
        return {"status": status, "error": answer["error"].get("message", "")}
    result = {"status": status, "displayName": answer.get("displayName")}
    if "idToken" in answer:
        result["claims"] = stable(claims(answer["idToken"]))
    return result


V1 = "/identitytoolkit.googleapis.com/v1"


def configure(host, triggers):
    return call("PATCH", host, f"/identitytoolkit.googleapis.com/v2/projects/{PROJECT}/config?updateMask=blockingFunctions",
                {"blockingFunctions": {"triggers": {event: {"functionUri": url} for event, url in triggers.items()}}}, owner=True)


def compare(hosts):
    create_url = serve_wsgi(recording(functions_framework.create_app(target="before_create", source=__file__)))
    sign_in_url = serve_wsgi(recording(functions_framework.create_app(target="before_sign_in", source=__file__)))
    for host in hosts:
        RECEIVED.clear()
        call("DELETE", host, f"/emulator/v1/projects/{PROJECT}/accounts")
        configured = configure(host, {"beforeCreate": create_url, "beforeSignIn": sign_in_url})
        steps = {}
        password = {"password": "correct horse 1", "returnSecureToken": True}
        steps["signUp"] = outcome(*call("POST", host, f"{V1}/accounts:signUp?key=k", {"email": "alice@example.com", **password}))
        steps["signUpRefused"] = outcome(*call("POST", host, f"{V1}/accounts:signUp?key=k", {"email": "eve@blocked.example", **password}))
        steps["signInWithPassword"] = outcome(*call("POST", host, f"{V1}/accounts:signInWithPassword?key=k", {"email": "alice@example.com", **password}))
        steps["signUpDisabled"] = outcome(*call("POST", host, f"{V1}/accounts:signUp?key=k", {"email": "disable-me@example.com", **password}))
        steps["anonymous"] = outcome(*call("POST", host, f"{V1}/accounts:signUp?key=k", {"returnSecureToken": True}))
        status, listed = call("POST", host, f"{V1}/projects/{PROJECT}/accounts:query", {"returnUserInfo": True}, owner=True)
        users = sorted(({"email": user.get("email"), "displayName": user.get("displayName"), "emailVerified": user.get("emailVerified", False),
                         "disabled": user.get("disabled", False), "customAttributes": json.loads(user.get("customAttributes") or "{}")}
                        for user in listed.get("userInfo", [])), key=lambda user: user["email"] or "")
        received = [stable({key: value for key, value in sent.items() if key not in ("user_agent",)}) for sent in RECEIVED]
        # The emulator is left as it was found.
        configure(host, {})
        print(json.dumps({"host": host, "configured": configured[0], "steps": steps, "users": users,
                          "received": received, "audiences": [sent.get("aud") for sent in RECEIVED],
                          "urls": {"beforeCreate": create_url, "beforeSignIn": sign_in_url}}, sort_keys=True), flush=True)


class Raw(http.server.BaseHTTPRequestHandler):
    """Functions written without firebase-functions: what production also has (beforeSendEmail,
    beforeSendSms), and ones that misbehave."""
    protocol_version = "HTTP/1.1"
    hits = []
    release = threading.Event()
    hanging = threading.Event()

    def log_message(self, *arguments):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        payload = json.loads(body)["data"]["jwt"].split(".")[1]
        sent = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        Raw.hits.append({"path": self.path, "event_type": sent.get("event_type"), "email_type": sent.get("email_type"),
                         "sms_type": sent.get("sms_type"), "email": sent.get("user_record", {}).get("email"),
                         "phone_number": sent.get("user_record", {}).get("phone_number")})
        if self.path == "/hang":
            Raw.hanging.set()
            Raw.release.wait(30)
            return self.answer(200, b"{}")
        if self.path == "/huge":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(1 << 30))
            self.end_headers()
            chunk = b" " * (1 << 16)
            try:
                for _ in range((1 << 30) // len(chunk)):
                    self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        if self.path == "/redirect":
            self.send_response(307)
            self.send_header("Location", f"http://127.0.0.1:{self.server.server_port}/elsewhere")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if self.path == "/send" and (sent.get("user_record", {}).get("email") or "").startswith("no-mail"):
            return self.answer(400, json.dumps({"error": {"status": "INVALID_ARGUMENT", "message": "No mail for you"}}).encode())
        if self.path == "/send" and sent.get("user_record", {}).get("phone_number") == "+15555550100":
            return self.answer(400, json.dumps({"error": {"status": "INVALID_ARGUMENT", "message": "No texts to that number"}}).encode())
        return self.answer(200, b"{}")

    def answer(self, status, body):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def safety(host):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Raw)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    report = {}
    call("DELETE", host, f"/emulator/v1/projects/{PROJECT}/accounts")
    for email in ("alice@example.com", "no-mail@example.com"):
        call("POST", host, f"{V1}/accounts:signUp?key=k", {"email": email, "password": "correct horse 1"})

    configure(host, {"beforeSendEmail": f"{base}/send", "beforeSendSms": f"{base}/send"})
    report["resetAllowed"] = outcome(*call("POST", host, f"{V1}/accounts:sendOobCode?key=k", {"requestType": "PASSWORD_RESET", "email": "alice@example.com"}))
    report["resetRefused"] = outcome(*call("POST", host, f"{V1}/accounts:sendOobCode?key=k", {"requestType": "PASSWORD_RESET", "email": "no-mail@example.com"}))
    report["linkAllowed"] = outcome(*call("POST", host, f"{V1}/accounts:sendOobCode?key=k", {"requestType": "EMAIL_SIGNIN", "email": "new@example.com", "continueUrl": "http://localhost/done"}))
    report["smsAllowed"] = outcome(*call("POST", host, f"{V1}/accounts:sendVerificationCode?key=k", {"phoneNumber": "+15555550111", "recaptchaToken": "ignored"}))
    report["smsRefused"] = outcome(*call("POST", host, f"{V1}/accounts:sendVerificationCode?key=k", {"phoneNumber": "+15555550100", "recaptchaToken": "ignored"}))
    status, codes = call("GET", host, f"/emulator/v1/projects/{PROJECT}/oobCodes")
    report["mailed"] = sorted(code.get("email") for code in codes.get("oobCodes", []))
    status, codes = call("GET", host, f"/emulator/v1/projects/{PROJECT}/verificationCodes")
    report["texted"] = sorted(code.get("phoneNumber") for code in codes.get("verificationCodes", []))
    report["sendHits"] = list(Raw.hits)

    # A function that answers 1 GB, and one that redirects: refused, nothing else is called.
    Raw.hits.clear()
    configure(host, {"beforeCreate": f"{base}/huge"})
    started = time.monotonic()
    report["huge"] = outcome(*call("POST", host, f"{V1}/accounts:signUp?key=k", {"email": "huge@example.com", "password": "correct horse 1"}))
    report["hugeSeconds"] = round(time.monotonic() - started, 1)
    configure(host, {"beforeCreate": f"{base}/redirect"})
    report["redirect"] = outcome(*call("POST", host, f"{V1}/accounts:signUp?key=k", {"email": "moved@example.com", "password": "correct horse 1"}))
    report["redirectPaths"] = [hit["path"] for hit in Raw.hits]

    # A function that hangs: its sign-up waits out the deadline while other clients are served.
    configure(host, {"beforeCreate": f"{base}/hang"})
    hung = {}
    thread = threading.Thread(target=lambda: hung.update(outcome(*call("POST", host, f"{V1}/accounts:signUp?key=k", {"email": "slow@example.com", "password": "correct horse 1"}))))
    started = time.monotonic()
    thread.start()
    report["hangReached"] = Raw.hanging.wait(10)
    others = []
    for _ in range(5):
        for method, path, body in (("POST", f"{V1}/accounts:signInWithPassword?key=k", {"email": "alice@example.com", "password": "correct horse 1"}),
                                   ("GET", f"/emulator/v1/projects/{PROJECT}/config", None)):
            try:
                others.append(call(method, host, path, body, timeout=20)[0])
            except OSError as error:  # a timeout is reported, not raised
                others.append(repr(error))
    report["othersWhileHanging"] = others
    report["othersDoneBeforeDeadline"] = thread.is_alive()
    thread.join(20)
    Raw.release.set()
    report["hang"] = hung
    report["hangSeconds"] = round(time.monotonic() - started, 1)
    status, listed = call("POST", host, f"{V1}/projects/{PROJECT}/accounts:query", {"returnUserInfo": True}, owner=True)
    report["users"] = sorted(user.get("email") for user in listed.get("userInfo", []))
    configure(host, {})
    print(json.dumps(report, sort_keys=True), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "compare":
        compare(sys.argv[3:])
    elif sys.argv[1] == "safety":
        safety(sys.argv[3])
