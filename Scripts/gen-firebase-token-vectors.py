#!/usr/bin/env python3
"""Writes Tests/FBAuthTests/Fixtures/FirebaseTokens/tokens.json: Firebase ID tokens and session
cookies signed with RS256 by OpenSSL (Python's cryptography), each breaking one of
firebase-admin's checks, with the certificates (kid → PEM, as Google's x509 endpoints serve
them) and the time the tests take as now. Run again only to change them.

With --now SECONDS --out FILE it mints the same set for that time into FILE: the end-to-end
tests of `fbauth verify-token`, whose clock is the real one, make theirs so."""
import argparse, json, pathlib
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import rsa, padding
import fixture_certificates
from fixture_certificates import b64url

FIXTURE_NOW = 1795700000
PROJECT = "proj-1"

def segment(obj): return b64url(json.dumps(obj, separators=(",", ":")).encode())

def certificate(key, name): return fixture_certificates.certificate(key, name, serial=7)

def main():
    arguments = argparse.ArgumentParser()
    arguments.add_argument("--now", type=int, default=FIXTURE_NOW)
    arguments.add_argument("--out")
    options = arguments.parse_args()
    global NOW
    NOW = options.now
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    certs = {"kid-1": certificate(key, "securetoken")}

    def sign(header, payload, signer=key):
        signing_input = segment(header) + "." + segment(payload)
        return signing_input + "." + b64url(signer.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256()))

    def claims(**overrides):
        base = {"iss": "https://securetoken.google.com/" + PROJECT, "aud": PROJECT, "auth_time": NOW - 600,
                "user_id": "uid-1", "sub": "uid-1", "iat": NOW - 100, "exp": NOW + 3500,
                "email": "ada@example.com", "email_verified": True, "admin": True,
                "firebase": {"identities": {"email": ["ada@example.com"]}, "sign_in_provider": "password"}}
        base.update(overrides)
        return {k: v for k, v in base.items() if v is not None}

    header = {"alg": "RS256", "kid": "kid-1", "typ": "JWT"}
    valid = sign(header, claims())
    flipped = valid[:-6] + ("A" if valid[-6] != "A" else "B") + valid[-5:]
    tokens = {
        "valid": valid,
        "session cookie": sign(header, claims(iss="https://session.firebase.google.com/" + PROJECT)),
        "expired": sign(header, claims(exp=NOW - 1)),
        "expiring now": sign(header, claims(exp=NOW)),
        "issued in the future": sign(header, claims(iat=NOW + 3600)),
        "issued just past the clock skew": sign(header, claims(iat=NOW + 301)),
        "issued within the clock skew": sign(header, claims(iat=NOW + 299)),
        "authenticated in the future": sign(header, claims(auth_time=NOW + 3600)),
        "no auth_time": sign(header, claims(auth_time=None)),
        "another project": sign(header, claims(aud="proj-2", iss="https://securetoken.google.com/proj-2")),
        "another issuer": sign(header, claims(iss="https://securetoken.google.com/proj-2")),
        "no sub": sign(header, claims(sub=None)),
        "an empty sub": sign(header, claims(sub="")),
        "a long sub": sign(header, claims(sub="u" * 129)),
        "no kid": sign({"alg": "RS256", "typ": "JWT"}, claims()),
        "a custom token": sign({"alg": "RS256", "typ": "JWT"},
                               {"aud": "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit",
                                "iss": "sa@proj-1.iam.gserviceaccount.com", "sub": "sa@proj-1.iam.gserviceaccount.com",
                                "uid": "uid-1", "iat": NOW - 10, "exp": NOW + 3590}),
        "HS256": segment({"alg": "HS256", "kid": "kid-1", "typ": "JWT"}) + "." + segment(claims()) + "." + b64url(b"\x01" * 32),
        "unsigned": segment({"alg": "none", "typ": "JWT"}) + "." + segment(claims()) + ".",
        "an unknown kid": sign({"alg": "RS256", "kid": "kid-9", "typ": "JWT"}, claims()),
        "a bad signature": flipped,
        "another key's signature": sign(header, claims(), signer=rsa.generate_private_key(public_exponent=65537, key_size=2048)),
        "two segments": valid.rsplit(".", 1)[0],
        "not base64": "e30.e30.*",
    }
    out = pathlib.Path(options.out) if options.out else pathlib.Path(__file__).resolve().parent.parent / "Tests/FBAuthTests/Fixtures/FirebaseTokens/tokens.json"
    out.write_text(json.dumps({"generator": "Scripts/gen-firebase-token-vectors.py", "now": NOW, "project": PROJECT,
                               "certificates": certs, "tokens": tokens}, indent=1) + "\n")
    print("wrote", out)

if __name__ == "__main__":
    main()
