#!/usr/bin/env python3
"""Hash vectors for the emulator's imported passwords (issue 59, item 3), made by Python's own
hashlib, hmac, cryptography and bcrypt, never typed in.

    password-hash-vectors.py FIREBASE_SCRYPT_VECTORS SEED

First it re-derives every line of FIREBASE_SCRYPT_VECTORS (Firebase's published vectors) with
hashlib.scrypt and AES-256-CTR, and exits 1 if one differs. Then it prints, as JSON, one
`accounts:batchCreate` body per algorithm (13, and the password-first order where it applies),
each with a user whose hash it made from a random password and salt, and that password.
"""
import base64, hashlib, hmac, json, random, sys
import bcrypt
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

def b64(data): return base64.b64encode(data).decode()

def firebase_scrypt(password, salt, separator, key, rounds, mem_cost):
    derived = hashlib.scrypt(password, salt=salt + separator, n=1 << mem_cost, r=rounds, p=1, dklen=64, maxmem=64 << 20)
    encryptor = Cipher(algorithms.AES(derived[:32]), modes.CTR(bytes(16))).encryptor()
    return encryptor.update(key) + encryptor.finalize()

published = 0
for line in open(sys.argv[1], encoding="utf-8"):
    if line.startswith("#") or not line.strip(): continue
    key, separator, rounds, mem_cost, password, expected, salt = line.rstrip("\n").split("|")
    made = firebase_scrypt(password.encode(), base64.b64decode(salt), base64.b64decode(separator), base64.b64decode(key), int(rounds), int(mem_cost))
    if b64(made) != expected: sys.exit(f"firebase/scrypt vector for {password!r} does not re-derive")
    published += 1

rng = random.Random(int(sys.argv[2]))
def rand(n): return bytes(rng.randrange(256) for _ in range(n))
def password(): return rng.choice(["correct horse", "pässwörd ✓", "p", "x" * 60]) + str(rng.randrange(10**6))

def repeated(name, data, rounds):
    value = hashlib.new(name, data).digest()
    for _ in range(max(rounds, 1) - 1): value = hashlib.new(name, value).digest()
    return value

cases = []
def case(options, make, salted=True):
    secret, salt = password(), rand(12)
    cases.append({"options": options, "password": secret, "salt": b64(salt), "hash": b64(make(secret.encode(), salt))})

key, separator = rand(64), rand(1)
case({"hashAlgorithm": "SCRYPT", "signerKey": b64(key), "saltSeparator": b64(separator), "rounds": 8, "memoryCost": 10},
     lambda p, s: firebase_scrypt(p, s, separator, key, 8, 10))
case({"hashAlgorithm": "STANDARD_SCRYPT", "cpuMemCost": 1024, "blockSize": 8, "parallelization": 2, "dkLen": 48},
     lambda p, s: hashlib.scrypt(p, salt=s, n=1024, r=8, p=2, dklen=48))
case({"hashAlgorithm": "BCRYPT"}, lambda p, s: bcrypt.hashpw(p, bcrypt.gensalt(rounds=5)))
hmac_key = rand(32)
for name, digest in [("HMAC_SHA512", "sha512"), ("HMAC_SHA256", "sha256"), ("HMAC_SHA1", "sha1"), ("HMAC_MD5", "md5")]:
    case({"hashAlgorithm": name, "signerKey": b64(hmac_key)}, lambda p, s, d=digest: hmac.new(hmac_key, s + p, d).digest())
    case({"hashAlgorithm": name, "signerKey": b64(hmac_key), "passwordHashOrder": "PASSWORD_AND_SALT"},
         lambda p, s, d=digest: hmac.new(hmac_key, p + s, d).digest())
case({"hashAlgorithm": "PBKDF_SHA1", "rounds": 1000}, lambda p, s: hashlib.pbkdf2_hmac("sha1", p, s, 1000, 20))
case({"hashAlgorithm": "PBKDF2_SHA256", "rounds": 2000}, lambda p, s: hashlib.pbkdf2_hmac("sha256", p, s, 2000, 32))
for name, digest, rounds in [("SHA512", "sha512", 3), ("SHA256", "sha256", 1), ("SHA1", "sha1", 20), ("MD5", "md5", 0)]:
    case({"hashAlgorithm": name, "rounds": rounds}, lambda p, s, d=digest, r=rounds: repeated(d, s + p, r))
    case({"hashAlgorithm": name, "rounds": rounds, "passwordHashOrder": "PASSWORD_AND_SALT"}, lambda p, s, d=digest, r=rounds: repeated(d, p + s, r))
print(json.dumps({"published": published, "cases": cases}))
