"""``manage.py signing_identity [show|rotate]``: the key and certificate that sign protocols."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.protocols import SigningError, rotate_signing_identity
from scoring.signoff.identity import (
    installation_signer,
    signing_paths,
    trusted_certificates,
    uses_configured_identity,
)


class Command(BaseCommand):
    """Show the installation's signing identity (made on first use), or rotate it."""

    help = ("show (the default): create the protocol signing key and self-signed certificate "
            "on first use (in PROTOCOL_SIGNING_DIR), or check the configured "
            "PROTOCOL_SIGNING_KEY/CERT, and list the certificates verification trusts. "
            "rotate: make a new key and certificate in PROTOCOL_SIGNING_DIR; the old "
            "certificate stays trusted (in trusted/) so older protocols still verify.")

    def add_arguments(self, parser: CommandParser) -> None:
        """The action: ``show`` or ``rotate``."""
        parser.add_argument("action", nargs="?", default="show", choices=["show", "rotate"])

    def handle(self, *args: Any, **options: Any) -> None:
        """Rotate if asked; then make sure the identity loads and print it."""
        try:
            if options["action"] == "rotate":
                self.rotate()
            key_path, cert_path = signing_paths()
            signer = installation_signer()
            trusted = trusted_certificates()
        except (SigningError, OSError, ValueError) as exc:
            raise CommandError(str(exc)) from exc
        cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
        self.stdout.write(f"key:         {key_path}")
        self.stdout.write(f"certificate: {cert_path}")
        self.stdout.write(f"subject:     {signer.subject}")
        self.stdout.write(f"valid until: {cert.not_valid_after_utc:%Y-%m-%d}")
        self.stdout.write(f"SHA-256:     {fingerprint(cert_path)}")
        self.stdout.write(f"trusted:     {len(trusted)} certificate(s)")
        for path in trusted:
            self.stdout.write(f"  {fingerprint(path)}  {path}")

    def rotate(self) -> None:
        """A new key and certificate in the signing directory; the old certificate kept."""
        if uses_configured_identity():
            raise CommandError(
                "PROTOCOL_SIGNING_KEY/PROTOCOL_SIGNING_CERT name the identity: rotate it by "
                "replacing those files, and keep the old certificate trusted by copying it "
                f"to {Path(settings.PROTOCOL_SIGNING_DIR) / 'trusted'}/ or listing it in "
                "PROTOCOL_TRUSTED_CERTS.")
        _cert, retired = rotate_signing_identity(settings.PROTOCOL_SIGNING_DIR)
        if retired is not None:
            self.stdout.write(f"retired:     {retired} (trusted for verification only)")
        self.stdout.write("rotated: new protocols are signed with the new key")


def fingerprint(path: Path) -> str:
    """The SHA-256 fingerprint of a PEM certificate file, as colon-separated hex."""
    try:
        cert = x509.load_pem_x509_certificate(Path(path).read_bytes())
    except (OSError, ValueError) as exc:
        return f"unreadable ({exc})"
    return cert.fingerprint(hashes.SHA256()).hex(":")
