"""Standings from the database: hand-computed tables, ties, rounds, players, cache, queries."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Deal, Pair, Party, Penalty, Player, Regulations, Round, Table
from scoring.ranking.loaders import load_party_results
from scoring.ranking.results import standings_rows, standings_table
from tests.tournaments.play import DOMINO
from tournaments.setup.services import create_tournament

pytestmark = pytest.mark.django_db


def _deals(party, points):
    """Deals scoring (a, b) points each, as the referee desk would have stored them."""
    Deal.objects.bulk_create(
        Deal(party=party, number=n, outcome="domino" if a or b else "fish",
             winner="a" if a else "b", points_a=a, points_b=b)
        for n, (a, b) in enumerate(points, start=1)
    )


def _party(rnd, a, b, *, winner="a", end_reason="target", deals=(), table=None):
    party = Party.objects.create(
        round=rnd, pair_a=a, pair_b=b, table=table, status="finished", winner=winner,
        end_reason=end_reason,
    )
    _deals(party, deals)
    return party


@pytest.fixture
def four(organizer):
    """Four pairs A–D, two finished rounds (see HAND)."""
    t = create_tournament(name="Четыре пары", slug="four", organizer=organizer)
    pairs = []
    for name in "ABCD":
        p1 = Player.objects.create(tournament=t, name=f"{name}1")
        p2 = Player.objects.create(tournament=t, name=f"{name}2")
        pairs.append(Pair.objects.create(tournament=t, name=name, player1=p1, player2=p2))
    a, b, c, d = pairs
    r1 = Round.objects.create(tournament=t, number=1, status="finished")
    r2 = Round.objects.create(tournament=t, number=2, status="finished")
    # round 1: A beats B 210 : 50, B fined 25 (deducted) → 210 : 25
    ab = _party(r1, a, b, deals=[(100, 0), (0, 50), (110, 0)])
    Penalty.objects.create(party=ab, kind="fine", category="signs", side="b", points=25,
                           mode="deduct")
    Penalty.objects.create(party=ab, kind="fine", category="signs", side="a", points=25,
                           mode="deduct", cancelled=True)
    Penalty.objects.create(party=ab, kind="warning", category="talking", side="a")
    #          C beats D 130 : 95 when the time ran out
    _party(r1, c, d, end_reason="time", deals=[(80, 0), (0, 95), (50, 0)])
    # round 2: C does not show up against A (forfeit 200 : 0); B beats D 200 : 120
    _party(r2, a, c, end_reason="forfeit", deals=[(30, 0)])  # deals of a forfeit do not count
    _party(r2, b, d, deals=[(100, 0), (0, 120), (100, 0)])
    return t, pairs


# Worked out by hand (defaults: win 2, loss 0, forfeit win 2, target 200):
#   A: W 210:25, fW 200:0  → MP 4, W 2, PF 410, PA 25, PD 385, EF 175+100=275, fines 0
#   B: L 25:210, W 200:120 → MP 2, W 1, PF 225, PA 330, PD -105, EF -175+80=-95, fines 25
#   C: W 130:95 (time), fL 0:200 → MP 2, W 1, PF 130, PA 295, PD -165, EF 35-200=-165
#   D: L 95:130, L 120:200 → MP 0, W 0, PF 215, PA 330, PD -115, EF -35-80=-115
#   Buchholz: A B2+C2=4; B A4+D0=4; C D0+A4=4; D C2+B2=4
HAND = {
    "A": dict(match_points=4, wins=2, points_for=410, points_against=25, point_difference=385,
              efectiveness=275, buchholz=4, fines=0),
    "B": dict(match_points=2, wins=1, points_for=225, points_against=330,
              point_difference=-105, efectiveness=-95, buchholz=4, fines=25),
    "C": dict(match_points=2, wins=1, points_for=130, points_against=295,
              point_difference=-165, efectiveness=-165, buchholz=4, fines=0),
    "D": dict(match_points=0, wins=0, points_for=215, points_against=330,
              point_difference=-115, efectiveness=-115, buchholz=4, fines=0),
}


def _by_name(table):
    return {entrant.name: row for row, entrant, _values in table.lines()}


def test_hand_computed_standings_from_the_database(four):
    t, _pairs = four
    table = standings_table(t)
    assert [e.name for _r, e, _v in table.lines()] == ["A", "B", "C", "D"]
    assert [r.rank for r in table.rows] == [1, 2, 3, 4]
    rows = _by_name(table)
    for name, expected in HAND.items():
        got = {k: rows[name].metrics[k] for k in expected}
        assert got == expected, name


def test_equal_entrants_share_a_rank(four):
    t, _pairs = four
    Regulations.objects.filter(tournament=t).update(standings_order=["wins"])
    t.refresh_from_db()
    rows = _by_name(standings_table(t))
    assert (rows["A"].rank, rows["B"].rank, rows["C"].rank, rows["D"].rank) == (1, 2, 2, 4)
    assert rows["B"].shared and rows["C"].shared and not rows["A"].shared


def test_regulations_points_are_used(four):
    t, _pairs = four
    Regulations.objects.filter(tournament=t).update(
        win_points=3, loss_points=1, forfeit_win_points=2, forfeit_loss_points=0
    )
    t.refresh_from_db()
    rows = _by_name(standings_table(t))
    assert rows["A"].metrics["match_points"] == 3 + 2
    assert rows["C"].metrics["match_points"] == 3 + 0
    assert rows["D"].metrics["match_points"] == 1 + 1


def test_standings_after_a_round(four):
    t, _pairs = four
    table = standings_table(t, after_round=1)
    assert [e.name for _r, e, _v in table.lines()] == ["A", "C", "D", "B"]
    assert _by_name(table)["A"].metrics["points_for"] == 210


def test_per_player_lines_follow_the_pair(four):
    t, _pairs = four
    table = standings_table(t, per_player=True)
    rows = {e.name: r for r, e, _v in table.lines()}
    assert len(rows) == 8
    for name, expected in HAND.items():
        for seat in "12":
            assert rows[f"{name}{seat}"].metrics["points_for"] == expected["points_for"]
    assert rows["A1"].rank == rows["A2"].rank == 1
    assert rows["D1"].rank == 7


def test_byes_draft_rounds_and_unfinished_parties(four):
    """(rules.md S33) Byes draft rounds and unfinished parties."""
    t, (a, b, c, d) = four
    r3 = Round.objects.create(tournament=t, number=3, status="in_progress")
    Party.objects.create(round=r3, pair_a=d, status="finished", end_reason="bye", winner="a")
    Party.objects.create(round=r3, pair_a=a, pair_b=b, status="in_progress")
    r4 = Round.objects.create(tournament=t, number=4, status="draft")
    Party.objects.create(round=r4, pair_a=c, status="finished", end_reason="bye", winner="a")
    rows = _by_name(standings_table(t))
    # D's bye: a forfeit win at the target (200 : 0), +target/2 efectiveness
    assert rows["D"].metrics["match_points"] == 2
    assert rows["D"].metrics["points_for"] == 215 + 200
    assert rows["D"].metrics["efectiveness"] == -115 + 100
    # the party in play and the draft round's bye do not count
    assert rows["A"].metrics["points_for"] == 410
    assert rows["C"].metrics["match_points"] == 2


def test_disqualification_counts_as_a_forfeit(four):
    t, (a, b, _c, _d) = four
    r3 = Round.objects.create(tournament=t, number=3, status="finished")
    _party(r3, a, b, winner="b", end_reason="disqualification", deals=[(50, 0)])
    results = [r for r in load_party_results(t, per_player=False) if r.round == 3]
    assert len(results) == 1
    r = results[0]
    assert (r.points_a, r.points_b, r.winner, r.forfeit, r.forfeited_by) == (
        0, 200, b.pk, True, a.pk,
    )


def test_cache_follows_the_results(tournament, referee_user):
    from referee.services import start_party
    from scoring.party.deals import record_deal

    ids = list(tournament.pairs.values_list("pk", flat=True))
    rnd = Round.objects.create(tournament=tournament, number=1, status="published")
    table = Table.objects.get(tournament=tournament, number=1)
    party = Party.objects.create(round=rnd, table=table, pair_a_id=ids[0], pair_b_id=ids[1])
    start_party(party.pk, actor=referee_user)
    rows = standings_rows(tournament, ids, per_player=False)
    assert all(r.metrics["points_for"] == 0 for r in rows)
    for _ in range(4):
        record_deal(party.pk, outcome="domino", **DOMINO["a"])
    with CaptureQueriesContext(connection) as first:
        rows = standings_rows(tournament, ids, per_player=False)
    assert next(r for r in rows if r.entrant == ids[0]).metrics["match_points"] == 2
    with CaptureQueriesContext(connection) as again:
        assert standings_rows(tournament, ids, per_player=False) == rows
    assert len(again) == 1 < len(first)  # only the results version is read


def _field(organizer, size, slug):
    """A tournament of ``size`` pairs that played one round, with deals and fines."""
    t = create_tournament(name=f"N{size}", slug=slug, organizer=organizer)
    players = Player.objects.bulk_create(
        Player(tournament=t, name=f"Игрок {k}") for k in range(2 * size)
    )
    pairs = Pair.objects.bulk_create(
        Pair(tournament=t, player1=players[2 * k], player2=players[2 * k + 1])
        for k in range(size)
    )
    tables = Table.objects.bulk_create(
        Table(tournament=t, number=n) for n in range(1, size // 2 + 1)
    )
    rnd = Round.objects.create(tournament=t, number=1, status="in_progress")
    for k in range(0, size, 2):
        party = _party(rnd, pairs[k], pairs[k + 1], table=tables[k // 2],
                       deals=[(100, 0), (0, 40), (100, 0)])
        Penalty.objects.create(party=party, kind="fine", category="signs", side="b",
                               points=25, mode="deduct")
    return t


def test_standings_queries_do_not_grow_with_the_field(organizer, django_assert_num_queries):
    small = _field(organizer, 4, "small")
    big = _field(organizer, 40, "big")
    small = type(small).objects.select_related("regulations").get(pk=small.pk)
    big = type(big).objects.select_related("regulations").get(pk=big.pk)
    with CaptureQueriesContext(connection) as queries:
        standings_table(small)
    with django_assert_num_queries(len(queries)):
        table = standings_table(big)
    assert len(table.rows) == 40
    assert len(queries) <= 7


@pytest.mark.parametrize("page", ["standings", "round"])
def test_public_pages_queries_do_not_grow_with_the_field(
    client, organizer, django_assert_num_queries, page
):
    small = _field(organizer, 4, "small")
    big = _field(organizer, 40, "big")
    args = {"standings": [], "round": [1]}[page]
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse(f"tournaments:{page}", args=[small.slug, *args]))
    assert response.status_code == 200
    with django_assert_num_queries(len(queries)):
        response = client.get(reverse(f"tournaments:{page}", args=[big.slug, *args]))
    assert response.status_code == 200
    assert response.content.decode().count("Игрок 39") == 1
    # The standings: the conditional GET's tournament, rounds and results version, read once
    # for the ETag and the page, and the page's own (the stored totals' first fill included:
    # deals, fines, one insert). The round page is not conditional.
    assert len(queries) <= {"standings": 9, "round": 5}[page]
