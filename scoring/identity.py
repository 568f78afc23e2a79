"""The installation's signing identity: a real key and certificate from the settings, or one
made on first use in ``PROTOCOL_SIGNING_DIR``; the signer is loaded once per process."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

from scoring.protocols import ProtocolSigner, SigningError, ensure_signing_identity, get_signer


def signing_paths() -> tuple[Path, Path]:
    """Return ``(key, certificate)``: the configured pair, else the generated one."""
    key, cert = settings.PROTOCOL_SIGNING_KEY, settings.PROTOCOL_SIGNING_CERT
    if key or cert:
        if not (key and cert):
            raise SigningError(
                "set both PROTOCOL_SIGNING_KEY and PROTOCOL_SIGNING_CERT, or neither"
            )
        return Path(key), Path(cert)
    return ensure_signing_identity(settings.PROTOCOL_SIGNING_DIR)


def certificate_path() -> Path:
    """Return the certificate that verification trusts (the installation's)."""
    return signing_paths()[1]


def installation_signer() -> ProtocolSigner:
    """Return this process's signer for the installation's key (loaded on first use)."""
    key, cert = signing_paths()
    return get_signer(key, cert, settings.PROTOCOL_SIGNING_KEY_PASSPHRASE or None)
