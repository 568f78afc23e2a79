"""Issue #31: a game owns its layout, proven by a toy rule set played through the whole site.

The toy game (``tests/scoring/toy_game.py``) is registered with a layout of its own
(``ToyLayout``, key ``toy``) and its party page partials (``tests/scoring/toy_templates/``),
and nothing else: an organizer creates a tournament of it, the draw seats three players at a
table, the referee starts the party and enters its deals on the desk's API, and the party
page, the protocol PDF, the standings and the CSV exports show each player's own column.
"""

from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.models import Party, TournamentRole
from scoring.ranking.results import standings_table
from scoring.rules import RULE_SETS, get_rule_set, register
from tests.scoring.toy_game import TOY, ToyGame, ToyLayout
from tournaments.registration.services import register_player
from tournaments.rounds.draw_services import generate_draw
from tournaments.rounds.services import create_round, publish_round
from tournaments.setup.services import create_tournament

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).resolve().parent / "toy_templates"
NAMES = ("Ann Toy", "Bob Toy", "Cid Toy")


@pytest.fixture
def toy(settings):
    """The toy game registered, its templates found; both undone after the test."""
    assert TOY not in RULE_SETS
    register(ToyGame())
    engines = [{**engine, "DIRS": [*engine.get("DIRS", []), TEMPLATES]}
               for engine in settings.TEMPLATES]
    settings.TEMPLATES = engines
    yield get_rule_set(TOY)
    del RULE_SETS[TOY]


def _pdf_text(pdf: bytes, tmp_path: Path) -> str:
    """The text of a PDF, read back with poppler's pdftotext."""
    tool = shutil.which("pdftotext")
    if tool is None:
        pytest.fail("pdftotext not found: install poppler-utils")
    source = tmp_path / "protocol.pdf"
    source.write_bytes(pdf)
    return subprocess.run([tool, "-enc", "UTF-8", "-layout", str(source), "-"], check=True,
                          capture_output=True, text=True).stdout


def _csv(client, slug: str, what: str) -> list[list[str]]:
    """An export downloaded as the organizer does (in English), as rows of cells."""
    response = client.get(reverse("tournaments:export_download", args=[slug, what, "csv"]),
                          {"lang": "en"})
    assert response.status_code == 200, response.content[:300]
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


def test_toy_game_is_played_through_desk_protocol_standings_and_export(
        toy, make_user, client, tmp_path):
    assert isinstance(toy.layout_for(toy.config()), ToyLayout)
    organizer = make_user(organizer=True)
    tournament = create_tournament(name="Toy cup", slug="toy-cup", organizer=organizer,
                                   rule_set=TOY, format="individual")
    assert tournament.engine is toy
    players = {name: register_player(tournament, name=name) for name in NAMES}
    tournament.tables.create(number=1)

    # the draw seats the three players at the table, each for himself
    rnd = create_round(tournament.pk, actor=organizer)
    generate_draw(rnd.pk, seed=1, actor=organizer)
    publish_round(rnd.pk, actor=organizer)
    party = Party.objects.get(round=rnd)
    seats = {seat: player.name for seat, player in party.seat_players().items()}
    assert sorted(seats) == ["a1", "a2", "b1"] and sorted(seats.values()) == sorted(NAMES)

    # the referee desk: start the party, enter the deals
    referee = make_user()
    TournamentRole.objects.create(tournament=tournament, user=referee, role="referee")
    api = APIClient()
    api.force_authenticate(referee)
    url = f"/api/v1/parties/{party.pk}/"
    assert api.post(url + "start/", {}, format="json").status_code == 200
    deals = [
        {"outcome": "domino", "seat": "a2", "pips": {"a1": 12, "b1": 7}},
        {"outcome": "fish", "pips": {"a1": 4, "b1": 9, "a2": 11}},
        {"outcome": "domino", "seat": "a2", "pips": {"a1": 3, "b1": 8}},
        {"outcome": "domino", "seat": "a2", "pips": {"a1": 6, "b1": 2}},
    ]
    for facts in deals:
        response = api.post(url + "deal/", facts, format="json")
        assert response.status_code == 201, response.json()
    state = api.get(url).json()
    assert state["totals"]["points"] == {"a1": 5, "b1": 0, "a2": 30}
    party.refresh_from_db()
    assert (party.status, party.winner) == (Party.Status.FINISHED, "a2")

    # the party page: the toy's own partials with a column per player
    client.force_login(organizer)
    page = client.get(reverse("tournaments:party", args=[party.pk])).content.decode()
    assert 'id="toy-scoreboard"' in page and 'id="toy-deals"' in page
    assert 'id="toy-rules"' in page and "target 30" in page
    assert '<td>10 / 30</td>' in page  # a2's fourth deal and his total after it

    # the protocol PDF: a column per player, named, with his points
    download = client.get(reverse("scoring:protocol_download", args=[party.pk]))
    assert download["Content-Type"] == "application/pdf"
    pdf = b"".join(download.streaming_content if download.streaming else [download.content])
    text = _pdf_text(pdf, tmp_path)
    columns = r"\s+".join(f"{seat.upper()} {seats[seat]}" for seat in ("a1", "b1", "a2"))
    assert re.search(columns, text), text  # the deals' heading: a column per player
    assert re.search(r"\n\s*4\s+\S+ · A2\s+0\s+5\s+0\s+0\s+10\s+30\n", text), text

    # the standings: each player for himself, the winner first, then the fish's 5
    table = standings_table(tournament)
    assert table.per_player
    order = [table.entrants[row.entrant].name for row in table.rows]
    assert order[:2] == [seats["a2"], seats["a1"]]

    # the CSV exports: the toy's columns, a column per player
    results = _csv(client, tournament.slug, "results")
    assert results[0][4:7] == ["Points A1", "Points B1", "Points A2"]
    assert results[1][4:8] == ["5", "0", "30", seats["a2"]]
    deal_rows = _csv(client, tournament.slug, "deals")
    assert deal_rows[0][4:] == ["Deal", "How it ended", "Winner", "Went out",
                                "Points A1", "Total A1", "Points B1", "Total B1",
                                "Points A2", "Total A2"]
    assert [row[4] for row in deal_rows[1:]] == ["1", "2", "3", "4"]
    assert deal_rows[-1][8:] == ["0", "5", "0", "0", "10", "30"]
    assert players  # registered through the service, found again by the draw


def test_toy_game_is_gone_after_its_test():
    assert TOY not in RULE_SETS
