"""Endgame of a small Swiss field: keep the remaining rounds drawable without a rematch.

A field of 8-16 pairs playing nearly every other pair paints itself into a corner when a
round's draw leaves a "may still meet" graph without enough disjoint rounds. Before a draw is
accepted, :class:`Completion` checks that the planned rounds after it can still be drawn
rematch-free. If the fast draw fails the check, the draws of this round are tried in order of
preference (the bye on the lowest-ranked candidate, the fewest parties of one club when clubs
are kept apart, the smallest sum of squared score gaps, then the most parties in common with
the fast draw) and the first one that keeps the rest
possible is taken. If even the field before the round cannot finish rematch-free, the draw
that keeps the most rounds possible is taken.
"""

from __future__ import annotations

from collections.abc import Sequence

from .completion import BudgetExceeded, Completion, perfect_matchings

MAX_VERTICES = 20
"""Above this (entrants plus the bye) the check is not run: large fields do not get stuck."""
_CANDIDATES = 20_000
_BUDGET = 300_000


def needs_check(n: int, opp: Sequence[set[int]], rounds_after: int, bye_cands: int) -> bool:
    """Whether a field of ``n`` with these opponents could get stuck in ``rounds_after`` rounds.

    By Dirac's theorem a graph of m vertices whose every vertex has at least m/2 neighbours
    has a perfect matching; so when everyone (the bye too: ``bye_cands`` may still get it)
    keeps that many possible opponents through the last round, no check is needed.
    """
    m = n + n % 2
    if rounds_after <= 0 or m > MAX_VERTICES:
        return False
    fewest = min(n - 1 - len(o) for o in opp)
    if n % 2:
        fewest = min(fewest, bye_cands)
    return fewest - rounds_after < m / 2


def endgame_draw(
    scores: Sequence[float],
    opp: Sequence[set[int]],
    bye_cands: Sequence[int],
    pairs: list[tuple[int, int]],
    bye: int,
    rounds_after: int,
    clubs: Sequence[str] = (),
) -> tuple[list[tuple[int, int]], int]:
    """Return the draw (pairs of positions, bye position or -1) that keeps the end possible.

    ``scores`` and ``opp`` are by position in the ordered field (0 = top); ``pairs`` and
    ``bye`` the fast draw, returned unchanged when it passes the check (or the check cannot
    decide within its budget). ``clubs`` (by position, "" for none) are kept apart where
    that costs nothing else.
    """
    n = len(scores)
    odd = n % 2 == 1
    m = n + odd
    now = [0] * m
    for v in range(n):
        now[v] = ((1 << n) - 1) & ~(1 << v)
        for o in opp[v]:
            now[v] &= ~(1 << o)
    later = now
    if odd:
        # this round the bye goes to a candidate; later rounds, when the candidates run out
        # before the end, to anyone (the next level of "fewest byes")
        bye_to = set(bye_cands) if len(bye_cands) > rounds_after else set(range(n))
        later = list(now)
        for c in range(n):
            if c in bye_cands:
                now[c] |= 1 << n
                now[n] |= 1 << c
            if c in bye_to:
                later[c] |= 1 << n
                later[n] |= 1 << c
    search = Completion(_BUDGET)
    fast = [*pairs, (bye, n)] if odd else list(pairs)
    if any(not now[x] >> y & 1 for x, y in fast):
        return pairs, bye  # the fast draw has a rematch: no rematch-free draw exists now
    if search.check(_without(later, fast), rounds_after) is not False:
        return pairs, bye
    try:
        target = rounds_after
        while target >= 0 and search.rounds(later, target + 1) is None:
            target -= 1
        if target < 0:
            return pairs, bye
        chosen = _best(now, later, scores, bye_cands, fast, target, search, clubs)
    except BudgetExceeded:
        return pairs, bye
    if chosen is None:
        return pairs, bye
    out = [(x, y) for x, y in chosen if y < n]
    return out, next((x for x, y in chosen if y == n), -1)


def _best(
    now: list[int],
    later: list[int],
    scores: Sequence[float],
    bye_cands: Sequence[int],
    fast: list[tuple[int, int]],
    target: int,
    search: Completion,
    clubs: Sequence[str],
) -> list[tuple[int, int]] | None:
    """The preferred draw of this round after which ``target`` rounds remain possible."""
    n = len(scores)
    m = len(now)
    lowest = {c: k for k, c in enumerate(reversed(bye_cands))}
    kept = {(min(x, y), max(x, y)) for x, y in fast}
    order = [
        sorted(range(m), key=lambda u: (_gap(scores, v, u, n), abs(u - v)))
        for v in range(m)
    ]

    def key(
        matching: tuple[tuple[int, int], ...],
    ) -> tuple[int, int, float, int, tuple[tuple[int, int], ...]]:
        bye_rank = next((lowest[x] for x, y in matching if y == n), 0)
        cost = sum(_gap(scores, x, y, n) for x, y in matching)
        same = sum(1 for x, y in matching if y < n and clubs and clubs[x] and clubs[x] == clubs[y])
        return (bye_rank, same, cost, -len(kept.intersection(matching)), matching)

    found = []
    for matching in perfect_matchings(now, order=order):
        found.append(matching)
        if len(found) >= _CANDIDATES:
            break
    for matching in sorted(found, key=key):
        if search.rounds(_without(later, matching), target) is not None:
            return list(matching)
    witness = search.rounds(later, target + 1)
    if witness is None or any(not now[x] >> y & 1 for x, y in witness[0]):
        return None  # only where the bye's candidates run out: keep the fast draw
    return list(witness[0])


def _gap(scores: Sequence[float], x: int, y: int, n: int) -> float:
    """The squared score gap of a party (none for the bye)."""
    if x >= n or y >= n:
        return 0
    return (scores[x] - scores[y]) ** 2


def _without(adj: list[int], matching: Sequence[tuple[int, int]]) -> list[int]:
    """The graph after a round: the parties' edges removed."""
    rest = list(adj)
    for x, y in matching:
        rest[x] &= ~(1 << y)
        rest[y] &= ~(1 << x)
    return rest
