"""The real firebase-admin's (PyPI) verdict on each token of tokens.json (argv[1]): every token
through verify_id_token, and through verify_session_cookie as well, with the fixture's
certificates served on a local port where Google's x509 endpoints would be and the clock set
to the fixture's now. Prints {"id NAME" | "cookie NAME": "accepted" | "refused: ERROR"} as JSON;
FirebaseTokenVerifierTests compares fbauth's verdicts with these."""
import datetime, json, os, sys
from unittest import mock
os.environ.pop("FIREBASE_AUTH_EMULATOR_HOST", None)  # production checks: signatures and times
import firebase_admin
from firebase_admin import _token_gen, auth, credentials
import google.auth._helpers as helpers
import certificate_server
fixture = json.load(open(sys.argv[1]))
_token_gen.ID_TOKEN_CERT_URI = _token_gen.COOKIE_CERT_URI = certificate_server.serve(fixture["certificates"])
class NoCredential(credentials.Base):
    def get_credential(self): return None
app = firebase_admin.initialize_app(NoCredential(), options={"projectId": fixture["project"]})
now = datetime.datetime.fromtimestamp(fixture["now"], tz=datetime.timezone.utc).replace(tzinfo=None)
results = {}
with mock.patch.object(helpers, "utcnow", return_value=now):
    for name, token in fixture["tokens"].items():
        for kind, verify in (("id", auth.verify_id_token), ("cookie", auth.verify_session_cookie)):
            try:
                verify(token, app=app)
                results[kind + " " + name] = "accepted"
            except Exception as error:
                results[kind + " " + name] = "refused: " + type(error).__name__
print(json.dumps(results, sort_keys=True))
