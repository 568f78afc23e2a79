"""Swiss draw for a pairs event.

Pipeline (in the spirit of Tabbycat's generators):

1. order the field: round 1 by seeding (rating) or by lot with a recorded seed, later rounds by
   score, then standings rank;
2. with an odd count, the bye goes to the lowest-ranked entrant among those with the fewest
   byes;
3. score brackets from the top: each bracket (entrants floated down from above first, then
   the score group) is paired by the chosen method (``slide``: top half against bottom half;
   ``fold``: first against last; ``adjacent``: first against second) with a bounded
   backtracking search that avoids conflicts; whoever cannot be paired floats to the next
   bracket;
4. if the brackets leave anyone unpaired, an exact fallback (Edmonds' blossom augmentation
   over the whole field, :mod:`.matching`) finds a draw without conflicts whenever one
   exists, the bye included as a virtual entrant that may meet any bye candidate;
5. only when no draw without a rematch exists at all are rematches made (as few as possible)
   and reported as warnings;
6. a party that skips a whole score group has the groups around it re-paired exactly
   (:mod:`.floats`); a small field's draw must leave the planned rounds after it drawable
   without a rematch (:mod:`.endgame`).

A conflict is a rematch and, when ``avoid_same_club`` is set, two entrants of the same club.
The club is kept apart only where that costs no rematch: a draw without rematches always
wins over one without same-club parties.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from .common import bye_candidates, check_unique, draw_order, too_few
from .endgame import endgame_draw, needs_check
from .errors import DrawWarning, _
from .floats import shorten_floats
from .matching import augment_matching, outward
from .types import Draw, Entrant, Pairing

PAIRING_METHODS = ("slide", "fold", "adjacent")
_BUDGET_BASE = 400
_BUDGET_PER_ENTRANT = 20


def swiss_draw(
    entrants: Sequence[Entrant],
    *,
    round_number: int,
    seed: int | None = None,
    avoid_same_club: bool = False,
    first_round: str = "seeding",
    pairing: str = "slide",
    rounds_planned: int | None = None,
) -> Draw:
    """Draw one Swiss round for a pairs event.

    ``entrants`` are the entrants available this round (withdrawn ones left out) with their
    history. Round 1 is ordered by ``first_round`` (``"seeding"`` by rating, ``"lot"`` by a
    shuffle with ``seed``; a new seed is drawn and returned in ``Draw.seed`` when none is
    given). The same input and seed always give the same draw. No rematch is made whenever a
    draw without one exists. With ``rounds_planned`` a small field's draw also keeps the
    rounds after it drawable without a rematch whenever it can (:mod:`.endgame`), and round 1
    offers a round robin when the planned rounds reach the field size less one. Raises
    :class:`DrawUserError` with fewer than two entrants.
    """
    check_unique(entrants)
    if len(entrants) < 2:
        raise too_few(len(entrants), 2)
    if pairing not in PAIRING_METHODS:
        raise ValueError(f"pairing must be one of {PAIRING_METHODS}, not {pairing!r}")
    ordered, seed = draw_order(
        entrants, round_number=round_number, first_round=first_round, seed=seed
    )
    solver = _SwissSolver(ordered, round_number, avoid_same_club, pairing)
    rounds_after = (rounds_planned or 0) - max(round_number, 1)
    parties, byes, warnings = solver.solve(rounds_after)
    if round_number <= 1 and rounds_planned and rounds_planned >= len(entrants) - 1:
        warnings.append(round_robin_offer(len(entrants), rounds_planned))
    return Draw(parties=parties, byes=byes, seed=seed, warnings=warnings)


def round_robin_offer(count: int, rounds_planned: int) -> DrawWarning:
    """The warning that offers a round robin to a field about to meet nearly everyone."""
    return DrawWarning(
        _(
            "%(rounds)d rounds are planned for %(count)d entrants, so nearly everyone meets "
            "everyone: a round robin (%(full)d rounds) guarantees no rematch. Consider "
            "switching the pairing system to round robin."
        ),
        rounds=rounds_planned,
        count=count,
        full=count - 1 + count % 2,
    )


class _SwissSolver:
    """Works on positions 0..n-1 of the ordered field (0 = top)."""

    def __init__(
        self, ordered: list[Entrant], round_number: int, avoid_club: bool, method: str
    ) -> None:
        self.ordered = ordered
        self.n = n = len(ordered)
        pos = {e.id: i for i, e in enumerate(ordered)}
        self.opp = [{pos[o] for o in e.opponents if o in pos} for e in ordered]
        self.avoid_club = avoid_club
        self.club = [e.club if avoid_club else "" for e in ordered]
        self.method = method
        self.first_round = round_number <= 1
        self.bye = -1
        self.bye_cands: list[int] = []
        if n % 2:
            _, self.bye_cands, _ = bye_candidates([e.had_bye for e in ordered], 1)
            self.bye = self.bye_cands[-1]

    # -- conflicts -------------------------------------------------------------------------
    def bad(self, x: int, y: int) -> bool:
        """True when x and y may not meet in the fast pass (rematch or same club)."""
        if y in self.opp[x]:
            return True
        c = self.club[x]
        return bool(c) and c == self.club[y]

    # -- pipeline ----------------------------------------------------------------------------
    def solve(self, rounds_after: int = 0) -> tuple[list[Pairing], list[int], list[str]]:
        pairs, unpaired = self.pair_brackets()
        if unpaired:
            pairs, bye = self.fallback(pairs)
        else:
            bye = self.bye
        scores = [e.score for e in self.ordered]
        if not self.first_round:
            pairs = shorten_floats(scores, pairs, self.bad)
        if needs_check(self.n, self.opp, rounds_after, len(self.bye_cands)):
            pairs, bye = endgame_draw(
                scores, self.opp, self.bye_cands, pairs, bye, rounds_after, self.club
            )
        return self.annotate(pairs, bye)

    def brackets(self) -> list[list[int]]:
        """Score groups of the positions to pair (the bye left out), best first."""
        todo = [i for i in range(self.n) if i != self.bye]
        if self.first_round:
            return [todo]
        groups: list[list[int]] = []
        last = None
        for i in todo:
            s = self.ordered[i].score
            if not groups or s != last:
                groups.append([])
                last = s
            groups[-1].append(i)
        return groups

    def pair_brackets(self) -> tuple[list[tuple[int, int]], list[int]]:
        pairs: list[tuple[int, int]] = []
        floaters: list[int] = []
        for group in self.brackets():
            got, floaters = self.pair_bracket(floaters + group, len(floaters))
            pairs.extend(got)
        return pairs, floaters

    def candidates(self, m: int, floater: bool) -> Iterator[int]:
        """Indices 1..m-1 of possible partners for item 0 of m, preferred first."""
        if m < 2:
            return iter(())
        if floater or self.method == "adjacent":
            return iter(range(1, m))
        if self.method == "fold":
            return iter(range(m - 1, 0, -1))
        return _around(m // 2, 1, m - 1)

    def pair_bracket(
        self, items: list[int], n_float: int
    ) -> tuple[list[tuple[int, int]], list[int]]:
        """Pair a bracket completely (one floats if odd), else as many as greedily possible."""
        m = len(items)
        budget = [_BUDGET_BASE + _BUDGET_PER_ENTRANT * m]
        if m % 2 == 0:
            got = self.search(items, n_float, budget)
            if got is not None:
                return got, []
        else:
            # the lowest resident floats down if it can, then the next one up, ...
            for k in range(m - 1, -1, -1):
                rest = items[:k] + items[k + 1 :]
                got = self.search(rest, n_float - (k < n_float), budget)
                if got is not None:
                    return got, [items[k]]
                if budget[0] <= 0:
                    break
        exact = self.exact_bracket(items)
        return exact if exact is not None else self.greedy(items, n_float)

    def exact_bracket(self, items: list[int]) -> tuple[list[tuple[int, int]], list[int]] | None:
        """Pair the whole bracket (one floats if odd, the lowest it can) by Edmonds' blossoms.

        Run where the bounded search gave up, so a bracket that can be paired completely
        never floats more entrants down than its parity needs (None if it cannot).
        """
        m = len(items)
        odd = m % 2 == 1
        size = m + odd
        mate = [-1] * size
        bad = self.bad

        def neighbours(v: int) -> Iterator[int]:
            if v == m:  # the virtual "floats down" partner: the lowest first
                yield from range(m - 1, -1, -1)
                return
            x = items[v]
            for u in outward(v, m):
                if not bad(x, items[u]):
                    yield u
            if odd:
                yield m

        augment_matching(size, mate, neighbours)
        if -1 in mate:
            return None
        pairs = [(items[v], items[mate[v]]) for v in range(m) if v < mate[v] < m]
        return pairs, [items[v] for v in range(m) if mate[v] == m]

    def search(
        self, items: list[int], n_float: int, budget: list[int]
    ) -> list[tuple[int, int]] | None:
        """Backtracking search for a complete pairing without conflicts (None if none found)."""
        rem = list(items)
        floaters = set(items[:n_float])
        opp, club = self.opp, self.club
        pairs: list[tuple[int, int]] = []
        stack: list[tuple[int, int, int, Iterator[int]]] = []
        gen = self.candidates(len(rem), rem[0] in floaters) if rem else iter(())
        left = budget[0]
        while rem:
            x = rem[0]
            ox, cx = opp[x], club[x]
            chosen = -1
            for j in gen:
                left -= 1
                y = rem[j]
                if y in ox or (cx and cx == club[y]):
                    continue
                chosen = j
                break
            if chosen >= 0:
                y = rem[chosen]
                stack.append((x, y, chosen, gen))
                pairs.append((x, y))
                del rem[chosen]
                del rem[0]
                if rem:
                    gen = self.candidates(len(rem), rem[0] in floaters)
                continue
            if not stack or left <= 0:
                budget[0] = left
                return None
            x, y, j, gen = stack.pop()
            pairs.pop()
            rem.insert(0, x)
            rem.insert(j, y)
        budget[0] = left
        return pairs

    def greedy(self, items: list[int], n_float: int) -> tuple[list[tuple[int, int]], list[int]]:
        """Pair in preference order without backtracking; return pairs and the unpaired."""
        rem = list(items)
        floaters = set(items[:n_float])
        pairs: list[tuple[int, int]] = []
        unpaired: list[int] = []
        while rem:
            x = rem[0]
            for j in self.candidates(len(rem), x in floaters):
                if not self.bad(x, rem[j]):
                    pairs.append((x, rem[j]))
                    del rem[j]
                    break
            else:
                unpaired.append(x)
            del rem[0]
        return pairs, unpaired

    # -- exact fallback ---------------------------------------------------------------------
    def fallback(self, pairs: list[tuple[int, int]]) -> tuple[list[tuple[int, int]], int]:
        """Augment the partial draw to a maximum one over the whole field (see module doc)."""
        n = self.n
        odd = n % 2 == 1
        size = n + 1 if odd else n
        virtual = n  # the bye, when odd
        mate = [-1] * size
        for x, y in pairs:
            mate[x] = y
            mate[y] = x
        if odd:
            mate[virtual] = self.bye
            mate[self.bye] = virtual
        cand_set = set(self.bye_cands)
        low_first = self.bye_cands[::-1]
        opp, club = self.opp, self.club

        def make_neighbours(with_club: bool) -> Callable[[int], Iterator[int]]:
            def neighbours(v: int) -> Iterator[int]:
                if v == virtual and odd:
                    yield from low_first
                    return
                ov, cv = opp[v], club[v] if with_club else ""
                for to in outward(v, n):
                    if to in ov or (cv and cv == club[to]):
                        continue
                    yield to
                if odd and v in cand_set:
                    yield virtual

            return neighbours

        phases = [True, False] if self.avoid_club else [False]
        for with_club in phases:
            free = [v for v in range(n) if mate[v] == -1]
            if not free:
                break
            augment_matching(size, mate, make_neighbours(with_club), roots=free)
        result = [(v, mate[v]) for v in range(n) if v < mate[v] < n]
        leftover = [v for v in range(n) if mate[v] == -1]
        # no draw without rematches exists: pair the rest in order (as few rematches as can be)
        result.extend(zip(leftover[::2], leftover[1::2], strict=True))
        return result, (mate[virtual] if odd else -1)

    # -- output ---------------------------------------------------------------------------
    def annotate(
        self, pairs: list[tuple[int, int]], bye: int
    ) -> tuple[list[Pairing], list[int], list[str]]:
        ordered = self.ordered
        norm = sorted((min(x, y), max(x, y)) for x, y in pairs)
        parties = [Pairing(ordered[x].id, ordered[y].id) for x, y in norm]
        warnings: list[str] = []
        for x, y in norm:
            if y in self.opp[x]:
                warnings.append(
                    DrawWarning(
                        _("Rematch: %(a)s against %(b)s (no draw without a rematch exists)."),
                        a=ordered[x].id,
                        b=ordered[y].id,
                    )
                )
        if self.avoid_club:
            same = sum(1 for x, y in norm if self.club[x] and self.club[x] == self.club[y])
            if same:
                warnings.append(
                    DrawWarning(
                        _("%(count)d parties are between entrants of the same club."),
                        count=same,
                    )
                )
        byes = [ordered[bye].id] if bye >= 0 else []
        return parties, byes, warnings


def _around(ideal: int, lo: int, hi: int) -> Iterator[int]:
    """Yield lo..hi starting at ``ideal`` and moving outward (ideal, +1, -1, +2, -2, ...)."""
    yield ideal
    step = 1
    while ideal + step <= hi or ideal - step >= lo:
        if ideal + step <= hi:
            yield ideal + step
        if ideal - step >= lo:
            yield ideal - step
        step += 1
