"""Brute-force oracles and a small tournament simulator for the draw engine's tests."""

from __future__ import annotations

import random
from collections.abc import Iterable
from itertools import combinations

from tournaments.pairing import Draw, Entrant


def perfect_matchings(ids: list[int]) -> Iterable[list[tuple[int, int]]]:
    """Every perfect matching of ``ids`` (an even count)."""
    if not ids:
        yield []
        return
    first, rest = ids[0], ids[1:]
    for i, other in enumerate(rest):
        for sub in perfect_matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *sub]


def min_bye_candidates(had_bye: dict[int, int], count: int) -> list[frozenset[int]]:
    """Every set of ``count`` entrants that respects "fewest byes first"."""
    ids = sorted(had_bye)
    out = []
    for combo in combinations(ids, count):
        inside = max((had_bye[i] for i in combo), default=-1)
        outside = min((had_bye[i] for i in ids if i not in combo), default=10**9)
        if inside <= outside:
            out.append(frozenset(combo))
    return out


def best_possible(entrants: list[Entrant], conflict) -> int:
    """Fewest conflicting parties over every legal draw (bye rule respected)."""
    had = {e.id: e.had_bye for e in entrants}
    ids = sorted(had)
    best = None
    for byes in min_bye_candidates(had, len(ids) % 2):
        rest = [i for i in ids if i not in byes]
        for m in perfect_matchings(rest):
            c = sum(1 for a, b in m if conflict(a, b))
            if best is None or c < best:
                best = c
            if best == 0:
                return 0
    return best if best is not None else 0


def check_draw_shape(draw: Draw, entrants: list[Entrant]) -> None:
    """Every entrant exactly once, in a party or with the bye; byes follow the rule."""
    ids = [e.id for e in entrants]
    seen = [x for p in draw.parties for x in (p.a, p.b)] + list(draw.byes)
    assert sorted(seen) == sorted(ids)
    assert len(draw.byes) == len(ids) % 2
    had = {e.id: e.had_bye for e in entrants}
    for b in draw.byes:
        others = [had[i] for i in ids if i not in draw.byes]
        assert not others or had[b] <= min(others)
    for p in draw.parties:
        assert p.a != p.b


def simulate_results(draw: Draw, strength: dict[int, float], rng: random.Random) -> dict[int, int]:
    """Return the match points each entrant earns this round (2 a win or a bye)."""
    earned = {}
    for p in draw.parties:
        sa, sb = strength[p.a], strength[p.b]
        a_wins = rng.random() < 1 / (1 + 10 ** (sb - sa))
        earned[p.a if a_wins else p.b] = 2
        earned[p.b if a_wins else p.a] = 0
    for b in draw.byes:
        earned[b] = 2
    return earned


def brute_force_rounds(may_meet: dict[int, set[int]], k: int) -> bool:
    """Whether ``k`` rounds without a rematch exist, by trying every sequence of draws."""
    if k == 0:
        return True
    ids = sorted(may_meet)
    for m in perfect_matchings(ids):
        if all(b in may_meet[a] for a, b in m):
            rest = {v: set(u) for v, u in may_meet.items()}
            for a, b in m:
                rest[a].discard(b)
                rest[b].discard(a)
            if brute_force_rounds(rest, k - 1):
                return True
    return False


def ranked_field(
    strength: dict[int, float], score: dict, opp: dict[int, set[int]], byes: dict[int, int]
) -> list[Entrant]:
    """The field ranked by score, then strength, with its history."""
    order = sorted(strength, key=lambda i: (-score[i], -strength[i]))
    return [
        Entrant(i, rank=k, score=score[i], rating=strength[i], had_bye=byes[i],
                opponents=frozenset(opp[i]))
        for k, i in enumerate(order)
    ]


def record(draw: Draw, opp: dict[int, set[int]], byes: dict[int, int]) -> int:
    """Add the draw's parties and byes to the history; return how many were rematches."""
    rematches = 0
    for p in draw.parties:
        rematches += p.b in opp[p.a]
        opp[p.a].add(p.b)
        opp[p.b].add(p.a)
    for b in draw.byes:
        byes[b] += 1
    return rematches
