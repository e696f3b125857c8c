#!/usr/bin/env python3
"""The real Firebase Admin SDK for Python (firebase-admin, from PyPI) verifying tokens against an
Auth emulator, as a server configured for one does.

  firebase-admin-verify.py HOST:PORT PROJECT [--check-revoked] < tokens.json

Reads {"name": ["id" | "cookie", "token"], ...}; for each, verify_id_token or
verify_session_cookie (with check_revoked when asked), under FIREBASE_AUTH_EMULATOR_HOST=HOST:PORT
(which makes firebase-admin skip signatures and times, and look users up with `Bearer owner`).
Prints {"name": "accepted" | "refused: ERROR"}. Issue 50: firebase-admin and fbauth agree.
"""
import json
import os
import sys
import uuid

host, project = sys.argv[1], sys.argv[2]
check_revoked = "--check-revoked" in sys.argv[3:]
os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = host

import firebase_admin  # noqa: E402
from firebase_admin import _utils, auth, credentials  # noqa: E402


class EmulatorCredential(credentials.Base):
    def get_credential(self):
        return _utils.EmulatorAdminCredentials()


app = firebase_admin.initialize_app(EmulatorCredential(), options={"projectId": project}, name=f"verify-{uuid.uuid4().hex[:8]}")
results = {}
for name, (kind, token) in json.load(sys.stdin).items():
    verify = auth.verify_id_token if kind == "id" else auth.verify_session_cookie
    try:
        verify(token, app=app, check_revoked=check_revoked)
        results[name] = "accepted"
    except Exception as error:
        results[name] = "refused: " + type(error).__name__
print(json.dumps(results, sort_keys=True))
