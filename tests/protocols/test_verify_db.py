"""The public verification page: by QR link, by short code, by uploading the PDF."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.party.deals import correct_deal
from scoring.party.protocol_lock import normalise_short_code

pytestmark = pytest.mark.django_db


def upload(client, pdf: bytes):
    return client.post(reverse("scoring:verify"),
                       {"pdf": SimpleUploadedFile("p.pdf", pdf, "application/pdf")})


def test_qr_link_shows_an_authentic_current_protocol(client, signed):
    protocol, _pdf = signed
    page = client.get(f"/v/{protocol.public_id}/").content.decode()
    assert "Authentic protocol" in page and "This is the current version." in page
    assert protocol.fingerprint in page and protocol.sha256 in page
    assert "Кубок Москвы" in page and "Иван Петров" in page


def test_short_code_form_finds_the_protocol(client, signed):
    protocol, _pdf = signed
    typed = protocol.short_code.lower().replace("-", " ")
    response = client.post(reverse("scoring:verify"), {"code": typed}, follow=True)
    assert response.redirect_chain[-1][0] == protocol.get_absolute_url()
    missing = client.get(reverse("scoring:verify"), {"code": "ZZZZ-ZZZZ"})
    assert "No protocol has this code." in missing.content.decode()


def test_short_codes_are_read_forgivingly():
    assert normalise_short_code(" ab1o-il2z ") == "AB10-112Z"


def test_uploaded_signed_file_is_authentic(client, signed):
    protocol, pdf = signed
    page = upload(client, pdf).content.decode()
    assert "Authentic protocol" in page and protocol.short_code in page


def test_uploaded_file_with_one_byte_changed_is_not_authentic(client, signed):
    protocol, pdf = signed
    at = pdf.index(b"/Keywords") + 3
    tampered = pdf[:at] + bytes([pdf[at] ^ 0x20]) + pdf[at + 1:]
    page = upload(client, tampered).content.decode()
    assert "Not authentic" in page and "changed after it was signed" in page


def test_uploaded_file_with_an_appended_update_is_not_authentic(client, signed):
    _protocol, pdf = signed
    page = upload(client, pdf + b"\n% appended after signing\n").content.decode()
    assert "Not authentic" in page


def test_uploaded_unsigned_file_is_not_authentic(client, signed):
    page = upload(client, b"%PDF-1.4\n%%EOF\n").content.decode()
    assert "Not authentic" in page and "no signature" in page


def test_amended_protocol_shows_old_version_as_superseded(client, signed, finished_party,
                                                          chief_user):
    old, old_pdf = signed
    deal = finished_party.deals.get(number=2)
    correct_deal(deal.pk, actor=chief_user, reason="Ошибка подсчёта", outcome="fish",
                 pips={"a1": 20, "a2": 15, "b1": 5, "b2": 8})
    new = finished_party.protocols.get(version=2)
    page = client.get(old.get_absolute_url()).content.decode()
    assert "Authentic, but superseded" in page
    assert "A newer version exists: version 2" in page and new.get_absolute_url() in page
    page = upload(client, old_pdf).content.decode()
    assert "Authentic, but superseded" in page and "A newer version exists" in page
    page = client.get(new.get_absolute_url()).content.decode()
    assert "Not signed yet" in page


def test_unknown_public_id_is_404(client, protocol_env):
    assert client.get("/v/0123456789abcdef0123456789abcdef/").status_code == 404
