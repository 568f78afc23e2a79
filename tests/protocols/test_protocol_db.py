"""A real party's protocol: its content as text, the PAdES signature, tampering, versions."""

from __future__ import annotations

import io
import re

import pytest
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.validation import validate_pdf_signature
from pyhanko.sign.validation.status import SignatureCoverageLevel
from pyhanko_certvalidator import ValidationContext

from scoring.models import Protocol
from scoring.party.deals import correct_deal
from scoring.protocols import missing_glyphs, protocol_fingerprint, verify_pdf
from scoring.signoff.content import build_protocol_data, party_players
from scoring.signoff.identity import certificate_path
from scoring.signoff.services import protocol_pdf
from tests.protocols.conftest import DEALS, FINE, pdf_text, pdfsig, sign_off

pytestmark = pytest.mark.django_db


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_text_has_cyrillic_names_every_deal_and_the_totals(signed, finished_party, tmp_path):
    """(rules.md S11) Text has Cyrillic names every deal and the totals."""
    protocol, pdf = signed
    text = pdf_text(pdf, tmp_path)
    flat = _squash(text)
    for _seat, player in party_players(finished_party):
        assert player.name in flat
        assert not missing_glyphs(player.name)
    assert "Кубок Москвы" in flat and "Протокол партии" in flat
    deal_lines = [line.split() for line in text.splitlines() if re.match(r"\s+\d+\s+\D", line)]
    running_a = running_b = 0
    expected = []
    for number, (_kwargs, a, b) in enumerate(DEALS, start=1):
        running_a += a
        running_b += b
        expected.append([str(number), str(a), str(b), str(running_a), str(running_b)])
    got = [[row[0], *[cell for cell in row[1:] if cell.isdigit()][:4]] for row in deal_lines]
    assert got[: len(DEALS)] == expected
    total_a, total_b = running_a - FINE, running_b
    assert f"{total_a} : {total_b}" in flat  # the result, fines deducted
    assert "2 : 0" in flat  # match points from the regulations
    assert "Предупреждение" in flat and f"-{FINE}" in flat  # the warning and the fine
    assert "Набран лимит очков" in flat or "Target reached" in flat
    assert protocol.fingerprint in flat and protocol.short_code in flat
    assert f"https://domino.example.org/v/{protocol.public_id}/" in flat


def test_stored_record_matches_the_file(signed):
    protocol, pdf = signed
    assert protocol.status == Protocol.Status.SIGNED and protocol.version == 1
    from scoring.protocols import protocol_data_from_dict, sha256_hex

    assert protocol.sha256 == sha256_hex(pdf)
    assert protocol.fingerprint == protocol_fingerprint(protocol_data_from_dict(protocol.data))
    assert protocol.signatures.count() == 5


def test_pyhanko_reports_intact_and_valid_against_the_installation_certificate(signed):
    _protocol, pdf = signed
    from pyhanko.sign.general import load_cert_from_pemder

    root = load_cert_from_pemder(str(certificate_path()))
    reader = PdfFileReader(io.BytesIO(pdf))
    status = validate_pdf_signature(
        reader.embedded_signatures[0],
        ValidationContext(trust_roots=[root], allow_fetching=False),
    )
    assert status.intact and status.valid and status.trusted
    assert status.coverage == SignatureCoverageLevel.ENTIRE_FILE
    result = verify_pdf(pdf, certificate_path())
    assert result.ok and result.public_id == _protocol.public_id and result.version == 1
    assert result.fingerprint == _protocol.fingerprint


def test_pdfsig_says_valid_and_total_document(signed, tmp_path):
    _protocol, pdf = signed
    out = pdfsig(pdf, tmp_path)
    assert "Signature is Valid" in out and "Total document signed" in out


def test_one_byte_changed_fails(signed):
    _protocol, pdf = signed
    text = b"/Keywords"
    at = pdf.index(text) + 2  # inside the signed part of the file
    tampered = pdf[:at] + bytes([pdf[at] ^ 0x01]) + pdf[at + 1:]
    result = verify_pdf(tampered, certificate_path())
    assert not result.ok and not result.intact


def test_another_key_is_not_trusted(signed, tmp_path):
    _protocol, pdf = signed
    from scoring.protocols import ensure_signing_identity

    _key, other_cert = ensure_signing_identity(tmp_path / "other")
    assert not verify_pdf(pdf, other_cert).ok


def test_draft_before_sign_off_is_not_signed(finished_party, tmp_path):
    pdf, signed_flag = protocol_pdf(finished_party)
    assert not signed_flag
    flat = _squash(pdf_text(pdf, tmp_path))
    assert "черновик" in flat and "Иван Петров" in flat
    assert not verify_pdf(pdf, certificate_path()).ok


def test_amendment_by_the_chief_opens_version_2_and_keeps_version_1_verifiable(
    signed, finished_party, chief_user, player_users, referee_user, client, tmp_path
):
    old, old_pdf = signed
    deal = finished_party.deals.get(number=2)
    correct_deal(deal.pk, actor=chief_user, reason="Ошибка в подсчёте", outcome="fish",
                 pips={"a1": 20, "a2": 15, "b1": 5, "b2": 8})
    old.refresh_from_db()
    assert old.status == Protocol.Status.SUPERSEDED
    new = finished_party.protocols.get(version=2)
    assert new.status == Protocol.Status.AWAITING and new.reason == "Ошибка в подсчёте"
    assert verify_pdf(old_pdf, certificate_path()).ok  # the old file stays authentic
    page = client.get(old.get_absolute_url()).content.decode()
    assert "superseded" in page.lower() or "заменён" in page.lower()
    assert new.get_absolute_url() in page
    v2 = sign_off(finished_party, player_users, referee_user)
    assert v2.version == 2 and v2.status == Protocol.Status.SIGNED
    assert "48" in _squash(pdf_text(v2.file.read(), tmp_path))
    assert "Superseded" in client.get(old.get_absolute_url()).content.decode()


def test_fingerprint_changes_with_the_data(finished_party):
    protocol = finished_party.protocols.get()
    data = build_protocol_data(finished_party, protocol)
    assert protocol_fingerprint(data) == protocol_fingerprint(
        build_protocol_data(finished_party, protocol))
    deal = finished_party.deals.get(number=1)
    deal.points_a = 61
    deal.save()
    assert protocol_fingerprint(build_protocol_data(finished_party, protocol)) != (
        protocol_fingerprint(data))
