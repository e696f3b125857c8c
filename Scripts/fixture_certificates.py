"""What the fixture generators (gen-rs256-vectors.py, gen-firebase-token-vectors.py) share:
base64url and a self-signed X.509 certificate of a key, in PEM, as Google's x509 endpoints
serve them. Made by OpenSSL through Python's `cryptography`."""
import base64, datetime
from cryptography import x509
from cryptography.x509.oid import NameOID
from cryptography.hazmat.primitives import hashes, serialization

def b64url(data): return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

def certificate(key, name, serial):
    """A self-signed certificate of `key`, valid ten years from 2026-01-01 (fixed, so that a
    generator run twice with the same key writes the same certificate)."""
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    start = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
            .serial_number(serial).not_valid_before(start).not_valid_after(start + datetime.timedelta(days=3650))
            .sign(key, hashes.SHA256()))
    return cert.public_bytes(serialization.Encoding.PEM).decode()
