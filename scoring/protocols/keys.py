"""The installation's signing key and certificate for protocol PDFs: created, found, rotated.

* ``ensure_signing_identity`` creates an EC P-256 key and a self-signed certificate on first
  use (key usage digitalSignature + nonRepudiation: pyHanko's validator wants the latter, and
  poppler's ``pdfsig`` dislikes an extended key usage of document signing alone, so none).
* ``rotate_signing_identity`` makes a new key and certificate; the old certificate is kept
  in ``trusted/`` (verification only: the old key is deleted), so older protocols still verify.
* ``trusted_in`` lists the certificates kept for verification only.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import secrets
from collections.abc import Iterator
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

KEY_FILENAME = "protocol-signing-key.pem"
CERT_FILENAME = "protocol-signing-cert.pem"
#: Certificates kept for verification only (retired by a rotation, or added by hand).
TRUSTED_DIRNAME = "trusted"
CERT_VALIDITY_DAYS = 30 * 366  # protocols must stay verifiable for decades


class SigningError(Exception):
    """The signing key or certificate cannot be created, loaded or used."""


@contextlib.contextmanager
def _directory_lock(directory: Path) -> Iterator[None]:
    """Serialise identity creation between processes (two workers starting at once)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    with open(directory / ".signing-identity.lock", "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _write_private(path: Path, data: bytes, mode: int) -> None:
    temp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temp, path)
    finally:
        if temp.exists():
            temp.unlink()


def _self_signed_certificate(key: ec.EllipticCurvePrivateKey,
                             common_name: str) -> x509.Certificate:
    name = x509.Name([
        x509.NameAttribute(NameOID.COMMON_NAME, common_name),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, common_name),
    ])
    now = dt.datetime.now(dt.UTC).replace(microsecond=0)
    public = key.public_key()
    return (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(public)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=CERT_VALIDITY_DAYS))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(digital_signature=True, content_commitment=True,
                          key_encipherment=False, data_encipherment=False,
                          key_agreement=False, key_cert_sign=False, crl_sign=False,
                          encipher_only=False, decipher_only=False),
            critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(public),
                       critical=False)
        .sign(key, hashes.SHA256())
    )


def _new_identity(key_path: Path, cert_path: Path, common_name: str) -> None:
    """Write a fresh EC P-256 key (owner-only) and its self-signed certificate."""
    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    cert = _self_signed_certificate(key, common_name)
    _write_private(key_path, pem, 0o600)
    _write_private(cert_path, cert.public_bytes(serialization.Encoding.PEM), 0o644)


def ensure_signing_identity(directory: Path | str,
                            common_name: str = "Domino tournaments") -> tuple[Path, Path]:
    """Create the installation's signing key and certificate in ``directory`` if missing.

    The key is an unencrypted EC P-256 PEM readable by the owner only; the certificate is
    self-signed. Existing files are left untouched (a key without a certificate gets a new
    certificate; a certificate without its key is an error). Returns ``(key_path, cert_path)``.
    """
    directory = Path(directory)
    key_path = directory / KEY_FILENAME
    cert_path = directory / CERT_FILENAME
    if key_path.is_file() and cert_path.is_file():
        return key_path, cert_path
    directory.mkdir(parents=True, exist_ok=True)
    with _directory_lock(directory):
        if key_path.is_file() and cert_path.is_file():
            return key_path, cert_path
        if cert_path.is_file():
            raise SigningError(f"{cert_path} exists but its key {key_path} is missing")
        if not key_path.is_file():
            _new_identity(key_path, cert_path, common_name)
            return key_path, cert_path
        loaded = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
        if not isinstance(loaded, ec.EllipticCurvePrivateKey):
            raise SigningError(f"{key_path} is not an EC private key")
        cert = _self_signed_certificate(loaded, common_name)
        _write_private(cert_path, cert.public_bytes(serialization.Encoding.PEM), 0o644)
    return key_path, cert_path


def trusted_in(directory: Path | str) -> list[Path]:
    """Return the certificates kept for verification in ``directory/trusted`` (PEM files)."""
    folder = Path(directory) / TRUSTED_DIRNAME
    return sorted(folder.glob("*.pem")) if folder.is_dir() else []


def rotate_signing_identity(directory: Path | str,
                            common_name: str = "Domino tournaments") -> tuple[Path, Path | None]:
    """Replace the key and certificate in ``directory`` with new ones; keep the old cert trusted.

    The old certificate is copied to ``trusted/<date>-<fingerprint>.pem`` first (so protocols
    it signed keep verifying), then the new key and certificate replace the old pair; the old
    key is gone (nothing can sign with it any more). Returns ``(new_cert, retired_cert)``;
    ``retired_cert`` is None when there was no identity yet.
    """
    directory = Path(directory)
    key_path, cert_path = directory / KEY_FILENAME, directory / CERT_FILENAME
    directory.mkdir(parents=True, exist_ok=True)
    retired = None
    with _directory_lock(directory):
        if cert_path.is_file():
            old = cert_path.read_bytes()
            try:
                cert = x509.load_pem_x509_certificate(old)
            except ValueError as exc:
                raise SigningError(f"{cert_path} is not a PEM certificate: {exc}") from exc
            stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
            fingerprint = cert.fingerprint(hashes.SHA256()).hex()[:16]
            (directory / TRUSTED_DIRNAME).mkdir(exist_ok=True)
            retired = directory / TRUSTED_DIRNAME / f"{stamp}-{fingerprint}.pem"
            _write_private(retired, old, 0o644)
        _new_identity(key_path, cert_path, common_name)
    return cert_path, retired
