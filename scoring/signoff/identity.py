"""The installation's signing identity: a real key and certificate from the settings, or one
made on first use in ``PROTOCOL_SIGNING_DIR``; the signer is loaded once per process. Verification
trusts the current certificate, those a rotation retired (``PROTOCOL_SIGNING_DIR/trusted/``) and
any listed in ``PROTOCOL_TRUSTED_CERTS``."""

from __future__ import annotations

import logging
from pathlib import Path

from django.conf import settings

from scoring.protocols import (
    ProtocolSigner,
    SigningError,
    ensure_signing_identity,
    get_signer,
    trusted_in,
)

logger = logging.getLogger(__name__)


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


def uses_configured_identity() -> bool:
    """Whether the key and certificate come from the settings (not the signing directory)."""
    return bool(settings.PROTOCOL_SIGNING_KEY or settings.PROTOCOL_SIGNING_CERT)


def certificate_path() -> Path:
    """Return the certificate that signs new protocols (the installation's current one)."""
    return signing_paths()[1]


def extra_trusted_certificates() -> list[Path]:
    """Return the certificates of ``PROTOCOL_TRUSTED_CERTS``: PEM files, or folders of them."""
    found: list[Path] = []
    for entry in settings.PROTOCOL_TRUSTED_CERTS:
        path = Path(entry)
        if path.is_dir():
            found.extend(sorted(path.glob("*.pem")))
        elif path.is_file():
            found.append(path)
        else:  # one wrong entry must not make every protocol unverifiable
            logger.warning("PROTOCOL_TRUSTED_CERTS: %s is neither a file nor a folder", path)
    return found


def trusted_certificates() -> list[Path]:
    """Return every certificate verification trusts: current, retired, then configured extras."""
    paths = [certificate_path(), *trusted_in(settings.PROTOCOL_SIGNING_DIR),
             *extra_trusted_certificates()]
    return list(dict.fromkeys(paths))


def installation_signer() -> ProtocolSigner:
    """Return this process's signer for the installation's key (loaded on first use)."""
    key, cert = signing_paths()
    return get_signer(key, cert, settings.PROTOCOL_SIGNING_KEY_PASSPHRASE or None)
