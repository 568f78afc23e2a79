"""The standings' fast path (plain tuples, no objects) gives exactly the standings of before.

Generated tournaments of every rule set (and the each-for-himself tables of three and four,
Kozel of two pairs, a regulations order with every tie-break) are ranked by today's
``standings_rows`` and by the frozen copy of the engine and loader as they were
(``tests/standings/reference_standings.py``): the same entrants in the same order, the same
ranks, every metric equal and of the same type. The plain engine is checked the same way on
random results of pairs and of individual events with forfeits, double forfeits and byes.
"""

from __future__ import annotations

import itertools
import random

import pytest

from scoring.models import Pair, Party, PartyTotals, Player, Round, Tournament
from scoring.ranking.loaders import load_party_results
from scoring.ranking.results import ranked_entrants, standings_rows
from scoring.rules import get_rule_set
from scoring.standings import (
    PartyResult,
    StandingsConfig,
    Tally,
    compute_standings,
    from_plain,
    plain,
)
from scoring.totals.stored import rules_digest
from tests.standings import reference_standings as before
from tournaments.setup.services import create_tournament

_slugs = itertools.count(1)
EVERY_TIE_BREAK = [
    "match_points", "head_to_head", "median_buchholz", "buchholz", "efectiveness", "wins",
    "fines", "point_difference", "points_against", "game_wins",
]
VARIANTS = [(code, {}) for code in sorted(Tournament.RuleSet.values)] + [
    ("draw", {"players": 4}),
    ("block", {"players": 3}),
    ("kozel", {"kozel_pairs": True}),
    ("sport", {"standings_order": EVERY_TIE_BREAK, "target": 151}),
    ("udl", {"standings_order": EVERY_TIE_BREAK}),
]


def generated(code: str, seed: int, rounds: int = 5, **settings) -> Tournament:
    """A tournament of ``code`` with random finished rounds, byes, forfeits and stored totals.

    Nine entrants (pairs, or players seated at tables of the regulations' size, the rest
    with byes); one party's stored row is missing and one is stale (both replayed).
    """
    rng = random.Random(seed)
    t = create_tournament(name=f"Сгенерированный {code}", slug=f"gen-{code}-{next(_slugs)}")
    regulations = t.regulations
    regulations.apply_preset(code)
    for name, value in settings.items():
        setattr(regulations, name, value)
    regulations.save()
    engine = get_rule_set(code)
    cfg = regulations.rules_config()
    per_side = 2 if engine.side_size(cfg) == 2 else 1
    size = regulations.players
    individual = per_side == 1 and size > 2
    Tournament.objects.filter(pk=t.pk).update(
        rule_set=code, format="individual" if individual else "pairs"
    )
    t = Tournament.objects.select_related("regulations").get(pk=t.pk)
    sides = engine.sides_for(cfg)
    kozel = engine.layout_for(cfg).accounts
    players = [
        Player.objects.create(tournament=t, name=f"Игрок {k}", rating=1500 + rng.randint(0, 400))
        for k in range(9 if individual else 9 * per_side)
    ]
    pairs = [] if individual else [
        Pair.objects.create(
            tournament=t, player1=players[per_side * k],
            player2=players[per_side * k + 1] if per_side == 2 else None,
            rating=rng.randint(1400, 1900),
        )
        for k in range(9)
    ]
    digest = rules_digest(t)
    for number in range(1, rounds + 1):
        rnd = Round.objects.create(tournament=t, number=number, status="finished")
        tables, alone = _tables(rng, rnd, individual, size, players, pairs)
        for pair_a, pair_b in tables:
            _finished(rng, rnd, pair_a, pair_b, sides, kozel, digest)
        for side in alone:
            Party.objects.create(
                round=rnd, pair_a=side, status="finished", end_reason="bye", winner=sides[0]
            )  # no stored row, as the draw makes it: replayed (the side "a", or seat "a1")
    rows = PartyTotals.objects.filter(
        party__round__tournament=t, party__end_reason__in=["target", "time"]
    ).order_by("party_id")
    rows.first().delete()  # missing: replayed from its (no) deals
    rows.filter(pk=rows.last().pk).update(version=99)  # stale: replayed too
    return t


def _tables(rng, rnd, individual, size, players, pairs):
    """The round's tables (side a, side b) and the sides with a bye, shuffled."""
    if not individual:
        order = rng.sample(pairs, len(pairs))
        return list(zip(order[0::2], order[1::2], strict=False)), order[len(order) // 2 * 2 :]
    order = rng.sample(players, len(players))
    tables, alone = [], []
    full = len(order) // size * size
    for start in range(0, full, size):
        seated = order[start : start + size]
        a = Pair.objects.create(
            tournament_id=rnd.tournament_id, player1=seated[0],
            player2=seated[2] if size >= 3 else None, formed_in_round=rnd,
        )
        b = Pair.objects.create(
            tournament_id=rnd.tournament_id, player1=seated[1],
            player2=seated[3] if size == 4 else None, formed_in_round=rnd,
        )
        tables.append((a, b))
    for player in order[full:]:
        alone.append(
            Pair.objects.create(
                tournament_id=rnd.tournament_id, player1=player, formed_in_round=rnd
            )
        )
    return tables, alone


def _finished(rng, rnd, pair_a, pair_b, sides, kozel, digest) -> Party:
    """A finished party with a random result and its stored totals."""
    seats = [s for s in sides if s[-1:] != "2" or (pair_a.player2_id and pair_b.player2_id)]
    if len(sides) > 2 and not (pair_a.player2_id and pair_b.player2_id):
        seats = ["a1", "b1", "a2"]  # a table of three
    winner, loser = rng.sample(seats, 2)
    end_reason = rng.choices(["target", "time", "forfeit", "disqualification"], [6, 2, 1, 1])[0]
    if end_reason == "forfeit" and rng.random() < 0.3 and not kozel and len(sides) == 2:
        winner = ""  # both sides forfeited
    party = Party.objects.create(
        round=rnd, pair_a=pair_a, pair_b=pair_b, status="finished", winner=winner,
        loser=loser if kozel or len(sides) > 2 else "", end_reason=end_reason,
        version=rng.randint(1, 30),
    )
    points = {s: rng.randint(0, 260) for s in seats}
    fines = {s: rng.choice([0, 0, 0, 25]) for s in seats}
    by_side = {"a": 0, "b": 0}
    for seat, value in points.items():
        by_side[seat[0]] += value
    PartyTotals.objects.create(
        party=party, version=party.version, rules=digest,
        points_a=by_side["a"], points_b=by_side["b"],
        fines_a=sum(v for s, v in fines.items() if s[0] == "a"),
        fines_b=sum(v for s, v in fines.items() if s[0] == "b"),
        games_a=rng.randint(0, 3), games_b=rng.randint(0, 3),
        seat_points=points, seat_fines=fines,
    )
    return party


def shown(rows) -> list[tuple]:
    """Every row exactly: entrant, rank, shared, each metric with its type, in order."""
    return [
        (row.entrant, row.rank, row.shared, [(k, v, type(v)) for k, v in row.metrics.items()])
        for row in rows
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(("code", "extra"), VARIANTS, ids=lambda v: str(v))
def test_standings_equal_those_of_before_on_a_generated_tournament(code, extra):
    for seed in (1, 2):
        t = generated(code, seed, **extra)
        per_player = t.format == Tournament.Format.INDIVIDUAL
        ids = list(ranked_entrants(t, per_player).values_list("pk", flat=True))
        cfg = t.regulations.standings_config()
        fast = standings_rows(t, ids, per_player=per_player, use_cache=False)  # replays 2 rows
        assert PartyTotals.objects.filter(party__round__tournament=t, version=99).count() == 0
        old_results = before.load_party_results(t, per_player=per_player)
        assert load_party_results(t, per_player=per_player) == old_results
        assert shown(fast) == shown(before.compute_standings(ids, old_results, cfg))
        assert len(fast) == len(ids) and len({row.rank for row in fast}) > 3
        for after in (1, 3):
            assert shown(
                standings_rows(t, ids, per_player=per_player, after_round=after, use_cache=False)
            ) == shown(before.compute_standings(ids, old_results, cfg, after))


def random_results(rng: random.Random, individual: bool, rounds: int = 9) -> list[PartyResult]:
    """Random results of 11 entrants: pairs, or players in pairs formed each round."""
    results = []
    for number in range(1, rounds + 1):
        order = rng.sample(range(1, 12), 11)
        if individual:
            sides = [tuple(order[k : k + 2]) for k in range(0, 8, 2)] + [(order[8],)]
            sides += [(order[9], order[10])]
        else:
            sides = [(e,) for e in order]
        while len(sides) >= 2:
            a, b = sides.pop(), sides.pop()
            a, b = (a if individual else a[0]), (b if individual else b[0])
            points = (rng.randint(0, 260), rng.randint(0, 260))
            winner = rng.choice([a, b, a[0] if individual else a])
            kind = rng.choices(["played", "forfeit", "by", "both"], [6, 1, 1, 1])[0]
            forfeited_by = (b if winner in (a, a[0] if individual else a) else a)
            results.append(PartyResult(
                number, a, b, *points,
                winner=None if kind == "both" else winner,
                forfeit=kind != "played",
                forfeited_by=forfeited_by if kind == "by" else None,
                ended_by_time=rng.random() < 0.2,
                fines_a=rng.choice([0, 25]), fines_b=rng.choice([0, 0, 25]),
                games_a=rng.randint(0, 3), games_b=rng.randint(0, 3),
            ))
        for alone in sides:
            bye = alone if individual else alone[0]
            results.append(PartyResult(number, bye, None, 100, 0, winner=bye))
    return results


@pytest.mark.parametrize("individual", [False, True])
@pytest.mark.parametrize("target", [200, 151])
def test_the_engine_ranks_plain_tuples_and_results_as_before(individual, target):
    rng = random.Random(target + individual)
    orders = [("match_points", "point_difference", "points_for", "head_to_head", "buchholz"),
              tuple(EVERY_TIE_BREAK)]
    for _ in range(20):
        results = random_results(rng, individual)
        plain_rows = [plain(r) for r in results]
        assert [from_plain(row) for row in plain_rows] != []
        for row, result in zip(plain_rows, results, strict=True):
            assert plain(from_plain(row)) == row and type(row) is tuple
            assert from_plain(row).points_a == result.points_a
        ids = rng.sample(range(1, 12), 10)  # one entrant (withdrawn) has no line
        for order in orders:
            cfg = StandingsConfig(order=order, target=target, bye_points=1, forfeit_win_points=3)
            for after in (None, 4):
                expected = shown(before.compute_standings(ids, results, cfg, after))
                assert shown(compute_standings(ids, results, cfg, after)) == expected
                assert shown(compute_standings(ids, plain_rows, cfg, after)) == expected
                tally, old = Tally.build(plain_rows, cfg, after), before.Tally.build(
                    results, cfg, after
                )
                for field in ("match_points", "wins", "points_for", "points_against",
                              "efectiveness", "fines", "byes", "game_wins", "parties"):
                    assert getattr(tally, field) == getattr(old, field), field


def test_a_plain_party_without_a_winner_or_won_by_the_side_that_forfeited_is_refused():
    with pytest.raises(ValueError, match="needs a winner"):
        compute_standings([1, 2], [(1, 1, 2, 200, 100, None, None, False, 0, 0, 0, 0)])
    with pytest.raises(ValueError, match="needs a winner"):
        compute_standings([1, 2], [PartyResult(1, 1, 2, 200, 100, winner=None)])
    with pytest.raises(ValueError, match="cannot win"):
        compute_standings(
            [1, 2], [PartyResult(1, 1, 2, 200, 0, winner=1, forfeit=True, forfeited_by=1)]
        )
