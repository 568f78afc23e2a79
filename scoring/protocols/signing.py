"""PAdES signatures for protocol PDFs: the installation's key, signing and verification.

* ``ensure_signing_identity`` (``keys``) creates an EC P-256 key and a self-signed
  certificate on first use; ``rotate_signing_identity`` makes a new pair (``keys``).
* ``ProtocolSigner`` loads the key once and signs with a fixed ``bytes_reserved`` so that
  pyHanko does not make a trial signature to size the field; ``get_signer`` caches one per
  process.
* ``verify_pdf`` validates with pyHanko against the installation's certificates (the current
  one and the retired or extra ones it trusts) as the only trust roots; it never raises on bad
  input.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from asn1crypto import cms
from asn1crypto.parser import emit as asn1_emit
from cryptography.hazmat.primitives import serialization
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign import signers
from pyhanko.sign.fields import SigSeedSubFilter
from pyhanko.sign.general import SigningError as PyHankoSigningError
from pyhanko.sign.general import (
    as_signing_certificate_v2,
    load_cert_from_pemder,
    simple_cms_attribute,
)
from pyhanko.sign.signers.pdf_cms import PdfCMSSignedAttributes
from pyhanko.sign.validation import validate_pdf_signature
from pyhanko.sign.validation.status import ModificationLevel, SignatureCoverageLevel
from pyhanko_certvalidator import ValidationContext

from .keys import (
    CERT_FILENAME,
    KEY_FILENAME,
    TRUSTED_DIRNAME,
    SigningError,
    ensure_signing_identity,
    rotate_signing_identity,
    trusted_in,
)

__all__ = [
    "KEY_FILENAME",
    "CERT_FILENAME",
    "ProtocolSigner",
    "SigningError",
    "VerifyResult",
    "TRUSTED_DIRNAME",
    "ensure_signing_identity",
    "get_signer",
    "rotate_signing_identity",
    "trusted_in",
    "sha256_hex",
    "verify_pdf",
]

#: Space kept for the CMS signature, in hex digits (pyHanko's unit): 8192 digits = 4 KiB of
#: DER. An ECDSA signature with a self-signed certificate needs about 1 kB, a real certificate
#: with a short chain fits too. Fixed, so pyHanko makes no trial signature to size it; if a
#: signature ever does not fit, it is signed again with pyHanko's own estimate.
DEFAULT_BYTES_RESERVED = 8192
DEFAULT_REASON = "Party protocol signed off by the players and the referee"


def sha256_hex(data: bytes) -> str:
    """Return the SHA-256 of ``data`` as lowercase hex (store it for every signed file)."""
    return hashlib.sha256(data).hexdigest()


# --------------------------------------------------------------------------- signing


class _PadesSigner(signers.SimpleSigner):
    """pyHanko's ``SimpleSigner`` with the PAdES signed attributes pre-encoded.

    For a PAdES B-B signature pyHanko signs exactly three attributes: content type (always
    ``data``), message digest (the document's) and signing-certificate-v2 (a constant for the
    certificate). pyHanko builds them as fresh asn1crypto objects on every signature, and
    asn1crypto re-encodes nested freshly built structures over and over: that alone took
    ~15 ms of an 18 ms signature. Here the two constant attributes are encoded once and the
    set is assembled from DER, byte-identical to what pyHanko produces (a test compares them).
    Anything other than that plain case goes through pyHanko's own code.
    """

    def __init__(self, base: signers.SimpleSigner) -> None:
        super().__init__(signing_cert=base.signing_cert, signing_key=base.signing_key,
                         cert_registry=base.cert_registry,
                         signature_mechanism=base.signature_mechanism)
        # pyHanko leaves ``simple_cms_attribute`` unannotated.
        self._content_type_der = simple_cms_attribute(  # type: ignore[no-untyped-call]
            "content_type", "data").dump()
        self._signing_cert_der = simple_cms_attribute(  # type: ignore[no-untyped-call]
            "signing_certificate_v2", as_signing_certificate_v2(base.signing_cert)).dump()

    async def signed_attrs(self, data_digest: bytes, digest_algorithm: str,
                           attr_settings: PdfCMSSignedAttributes | None = None,
                           content_type: str = "data", use_pades: bool = False,
                           timestamper: object = None, dry_run: bool = False,
                           is_pdf_sig: bool = True) -> cms.CMSAttributes:
        """Return the signed attributes, from pre-encoded parts in the plain PAdES case."""
        plain = (use_pades and is_pdf_sig and content_type == "data" and timestamper is None
                 and self.signed_attr_prov_spec is None
                 and (attr_settings is None or attr_settings.cades_signed_attrs is None))
        if not plain:
            return await super().signed_attrs(
                data_digest, digest_algorithm, attr_settings=attr_settings,
                content_type=content_type, use_pades=use_pades, timestamper=timestamper,
                dry_run=dry_run, is_pdf_sig=is_pdf_sig)
        digest_der = simple_cms_attribute(  # type: ignore[no-untyped-call]  # pyHanko: untyped
            "message_digest", data_digest).dump()
        members = sorted([self._content_type_der, digest_der, self._signing_cert_der])
        return cms.CMSAttributes.load(asn1_emit(0, 1, 17, b"".join(members)))  # DER SET OF



def _check_pair(signer: signers.SimpleSigner, key_path: Path | str,
                cert_path: Path | str) -> None:
    """Refuse a key that is not the certificate's (e.g. read halfway through a rotation)."""
    key = serialization.load_der_private_key(signer.signing_key.dump(), password=None)
    public = key.public_key().public_bytes(serialization.Encoding.DER,
                                           serialization.PublicFormat.SubjectPublicKeyInfo)
    cert = signer.signing_cert
    if cert is None or public != cert.public_key.dump():
        raise SigningError(f"the key {key_path} does not belong to the certificate {cert_path}")


class ProtocolSigner:
    """Signs PDFs with one key and certificate, loaded once (PAdES B-B, invisible field)."""

    def __init__(self, key_path: Path | str, cert_path: Path | str,
                 key_passphrase: bytes | str | None = None, *,
                 bytes_reserved: int = DEFAULT_BYTES_RESERVED,
                 field_name: str = "ProtocolSignature") -> None:
        if isinstance(key_passphrase, str):
            key_passphrase = key_passphrase.encode("utf-8")
        signer = signers.SimpleSigner.load(  # type: ignore[no-untyped-call]  # pyHanko: untyped
            str(key_path), str(cert_path), key_passphrase=key_passphrase)
        if signer is None:  # pyHanko logs the reason and returns None
            raise SigningError(f"cannot load signing key {key_path} / certificate {cert_path}")
        _check_pair(signer, key_path, cert_path)
        self._signer = _PadesSigner(signer)
        self.key_path = Path(key_path)
        self.cert_path = Path(cert_path)
        self.bytes_reserved = bytes_reserved
        self.field_name = field_name

    @property
    def subject(self) -> str:
        """Return the signing certificate's subject, human-readable."""
        cert = self._signer.signing_cert
        if cert is None:  # not after __init__: it checked the key against the certificate
            raise SigningError("the signer has no certificate")
        subject: str = cert.subject.human_friendly  # asn1crypto is untyped
        return subject

    def sign(self, pdf: bytes, *, reason: str = DEFAULT_REASON, location: str = "") -> bytes:
        """Return ``pdf`` with a PAdES signature appended as an incremental update.

        pyHanko runs its own event loop (``asyncio.run``) here, so call this from synchronous
        code (a view, a Celery task, a command), not from inside a running event loop.
        """
        meta = signers.PdfSignatureMetadata(
            field_name=self.field_name,
            md_algorithm="sha256",
            subfilter=SigSeedSubFilter.PADES,
            reason=reason or None,
            location=location or None,
        )
        pdf_signer = signers.PdfSigner(meta, signer=self._signer)
        try:
            try:
                return self._sign_with(pdf_signer, pdf, self.bytes_reserved)
            except PyHankoSigningError as exc:
                if "larger than expected" not in str(exc):
                    raise
                return self._sign_with(pdf_signer, pdf, None)  # let pyHanko size it
        except Exception as exc:  # pyHanko raises several unrelated types
            raise SigningError(f"signing failed: {exc}") from exc

    @staticmethod
    def _sign_with(pdf_signer: signers.PdfSigner, pdf: bytes,
                   bytes_reserved: int | None) -> bytes:
        writer = IncrementalPdfFileWriter(io.BytesIO(pdf), strict=False)
        output: io.BytesIO = pdf_signer.sign_pdf(writer, bytes_reserved=bytes_reserved,
                                                 output=io.BytesIO())
        return output.getvalue()


_signers: dict[tuple[str, str, float, float], ProtocolSigner] = {}
_signers_lock = threading.Lock()


def get_signer(key_path: Path | str, cert_path: Path | str,
               key_passphrase: bytes | str | None = None) -> ProtocolSigner:
    """Return this process's ``ProtocolSigner`` for the key/certificate pair (loaded once).

    The cache key includes the files' modification times, so replacing the certificate and key
    takes effect without a restart.
    """
    key_path, cert_path = Path(key_path), Path(cert_path)
    try:
        cache_key = (str(key_path.resolve()), str(cert_path.resolve()),
                     key_path.stat().st_mtime, cert_path.stat().st_mtime)
    except OSError as exc:
        raise SigningError(f"signing identity missing: {exc}") from exc
    signer = _signers.get(cache_key)
    if signer is None:
        with _signers_lock:
            signer = _signers.get(cache_key)
            if signer is None:
                signer = ProtocolSigner(key_path, cert_path, key_passphrase)
                _signers.clear()
                _signers[cache_key] = signer
    return signer


# --------------------------------------------------------------------------- verification


@dataclass(frozen=True)
class VerifyResult:
    """What validating a signed protocol PDF found.

    ``intact``: the signed bytes hash to the signed digest; ``valid``: the signature over it
    is cryptographically correct; ``trusted``: the signer chains to the installation's
    certificate; ``total_document``: the signature covers the whole file, nothing appended;
    ``modified``: something was changed or appended after signing.
    """

    intact: bool
    valid: bool
    trusted: bool
    total_document: bool
    modified: bool
    signer: str
    signed_at: dt.datetime | None
    error: str | None
    signature_count: int = 0
    public_id: str | None = None
    version: int | None = None
    fingerprint: str | None = None

    @property
    def ok(self) -> bool:
        """Return whether this is an authentic, unmodified protocol of this installation.

        Requires ``trusted`` too: a valid signature by some other key is not authentic.
        """
        return (self.intact and self.valid and self.trusted and self.total_document
                and not self.modified and self.error is None)

    @classmethod
    def failure(cls, error: str, signature_count: int = 0) -> VerifyResult:
        """Return a result for a file that could not be validated at all."""
        return cls(intact=False, valid=False, trusted=False, total_document=False,
                   modified=False, signer="", signed_at=None, error=error,
                   signature_count=signature_count)


_roots: dict[tuple[str, float], object] = {}
_KEYWORDS = re.compile(
    r"protocol=(?P<id>\S+) version=(?P<version>\d+) sha256=(?P<sha>[0-9a-f]{64})")


def _trust_root(cert_path: Path) -> object:
    key = (str(cert_path.resolve()), cert_path.stat().st_mtime)
    root = _roots.get(key)
    if root is None:
        root = load_cert_from_pemder(str(cert_path))  # type: ignore[no-untyped-call]  # pyHanko
        if len(_roots) > 64:  # old files replaced many times over
            _roots.clear()
        _roots[key] = root
    return root


TrustedCerts = Path | str | Sequence[Path | str]


def _trust_roots(trusted: TrustedCerts) -> list[object]:
    paths = [trusted] if isinstance(trusted, (str, Path)) else list(trusted)
    if not paths:
        raise SigningError("no trusted certificate is configured")
    return [_trust_root(Path(path)) for path in paths]


def _protocol_keywords(reader: PdfFileReader) -> dict[str, str]:
    try:
        keywords = str(reader.trailer_view["/Info"].get("/Keywords", ""))
    except Exception:  # no /Info, or an odd one: not an error for the signature
        return {}
    match = _KEYWORDS.search(keywords)
    return match.groupdict() if match else {}


def verify_pdf(pdf: bytes, trusted: TrustedCerts) -> VerifyResult:
    """Validate the (first) signature of ``pdf`` against the trusted certificate(s).

    ``trusted`` is one certificate file or a list of them (the installation's current one,
    those retired by a rotation, extra ones configured); each is a trust root.

    Never raises for bad input: an unreadable file, a file without a signature or a broken
    certificate path all come back with ``ok`` False and ``error`` set.
    """
    try:
        roots = _trust_roots(trusted)
    except Exception as exc:
        return VerifyResult.failure(f"cannot load the trust certificate: {exc}")
    try:
        reader = PdfFileReader(io.BytesIO(pdf), strict=False)
        embedded = reader.embedded_signatures
    except Exception as exc:
        return VerifyResult.failure(f"not a readable PDF: {exc}")
    if not embedded:
        return VerifyResult.failure("the PDF has no signature")
    try:
        context = ValidationContext(trust_roots=roots, allow_fetching=False)
        status = validate_pdf_signature(embedded[0], context)
    except Exception as exc:
        return VerifyResult.failure(f"the signature cannot be validated: {exc}",
                                    len(embedded))
    total = status.coverage == SignatureCoverageLevel.ENTIRE_FILE and len(embedded) == 1
    level = status.modification_level
    modified = not total or (level is not None and level != ModificationLevel.NONE)
    try:
        signer = status.signing_cert.subject.human_friendly
    except Exception:  # pragma: no cover - a certificate without a readable subject
        signer = ""
    meta = _protocol_keywords(reader)
    return VerifyResult(
        intact=bool(status.intact),
        valid=bool(status.valid),
        trusted=bool(status.trusted),
        total_document=total,
        modified=modified,
        signer=signer,
        signed_at=status.signer_reported_dt,
        error=None,
        signature_count=len(embedded),
        public_id=meta.get("id"),
        version=int(meta["version"]) if "version" in meta else None,
        fingerprint=meta.get("sha"),
    )
