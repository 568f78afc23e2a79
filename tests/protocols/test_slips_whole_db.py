"""Slips never cut what a player needs: 32 long Cyrillic names wrap, every login and every
code prints whole (read back from the PDF with pdftotext)."""

from __future__ import annotations

import re
import subprocess

import pytest
from django.urls import reverse

from scoring.protocols.fonts import BOLD
from scoring.protocols.slips import Slip, breaks, render_slips
from tests.factories import PlayerFactory, TournamentFactory

pytestmark = pytest.mark.django_db

FIRST = ["Александра", "Константин", "Святослав", "Евфросиния", "Владимир", "Елизавета",
         "Аристарх", "Анастасия"]
MIDDLE = ["Константиновна", "Александрович", "Всеволодович", "Вячеславовна"]
LAST = ["Петропавловская-Никифорова", "Преображенский-Голенищев", "Кутузова-Смоленская",
        "Белозерский-Белосельский"]
NAMES = [f"{FIRST[i % 8]} {MIDDLE[i % 4]} {LAST[i // 8]}" for i in range(32)]


def _pdf_text(pdf: bytes, tmp_path) -> str:
    path = tmp_path / "slips.pdf"
    path.write_bytes(pdf)
    return subprocess.run(["pdftotext", "-raw", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout


def _joined(text: str) -> str:
    """The text with its wrapped lines joined: after a hyphen directly, else with a space."""
    return re.sub(r"(?<=-)\n", "", text).replace("\n", " ")


@pytest.fixture
def cup(organizer):
    tournament = TournamentFactory(name="Кубок Москвы", slug="long-names", organizer=organizer,
                                   language="ru")
    for name in NAMES:
        PlayerFactory(tournament=tournament, name=name)
    return tournament


def test_32_invitation_slips_print_every_name_and_login_whole(client, cup, organizer,
                                                              tmp_path):
    client.force_login(organizer)
    people = reverse("tournaments:people", args=[cup.slug])
    client.post(people, {"make_accounts": "1"})
    logins = dict(cup.players.values_list("name", "user__username"))
    assert len(logins) == 32 and all(logins.values())
    text = _pdf_text(client.post(people, {"invitations": "1"}).content, tmp_path)
    assert text.count("Ваш логин") == 32 and "…" not in text
    lines = text.splitlines()
    for name, login in logins.items():
        assert name in _joined(text), name
        assert login in lines, login  # a line of its own, never broken


def test_32_pin_slips_print_every_name_and_code_whole(client, cup, organizer, tmp_path):
    client.force_login(organizer)
    people = reverse("tournaments:people", args=[cup.slug])
    text = _pdf_text(client.post(people, {"pins": "missing"}).content, tmp_path)
    assert text.count("Ваш PIN-код для подписи") == 32 and "…" not in text
    joined = _joined(text)
    for name in NAMES:
        found = re.search(re.escape(name) + r" Ваш PIN-код для подписи (\d+) ", joined)
        assert found and len(found.group(1)) == 6, name


def test_a_login_too_long_for_one_line_is_broken_never_shortened(tmp_path):
    login = "konstantin.aleksandrovich.preobrazhenskiy-goleni"
    pdf = render_slips([Slip(heading="Кубок", name=NAMES[0], code_label="Ваш логин",
                             code=login, lines=["https://example.org/i/MTIz/abc-123/"],
                             qr_url="https://example.org/i/MTIz/abc-123/")])
    text = _pdf_text(pdf, tmp_path)
    after = text.split("Ваш логин\n", 1)[1]
    assert "".join(after.splitlines()[:2]) == login and "…" not in text


def test_breaks_keep_every_character():
    for text in [*NAMES, "x" * 80, "a-b-c/d " * 20]:
        lines = breaks(text, BOLD, 13, 120)
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")
