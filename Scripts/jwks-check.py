#!/usr/bin/env python3
"""How JWT libraries and API gateways check an emulator's ID token (issue 59, item 2).

  jwks-check.py HOST:PORT PROJECT   (the token on stdin)

As a gateway configured with the issuer does: reads the issuer's OpenID Connect discovery
document under the emulator host, takes its `jwks_uri`, and has PyJWT's PyJWKClient (PyPI) find
the token's key there and verify it (RS256, audience PROJECT, issuer
https://securetoken.google.com/PROJECT); then google-auth's `id_token.verify_token` with the
same key set. A copy with one byte of its signature changed must be refused by both. Prints one
JSON object: {"discovery": ..., "pyjwt": "accepted" | error, "pyjwtTampered": ..., "googleAuth":
..., "googleAuthTampered": ...}.
"""
import json
import sys
import urllib.request

import jwt
import google.auth.transport.requests
from google.oauth2 import id_token

host, project = sys.argv[1], sys.argv[2]
token = sys.stdin.read().strip()
issuer = f"https://securetoken.google.com/{project}"
with urllib.request.urlopen(f"http://{host}/securetoken.google.com/{project}/.well-known/openid-configuration", timeout=10) as response:
    discovery = json.load(response)
parts = token.split(".")
parts[2] = parts[2][:-4] + ("BBBB" if parts[2].endswith("AAAA") else "AAAA")
tampered = ".".join(parts)


def pyjwt(candidate):
    try:
        key = jwt.PyJWKClient(discovery["jwks_uri"]).get_signing_key_from_jwt(candidate)
        claims = jwt.decode(candidate, key.key, algorithms=["RS256"], audience=project, issuer=issuer)
        return "accepted" if claims.get("sub") else "no subject"
    except Exception as error:  # noqa: BLE001 - the verdict is the point
        return f"refused: {type(error).__name__}"


def google_auth(candidate):
    try:
        claims = id_token.verify_token(candidate, google.auth.transport.requests.Request(), audience=project,
                                       certs_url=discovery["jwks_uri"])
        return "accepted" if claims.get("iss") == issuer else f"wrong issuer {claims.get('iss')}"
    except Exception as error:  # noqa: BLE001
        return f"refused: {type(error).__name__}"


print(json.dumps({"discovery": discovery, "pyjwt": pyjwt(token), "pyjwtTampered": pyjwt(tampered),
                  "googleAuth": google_auth(token), "googleAuthTampered": google_auth(tampered)}, sort_keys=True))
