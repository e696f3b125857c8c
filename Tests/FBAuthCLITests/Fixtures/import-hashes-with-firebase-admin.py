#!/usr/bin/env python3
"""Issue 59, item 3, judged by firebase-admin (PyPI): for each of UserImportHash's 13
algorithms, hashes a random password with Python's own hashlib, hmac, cryptography or bcrypt,
imports the user with `auth.import_users(..., hash_alg=...)` into the emulator at
FIREBASE_AUTH_EMULATOR_HOST, and signs in with the right and a wrong password. Prints one JSON
line per algorithm: its name, the import's failures, and the two sign-ins' HTTP statuses and
error messages.

    import-hashes-with-firebase-admin.py PROJECT
"""
import base64, hashlib, hmac, json, os, secrets, sys, urllib.error, urllib.request
import bcrypt, firebase_admin
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from firebase_admin import _utils, auth, credentials

project = sys.argv[1]
host = os.environ["FIREBASE_AUTH_EMULATOR_HOST"]

class EmulatorCredential(credentials.Base):
    def get_credential(self):
        return _utils.EmulatorAdminCredentials()

firebase_admin.initialize_app(EmulatorCredential(), {"projectId": project})

def firebase_scrypt(password, salt, separator, key, rounds, mem_cost):
    derived = hashlib.scrypt(password, salt=salt + separator, n=1 << mem_cost, r=rounds, p=1, dklen=64)
    encryptor = Cipher(algorithms.AES(derived[:32]), modes.CTR(bytes(16))).encryptor()
    return encryptor.update(key) + encryptor.finalize()

def repeated(name, data, rounds):
    value = hashlib.new(name, data).digest()
    for _ in range(max(rounds, 1) - 1): value = hashlib.new(name, value).digest()
    return value

key, separator, hmac_key = secrets.token_bytes(64), secrets.token_bytes(1), secrets.token_bytes(24)
H = auth.UserImportHash
cases = [
    ("SCRYPT", H.scrypt(key=key, rounds=8, memory_cost=11, salt_separator=separator), lambda p, s: firebase_scrypt(p, s, separator, key, 8, 11)),
    ("STANDARD_SCRYPT", H.standard_scrypt(memory_cost=2048, parallelization=1, block_size=8, derived_key_length=64),
     lambda p, s: hashlib.scrypt(p, salt=s, n=2048, r=8, p=1, dklen=64)),
    ("BCRYPT", H.bcrypt(), lambda p, s: bcrypt.hashpw(p, bcrypt.gensalt(rounds=4))),
    ("HMAC_SHA512", H.hmac_sha512(hmac_key), lambda p, s: hmac.new(hmac_key, s + p, "sha512").digest()),
    ("HMAC_SHA256", H.hmac_sha256(hmac_key), lambda p, s: hmac.new(hmac_key, s + p, "sha256").digest()),
    ("HMAC_SHA1", H.hmac_sha1(hmac_key), lambda p, s: hmac.new(hmac_key, s + p, "sha1").digest()),
    ("HMAC_MD5", H.hmac_md5(hmac_key), lambda p, s: hmac.new(hmac_key, s + p, "md5").digest()),
    ("MD5", H.md5(2), lambda p, s: repeated("md5", s + p, 2)),
    ("PBKDF_SHA1", H.pbkdf_sha1(500), lambda p, s: hashlib.pbkdf2_hmac("sha1", p, s, 500, 20)),
    ("PBKDF2_SHA256", H.pbkdf2_sha256(700), lambda p, s: hashlib.pbkdf2_hmac("sha256", p, s, 700, 32)),
    ("SHA512", H.sha512(4), lambda p, s: repeated("sha512", s + p, 4)),
    ("SHA256", H.sha256(1), lambda p, s: repeated("sha256", s + p, 1)),
    ("SHA1", H.sha1(9), lambda p, s: repeated("sha1", s + p, 9)),
]

def sign_in(email, password):
    request = urllib.request.Request(f"http://{host}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake-api-key",
                                     data=json.dumps({"email": email, "password": password, "returnSecureToken": True}).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request) as answer:
            body = json.load(answer)
            return [answer.status, body.get("email")]
    except urllib.error.HTTPError as error:
        return [error.code, json.load(error)["error"]["message"]]

for name, hash_alg, make in cases:
    password, salt = "pässwörd " + secrets.token_urlsafe(8), secrets.token_bytes(12)
    email = f"{name.lower()}@example.com"
    record = auth.ImportUserRecord(uid=f"imported-{name.lower()}", email=email, password_hash=make(password.encode(), salt), password_salt=salt)
    result = auth.import_users([record], hash_alg=hash_alg)
    print(json.dumps({"algorithm": name, "failures": [error.reason for error in result.errors],
                      "wrong": sign_in(email, password + "!"), "right": sign_in(email, password)}), flush=True)
