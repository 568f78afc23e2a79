"""The worked examples of RULES.md sections 2 and 3, played through the services.

Every example is recorded on a real party with ``scoring.party.deals.record_deal`` and the
referee services, then read back the way the pages read it: ``party_totals`` and the
standings. Kozel is played by Masha, Alex, Olya and Serg at seats a1, b1, a2, b2 (an
individual event: the seat groups a1+a2 and b1+b2 are the round's formed pairs, every player
keeps his own account); UDL and All Fives by Ann (side a) and Bob (side b).
"""

from __future__ import annotations

import itertools

import pytest

from referee.services import give_warning, mark_time_expired, rule_player_timeout, start_party
from scoring.models import Deal, Pair, Party, PartyEvent, Round, Table
from scoring.party.deals import record_deal
from scoring.ranking.results import standings_table
from scoring.totals.compute import party_totals
from tournaments.registration.services import register_player
from tournaments.setup.services import create_tournament

pytestmark = pytest.mark.django_db

_slugs = itertools.count(1)
MASHA, ALEX, OLYA, SERG = "a1", "b1", "a2", "b2"
KOZEL_NAMES = {MASHA: "Маша Masha", ALEX: "Алекс Alex", OLYA: "Оля Olya", SERG: "Серж Serg"}


def _tournament(organizer, rule_set: str, tournament_format: str = "pairs", **settings):
    """A tournament of ``rule_set`` with its preset regulations and ``settings`` on top."""
    tournament = create_tournament(
        name=f"{rule_set} · пример", slug=f"example-{rule_set}-{next(_slugs)}",
        organizer=organizer, rule_set=rule_set, format=tournament_format,
    )
    regulations = tournament.regulations
    for name, value in settings.items():
        setattr(regulations, name, value)
    regulations.full_clean()
    regulations.save()
    tournament.refresh_from_db()
    return tournament


def _round(tournament, number: int = 1) -> Round:
    """A published round (its draw made by hand below)."""
    return Round.objects.create(tournament=tournament, number=number, status="published")


def _start(party: Party, actor) -> Party:
    """Start the party's clock through the referee service."""
    start_party(party.pk, actor=actor)
    return Party.objects.get(pk=party.pk)


def kozel_party(organizer, **settings) -> Party:
    """A started Kozel party of four single players: Masha, Alex, Olya and Serg."""
    tournament = _tournament(organizer, "kozel", "individual", **settings)
    players = {seat: register_player(tournament, name=name) for seat, name in KOZEL_NAMES.items()}
    rnd = _round(tournament)
    table = Table.objects.create(tournament=tournament, number=1)
    pair_a = Pair.objects.create(
        tournament=tournament, player1=players[MASHA], player2=players[OLYA], formed_in_round=rnd
    )
    pair_b = Pair.objects.create(
        tournament=tournament, player1=players[ALEX], player2=players[SERG], formed_in_round=rnd
    )
    party = Party.objects.create(round=rnd, table=table, pair_a=pair_a, pair_b=pair_b)
    return _start(party, organizer)


def singles_parties(organizer, rule_set: str, names=("Ann", "Bob"), **settings) -> list[Party]:
    """Started parties of a singles tournament (each side one player), two names a party."""
    tournament = _tournament(organizer, rule_set, **settings)
    sides = [
        Pair.objects.get(player1=register_player(tournament, name=name, side=True))
        for name in names
    ]
    rnd = _round(tournament)
    parties = []
    for number, k in enumerate(range(0, len(sides), 2), start=1):
        table = Table.objects.create(tournament=tournament, number=number)
        party = Party.objects.create(round=rnd, table=table, pair_a=sides[k], pair_b=sides[k + 1])
        parties.append(_start(party, organizer))
    return parties


def fresh(party: Party) -> Party:
    """The party as stored now."""
    return Party.objects.select_related("round__tournament__regulations").get(pk=party.pk)


def totals(party: Party):
    """The party's totals, from the one totals function."""
    return party_totals(fresh(party))


def deal(party: Party, **facts) -> Deal:
    """Record the next deal through the deal service."""
    return record_deal(party.pk, **facts).record


def standings(party: Party) -> dict[str, tuple[int, dict]]:
    """The standings of the party's tournament by name: (rank, metrics)."""
    table = standings_table(fresh(party).round.tournament)
    return {
        entrant.name if table.per_player else entrant.display_name: (row.rank, row.metrics)
        for row, entrant, _values in table.lines()
    }


# -- Kozel (RULES.md 3) ------------------------------------------------------------------------


def _before_the_example(party: Party) -> None:
    """Two deals Alex wins: Masha +19 memorized, Alex 0, Olya +7, Serg +4; no account open."""
    deal(party, outcome="domino", went_out=ALEX, pips={MASHA: 12, OLYA: 3, SERG: 2})
    deal(party, outcome="domino", went_out=ALEX, pips={MASHA: 7, OLYA: 4, SERG: 2})


def test_kozel_worked_example_memorized_points(organizer):
    """(rules.md K6) Kozel worked example memorized points."""
    party = kozel_party(organizer)
    _before_the_example(party)
    before = totals(party)
    assert before.memorized == {MASHA: 19, ALEX: 0, OLYA: 7, SERG: 4}
    assert before.points == {MASHA: 0, ALEX: 0, OLYA: 0, SERG: 0}

    example = deal(party, outcome="domino", went_out=MASHA, pips={ALEX: 3, OLYA: 13, SERG: 5})
    assert example.scores == {MASHA: 0, ALEX: 3, OLYA: 13, SERG: 5}
    assert (example.points_a, example.points_b) == (13, 8)  # per side: a1 + a2, b1 + b2
    after = totals(party)
    assert after.memorized[MASHA] == 0 and after.points[MASHA] == 0  # went out: 19 -> 0
    assert after.memorized[ALEX] == 3 and not after.open[ALEX]  # 0 + 3 memorized
    assert after.points[OLYA] == 20 and after.open[OLYA]  # 7 + 13: her account opens at 20
    assert after.memorized[SERG] == 9 and after.points[SERG] == 0  # 4 + 5 memorized
    assert fresh(party).status == Party.Status.IN_PROGRESS


def test_kozel_worked_example_fish_for_one(organizer):
    """(rules.md K15) Kozel worked example fish for one."""
    party = kozel_party(organizer, fish_variant="for_one")
    deal(party, outcome="domino", went_out=ALEX, pips={MASHA: 12, OLYA: 7, SERG: 4})
    fish = deal(party, outcome="fish", pips={MASHA: 2, ALEX: 3, OLYA: 13, SERG: 5})
    assert (fish.outcome, fish.winner) == ("fish", OLYA)
    assert fish.scores == {MASHA: 0, ALEX: 0, OLYA: 23, SERG: 0}
    result = totals(party)
    assert result.points[OLYA] == 23 + 7  # the whole deal plus her memorized points
    assert result.memorized == {MASHA: 0, ALEX: 0, OLYA: 0, SERG: 0}  # the others' reset


def test_kozel_worked_example_drawn_fish_for_one_carries_over(organizer):
    """(rules.md K14) Kozel worked example drawn fish for one carries over."""
    party = kozel_party(organizer, fish_variant="for_one")
    drawn = deal(party, outcome="fish", pips={MASHA: 3, ALEX: 14, OLYA: 14, SERG: 4})
    assert (drawn.outcome, drawn.winner, drawn.carry) == ("drawn_fish", "", 35)
    assert (drawn.points_a, drawn.points_b) == (0, 0)
    waiting = totals(party)
    assert waiting.carry == 35
    assert waiting.points == {MASHA: 0, ALEX: 0, OLYA: 0, SERG: 0}

    deal(party, outcome="domino", went_out=MASHA, pips={ALEX: 5, OLYA: 8, SERG: 2})
    taken = totals(party)
    assert taken.carry == 0
    assert taken.points == {MASHA: 0, ALEX: 0, OLYA: 8 + 35, SERG: 0}  # the top scorer takes it


def test_kozel_goat_at_101_finishes_the_party(organizer):
    """(rules.md K8) Kozel goat at 101 finishes the party."""
    party = kozel_party(organizer)
    deal(party, outcome="domino", went_out=MASHA, pips={ALEX: 50, OLYA: 20, SERG: 30})
    deal(party, outcome="domino", went_out=MASHA, pips={ALEX: 50, OLYA: 5, SERG: 5})
    assert totals(party).points[ALEX] == 100
    assert fresh(party).status == Party.Status.IN_PROGRESS  # 100 is not the Goat yet
    deal(party, outcome="domino", went_out=MASHA, pips={ALEX: 1, OLYA: 1, SERG: 1})
    finished = fresh(party)
    assert totals(finished).points == {MASHA: 0, ALEX: 101, OLYA: 26, SERG: 36}
    assert (finished.status, finished.loser, finished.end_reason) == ("finished", ALEX, "target")
    assert finished.winner == MASHA  # alone with the fewest points
    event = PartyEvent.objects.filter(party=party, kind="party_finished").get()
    assert event.data["loser"] == ALEX

    rows = standings(party)
    assert rows["Алекс Alex"][1]["goats"] == 1
    assert rows["Маша Masha"][1]["rating_points"] == 10  # (100 - 0) / 10
    assert rows["Алекс Alex"][1]["rating_points"] == 0  # (100 - 101) / 10 -> 0
    assert rows["Алекс Alex"][0] == 4


def test_kozel_worked_example_rating_8_and_standings_order(organizer):
    party = kozel_party(organizer)
    deal(party, outcome="domino", went_out=MASHA, pips={ALEX: 40, OLYA: 13, SERG: 20})
    deal(party, outcome="domino", went_out=SERG, pips={MASHA: 25, ALEX: 61, OLYA: 2})
    finished = fresh(party)
    assert totals(finished).points == {MASHA: 25, ALEX: 101, OLYA: 15, SERG: 20}
    assert (finished.status, finished.loser) == ("finished", ALEX)

    rows = standings(party)
    ratings = {name: metrics["rating_points"] for name, (_rank, metrics) in rows.items()}
    # (100 - points) / 10 rounded half up: Masha 25 -> 7.5 -> 8, Olya 15 -> 8.5 -> 9
    assert ratings == {"Маша Masha": 8, "Алекс Alex": 0, "Оля Olya": 9, "Серж Serg": 8}
    # by rating points, then fewer Goat games, then fewer points (Serg 20 before Masha 25)
    order = sorted(rows, key=lambda name: rows[name][0])
    assert order == ["Оля Olya", "Серж Serg", "Маша Masha", "Алекс Alex"]
    assert rows["Серж Serg"][1]["points_taken"] == 20
    assert rows["Алекс Alex"][1]["goats"] == 1 and rows["Маша Masha"][1]["goats"] == 0
    table = standings_table(fresh(party).round.tournament)
    assert table.per_player
    assert [m.key for m in table.columns] == ["rating_points", "goats", "points_taken"]


def test_kozel_worked_example_ratings_after_a_timeout(organizer):
    party = kozel_party(organizer)
    deal(party, outcome="domino", went_out=SERG, pips={MASHA: 20, ALEX: 20, OLYA: 13})
    deal(party, outcome="domino", went_out=OLYA, pips={MASHA: 10, ALEX: 12, SERG: 5})
    rule_player_timeout(party.pk, seat=ALEX, actor=organizer)
    finished = fresh(party)
    assert totals(finished).points == {MASHA: 30, ALEX: 32, OLYA: 13, SERG: 0}
    assert (finished.status, finished.end_reason, finished.loser) == ("finished", "timeout", ALEX)

    rows = standings(party)
    ratings = {name: metrics["rating_points"] for name, (_rank, metrics) in rows.items()}
    # Alex stopped the game at 32: he gets nothing; Masha 30 -> 0.2 -> at least 1;
    # Olya 13 -> 1.9 -> 2; Serg 0 -> 3.2 -> 3
    assert ratings == {"Маша Masha": 1, "Алекс Alex": 0, "Оля Olya": 2, "Серж Serg": 3}


def test_kozel_party_ended_by_its_clock_is_nobodys_timeout(organizer):
    party = kozel_party(organizer, party_minutes=40)  # a clock set (the preset has none)
    deal(party, outcome="domino", went_out=SERG, pips={MASHA: 20, ALEX: 20, OLYA: 13})
    mark_time_expired(party.pk, actor=organizer)
    assert fresh(party).status == Party.Status.IN_PROGRESS  # the deal in play is the last
    deal(party, outcome="domino", went_out=OLYA, pips={MASHA: 10, ALEX: 12, SERG: 5})
    finished = fresh(party)
    assert (finished.status, finished.end_reason, finished.loser) == ("finished", "time", ALEX)
    rows = standings(party)
    ratings = {name: metrics["rating_points"] for name, (_rank, metrics) in rows.items()}
    # the plain (100 - points) / 10: Alex, the Goat at 32, still gets 6.8 -> 7
    assert ratings == {"Маша Masha": 7, "Алекс Alex": 7, "Оля Olya": 9, "Серж Serg": 10}


# -- UDL singles (RULES.md 2) ------------------------------------------------------------------

WIN_A_GAME = {"outcome": "domino", "went_out": "a1", "pips": {"b1": 140}, "plays": [["a", 10]]}
WIN_B_GAME = {"outcome": "domino", "went_out": "b1", "pips": {"a1": 140}, "plays": [["b", 10]]}


def test_udl_match_to_three_game_wins(organizer):
    match, other = singles_parties(organizer, "udl", names=("Ann", "Bob", "Аня", "Борис"))
    regulations = fresh(match).round.tournament.regulations
    assert (regulations.games_to_win, regulations.target) == (3, 150)
    for facts in (WIN_A_GAME, WIN_A_GAME, WIN_B_GAME):
        deal(match, **facts)
    playing = fresh(match)
    assert (playing.status, playing.game) == ("in_progress", 4)
    assert totals(playing).game_wins == {"a": 2, "b": 1}
    deal(match, **WIN_A_GAME)
    finished = fresh(match)
    assert (finished.status, finished.winner, finished.end_reason) == ("finished", "a", "target")
    result = totals(finished)
    assert result.game_wins == {"a": 3, "b": 1}
    assert [(g.number, g.winner) for g in result.games] == [(1, "a"), (2, "a"), (3, "b"), (4, "a")]
    assert PartyEvent.objects.filter(party=match, kind="game_finished").count() == 3
    assert list(Deal.objects.filter(party=match).values_list("game", flat=True)) == [1, 2, 3, 4]

    # Аня beats Борис three games to none
    for _game in range(3):
        deal(other, **WIN_A_GAME)
    rows = standings(match)
    assert {name: rank for name, (rank, _m) in rows.items()} == {
        "Аня": 1, "Ann": 2, "Bob": 3, "Борис": 4,
    }
    assert rows["Ann"][1]["match_points"] == 2 and rows["Ann"][1]["game_wins"] == 3 - 1
    assert rows["Аня"][1]["game_wins"] == 3 and rows["Борис"][1]["game_wins"] == -3
    assert rows["Bob"][1]["points_for"] == 150 and rows["Ann"][1]["points_for"] == 450
    table = standings_table(fresh(match).round.tournament)
    assert [m.key for m in table.columns] == ["match_points", "game_wins", "points_for"]
    by_player = standings_table(fresh(match).round.tournament, per_player=True)
    assert [entrant.name for _row, entrant, _v in by_player.lines()] == [
        "Аня", "Ann", "Bob", "Борис",
    ]


def test_udl_second_slow_play_pays_20_to_the_opponent(organizer):
    (party,) = singles_parties(organizer, "udl")
    deal(party, outcome="domino", went_out="a1", pips={"b1": 30}, plays=[["a", 10], ["b", 5]])
    assert totals(party).points == {"a": 40, "b": 5}
    first = give_warning(party.pk, side="b", category="move_time", actor=organizer).record
    assert first.kind == "warning"
    assert totals(party).points == {"a": 40, "b": 5}
    second = give_warning(party.pk, side="b", category="move_time", actor=organizer).record
    assert (second.kind, second.points, second.mode, second.game) == ("fine", 20, "award", 1)
    result = totals(party)
    assert result.points == {"a": 60, "b": 5}  # paid to the opponent, in the game in play
    assert result.games[0].fine_points == {"a": 20, "b": 0}


def test_udl_blocked_hands_with_equal_pips_score_nothing(organizer):
    (party,) = singles_parties(organizer, "udl")
    deal(party, outcome="domino", went_out="a1", pips={"b1": 30}, plays=[["a", 10]])
    tie = deal(party, outcome="fish", pips={"a1": 12, "b1": 12})
    assert (tie.outcome, tie.winner, tie.points_a, tie.points_b) == ("drawn_fish", "", 0, 0)
    assert totals(party).points == {"a": 40, "b": 0}
    # the next hand goes on as usual: nothing was carried over
    deal(party, outcome="domino", went_out="b1", pips={"a1": 20}, plays=[["b", 5]])
    assert totals(party).points == {"a": 40, "b": 25}


def test_udl_on_the_board_rule(organizer):
    (party,) = singles_parties(organizer, "udl")
    # Bob goes out with no points on the board: he cannot collect Ann's pips.
    blank = deal(party, outcome="domino", went_out="b1", pips={"a1": 30})
    assert (blank.winner, blank.points_b) == ("b", 30)  # the hand's own count ...
    assert totals(party).points == {"a": 0, "b": 0}  # ... is not collected
    # Once on the board (a play of 5 in this hand), the end count is collected.
    deal(party, outcome="domino", went_out="b1", pips={"a1": 30}, plays=[["b", 5]])
    assert totals(party).points == {"a": 0, "b": 35}


# -- All Fives (RULES.md 3) --------------------------------------------------------------------


def test_allfives_end_counts_rounded_to_five(organizer):
    (party,) = singles_parties(organizer, "allfives")
    out = deal(party, outcome="domino", went_out="a1", pips={"b1": 13})
    assert (out.winner, out.points_a, out.points_b) == ("a", 15, 0)  # 13 -> 15
    fish = deal(party, outcome="fish", pips={"a1": 7, "b1": 19})
    assert (fish.winner, fish.points_a, fish.points_b) == ("a", 10, 0)  # 19 - 7 = 12 -> 10
    low = deal(party, outcome="domino", went_out="b1", pips={"a1": 12}, plays=[["b", 15]])
    assert (low.winner, low.points_b) == ("b", 15 + 10)  # a play of 15, then 12 -> 10
    assert totals(party).points == {"a": 25, "b": 25}
