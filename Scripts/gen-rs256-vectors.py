#!/usr/bin/env python3
"""Writes Tests/FBAuthTests/Fixtures/RS256/vectors.json: RS256 (RSASSA-PKCS1-v1_5 with SHA-256)
test vectors made by OpenSSL through Python's `cryptography`, a signer independent of fbauth's
verifier. Certificates are self-signed X.509 PEM, as Google's securetoken x509 endpoint serves
them. Run again only to change the vectors; the tests read the committed file.

Each case: the PEM certificate, the signed message, the base64url signature, and whether a
correct verifier accepts it. Bad cases: another message, a flipped bit, short and long
signatures, a signature value not below the modulus, padding that is not PKCS#1 v1.5 with
SHA-256's DigestInfo (raw RSA over a hand-built block), the right signature checked with a
wrong exponent, and a 1024-bit modulus (refused outright)."""
import json, pathlib
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import rsa, padding
import fixture_certificates
from fixture_certificates import b64url

def certificate(key, name): return fixture_certificates.certificate(key, name, serial=1)

def raw_sign(key, block):
    """RSA without padding: block^d mod n, for blocks no verifier should accept."""
    numbers = key.private_numbers()
    n = numbers.public_numbers.n
    value = pow(int.from_bytes(block, "big"), numbers.d, n)
    return value.to_bytes((n.bit_length() + 7) // 8, "big")

SHA256_PREFIX = bytes.fromhex("3031300d060960864801650304020105000420")
SHA1_PREFIX = bytes.fromhex("3021300906052b0e03021a05000414")

def block(k, prefix, digest, first=b"\x00\x01", filler=0xFF, separator=b"\x00"):
    body = prefix + digest
    return first + bytes([filler]) * (k - len(body) - len(first) - len(separator)) + separator + body

def main():
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    small = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    large = rsa.generate_private_key(public_exponent=65537, key_size=4096)
    cert, other_cert, small_cert, large_cert = (certificate(key, "fbauth-test"), certificate(other, "fbauth-other"),
                                               certificate(small, "fbauth-small"), certificate(large, "fbauth-large"))
    message = b"eyJhbGciOiJSUzI1NiIsImtpZCI6InRlc3QifQ.eyJzdWIiOiJ1c2VyLTEifQ"
    good = key.sign(message, padding.PKCS1v15(), hashes.SHA256())
    k = 256
    digest = hashes.Hash(hashes.SHA256()); digest.update(message); h = digest.finalize()
    d1 = hashes.Hash(hashes.SHA1()); d1.update(message); h1 = d1.finalize()
    flipped = bytearray(good); flipped[100] ^= 0x01
    n = key.public_key().public_numbers().n
    cases = [
        ("valid", cert, message, good, True),
        ("a 4096-bit key", large_cert, message, large.sign(message, padding.PKCS1v15(), hashes.SHA256()), True),
        ("another message", cert, message + b"x", good, False),
        ("a flipped bit", cert, message, bytes(flipped), False),
        ("another key's certificate", other_cert, message, good, False),
        ("a short signature", cert, message, good[1:], False),
        ("a long signature", cert, message, b"\x00" + good, False),
        ("an empty signature", cert, message, b"", False),
        ("a signature not below the modulus", cert, message, n.to_bytes(k, "big"), False),
        ("block type 2 padding", cert, message, raw_sign(key, block(k, SHA256_PREFIX, h, first=b"\x00\x02")), False),
        ("a filler byte that is not 0xFF", cert, message, raw_sign(key, block(k, SHA256_PREFIX, h, filler=0xFE)), False),
        ("no zero separator", cert, message, raw_sign(key, block(k, SHA256_PREFIX, h, separator=b"\x01")), False),
        ("SHA-1's DigestInfo", cert, message, raw_sign(key, block(k, SHA1_PREFIX, h1)), False),
        ("a DigestInfo without NULL parameters", cert, message,
         raw_sign(key, block(k, bytes.fromhex("302f300b0609608648016503040201") + b"\x04\x20", h)), False),
        ("the block shifted by a byte", cert, message, raw_sign(key, block(k, SHA256_PREFIX, h + b"\x00")[1:] + b"\x00"), False),
        ("a 1024-bit key", small_cert, message, small.sign(message, padding.PKCS1v15(), hashes.SHA256()), False),
    ]
    vectors = {
        "generator": "Scripts/gen-rs256-vectors.py (cryptography %s, OpenSSL)" % __import__("cryptography").__version__,
        "wrongExponent": {"certificate": cert, "message": message.decode(), "signature": b64url(good), "exponent": 3},
        "cases": [{"name": name, "certificate": c, "message": m.decode(), "signature": b64url(s), "valid": v} for name, c, m, s, v in cases],
    }
    out = pathlib.Path(__file__).resolve().parent.parent / "Tests/FBAuthTests/Fixtures/RS256/vectors.json"
    out.write_text(json.dumps(vectors, indent=1) + "\n")
    print("wrote", out)

if __name__ == "__main__":
    main()
