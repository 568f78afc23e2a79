"""``manage.py signing_identity``: the key and certificate that sign protocols."""

from __future__ import annotations

from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes
from django.core.management.base import BaseCommand, CommandError

from scoring.identity import installation_signer, signing_paths
from scoring.protocols import SigningError


class Command(BaseCommand):
    """Create the installation's key and self-signed certificate if missing, and show them."""

    help = ("Create the protocol signing key and self-signed certificate on first use "
            "(in PROTOCOL_SIGNING_DIR), or check the configured PROTOCOL_SIGNING_KEY/CERT.")

    def handle(self, *args: Any, **options: Any) -> None:
        """Make sure the identity exists and loads; print where it is and its fingerprint."""
        try:
            key_path, cert_path = signing_paths()
            signer = installation_signer()
        except (SigningError, OSError) as exc:
            raise CommandError(str(exc)) from exc
        cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
        self.stdout.write(f"key:         {key_path}")
        self.stdout.write(f"certificate: {cert_path}")
        self.stdout.write(f"subject:     {signer.subject}")
        self.stdout.write(f"valid until: {cert.not_valid_after_utc:%Y-%m-%d}")
        self.stdout.write(f"SHA-256:     {cert.fingerprint(hashes.SHA256()).hex(':')}")
