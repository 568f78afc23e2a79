"""Issue #13, item 1: one Kozel rating, wherever it is shown.

A party ended by the target, by one player's timeout (the desk's own ruling), by a
disqualification and by the party's clock, for four players each for himself and for four
playing as two pairs: the referee desk (its page and its API state), the party page, the
protocol PDF read back with ``pdftotext``, and the standings all give the engine's ratings.
The clock running out is nobody's timeout: the plain (100 − points) / 10 applies.
"""

from __future__ import annotations

import itertools
import re

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from referee import services
from scoring.models import (
    Pair,
    Party,
    PartyEvent,
    Player,
    Round,
    Table,
    Tournament,
    TournamentRole,
)
from scoring.party.deals import record_deal
from scoring.protocols import render_protocol
from scoring.ranking.results import standings_table
from scoring.signoff.content import build_protocol_data
from tournaments.setup.services import create_tournament

from .conftest import pdf_text

pytestmark = pytest.mark.django_db

_slugs = itertools.count(1)
NAMES = {"a1": "Masha", "b1": "Alex", "a2": "Olya", "b2": "Serg"}
SEATS = ("a1", "b1", "a2", "b2")
#: Serg goes out; every other account opens: Masha 30, Alex 32, Olya 13, Serg 0.
FIRST = {"outcome": "domino", "went_out": "b2", "pips": {"a1": 30, "b1": 32, "a2": 13}}
#: Then Alex reaches 102: Masha 50, Alex 102, Olya 33, Serg 0 (pairs: 83 and 102).
TO_THE_TARGET = {"outcome": "domino", "went_out": "b2", "pips": {"a1": 20, "b1": 70, "a2": 20}}

EXPECTED = {
    # each for himself: (100 - points) / 10; the timeout rule: (32 - points) / 10, at least 1
    (False, "target"): {"a1": 5, "b1": 0, "a2": 7, "b2": 10},
    (False, "timeout"): {"a1": 1, "b1": 0, "a2": 2, "b2": 3},
    (False, "disqualification"): {"a1": 1, "b1": 0, "a2": 2, "b2": 3},
    (False, "time"): {"a1": 7, "b1": 7, "a2": 9, "b2": 10},
    # two pairs rated as pairs (a: Masha + Olya, b: Alex + Serg), both partners show it
    (True, "target"): {"a1": 2, "b1": 0, "a2": 2, "b2": 0},
    (True, "timeout"): {"a1": 1, "b1": 0, "a2": 1, "b2": 0},
    # a disqualified pair forfeits: 101 each for its players, the other pair (202 - 0) / 10
    (True, "disqualification"): {"a1": 20, "b1": 0, "a2": 20, "b2": 0},
    (True, "time"): {"a1": 6, "b1": 7, "a2": 6, "b2": 7},
}


def kozel_party(organizer, *, pairs: bool) -> tuple[Party, object]:
    """A started Kozel party of Masha, Alex, Olya and Serg and its referee (a clock of 40')."""
    tournament = create_tournament(
        name="Козёл", slug=f"kozel-everywhere-{next(_slugs)}", organizer=organizer,
        rule_set="kozel", language="en", format="individual",
    )
    regulations = tournament.regulations
    regulations.kozel_pairs = pairs
    regulations.party_minutes = 40
    regulations.save()
    if pairs:  # fixed pairs, ranked as pairs
        Tournament.objects.filter(pk=tournament.pk).update(format="pairs")
    players = {seat: Player.objects.create(tournament=tournament, name=name)
               for seat, name in NAMES.items()}
    rnd = Round.objects.create(tournament=tournament, number=1, status=Round.Status.PUBLISHED)
    formed = {} if pairs else {"formed_in_round": rnd}
    a = Pair.objects.create(tournament=tournament, player1=players["a1"],
                            player2=players["a2"], **formed)
    b = Pair.objects.create(tournament=tournament, player1=players["b1"],
                            player2=players["b2"], **formed)
    table = Table.objects.create(tournament=tournament, number=1)
    party = Party.objects.create(round=rnd, table=table, pair_a=a, pair_b=b)
    TournamentRole.objects.create(tournament=tournament, user=organizer, role="referee")
    services.start_party(party.pk, actor=organizer)
    return party, organizer


def end_party(party: Party, actor, how: str) -> Party:
    """End the party ``how``: by the target, Alex's timeout, his disqualification, the clock."""
    if how == "time":
        services.mark_time_expired(party.pk, actor=actor)
    record_deal(party.pk, actor=actor, **FIRST)
    if how == "target":
        record_deal(party.pk, actor=actor, **TO_THE_TARGET)
    elif how == "timeout":
        services.rule_player_timeout(party.pk, seat="b1", actor=actor)
    elif how == "disqualification":
        services.disqualify(party.pk, side="b", seat="b1", scope="party",
                            reason="Hid a tile", actor=actor)
    party = Party.objects.select_related("round__tournament__regulations").get(pk=party.pk)
    assert party.status == Party.Status.FINISHED and party.end_reason == how
    return party


def desk_page(client, party: Party) -> dict[str, int]:
    """The ratings on the referee desk's scoreboard."""
    page = client.get(reverse("referee:party", args=[party.pk])).content.decode()
    return {seat: int(value) for seat, value in
            re.findall(r'<td data-rating="(\w+)">(-?\d+)</td>', page)}


def party_page(client, party: Party) -> dict[str, int]:
    """The ratings on the public party page."""
    page = client.get(reverse("tournaments:party", args=[party.pk])).content.decode()
    found = re.findall(r'data-memorized="(\w+)">[^<]*Rating after the game: (-?\d+)', page)
    return {seat: int(value) for seat, value in found}


def protocol(party: Party, tmp_path) -> dict[str, int]:
    """The ratings on the protocol PDF, read back: the players' lines by name."""
    text = pdf_text(render_protocol(build_protocol_data(party)), tmp_path)
    ratings = {}
    for seat, name in NAMES.items():
        line = re.search(rf"^\s*{seat.upper()}\s+{name}\s+(-?\d+)\s+(-?\d+)\s+(-?\d+)\s+\w+\s+"
                         r"(-?\d+)", text, re.M)
        assert line, text
        ratings[seat] = int(line.group(4))
    return ratings


def api_state(actor, party: Party) -> dict[str, int]:
    """The ratings of the party's state in the API."""
    api = APIClient()
    api.force_authenticate(actor)
    response = api.get(f"/api/v1/parties/{party.pk}/")
    assert response.status_code == 200
    return response.json()["kozel"]["ratings"]


def standings(party: Party, pairs: bool) -> dict[str, int]:
    """Each seat's rating points in the standings (a pair's on both its seats)."""
    table = standings_table(party.round.tournament, per_player=not pairs)
    by_entrant = {entrant.pk: row.metrics["rating_points"] for row, entrant, _v in table.lines()}
    if pairs:
        return {seat: by_entrant[party.pair(seat[0]).pk] for seat in SEATS}
    players = party.seat_players()
    return {seat: by_entrant[players[seat].pk] for seat in SEATS}


@pytest.mark.parametrize("pairs", [False, True], ids=["each-for-himself", "two-pairs"])
@pytest.mark.parametrize("how", ["target", "timeout", "disqualification", "time"])
def test_every_place_shows_the_engines_kozel_ratings(client, organizer, protocol_env, tmp_path,
                                                     pairs, how):
    """(rules.md K9) Every place shows the engine's Kozel ratings."""
    party, referee = kozel_party(organizer, pairs=pairs)
    party = end_party(party, referee, how)
    expected = EXPECTED[(pairs, how)]
    client.force_login(referee)
    assert desk_page(client, party) == expected
    assert api_state(referee, party) == expected
    assert party_page(client, party) == expected
    assert protocol(party, tmp_path) == expected
    assert standings(party, pairs) == expected


def test_a_players_timeout_is_a_ruling_of_its_own_with_its_log_line(client, organizer,
                                                                    protocol_env):
    """(rules.md K10) A player's timeout is a ruling of its own with its log line."""
    party, referee = kozel_party(organizer, pairs=False)
    record_deal(party.pk, actor=referee, **FIRST)
    client.force_login(referee)
    desk = client.get(reverse("referee:party", args=[party.pk])).content.decode()
    form = re.search(r'<form [^>]*player-timeout[^>]*data-confirm="([^"]*)">(?:(?!</form>).)*?'
                     r'data-ruling="player-timeout-b1">(.*?)</button>', desk, re.S)
    assert form, desk
    label = " ".join(re.sub(r"<[^>]+>", " ", form.group(2)).split())
    assert label == "B1 Alex timed out"  # the seat's badge and the player's name
    assert "Alex timed out: the game stops now and Alex is the Goat" in form.group(1)
    assert "every other player gets at least 1" in form.group(1)

    response = client.post(reverse("referee:action", args=[party.pk, "player-timeout"]),
                           {"seat": "b1", "confirmed": "1"})
    assert response.status_code in (200, 302)
    party.refresh_from_db()
    assert (party.status, party.end_reason, party.loser) == ("finished", "timeout", "b1")
    assert party.rulings.get().kind == "timeout"
    # nothing was disqualified: the player stays in the tournament
    assert not Player.objects.get(pk=party.seat_players()["b1"].pk).disqualified
    events = client.get(reverse("referee:party", args=[party.pk])).content.decode()
    assert "Alex timed out: the game stops, the Goat is Alex" in events
    assert PartyEvent.objects.filter(party=party, kind="player_timeout").exists()
