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

from collections.abc import Callable, Sequence

MAX_WINDOW = 40
_BUDGET = 10_000


def shorten_floats(
    scores: Sequence[float],
    pairs: list[tuple[int, int]],
    bad: Callable[[int, int], bool],
) -> list[tuple[int, int]]:
    """Return ``pairs`` (positions in score order) with the long floats re-paired exactly.

    ``bad(x, y)`` tells whether x and y may not meet (a rematch, or one club when clubs are
    kept apart). Parties that cannot be improved are returned unchanged.
    """
    levels = sorted(set(scores), reverse=True)
    index = {s: k for k, s in enumerate(levels)}
    mate = {}
    for x, y in pairs:
        mate[x], mate[y] = y, x
    done: set[int] = set()
    for x, y in sorted(pairs):
        lo, hi = sorted((index[scores[x]], index[scores[y]]))
        if hi - lo < 2 or x in done:
            continue
        window = _window(scores, index, mate, lo - 1, hi + 1)
        if window is None:
            continue
        done.update(window)
        better = _exact(sorted(window), scores, bad, _cost(scores, mate, window))
        if better is not None:
            for a, b in better:
                mate[a], mate[b] = b, a
    return sorted({(min(a, b), max(a, b)) for a, b in mate.items()})


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

    Branch and bound: the top entrant left meets someone, cheapest first; a branch is cut
    when its cost plus :func:`lower_bound` of the rest reaches the best found. None when
    nothing cheaper exists (or the budget runs out before one is found).
    """
    best: list[list[tuple[int, int]] | None] = [None]
    bound = [limit]
    left = [_BUDGET]
    chosen: list[tuple[int, int]] = []

    def walk(rem: list[int], cost: float) -> None:
        if not rem:
            bound[0] = cost
            best[0] = list(chosen)
            return
        x, rest = rem[0], rem[1:]
        for k, y in enumerate(rest):
            left[0] -= 1
            if left[0] < 0:
                return
            step = cost + (scores[x] - scores[y]) ** 2
            if step >= bound[0]:
                break  # partners further down only cost more
            if bad(x, y):
                continue
            others = rest[:k] + rest[k + 1 :]
            if step + lower_bound([scores[v] for v in others]) >= bound[0]:
                continue
            chosen.append((x, y))
            walk(others, step)
            chosen.pop()

    walk(items, 0.0)
    return best[0]
