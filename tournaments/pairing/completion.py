"""Completion check: can the remaining rounds still be drawn without a rematch?

FIDE pairing engines run such checks before accepting a round. The field is a graph whose
vertices are the entrants (plus one virtual vertex for the bye when the count is odd) and whose
edges join those who may still meet; ``k`` more rounds without a rematch exist exactly when
the graph holds ``k`` edge-disjoint perfect matchings. With at most about twenty vertices an
exact search is cheap: vertex sets are bitmasks, failed graphs are remembered (so the same
rest reached by choosing the same rounds in another order is not searched twice), and where a
vertex has exactly ``k`` possible opponents every one of them is used, so the round that
meets its first one can be fixed (the rounds are interchangeable). A budget bounds the work;
running out of it gives "unknown" (``None``), never a wrong answer.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

Matching = tuple[tuple[int, int], ...]


class BudgetExceeded(Exception):
    """The search used up its budget before it could decide."""


class Completion:
    """An exact search for rounds without rematches, memory shared between questions."""

    def __init__(self, budget: int = 200_000) -> None:
        self.left = budget
        self.failed: set[tuple[int, tuple[int, ...]]] = set()

    def rounds(self, adj: Sequence[int], k: int) -> list[Matching] | None:
        """``k`` edge-disjoint perfect matchings of ``adj`` (bitmask rows), or None if none.

        Raises :class:`BudgetExceeded` when the budget runs out first.
        """
        return self._rounds(tuple(adj), k)

    def check(self, adj: Sequence[int], k: int) -> bool | None:
        """True if ``k`` more rounds without a rematch exist, False if not, None if unknown."""
        try:
            return self.rounds(adj, k) is not None
        except BudgetExceeded:
            return None

    def _rounds(self, adj: tuple[int, ...], k: int) -> list[Matching] | None:
        if k == 0:
            return []
        key = (k, adj)
        if key in self.failed:
            return None
        degrees = [a.bit_count() for a in adj]
        low = min(degrees)
        if low < k:
            self.failed.add(key)
            return None
        if k == 2 and max(degrees) == 2:
            found = _two_regular(adj)
            if found is None:
                self.failed.add(key)
            return found
        start = degrees.index(low)
        forced = low == k  # every edge of ``start`` is used: the first round takes its lowest
        for matching in perfect_matchings(adj, start=start, first_only=forced):
            self.left -= 1
            if self.left < 0:
                raise BudgetExceeded
            rest = list(adj)
            for x, y in matching:
                rest[x] &= ~(1 << y)
                rest[y] &= ~(1 << x)
            more = self._rounds(tuple(rest), k - 1)
            if more is not None:
                return [matching, *more]
        self.failed.add(key)
        return None


def perfect_matchings(
    adj: Sequence[int],
    *,
    start: int | None = None,
    first_only: bool = False,
    order: Sequence[Sequence[int]] | None = None,
) -> Iterator[Matching]:
    """Every perfect matching of the graph ``adj`` (bitmask rows over vertices 0..m-1).

    The vertex with the fewest free neighbours is matched first (``start`` first, and with
    ``first_only`` only to its lowest neighbour). ``order[v]``, when given, is the order in
    which v's partners are tried and v is always the lowest free vertex (so matchings come
    roughly in order of preference) instead.
    """
    m = len(adj)
    full = (1 << m) - 1
    pairs: list[tuple[int, int]] = []

    def pick(free: int) -> tuple[int, list[int]]:
        if order is not None:
            v = (free & -free).bit_length() - 1
            return v, [u for u in order[v] if free >> u & 1 and adj[v] >> u & 1]
        best, best_n = -1, m + 1
        rest = free
        while rest:
            low = rest & -rest
            v = low.bit_length() - 1
            rest ^= low
            c = (adj[v] & free).bit_count()
            if c < best_n:
                best, best_n = v, c
                if c <= 1:
                    break
        return best, _bits(adj[best] & free)

    def walk(free: int, v: int | None, only_first: bool) -> Iterator[Matching]:
        if not free:
            yield tuple(pairs)
            return
        if v is None:
            v, partners = pick(free)
        else:
            partners = _bits(adj[v] & free & ~(1 << v))
            if only_first:
                partners = partners[:1]
        for u in partners:
            pairs.append((v, u) if v < u else (u, v))
            yield from walk(free & ~(1 << v) & ~(1 << u), None, False)
            pairs.pop()

    if m % 2:
        return
    yield from walk(full, start, first_only)


def _bits(mask: int) -> list[int]:
    """The positions of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _two_regular(adj: tuple[int, ...]) -> list[Matching] | None:
    """Two rounds from a graph where everyone has two possible opponents: even cycles only."""
    seen = 0
    first: list[tuple[int, int]] = []
    second: list[tuple[int, int]] = []
    for s in range(len(adj)):
        if seen >> s & 1:
            continue
        cycle = [s]
        seen |= 1 << s
        prev, cur = -1, s
        while True:
            nxt = next(u for u in _bits(adj[cur]) if u != prev)
            if nxt == s:
                break
            cycle.append(nxt)
            seen |= 1 << nxt
            prev, cur = cur, nxt
        if len(cycle) % 2:
            return None
        for i, x in enumerate(cycle):
            y = cycle[(i + 1) % len(cycle)]
            (first if i % 2 == 0 else second).append((min(x, y), max(x, y)))
    return [tuple(sorted(first)), tuple(sorted(second))]
