"""Google's auth library's verdict on each token of tokens.json (argv[1]), with the same
certificates served on a local port and its clock set to the fixture's now: prints
{name: "accepted" | "refused: ERROR"} as JSON. FirebaseTokenVerifierTests compares fbauth's
verdicts with these."""
import json, sys, threading, http.server, socketserver
import google.auth.transport.requests, google.oauth2.id_token, requests
from unittest import mock
fixture = json.load(open(sys.argv[1]))
body = json.dumps(fixture["certificates"]).encode()
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.send_header("Content-Type", "application/json"); self.end_headers(); self.wfile.write(body)
    def log_message(self, *a): pass
server = socketserver.TCPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
url = "http://127.0.0.1:%d/certs" % server.server_address[1]
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
