#!/usr/bin/env python3
"""Writes Tests/FBAuthTests/Fixtures/ServiceAccount/: a service account's key file as Google
issues them (PKCS #8 PEM in "private_key"), made by OpenSSL through Python's `cryptography`
for tests only (the key is public on purpose and belongs to no project), with what the tests
compare fbauth's signer with: the public modulus, the same key as PKCS #1, and RS256
signatures OpenSSL made (RSASSA-PKCS1-v1_5 is deterministic, so fbauth's must be the same
bytes). Run again only to change the fixture; the tests read the committed files."""
import base64, json, pathlib
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa, padding

out = pathlib.Path(__file__).resolve().parent.parent / "Tests/FBAuthTests/Fixtures/ServiceAccount"
out.mkdir(parents=True, exist_ok=True)
key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
pkcs8 = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
pkcs1 = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL, serialization.NoEncryption()).decode()
account = {
    "type": "service_account",
    "project_id": "proj-1",
    "private_key_id": "0123456789abcdef0123456789abcdef01234567",
    "private_key": pkcs8,
    "client_email": "firebase-adminsdk-test@proj-1.iam.gserviceaccount.com",
    "client_id": "100000000000000000001",
    "auth_uri": "https://accounts.google.com/o/oauth2/auth",
    "token_uri": "https://oauth2.googleapis.com/token",
    "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
    "client_x509_cert_url": "https://www.googleapis.com/robot/v1/metadata/x509/firebase-adminsdk-test%40proj-1.iam.gserviceaccount.com",
    "universe_domain": "googleapis.com",
}
(out / "service-account.json").write_text(json.dumps(account, indent=2) + "\n")
messages = ["", "abc", "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJ0ZXN0In0"]
facts = {
    "modulusHex": format(key.public_key().public_numbers().n, "x").rjust(512, "0"),
    "exponent": key.public_key().public_numbers().e,
    "pkcs1": pkcs1,
    "signatures": {m: base64.urlsafe_b64encode(key.sign(m.encode(), padding.PKCS1v15(), hashes.SHA256())).rstrip(b"=").decode() for m in messages},
}
(out / "facts.json").write_text(json.dumps(facts, indent=2) + "\n")
