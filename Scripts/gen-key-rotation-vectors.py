#!/usr/bin/env python3
"""Writes Tests/FirebaseAdminAuthTests/Fixtures/key-rotation.json (issue 56, item 7): Firebase ID
tokens signed with RS256 by OpenSSL (Python's cryptography) under four keys, with the
certificates of three (kid -> PEM, as Google's x509 endpoint serves them): `stable`, always
published; `rot-1` and `rot-2`, published in turn as Google rotates keys; and `forged`, never
published. Each key signs a valid token of its own user; the stable key also a tampered one,
an expired one and one for another project. Tokens are good for 30 days of the test's clock,
which moves hours on as the keys' max-age passes again and again. The long-running server test replays them while
its key endpoint rotates, fails and stalls. Run again only to change them."""
import json, pathlib
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import rsa, padding
import fixture_certificates
from fixture_certificates import b64url

NOW = 1795700000
PROJECT = "proj-1"

def segment(obj): return b64url(json.dumps(obj, separators=(",", ":")).encode())

def main():
    keys = {kid: rsa.generate_private_key(public_exponent=65537, key_size=2048) for kid in ["stable", "rot-1", "rot-2", "forged"]}
    certificates = {kid: fixture_certificates.certificate(key, "securetoken", serial=index + 11)
                    for index, (kid, key) in enumerate(keys.items()) if kid != "forged"}

    def token(kid, uid, **overrides):
        payload = {"iss": "https://securetoken.google.com/" + PROJECT, "aud": PROJECT, "auth_time": NOW - 600,
                   "user_id": uid, "sub": uid, "iat": NOW - 100, "exp": NOW + 30 * 86400,
                   "firebase": {"identities": {}, "sign_in_provider": "custom"}}
        payload.update(overrides)
        signing_input = segment({"alg": "RS256", "kid": kid, "typ": "JWT"}) + "." + segment(payload)
        return signing_input + "." + b64url(keys[kid].sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256()))

    valid = token("stable", "uid-stable")
    head, body, signature = valid.split(".")
    tampered = ".".join([head, segment({**json.loads(__import__("base64").urlsafe_b64decode(body + "==")), "sub": "uid-admin", "user_id": "uid-admin"}), signature])
    tokens = {
        "stable": valid,
        "stable, tampered": tampered,
        "stable, expired": token("stable", "uid-stable", iat=NOW - 7200, exp=NOW - 3600),
        "stable, another project": token("stable", "uid-stable", aud="proj-2", iss="https://securetoken.google.com/proj-2"),
        "rot-1": token("rot-1", "uid-rot-1"),
        "rot-2": token("rot-2", "uid-rot-2"),
        "forged": token("forged", "uid-forged"),
    }
    out = pathlib.Path(__file__).resolve().parent.parent / "Tests/FirebaseAdminAuthTests/Fixtures/key-rotation.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"generator": "Scripts/gen-key-rotation-vectors.py", "now": NOW, "project": PROJECT,
                               "certificates": certificates, "tokens": tokens}, indent=1, sort_keys=True) + "\n")

main()
