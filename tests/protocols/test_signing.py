"""PAdES signing with the installation's key, and verification by pyHanko and poppler."""

from __future__ import annotations

import asyncio
import hashlib
import io
import os
import stat

import pytest
from asn1crypto import cms
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from pyhanko.pdf_utils import generic
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign import signers
from pyhanko.sign.signers.pdf_cms import PdfCMSSignedAttributes

from scoring.protocols import (
    ProtocolSigner,
    SigningError,
    ensure_signing_identity,
    get_signer,
    protocol_fingerprint,
    render_protocol,
    sha256_hex,
    verify_pdf,
)
from scoring.protocols.sample import sample_protocol
from scoring.protocols.signing import CERT_FILENAME, DEFAULT_BYTES_RESERVED, KEY_FILENAME

from .conftest import pdfsig


@pytest.fixture(scope="module")
def protocol():
    return sample_protocol(7)


@pytest.fixture(scope="module")
def signed(signer, protocol) -> bytes:
    return signer.sign(render_protocol(protocol), reason="Signed off", location="Hall A")


# --------------------------------------------------------------------------- identity


def test_identity_is_an_ec_p256_key_and_a_self_signed_certificate(identity):
    key_path, cert_path = identity
    assert key_path.name == KEY_FILENAME and cert_path.name == CERT_FILENAME
    assert stat.S_IMODE(os.stat(key_path).st_mode) == 0o600
    key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
    assert isinstance(key, ec.EllipticCurvePrivateKey)
    assert key.curve.name == "secp256r1"
    cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
    assert cert.issuer == cert.subject
    assert cert.public_key().public_numbers() == key.public_key().public_numbers()
    usage = cert.extensions.get_extension_for_class(x509.KeyUsage).value
    assert usage.digital_signature and usage.content_commitment  # non-repudiation
    assert not usage.key_cert_sign
    with pytest.raises(x509.ExtensionNotFound):
        cert.extensions.get_extension_for_class(x509.ExtendedKeyUsage)
    assert "Domino tournaments" in cert.subject.rfc4514_string()


def test_identity_creation_is_idempotent(tmp_path):
    first = ensure_signing_identity(tmp_path, common_name="Кубок")
    key_bytes, cert_bytes = first[0].read_bytes(), first[1].read_bytes()
    second = ensure_signing_identity(tmp_path, common_name="something else")
    assert second == first
    assert first[0].read_bytes() == key_bytes and first[1].read_bytes() == cert_bytes


def test_a_key_without_certificate_gets_one_and_a_lone_certificate_is_an_error(tmp_path):
    key_path, cert_path = ensure_signing_identity(tmp_path / "a")
    key_bytes = key_path.read_bytes()
    cert_path.unlink()
    again = ensure_signing_identity(tmp_path / "a")
    assert again[0].read_bytes() == key_bytes and again[1].is_file()

    key_path, cert_path = ensure_signing_identity(tmp_path / "b")
    key_path.unlink()
    with pytest.raises(SigningError):
        ensure_signing_identity(tmp_path / "b")


def test_signer_is_cached_per_process(identity, tmp_path):
    assert get_signer(*identity) is get_signer(*identity)
    other = ensure_signing_identity(tmp_path)
    assert get_signer(*other) is not get_signer(*identity)


def test_unusable_key_is_a_signing_error(tmp_path):
    (tmp_path / "key.pem").write_text("not a key")
    (tmp_path / "cert.pem").write_text("not a cert")
    with pytest.raises(SigningError):
        ProtocolSigner(tmp_path / "key.pem", tmp_path / "cert.pem")


def test_passphrase_protected_key_signs(tmp_path, protocol):
    key_path, cert_path = ensure_signing_identity(tmp_path)
    key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
    locked = tmp_path / "locked.pem"
    locked.write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(b"s3cret")))
    signer = ProtocolSigner(locked, cert_path, key_passphrase="s3cret")
    assert verify_pdf(signer.sign(render_protocol(protocol)), cert_path).ok


# --------------------------------------------------------------------------- signing


def test_pyhanko_reports_intact_valid_trusted_and_total(signed, cert_path, protocol):
    result = verify_pdf(signed, cert_path)
    assert result.intact and result.valid and result.trusted
    assert result.total_document and not result.modified
    assert result.error is None and result.ok
    assert "Domino tournaments" in result.signer
    assert result.signed_at is not None
    assert result.signature_count == 1
    assert result.public_id == protocol.public_id
    assert result.version == protocol.version
    assert result.fingerprint == protocol_fingerprint(protocol)


def test_signature_is_pades_with_fixed_reserved_space(signed):
    reader = PdfFileReader(io.BytesIO(signed))
    (embedded,) = reader.embedded_signatures
    assert embedded.sig_object["/SubFilter"] == "/ETSI.CAdES.detached"
    assert embedded.sig_object["/Reason"] == "Signed off"
    assert embedded.sig_object["/Location"] == "Hall A"
    _, len1, start2, _ = embedded.byte_range
    assert start2 - len1 == DEFAULT_BYTES_RESERVED + 2  # hex digits plus < and >


def test_pdfsig_says_valid_and_total_document_signed(signed, tmp_path):
    out = pdfsig(signed, tmp_path)
    assert "Signature Validation: Signature is Valid." in out
    assert "Total document signed" in out
    assert "Not total document signed" not in out
    assert "ETSI.CAdES.detached" in out


def test_one_changed_byte_fails(signed, cert_path, tmp_path):
    marker = b"domino-tournaments / reportlab"  # the /Producer, inside the signed range
    at = signed.index(marker)
    tampered = signed[:at] + b"D" + signed[at + 1:]
    assert len(tampered) == len(signed)
    result = verify_pdf(tampered, cert_path)
    assert not result.intact
    assert not result.ok
    assert "Signature is Valid." not in pdfsig(tampered, tmp_path)


def test_changed_byte_in_page_content_fails(signed, cert_path):
    reader = PdfFileReader(io.BytesIO(signed))
    _, len1, _, _ = reader.embedded_signatures[0].byte_range
    at = len1 // 2  # somewhere in the middle of the first signed range (the content)
    tampered = signed[:at] + bytes([signed[at] ^ 0x01]) + signed[at + 1:]
    assert not verify_pdf(tampered, cert_path).ok


def test_update_appended_after_signing_is_detected(signed, cert_path, tmp_path):
    writer = IncrementalPdfFileWriter(io.BytesIO(signed))
    page = writer.root["/Pages"]["/Kids"][0].get_object()
    page["/Rotate"] = generic.NumberObject(90)
    writer.update_container(page)
    buffer = io.BytesIO()
    writer.write(buffer)
    amended = buffer.getvalue()
    assert amended.startswith(signed)

    result = verify_pdf(amended, cert_path)
    assert result.intact and result.valid  # the signed revision itself is untouched ...
    assert not result.total_document  # ... but it no longer covers the file
    assert result.modified
    assert not result.ok
    out = pdfsig(amended, tmp_path)
    # poppler still calls the signature valid; only the coverage line gives it away
    assert "Not total document signed" in out


def test_garbage_appended_after_signing_is_detected(signed, cert_path):
    result = verify_pdf(signed + b"\n% appended\n", cert_path)
    assert not result.total_document
    assert not result.ok


def test_signature_by_another_key_is_not_trusted(tmp_path, protocol, cert_path):
    stranger = ProtocolSigner(*ensure_signing_identity(tmp_path, "Domino tournaments"))
    result = verify_pdf(stranger.sign(render_protocol(protocol)), cert_path)
    assert result.intact and result.valid
    assert not result.trusted
    assert not result.ok


@pytest.mark.parametrize("blob", [b"", b"not a pdf at all", b"%PDF-1.4\n%%EOF\n",
                                  b"%PDF-1.7\n" + os.urandom(2000)])
def test_garbage_input_never_raises(blob, cert_path):
    result = verify_pdf(blob, cert_path)
    assert not result.ok
    assert result.error


def test_unsigned_pdf_is_reported(cert_path, protocol):
    result = verify_pdf(render_protocol(protocol), cert_path)
    assert not result.ok
    assert result.error == "the PDF has no signature"


def test_missing_trust_certificate_is_reported(signed, tmp_path):
    result = verify_pdf(signed, tmp_path / "nope.pem")
    assert not result.ok and "trust certificate" in result.error


def test_sha256_hex():
    assert sha256_hex(b"abc") == hashlib.sha256(b"abc").hexdigest()


def test_fast_signed_attributes_equal_pyhankos_own(identity):
    """The pre-encoded PAdES attributes must stay byte-identical to pyHanko's."""
    fast = ProtocolSigner(*identity)._signer
    plain = signers.SimpleSigner.load(str(identity[0]), str(identity[1]))
    digest = hashlib.sha256(b"document").digest()

    async def both() -> tuple[cms.CMSAttributes, cms.CMSAttributes]:
        settings = PdfCMSSignedAttributes()
        return (await fast.signed_attrs(digest, "sha256", attr_settings=settings,
                                        use_pades=True),
                await plain.signed_attrs(digest, "sha256", attr_settings=settings,
                                         use_pades=True))

    mine, theirs = asyncio.run(both())
    assert mine.dump() == theirs.dump()
    assert [a["type"].native for a in mine] == ["content_type", "message_digest",
                                                 "signing_certificate_v2"]


def test_signing_does_not_change_the_rendered_bytes(signer, protocol):
    pdf = render_protocol(protocol, invariant=True)
    signed = signer.sign(pdf)
    assert signed.startswith(pdf)  # an incremental update: the original is kept as is


def test_signed_file_certificate_matches_installation(signed, cert_path):
    reader = PdfFileReader(io.BytesIO(signed))
    embedded = reader.embedded_signatures[0]
    cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
    assert embedded.signer_cert.dump() == cert.public_bytes(serialization.Encoding.DER)
    assert cert.signature_hash_algorithm.name == hashes.SHA256.name


def test_signature_too_big_for_the_reserved_space_is_signed_anyway(identity, protocol):
    small = ProtocolSigner(*identity, bytes_reserved=512)
    signed = small.sign(render_protocol(protocol))
    assert verify_pdf(signed, identity[1]).ok
