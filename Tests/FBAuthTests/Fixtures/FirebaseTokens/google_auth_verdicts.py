"""Google's auth library's verdict on each token of tokens.json (argv[1]), with the same
certificates served on a local port and its clock set to the fixture's now: prints
{name: "accepted" | "refused: ERROR"} as JSON. FirebaseTokenVerifierTests compares fbauth's
verdicts with these."""
import json, sys
import google.auth.transport.requests, google.oauth2.id_token, requests
from unittest import mock
import certificate_server
fixture = json.load(open(sys.argv[1]))
url = certificate_server.serve(fixture["certificates"])
request = google.auth.transport.requests.Request()
results = {}
import google.auth._helpers as helpers, datetime
now = datetime.datetime.fromtimestamp(fixture["now"], tz=datetime.timezone.utc).replace(tzinfo=None)
with mock.patch.object(helpers, "utcnow", return_value=now):
    for name, token in fixture["tokens"].items():
        try:
            google.oauth2.id_token.verify_token(token, request, audience=fixture["project"], certs_url=url)
            results[name] = "accepted"
        except Exception as error:
            results[name] = "refused: " + type(error).__name__
print(json.dumps(results, sort_keys=True))
