"""Each rule set's own protocol and party pages (issue #7): a UDL match's games and game wins,
Kozel's accounts with memorized points, the Goat and the ratings, a column per player in the
seat games, one signature line per player in singles; sport protocols stay as they were."""

from __future__ import annotations

import dataclasses
import re

import pytest
from django.urls import reverse

from referee.services import give_fine, start_party
from scoring.models import Pair, Party, Player, Round, Table
from scoring.party.deals import record_deal
from scoring.protocols import (
    ProtocolGame,
    ProtocolSeat,
    canonical_json,
    protocol_data_from_dict,
    protocol_fingerprint,
    render_blank,
    render_protocol,
)
from scoring.protocols.sample import sample_protocol
from scoring.signoff.content import build_blank_data, build_protocol_data
from scoring.signoff.services import countersign, protocol_pdf, sign_as_player
from tournaments.setup.services import create_tournament

from ..factories import PartyFactory
from .conftest import page_count, pdf_text

pytestmark = pytest.mark.django_db

#: A UDL match Ann wins 3 : 1: two hands to 150 in game 1, Bob takes game 2, Ann games 3, 4.
UDL_HANDS = [
    {"outcome": "domino", "went_out": "a1", "pips": {"b1": 63}, "plays": [["a", 10], ["b", 5]]},
    {"outcome": "domino", "went_out": "a1", "pips": {"b1": 58}, "plays": [["a", 15]]},
    {"outcome": "domino", "went_out": "b1", "pips": {"a1": 145}, "plays": [["b", 10]]},
    {"outcome": "domino", "went_out": "a1", "pips": {"b1": 140}, "plays": [["a", 10]]},
    {"outcome": "domino", "went_out": "a1", "pips": {"b1": 140}, "plays": [["a", 10]]},
]

#: Kozel of four (Masha a1, Alex b1, Olya a2, Serg b2); Alex reaches 105 and is the Goat.
#: After the deals:   accounts a1 b1 a2 b2     memorized a1 b1 a2 b2
#:   1 Masha out            0  0  20  0                  0  5  0  12
#:   2 fish for all         0 35  45  0                  3  0  0  22
#:   3 Serg out             0 75  75  0                 11  0  0   0
#:   4 Masha out            0 105 95 15                  0  0  0   0
KOZEL_DEALS = [
    {"outcome": "domino", "went_out": "a1", "pips": {"b1": 5, "a2": 20, "b2": 12}},
    {"outcome": "fish", "pips": {"a1": 3, "b1": 30, "a2": 25, "b2": 10}},
    {"outcome": "domino", "went_out": "b2", "pips": {"a1": 8, "b1": 40, "a2": 30}},
    {"outcome": "domino", "went_out": "a1", "pips": {"b1": 30, "a2": 20, "b2": 15}},
]

#: The fingerprint of ``sample_protocol(1)`` before the games of issue #7 were added.
SPORT_SAMPLE_FINGERPRINT = "219cd6bbac53c2c8e69283d40796b18eddc5be342de45a35f4c7024de011d0ba"


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def rule_set_tournament(organizer, rule_set: str, slug: str, **fields):
    """A tournament of ``rule_set`` with its preset regulations and one table."""
    tournament = create_tournament(name=f"Турнир {rule_set}", slug=slug, organizer=organizer,
                                   rule_set=rule_set, language="en", **fields)
    Table.objects.create(tournament=tournament, number=1)
    return tournament


def started_party(tournament, pair_a, pair_b, actor) -> Party:
    """A started party of round 1 at table 1."""
    party = PartyFactory(round__tournament=tournament, round__number=1, table__number=1,
                         pair_a=pair_a, pair_b=pair_b)
    start_party(party.pk, actor=actor)
    party.refresh_from_db()
    return party


def udl_match(organizer, slug: str = "udl-open", before_last_hand=None) -> Party:
    """A UDL singles match (one-player sides) that Ann wins three games to one.

    ``before_last_hand(party)`` runs in game 4, before its only hand.
    """
    t = rule_set_tournament(organizer, "udl", slug)
    ann, bob = (Player.objects.create(tournament=t, name=name) for name in ("Ann Lee", "Bob Ray"))
    sides = [Pair(tournament=t, player1=player) for player in (ann, bob)]
    for side in sides:
        side.full_clean()
        side.save()
    party = started_party(t, *sides, organizer)
    for number, hand in enumerate(UDL_HANDS, start=1):
        if number == len(UDL_HANDS) and before_last_hand is not None:
            before_last_hand(party)
        record_deal(party.pk, actor=organizer, **hand)
    party.refresh_from_db()
    return party


@pytest.fixture
def udl_party(organizer, protocol_env):
    """A UDL singles match that Ann wins three games to one."""
    return udl_match(organizer)


@pytest.fixture
def kozel_party(organizer, protocol_env):
    """A Kozel party of four single players (an individual tournament) with Alex the Goat."""
    t = rule_set_tournament(organizer, "kozel", "kozel-cup", format="individual")
    masha, alex, olya, serg = (Player.objects.create(tournament=t, name=name)
                               for name in ("Masha", "Alex", "Olya", "Serg"))
    rnd = Round.objects.create(tournament=t, number=1, status=Round.Status.PUBLISHED)
    a = Pair.objects.create(tournament=t, player1=masha, player2=olya, formed_in_round=rnd)
    b = Pair.objects.create(tournament=t, player1=alex, player2=serg, formed_in_round=rnd)
    party = started_party(t, a, b, organizer)
    for deal in KOZEL_DEALS:
        record_deal(party.pk, actor=organizer, **deal)
    party.refresh_from_db()
    return party


# -- UDL: the match's games --------------------------------------------------------------------


def test_udl_protocol_records_each_game_and_the_game_wins(udl_party, tmp_path):
    assert udl_party.status == Party.Status.FINISHED and udl_party.winner == "a"
    data = build_protocol_data(udl_party)
    assert data.layout == "games"
    assert data.games == [ProtocolGame(1, 150, 5, "Ann Lee"), ProtocolGame(2, 0, 155, "Bob Ray"),
                          ProtocolGame(3, 150, 0, "Ann Lee"), ProtocolGame(4, 150, 0, "Ann Lee")]
    assert data.game_wins == "3 : 1"
    assert [(d.game, d.running_a, d.running_b) for d in data.deals] == [
        (1, 75, 5), (1, 150, 5), (2, 0, 155), (3, 150, 0), (4, 150, 0)]
    assert data.deals[0].plays == "A 10 · B 5"

    text = pdf_text(render_protocol(data), tmp_path)
    flat = _squash(text)
    for number, score, winner in [(1, "150 : 5", "Ann Lee"), (2, "0 : 155", "Bob Ray"),
                                  (3, "150 : 0", "Ann Lee"), (4, "150 : 0", "Ann Lee")]:
        assert f"Game {number}: {score} · Winner: {winner}" in flat
    assert "Games won 3 : 1" in flat
    assert "Winner Ann Lee" in flat
    # the first hand: 65 for the domino plus 10 in play; Bob's 5 in play; the plays listed
    assert re.search(r"^\s*1\s+Domino · A1\s+75\s+5\s+75\s+5\s+A 10 · B 5\s*$", text, re.M)
    assert page_count(render_protocol(data)) == 1


def test_udl_signature_lines_are_the_two_players_and_the_referee(udl_party, tmp_path):
    data = build_protocol_data(udl_party)
    assert [(s.role, s.name) for s in data.signatures] == [
        ("Player", "Ann Lee"), ("Player", "Bob Ray"), ("Referee", "org")]
    blank = build_blank_data(udl_party)
    # the referee is known (he started the party): the blank names him too
    assert [s.name for s in blank.signatures] == ["Ann Lee", "Bob Ray", "org"]
    flat = _squash(pdf_text(render_blank(blank), tmp_path))
    assert "Player A: Ann Lee" in flat and "Player B: Bob Ray" in flat
    assert "Pair A" not in flat


def test_udl_sign_off_by_both_players_signs_the_games(udl_party, organizer, make_user,
                                                      tmp_path):
    for player in udl_party.seat_players().values():
        player.user = make_user(f"login-{player.pk}")
        player.save(update_fields=["user"])
        sign_as_player(udl_party.pk, player_id=player.pk, actor=player.user)
    protocol = countersign(udl_party.pk, actor=organizer)
    stored = protocol_data_from_dict(protocol.data)
    assert stored.games[1] == ProtocolGame(2, 0, 155, "Bob Ray")
    assert protocol.fingerprint == protocol_fingerprint(stored)
    pdf, signed = protocol_pdf(udl_party, protocol)
    assert signed
    assert "Games won 3 : 1" in _squash(pdf_text(pdf, tmp_path))


def test_udl_fines_count_in_their_game(organizer, protocol_env, tmp_path):
    """A fine paid to the opponent (UDL: slow play) lands in the game it was given in."""

    def fine(party):
        assert Party.objects.get(pk=party.pk).game == 4
        give_fine(party.pk, side="b", category="other", seat="b1", points=20, actor=organizer)

    party = udl_match(organizer, "udl-fined", before_last_hand=fine)
    data = build_protocol_data(party)
    assert data.games[3] == ProtocolGame(4, 170, 0, "Ann Lee")
    assert data.games[:3] == build_protocol_data(udl_match(organizer, "udl-clean")).games[:3]
    flat = _squash(pdf_text(render_protocol(data), tmp_path))
    assert "Game 4: 170 : 0 · Winner: Ann Lee" in flat


# -- Kozel: accounts, memorized points, the Goat, ratings ---------------------------------------


def test_kozel_protocol_shows_accounts_memorized_goat_and_ratings(kozel_party, tmp_path):
    assert kozel_party.loser == "b1" and kozel_party.winner == "a1"
    data = build_protocol_data(kozel_party)
    assert data.layout == "kozel" and data.goat == "Alex" and data.winner == "Masha"
    assert [d.seat_running for d in data.deals][-1] == {"a1": 0, "b1": 105, "a2": 95, "b2": 15}
    assert [d.memorized for d in data.deals][:3] == [
        {"a1": 0, "b1": 5, "a2": 0, "b2": 12},
        {"a1": 3, "b1": 0, "a2": 0, "b2": 22},
        {"a1": 11, "b1": 0, "a2": 0, "b2": 0},
    ]
    assert data.deals[0].opened == {"a1": False, "b1": False, "a2": True, "b2": False}
    assert data.seats == [
        ProtocolSeat("a1", "Masha", 0, 0, 0, False, 10, goat=False, winner=True),
        ProtocolSeat("b1", "Alex", 105, 0, 0, True, -1, goat=True, winner=False),
        ProtocolSeat("a2", "Olya", 95, 0, 0, True, 1, goat=False, winner=False),
        ProtocolSeat("b2", "Serg", 15, 0, 0, True, 9, goat=False, winner=False),
    ]

    pdf = render_protocol(data)
    text = pdf_text(pdf, tmp_path)
    flat = _squash(text)
    assert "Goat Alex" in flat and "Winner Masha" in flat
    # deal 3: Masha still not open ("–") with 11 memorized; Serg went out, his memorized gone
    assert re.search(r"^\s*3\s+Domino · B2\s+8\s+–\s+11\s+40\s+75\s+0\s+30\s+75\s+0\s+0\s+–\s+0",
                     text, re.M)
    # the players' lines: points, fines, memorized, open account, rating, Goat / winner
    assert re.search(r"B1\s+Alex\s+105\s+0\s+0\s+yes\s+-1\s+Goat", text)
    assert re.search(r"A1\s+Masha\s+0\s+0\s+0\s+no\s+10\s+Winner", text)
    assert re.search(r"B2\s+Serg\s+15\s+0\s+0\s+yes\s+9", text)
    assert "Pair A" not in flat
    assert page_count(pdf) == 1


def test_kozel_is_signed_by_its_four_players(kozel_party, tmp_path):
    data = build_protocol_data(kozel_party)
    assert [s.name for s in data.signatures] == ["Masha", "Olya", "Alex", "Serg", "org"]
    blank = build_blank_data(kozel_party)
    assert [seat.name for seat in blank.seats] == ["Masha", "Alex", "Olya", "Serg"]
    pdf = render_blank(blank)
    assert page_count(pdf) == 1
    text = pdf_text(pdf, tmp_path)
    for seat, name in (("A1", "Masha"), ("B1", "Alex"), ("A2", "Olya"), ("B2", "Serg")):
        assert f"{seat} {name}" in text  # a group of columns per player on the paper sheet
        assert re.search(rf"^\s*Player\s+{name}\s*$", text, re.M)  # and a signature line
    assert "Goat" in text


def test_a_drawn_fish_for_one_shows_what_it_carries(organizer, protocol_env):
    t = rule_set_tournament(organizer, "kozel", "kozel-fish", format="individual")
    regulations = t.regulations
    regulations.fish_variant = "for_one"
    regulations.save()
    players = [Player.objects.create(tournament=t, name=n) for n in ("P1", "P2", "P3", "P4")]
    rnd = Round.objects.create(tournament=t, number=1, status=Round.Status.PUBLISHED)
    a = Pair.objects.create(tournament=t, player1=players[0], player2=players[2],
                            formed_in_round=rnd)
    b = Pair.objects.create(tournament=t, player1=players[1], player2=players[3],
                            formed_in_round=rnd)
    party = started_party(t, a, b, organizer)
    record_deal(party.pk, actor=organizer, outcome="fish",
                pips={"a1": 2, "b1": 14, "a2": 14, "b2": 5})
    data = build_protocol_data(party)
    assert data.deals[0].outcome == "Fish, equal pips · 35 points carried over"


# -- seat games: a column per player ------------------------------------------------------------


def test_draw_game_of_three_has_a_column_per_player(organizer, protocol_env, tmp_path):
    t = rule_set_tournament(organizer, "draw", "draw-three", format="individual", players=3)
    players = [Player.objects.create(tournament=t, name=n) for n in ("Ivan", "Petr", "Oleg")]
    rnd = Round.objects.create(tournament=t, number=1, status=Round.Status.PUBLISHED)
    a = Pair.objects.create(tournament=t, player1=players[0], player2=players[2],
                            formed_in_round=rnd)
    b = Pair.objects.create(tournament=t, player1=players[1], formed_in_round=rnd)
    party = started_party(t, a, b, organizer)
    record_deal(party.pk, actor=organizer, outcome="domino", went_out="b1",
                pips={"a1": 12, "a2": 9})
    data = build_protocol_data(party)
    assert data.layout == "seats"
    assert [seat.seat for seat in data.seats] == ["a1", "b1", "a2"]
    assert data.deals[0].seat_points == {"a1": 0, "b1": 21, "a2": 0}
    text = pdf_text(render_protocol(data), tmp_path)
    assert "A1 Ivan" in text and "B1 Petr" in text and "A2 Oleg" in text
    assert re.search(r"^\s*1\s+Domino · B1\s+0\s+0\s+21\s+21\s+0\s+0\s*$", text, re.M)
    assert [s.name for s in data.signatures] == ["Ivan", "Oleg", "Petr", "org"]


# -- sport domino stays as it was -------------------------------------------------------------


def test_sport_fingerprint_and_stored_snapshots_are_unchanged(finished_party):
    assert protocol_fingerprint(sample_protocol(1)) == SPORT_SAMPLE_FINGERPRINT
    data = build_protocol_data(finished_party)
    assert data.layout == "" and not data.games and not data.seats
    assert b'"layout"' not in canonical_json(data) and b'"seat_points"' not in canonical_json(data)
    # a snapshot stored before issue #7 (no new keys) reads back with the same fingerprint
    old = dataclasses.asdict(data)
    for key in ("layout", "games", "game_wins", "seats", "goat"):
        old.pop(key)
    for deal in old["deals"]:
        for key in ("game", "plays", "seat_points", "seat_running", "memorized", "opened"):
            deal.pop(key)
    assert protocol_fingerprint(protocol_data_from_dict(old)) == protocol_fingerprint(data)


# -- the party pages show the same --------------------------------------------------------------


def test_udl_party_page_shows_games_and_game_wins(client, udl_party):
    page = client.get(reverse("tournaments:party", args=[udl_party.pk])).content.decode()
    assert 'data-games="a">3<' in page and 'data-games="b">1<' in page
    assert "Player A" in page and "Pair A" not in page
    assert page.count('class="game"') == 4
    assert "Won by Bob Ray" in page and page.count("Won by Ann Lee") == 3
    assert "A 10 · B 5" in page


def test_kozel_party_page_shows_accounts_memorized_goat(client, kozel_party):
    page = client.get(reverse("tournaments:party", args=[kozel_party.pk])).content.decode()
    assert "The Goat: Alex" in page
    assert 'data-total="b1">105<' in page and 'data-total="a1">0<' in page
    assert "Memorized: 0 · account not open yet · Rating after the game: 10" in page
    row = re.search(r'<tr data-seat="b1">(.*?)</tr>', page, re.S).group(1)
    assert re.sub(r"<[^>]+>", " ", row).split() == ["B1", "Alex", "105", "0", "0", "yes", "-1",
                                                     "Goat"]


def test_public_pages_count_each_rule_set_its_own_way(client, udl_party, kozel_party):
    from tournaments.public import map_tables, player_history

    udl = udl_party.round.tournament
    assert map_tables(udl, udl_party.round)[0]["score"] == "3 : 1 in games"
    kozel = kozel_party.round.tournament
    assert map_tables(kozel, kozel_party.round)[0]["score"] == "0 / 95 : 105 / 15"
    alex = Player.objects.get(tournament=kozel, name="Alex")
    row = player_history(kozel, alex)[0]
    assert (row.seat, row.score, row.result) == ("b1", "105", "goat")
    masha = Player.objects.get(tournament=kozel, name="Masha")
    assert player_history(kozel, masha)[0].result == "won"
    page = client.get(reverse("tournaments:player", args=[udl.slug, udl_party.pair_b.player1_id]))
    assert "1 : 3 in games" in page.content.decode()
