"""Protocols verify themselves: the page behind the QR code and its API check the stored file
(SHA-256 and PAdES signature against the trusted certificates) before saying "authentic"; a
forged import is an unverified copy; a rotated key leaves older protocols verifiable."""

from __future__ import annotations

import base64
import copy
import io
from pathlib import Path

import pytest
from cryptography import x509
from django.core.management import call_command
from django.core.management.base import CommandError
from rest_framework.test import APIClient

from scoring.models import Protocol
from scoring.protocols import (
    ensure_signing_identity,
    get_signer,
    protocol_data_from_dict,
    render_protocol,
    sha256_hex,
    verify_pdf,
)
from scoring.signoff.identity import certificate_path, installation_signer, trusted_certificates
from tests.protocols.conftest import pdfsig
from tests.tournaments.test_transfer_archive import wipe
from tournaments.transfer.archive import export_tournament, import_tournament

pytestmark = pytest.mark.django_db


def page(client, protocol: Protocol, **headers) -> str:
    response = client.get(f"/v/{protocol.public_id}/", **headers)
    assert response.status_code == 200
    return response.content.decode()


def api_verification(user, protocol: Protocol) -> dict:
    client = APIClient()
    client.force_authenticate(user)
    response = client.get(f"/api/v1/protocols/{protocol.public_id}/verification/")
    assert response.status_code == 200, response.content
    return response.json()


def assert_authentic(client, organizer, protocol: Protocol) -> None:
    text = page(client, protocol)
    assert "Authentic protocol" in text and "Unverified copy" not in text
    found = api_verification(organizer, protocol)
    assert (found["state"], found["authentic"], found["problem"]) == ("authentic", True, "")


def assert_unverified(client, organizer, protocol: Protocol, problem: str, says: str) -> None:
    text = page(client, protocol)
    assert "Unverified copy" in text and says in text
    assert "Authentic protocol" not in text and "This is the current version." not in text
    found = api_verification(organizer, protocol)
    assert (found["state"], found["authentic"], found["problem"]) == ("unverified", False,
                                                                      problem)
    assert says in found["reason"]


# -- forged imports --------------------------------------------------------------------------


def _forged_file(signed_protocol: Protocol, pdf: bytes) -> dict:
    """The tournament's file with its protocol's PDF replaced by ``pdf`` (SHA-256 to match),
    under a new public id and short code (so that this installation takes it)."""
    doc = export_tournament(signed_protocol.party.round.tournament)
    record = next(r for r in doc["protocols"] if r["public_id"] == signed_protocol.public_id)
    record.update(public_id="forged" + signed_protocol.public_id[6:], short_code="FAKE-0001",
                  sha256=sha256_hex(pdf))
    record["file"].update(base64=base64.b64encode(pdf).decode(), sha256=sha256_hex(pdf))
    return doc


@pytest.mark.parametrize("forgery", ["unsigned", "foreign key"])
def test_forged_import_is_an_unverified_copy_on_the_page_and_in_the_api(
        client, signed, organizer, tmp_path, forgery):
    original, _pdf = signed
    lookalike = render_protocol(protocol_data_from_dict(original.data))  # same content
    if forgery == "foreign key":
        lookalike = get_signer(*ensure_signing_identity(tmp_path / "forger")).sign(lookalike)
    problem, says = {
        "unsigned": ("unsigned", "carries no signature that can be checked"),
        "foreign key": ("untrusted", "not signed by a certificate this installation trusts"),
    }[forgery]

    imported = import_tournament(_forged_file(original, lookalike), actor=organizer)

    forged = Protocol.objects.get(party__round__tournament=imported, short_code="FAKE-0001")
    assert forged.status == "signed" and forged.unverified == problem
    assert_unverified(client, organizer, forged, problem, says)
    listed = APIClient()
    listed.force_authenticate(organizer)
    shown = listed.get(f"/api/v1/protocols/{forged.public_id}/").json()
    assert shown["unverified"] == problem
    assert "Непроверенная копия" in page(client, forged, HTTP_ACCEPT_LANGUAGE="ru")
    # the genuine protocol it copies is untouched
    assert_authentic(client, organizer, original)


def test_import_of_a_genuine_file_keeps_it_signed(client, signed, organizer):
    original, pdf = signed
    doc = export_tournament(original.party.round.tournament)
    record = next(r for r in doc["protocols"] if r["public_id"] == original.public_id)
    record["unverified"] = "untrusted"  # what another installation thought does not count
    public_id = original.public_id
    # the genuine file under another protocol's id: the file names the original, so no
    other = copy.deepcopy(doc)
    next(r for r in other["protocols"] if r["public_id"] == public_id).update(
        public_id="copy" + public_id[4:], short_code="COPY-0001")
    moved = import_tournament(other, actor=organizer)
    moved_copy = Protocol.objects.get(party__round__tournament=moved, short_code="COPY-0001")
    assert_unverified(client, organizer, moved_copy, "other", "belongs to another protocol")

    wipe(original.party.round.tournament)
    imported = import_tournament(doc, actor=organizer)

    kept = Protocol.objects.get(party__round__tournament=imported, public_id=public_id)
    assert kept.unverified == "" and kept.file.read() == pdf
    assert_authentic(client, organizer, kept)


# -- the stored file is checked ---------------------------------------------------------------


def test_tampered_stored_file_shows_unverified(client, signed, organizer):
    protocol, pdf = signed
    assert_authentic(client, organizer, protocol)
    stored = Path(protocol.file.path)
    at = pdf.index(b"/Keywords") + 3
    stored.write_bytes(pdf[:at] + bytes([pdf[at] ^ 0x20]) + pdf[at + 1:])
    assert_unverified(client, organizer, protocol, "altered",
                      "does not match the SHA-256 recorded when it was signed")


def test_tampered_file_with_its_hash_rewritten_shows_unverified(client, signed, organizer):
    protocol, pdf = signed
    at = pdf.index(b"/Keywords") + 3
    tampered = pdf[:at] + bytes([pdf[at] ^ 0x20]) + pdf[at + 1:]
    Path(protocol.file.path).write_bytes(tampered)
    Protocol.objects.filter(pk=protocol.pk).update(sha256=sha256_hex(tampered))
    protocol.refresh_from_db()
    assert_unverified(client, organizer, protocol, "modified", "changed after it was signed")


def test_missing_stored_file_shows_unverified(client, signed, organizer):
    protocol, _pdf = signed
    Path(protocol.file.path).unlink()
    assert_unverified(client, organizer, protocol, "missing", "The signed file is missing.")


def test_the_verification_page_validates_a_file_once(client, signed, monkeypatch):
    """The check costs a validation once per file (then its hash): a page shown again, by
    anyone, reads the stored result; the speed itself is the benchmark's
    (``protocol_verify_ms``), not a timed test's."""
    from scoring.signoff import checks as protocol_checks

    protocol, _pdf = signed
    protocol_checks.forget_validations()
    validations = []
    real = protocol_checks.verify_pdf

    def counted(pdf, trusted):
        validations.append(len(pdf))
        return real(pdf, trusted)

    monkeypatch.setattr(protocol_checks, "verify_pdf", counted)
    url = f"/v/{protocol.public_id}/"
    pages = [client.get(url) for _ in range(4)]
    assert [page.status_code for page in pages] == [200] * 4
    assert len(validations) == 1
    assert all("Authentic protocol" in page.content.decode() for page in pages)


# -- rotation ----------------------------------------------------------------------------------


def test_protocol_signed_before_a_key_rotation_still_verifies_after_it(
        client, signed, organizer, protocol_env, tmp_path):
    protocol, pdf = signed
    old_cert = certificate_path().read_bytes()
    out = io.StringIO()
    call_command("signing_identity", "rotate", stdout=out)
    assert "retired:" in out.getvalue() and "trusted:     2 certificate(s)" in out.getvalue()

    new_cert = certificate_path()
    assert new_cert.read_bytes() != old_cert
    retired = [p for p in trusted_certificates() if p != new_cert]
    assert [p.read_bytes() for p in retired] == [old_cert]
    assert_authentic(client, organizer, protocol)  # signed by the old key, still authentic
    assert verify_pdf(pdf, trusted_certificates()).ok

    # new protocols are signed with the new key, and both validators accept its certificate
    fresh = installation_signer().sign(render_protocol(protocol_data_from_dict(protocol.data)))
    assert verify_pdf(fresh, new_cert).ok and not verify_pdf(fresh, retired).ok
    assert "Signature Validation: Signature is Valid." in pdfsig(fresh, tmp_path)
    extensions = x509.load_pem_x509_certificate(new_cert.read_bytes()).extensions
    usage = extensions.get_extension_for_class(x509.KeyUsage).value
    assert usage.content_commitment and usage.digital_signature  # non-repudiation

    # it is the kept certificate that makes the old protocol verify
    retired[0].unlink()
    assert_unverified(client, organizer, protocol, "untrusted",
                      "not signed by a certificate this installation trusts")


def test_configured_identity_trusts_extra_certificates(client, signed, organizer, settings,
                                                       tmp_path):
    protocol, _pdf = signed
    old_cert = certificate_path()
    key, cert = ensure_signing_identity(tmp_path / "hsm-export")
    settings.PROTOCOL_SIGNING_KEY, settings.PROTOCOL_SIGNING_CERT = str(key), str(cert)
    settings.PROTOCOL_SIGNING_DIR = tmp_path / "empty-signing-dir"
    assert_unverified(client, organizer, protocol, "untrusted",
                      "not signed by a certificate this installation trusts")
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "2025.pem").write_bytes(old_cert.read_bytes())
    settings.PROTOCOL_TRUSTED_CERTS = [str(tmp_path / "typo.pem"), str(kept)]  # one wrong
    assert_authentic(client, organizer, protocol)
    with pytest.raises(CommandError, match="PROTOCOL_TRUSTED_CERTS"):
        call_command("signing_identity", "rotate", stdout=io.StringIO())
