"""Standings of the games of RULES.md sections 2 and 3: UDL matches, Kozel ratings, singles.

The plain engine first (hand-computed tables), then the same through the database: sides of
one player, a Draw game won by a seat, a Kozel bye, individual events ranked by pairs.
"""

from __future__ import annotations

import pytest

from referee.services import disqualify, forfeit_party
from scoring.models import Pair, Party, Round
from scoring.party.deals import record_deal
from scoring.ranking.loaders import load_party_results, own_scores
from scoring.ranking.results import standings_config, standings_table
from scoring.rules import KozelTotals, RulesConfig
from scoring.standings import (
    DEFAULT_ORDER,
    OwnScore,
    PartyResult,
    StandingsConfig,
    compute_standings,
    default_order,
)
from tests.scoring.test_worked_examples_services import kozel_party, standings
from tournaments.registration.services import register_player
from tournaments.setup.services import create_tournament

R = PartyResult
UDL = StandingsConfig(order=default_order("udl"), target=150)
KOZEL = StandingsConfig(order=default_order("kozel"), target=101)


def _ranked(rows):
    """(entrant, rank) of each row, in order."""
    return [(row.entrant, row.rank) for row in rows]


# -- the plain engine --------------------------------------------------------------------------


def test_udl_ranks_match_wins_then_game_wins_difference_then_points():
    results = [
        R(1, 1, 2, 450, 300, winner=1, games_a=3, games_b=2),
        R(1, 3, 4, 450, 10, winner=3, games_a=3, games_b=0),
        R(2, 1, 4, 300, 460, winner=4, games_a=2, games_b=3),
        R(2, 3, 2, 0, 200, winner=2, forfeit=True, forfeited_by=3, games_a=0, games_b=3),
    ]
    rows = compute_standings([1, 2, 3, 4], results, UDL)
    by = {row.entrant: row.metrics for row in rows}
    # every player won one match: game wins difference 1: +1 -1 = 0; 2: -1 +3 = 2;
    # 3: +3 -3 = 0; 4: -3 +1 = -2; 1 and 3 then by points (750 against 450)
    assert {e: by[e]["game_wins"] for e in by} == {1: 0, 2: 2, 3: 0, 4: -2}
    assert {e: by[e]["match_points"] for e in by} == {1: 2, 2: 2, 3: 2, 4: 2}
    assert _ranked(rows) == [(2, 1), (1, 2), (3, 3), (4, 4)]


def test_kozel_ranks_ratings_then_fewer_goats_then_fewer_points():
    def game(number, points, goat, rating):
        own = {p: OwnScore(points[p], rating[p], goat == p) for p in points}
        return R(number, (1, 2), (3, 4), 0, 0, winner=None, own=own, solo=True)

    results = [
        game(1, {1: 25, 2: 101, 3: 15, 4: 20}, 2, {1: 8, 2: 0, 3: 9, 4: 8}),
        game(2, {1: 104, 2: 10, 3: 40, 4: 30}, 1, {1: 0, 2: 9, 3: 6, 4: 7}),
    ]
    rows = compute_standings([1, 2, 3, 4], results, KOZEL)
    by = {row.entrant: row.metrics for row in rows}
    assert {e: by[e]["rating_points"] for e in by} == {1: 8, 2: 9, 3: 15, 4: 15}
    assert {e: by[e]["match_points"] for e in by} == {1: 8, 2: 9, 3: 15, 4: 15}
    assert {e: by[e]["goats"] for e in by} == {1: 1, 2: 1, 3: 0, 4: 0}
    assert {e: by[e]["points_taken"] for e in by} == {1: 129, 2: 111, 3: 55, 4: 50}
    assert {e: by[e]["wins"] for e in by} == {1: 1, 2: 1, 3: 2, 4: 2}
    # 3 and 4 share 15 rating points and no Goat: 4 took fewer points
    assert _ranked(rows) == [(4, 1), (3, 2), (2, 3), (1, 4)]
    # every other player at the table is an opponent (the seat groups are not teams)
    assert by[1]["buchholz"] == 9 + 15 + 15 + 9 + 15 + 15


def test_kozel_goats_break_a_tie_of_ratings():
    own = {
        1: OwnScore(50, 5),
        2: OwnScore(50, 5, goat=True),
        3: OwnScore(0, 10),
        4: OwnScore(0, 10),
    }
    rows = compute_standings([2, 1], [R(1, (1, 2), (3, 4), 0, 0, None, own=own, solo=True)], KOZEL)
    assert _ranked(rows) == [(1, 1), (2, 2)]


def test_no_entrants_no_rows():
    assert compute_standings([], []) == []


def test_rule_set_default_orders():
    assert default_order("sport") == DEFAULT_ORDER
    assert default_order("latin") == DEFAULT_ORDER
    assert default_order("udl") == ("match_points", "game_wins", "points_for")
    assert default_order("kozel") == ("rating_points", "goats", "points_taken")
    for code in ("udl", "allfives", "kozel"):
        StandingsConfig(order=default_order(code))  # every key is a known metric


def _kozel_totals(points, fines=None):
    """Kozel totals with these points (and fines) per seat."""
    fines = fines or dict.fromkeys(points, 0)
    return KozelTotals(points=points, deal_points=points, fine_points=fines)


SEATS = {"a1": 11, "b1": 12, "a2": 13, "b2": 14}


def test_own_scores_rate_every_player_and_mark_the_goat():
    totals = _kozel_totals({"a1": 25, "b1": 101, "a2": 15, "b2": 20}, {"a1": 5, "b1": 0, "a2": 0,
                                                                      "b2": 0})
    scores = own_scores(RulesConfig(), totals, SEATS, end_reason="target", loser="b1")
    assert scores == {
        11: OwnScore(25, 8, False, 5),
        12: OwnScore(101, 0, True, 0),
        13: OwnScore(15, 9, False, 0),
        14: OwnScore(20, 8, False, 0),
    }


@pytest.mark.parametrize("end_reason", ["timeout", "forfeit", "disqualification"])
def test_own_scores_follow_the_timeout_rule_when_a_player_stopped_the_game(end_reason):
    totals = _kozel_totals({"a1": 30, "b1": 32, "a2": 13, "b2": 0})
    scores = own_scores(RulesConfig(), totals, SEATS, end_reason=end_reason, loser="b1")
    assert {e: s.rating for e, s in scores.items()} == {11: 1, 12: 0, 13: 2, 14: 3}
    assert scores[12].goat


def test_own_scores_of_a_party_ended_by_its_clock_use_the_plain_formula():
    # the party's clock running out is nobody's timeout (issue #13): (100 - points) / 10
    totals = _kozel_totals({"a1": 30, "b1": 32, "a2": 13, "b2": 0})
    scores = own_scores(RulesConfig(), totals, SEATS, end_reason="time", loser="b1")
    assert {e: s.rating for e, s in scores.items()} == {11: 7, 12: 7, 13: 9, 14: 10}
    assert scores[12].goat


def test_own_scores_of_two_pairs_rate_each_pair():
    cfg = RulesConfig(kozel_pairs=True)
    totals = _kozel_totals({"a1": 60, "b1": 10, "a2": 45, "b2": 15})
    scores = own_scores(cfg, totals, SEATS, end_reason="target", loser="a")
    # pair a: 105 -> -0.5 -> -1 each; pair b: 25 -> 7.5 -> 8 each
    assert {e: (s.points, s.rating, s.goat) for e, s in scores.items()} == {
        11: (60, -1, True), 12: (10, 8, False), 13: (45, -1, True), 14: (15, 8, False),
    }
    by_pair = own_scores(
        cfg, totals, {"a1": 1, "a2": 1, "b1": 2, "b2": 2}, end_reason="target", loser="a"
    )
    assert by_pair == {1: OwnScore(105, -1, True, 0), 2: OwnScore(25, 8, False, 0)}


# -- through the database ----------------------------------------------------------------------


def _published(tournament, number=1):
    """A published round."""
    return Round.objects.create(tournament=tournament, number=number, status="published")


@pytest.mark.django_db
def test_singles_sides_of_one_player_rank_as_pairs_and_as_players(organizer):
    t = create_tournament(name="Draw", slug="draw-singles", organizer=organizer, rule_set="draw")
    sides = {
        name: Pair.objects.get(player1=register_player(t, name=name, side=True))
        for name in ("Ann", "Борис", "Carl", "Дина")
    }
    rnd = _published(t)
    # the Draw game's sides are seats: a1 won at table 1 (by the target), b1 at table 2
    Party.objects.create(round=rnd, pair_a=sides["Ann"], pair_b=sides["Борис"],
                         status="finished", winner="a1", end_reason="target")
    Party.objects.create(round=rnd, pair_a=sides["Carl"], pair_b=sides["Дина"],
                         status="finished", winner="b1", end_reason="target")
    results = load_party_results(t, per_player=True)
    assert sorted(r.winner for r in results) == sorted(
        [(sides["Ann"].player1_id,), (sides["Дина"].player1_id,)]
    )
    for per_player in (False, True):
        table = standings_table(t, per_player=per_player)
        winners = {line[1].pk for line in table.lines() if line[0].metrics["wins"] == 1}
        expected = {sides["Ann"], sides["Дина"]}
        assert winners == {p.player1_id if per_player else p.pk for p in expected}


@pytest.mark.django_db
def test_individual_event_ranks_players_even_when_asked_for_pairs(organizer):
    t = create_tournament(name="Личный", slug="individual-pairs", organizer=organizer,
                          format="individual")
    for name in ("Маша", "Alex", "Оля", "Serg"):
        register_player(t, name=name)
    table = standings_table(t, per_player=False)  # its pairs are formed round by round
    assert table.per_player
    assert sorted(entrant.name for _row, entrant, _v in table.lines()) == [
        "Alex", "Serg", "Маша", "Оля",
    ]


@pytest.mark.django_db
def test_kozel_bye_counts_as_a_game_without_points(organizer):
    t = create_tournament(name="Козёл", slug="kozel-bye", organizer=organizer, rule_set="kozel",
                          format="individual")
    players = [register_player(t, name=name) for name in ("Маша", "Alex", "Оля", "Serg", "Ян")]
    rnd = _published(t)
    bye = Pair.objects.create(tournament=t, player1=players[4], formed_in_round=rnd)
    Party.objects.create(round=rnd, pair_a=bye, status="finished", end_reason="bye", winner="a")
    table = standings_table(t)
    rows = {entrant.name: row for row, entrant, _v in table.lines()}
    assert rows["Ян"].metrics["rating_points"] == 10  # (100 - 0) / 10
    assert rows["Ян"].metrics["goats"] == 0 and rows["Ян"].rank == 1
    assert [m.key for m in table.columns] == ["rating_points", "goats", "points_taken"]


@pytest.mark.django_db
def test_order_named_in_the_regulations_wins_over_the_rule_sets(organizer):
    t = create_tournament(name="UDL", slug="udl-order", organizer=organizer, rule_set="udl")
    assert standings_config(t).order == default_order("udl")
    regulations = t.regulations
    regulations.standings_order = ["wins", "points_for"]
    regulations.save()
    assert standings_config(t).order == ("wins", "points_for")
    sport = create_tournament(name="Sport", slug="sport-order", organizer=organizer)
    assert standings_config(sport) == sport.regulations.standings_config()


@pytest.mark.django_db
def test_kozel_ruling_that_stops_a_game_follows_the_timeout_rule(organizer):
    party = kozel_party(organizer)
    record_deal(party.pk, outcome="domino", went_out="a1", pips={"b1": 20, "a2": 13, "b2": 30})
    disqualify(party.pk, side="b", seat="b2", scope="party", reason="Спрятал кость",
               actor=organizer)
    rows = standings(party)
    # Serg stopped the game at 30: he gets nothing; Masha 0 -> 3, Alex 20 -> 1, Olya 13 -> 2
    assert {name: m["rating_points"] for name, (_r, m) in rows.items()} == {
        "Маша Masha": 3, "Алекс Alex": 1, "Оля Olya": 2, "Серж Serg": 0,
    }
    assert rows["Серж Serg"][1]["goats"] == 1 and rows["Серж Serg"][0] == 4

    absent = kozel_party(organizer)
    forfeit_party(absent.pk, absent_side="b", actor=organizer)
    rows = standings(absent)
    # the whole side B did not come: Alex and Serg get nothing, Masha and Olya at least 1
    assert {name: (m["rating_points"], m["goats"]) for name, (_r, m) in rows.items()} == {
        "Маша Masha": (1, 0), "Алекс Alex": (0, 1), "Оля Olya": (1, 0), "Серж Serg": (0, 1),
    }
