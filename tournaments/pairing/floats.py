"""Long floats: an exact re-pairing of the score groups around a party that skips a group.

The bracket pass pairs score groups from the top and floats whoever is left to the next
group. Late in an event, when the small groups at the top or bottom have met each other,
one entrant may float past a whole group (a party two or more groups apart) where two
entrants floating one group each would do: with the sum of squared score gaps as the cost,
one gap of 4 costs 16 and two gaps of 2 cost 8. Only in such rounds, the entrants of the
groups the long party spans (and one group on either side, and whoever those entrants meet)
are re-paired by an exact branch and bound over the same "may meet" rule, bounded below by
the cheapest pairing of the rest in score order (an odd count above a gap must send one
party across it). A better pairing replaces theirs; the rest of the draw stays.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations

from .matching import augment_matching

MAX_WINDOW = 40
_BUDGET = 10_000


def shorten_floats(
    scores: Sequence[float],
    pairs: list[tuple[int, int]],
    bad: Callable[[int, int], bool],
) -> list[tuple[int, int]]:
    """Return ``pairs`` (positions in score order, best first) with long floats re-paired.

    ``bad(x, y)`` tells whether x and y may not meet (a rematch, or one club when clubs are
    kept apart). Parties that cannot be improved are returned unchanged.
    """
    level = _levels(scores)
    pairs = absorb_floats(level, pairs, bad)
    if all(abs(level[x] - level[y]) < 2 for x, y in pairs):
        return pairs
    index = {scores[v]: level[v] for v in range(len(scores))}
    mate = {}
    for x, y in pairs:
        mate[x], mate[y] = y, x
    done: set[int] = set()
    for x, y in sorted(pairs):
        lo, hi = sorted((index[scores[x]], index[scores[y]]))
        if hi - lo < 2 or x in done:
            continue
        for wide in (0, 1):
            window = _window(scores, index, mate, lo - wide, hi + wide)
            if window is None:
                break
            better = _exact(sorted(window), scores, bad, _cost(scores, mate, window))
            if better is not None:
                done.update(window)
                for a, b in better:
                    mate[a], mate[b] = b, a
                break
    return sorted({(min(a, b), max(a, b)) for a, b in mate.items()})


def _levels(scores: Sequence[float]) -> list[int]:
    """The score group of each position (0 = the top group; scores are best first)."""
    level, k, prev = [0] * len(scores), -1, None
    for v, s in enumerate(scores):
        if s != prev:
            k, prev = k + 1, s
        level[v] = k
    return level


def absorb_floats(
    level: Sequence[int], pairs: list[tuple[int, int]], bad: Callable[[int, int], bool]
) -> list[tuple[int, int]]:
    """Two parties between the same two neighbouring groups: pair each group within itself.

    The exact fallback's augmenting paths do not look at scores, so a bracket that could be
    paired completely may send two entrants down. For each two such parties (a1-b1, a2-b2;
    the a's above) the two groups are re-paired inside themselves with a1, a2 and b1, b2
    free (Edmonds' blossoms, :mod:`.matching`); where both succeed two floats are saved.
    """
    crossing: dict[int, list[tuple[int, int]]] = {}
    for x, y in pairs:
        a, b = (x, y) if level[x] < level[y] else (y, x)
        if level[b] - level[a] == 1:
            crossing.setdefault(level[a], []).append((a, b))
    if all(len(c) < 2 for c in crossing.values()):
        return pairs
    mate = {}
    for x, y in pairs:
        mate[x], mate[y] = y, x
    for parties in crossing.values():
        while len(parties) >= 2:
            for i, j in combinations(range(len(parties)), 2):
                (a1, b1), (a2, b2) = parties[i], parties[j]
                upper = _within(level, mate, a1, a2, bad)
                lower = _within(level, mate, b1, b2, bad) if upper is not None else None
                if upper is not None and lower is not None:
                    for x, y in (*upper, *lower):
                        mate[x], mate[y] = y, x
                    del parties[j], parties[i]
                    break
            else:
                break
    return sorted({(min(a, b), max(a, b)) for a, b in mate.items()})


def _within(
    level: Sequence[int], mate: dict[int, int], u: int, v: int, bad: Callable[[int, int], bool]
) -> list[tuple[int, int]] | None:
    """Re-pair u's group (its parties inside it, with u and v free) completely, or None."""
    group = [w for w in mate if level[w] == level[u] and (level[mate[w]] == level[u])]
    group += [u, v]
    local = {w: k for k, w in enumerate(group)}
    size = len(group)
    loc_mate = [-1] * size
    for w in group[:-2]:
        loc_mate[local[w]] = local[mate[w]]

    def neighbours(k: int) -> Iterator[int]:
        x = group[k]
        for other in range(size):
            if other != k and not bad(x, group[other]):
                yield other

    augment_matching(size, loc_mate, neighbours, roots=[local[u]])
    if -1 in loc_mate:
        return None
    return [(group[k], group[loc_mate[k]]) for k in range(size) if k < loc_mate[k]]


def _window(
    scores: Sequence[float], index: dict[float, int], mate: dict[int, int], lo: int, hi: int
) -> set[int] | None:
    """The entrants of levels lo..hi with their opponents this round (None if too many)."""
    window = {v for v in mate if lo <= index[scores[v]] <= hi}
    window |= {mate[v] for v in window}
    return window if len(window) <= MAX_WINDOW else None


def _cost(scores: Sequence[float], mate: dict[int, int], window: set[int]) -> float:
    """The window's current sum of squared score gaps."""
    return sum((scores[v] - scores[mate[v]]) ** 2 for v in window if v < mate[v])


def lower_bound(scores: Sequence[float]) -> float:
    """The cheapest pairing of these scores (sorted, best first) if anyone could meet anyone.

    Between two adjacent levels, an odd count above must send one party across the gap.
    """
    bound, above, prev = 0.0, 0, None
    for s in scores:
        if prev is not None and s != prev and above % 2:
            bound += (prev - s) ** 2
        above += 1
        prev = s
    return bound


def _exact(
    items: list[int], scores: Sequence[float], bad: Callable[[int, int], bool], limit: float
) -> list[tuple[int, int]] | None:
    """The cheapest pairing of ``items`` (in score order) costing less than ``limit``.

    Branch and bound: the entrant of the smallest group left meets someone, cheapest first
    (so the costly choices come first); a branch is cut when its cost plus
    :func:`lower_bound` of the rest reaches the best found. None when nothing cheaper exists
    (or the budget runs out before one is found).
    """
    group_size: dict[float, int] = {}
    for v in items:
        group_size[scores[v]] = group_size.get(scores[v], 0) + 1
    first = {v: (group_size[scores[v]], k) for k, v in enumerate(items)}
    best: list[list[tuple[int, int]] | None] = [None]
    bound = [limit]
    left = [_BUDGET]
    chosen: list[tuple[int, int]] = []

    def walk(rem: list[int], cost: float) -> None:
        if not rem:
            bound[0] = cost
            best[0] = list(chosen)
            return
        x = min(rem, key=first.__getitem__)
        sx = scores[x]
        rest = sorted((v for v in rem if v != x), key=lambda v: (scores[v] - sx) ** 2)
        for y in rest:
            left[0] -= 1
            if left[0] < 0:
                return
            step = cost + (sx - scores[y]) ** 2
            if step >= bound[0]:
                break  # partners further on only cost more
            if bad(x, y):
                continue
            others = [v for v in rem if v != x and v != y]
            if step + lower_bound([scores[v] for v in others]) >= bound[0]:
                continue
            chosen.append((x, y))
            walk(others, step)
            chosen.pop()

    walk(items, 0.0)
    return best[0]
