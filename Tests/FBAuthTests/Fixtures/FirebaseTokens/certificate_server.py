"""The fixture's certificates served on a local port, where Google's x509 endpoints would be,
for the verdict scripts beside this one (google_auth_verdicts.py, firebase_admin_verdicts.py)."""
import http.server, json, socketserver, threading


def serve(certificates):
    """Serves `certificates` as JSON on 127.0.0.1 from a daemon thread; returns its URL."""
    body = json.dumps(certificates).encode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200); self.send_header("Content-Type", "application/json"); self.end_headers(); self.wfile.write(body)
        def log_message(self, *a): pass

    server = socketserver.TCPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return "http://127.0.0.1:%d/certs" % server.server_address[1]
