#!/usr/bin/env python3
"""The real Firebase Admin SDK for Python (firebase-admin, from PyPI) verifying App Check tokens
against the keys and API of an emulator.

  app-check-check.py HOST:PORT PROJECT [--consume] < tokens.json

firebase-admin asks App Check's own addresses only; here its key set and replay-protection
endpoint are pointed at the emulator's (http://HOST:PORT/firebaseappcheck.googleapis.com/...),
which is what `fbauth emulator` publishes. Reads {"name": "token", ...} and prints one JSON
object: each name with "ok APP_ID" (and " consumed" / " fresh" with --consume), or
"refused: " and the SDK's words. Issue 50: firebase-admin and fbauth agree on every token.
"""
import json
import sys
import uuid

host, project = sys.argv[1], sys.argv[2]
consume = "--consume" in sys.argv[3:]

import firebase_admin  # noqa: E402
from firebase_admin import _utils, app_check, credentials  # noqa: E402

app_check._AppCheckService._JWKS_URL = f"http://{host}/firebaseappcheck.googleapis.com/v1/jwks"
app_check._AppCheckService._VERIFY_URL_FORMAT = f"http://{host}/firebaseappcheck.googleapis.com/v1beta/projects/{{project_id}}:verifyAppCheckToken"


class EmulatorCredential(credentials.Base):
    """`Bearer owner`, as an emulator's administrator."""

    def get_credential(self):
        return _utils.EmulatorAdminCredentials()


app = firebase_admin.initialize_app(EmulatorCredential(), options={"projectId": project}, name=f"app-check-{uuid.uuid4().hex[:8]}")
results = {}
for name, token in json.load(sys.stdin).items():
    try:
        claims = app_check.verify_token(token, app, consume=consume)
        verdict = "ok " + claims["app_id"]
        if consume:
            verdict += " consumed" if claims["already_consumed"] else " fresh"
        results[name] = verdict
    except Exception as error:  # the SDK's ValueError (or a platform error) is the refusal
        results[name] = f"refused: {error}"
print(json.dumps(results, sort_keys=True))
