"""Issue #32: the verification page's verdict on an uploaded file, and what a blank names.

A changed file's verdict is an alert that shows the uploaded file's SHA-256 and labels the
authentic file's as such; a blank paper protocol names the referee and the date the
tournament already knows (the referee writes them by hand only where nobody could tell).
"""

from __future__ import annotations

import datetime as dt
import html as html_lib
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.models import Round
from scoring.protocols import render_blank
from scoring.protocols.signing import sha256_hex
from scoring.signoff.content import build_blank_data
from tests.factories import TournamentRoleFactory

from .conftest import pdf_text

pytestmark = pytest.mark.django_db


def _verdict(client: Client, pdf: bytes) -> str:
    """The verification page's verdict section on an upload of ``pdf``."""
    upload = SimpleUploadedFile("protocol.pdf", pdf, "application/pdf")
    page = client.post(reverse("scoring:verify"), {"pdf": upload}).content.decode()
    at = page.index('id="verdict"')
    return page[page.rindex("<section", 0, at):page.index("</section>", at)]


def _text(markup: str) -> str:
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def test_a_changed_files_verdict_is_an_alert_with_the_uploaded_files_hash(signed):
    protocol, pdf = signed
    at = pdf.index(b"/Keywords") + 2  # inside the signed part of the file
    tampered = pdf[:at] + bytes([pdf[at] ^ 0x01]) + pdf[at + 1:]
    verdict = _verdict(Client(), tampered)
    assert 'role="alert"' in verdict and "verdict bad" in verdict
    text = _text(verdict)
    assert "Not authentic" in text
    assert f"SHA-256 of the uploaded file {sha256_hex(tampered)}" in text
    assert f"SHA-256 of the authentic file {protocol.sha256}" in text
    assert sha256_hex(tampered) != protocol.sha256


def test_a_changed_files_verdict_in_russian(signed):
    _protocol, pdf = signed
    at = pdf.index(b"/Keywords") + 2
    tampered = pdf[:at] + bytes([pdf[at] ^ 0x01]) + pdf[at + 1:]
    text = _text(_verdict(Client(HTTP_ACCEPT_LANGUAGE="ru"), tampered))
    assert "Не подлинный" in text
    assert f"SHA-256 загруженного файла {sha256_hex(tampered)}" in text
    assert "SHA-256 подлинного файла" in text


def test_the_authentic_files_verdict_shows_its_hash_once(signed):
    protocol, pdf = signed
    verdict = _verdict(Client(), pdf)
    assert 'role="status"' in verdict and "verdict ok" in verdict
    text = _text(verdict)
    assert "Authentic protocol" in text
    assert f"SHA-256 of the uploaded file {protocol.sha256}" in text
    assert text.count(protocol.sha256) == 1 and "authentic file" not in text


# -- blank protocols: the referee and the date ------------------------------------------------


@pytest.fixture
def unplayed(make_party, referee_user):
    """A party of a round not started yet (table 1), the tournament's one referee named."""
    referee_user.first_name, referee_user.last_name = "Анна", "Судья"
    referee_user.save()
    return make_party()


def test_a_blank_names_the_tables_one_referee_and_the_rounds_day(unplayed, tmp_path):
    start = dt.datetime(2026, 5, 9, 10, 0, tzinfo=dt.UTC)
    Round.objects.filter(pk=unplayed.round_id).update(scheduled_start=start)
    unplayed.round.refresh_from_db()
    data = build_blank_data(unplayed)
    assert data.referee == "Анна Судья" and data.date == "2026-05-09"
    assert data.signatures[-1].name == "Анна Судья"
    text = " ".join(pdf_text(render_blank(data), tmp_path).split())
    assert "Анна Судья" in text and "2026-05-09" in text


def test_a_blank_without_a_scheduled_start_has_the_day_of_play(unplayed):
    tournament = unplayed.round.tournament
    today = timezone.localdate()
    tournament.start_date, tournament.end_date = today - dt.timedelta(days=1), today
    tournament.save(update_fields=["start_date", "end_date"])
    assert build_blank_data(unplayed).date == today.isoformat()


def test_a_blank_names_the_referee_assigned_to_its_table(unplayed, make_user):
    other = make_user("boris", first_name="Борис", last_name="Столов")
    role = TournamentRoleFactory(tournament=unplayed.round.tournament, user=other,
                                 role="referee")
    role.tables.add(unplayed.table)
    assert build_blank_data(unplayed).referee == "Борис Столов"


def test_a_blank_leaves_the_referee_to_the_pen_when_two_could_be(unplayed, make_user):
    other = make_user("boris", first_name="Борис", last_name="Столов")
    TournamentRoleFactory(tournament=unplayed.round.tournament, user=other, role="referee")
    assert build_blank_data(unplayed).referee == ""
