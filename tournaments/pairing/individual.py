"""Draw for an individual event: new pairs of players every round, two pairs per table.

1. order the field (round 1 by seeding or by lot, later by score, then rank);
2. ``n % 4`` players get a bye: the fewest byes first, the lowest-ranked first among equals;
3. fast pass: take the four best-ranked players left and seat them at the next table, split
   1+4 against 2+3 (then 1+3/2+4, then 1+2/3+4), so the strongest players meet each other;
   a split never repeats a partnership (hard). When every split of those four repeats an
   opponent, look a few places further down for a quartet with fewer repeat opponents
   (displacing as little as possible); the last two tables are re-formed exhaustively if the
   last four cannot be seated;
4. exact fallback: if the fast pass gets stuck, a maximum matching over the whole field in
   the "never partnered" graph (Edmonds' blossom, bye slots as virtual players) finds new
   partners for everyone whenever that is possible at all; the pairs are then seated two to
   a table in standings order, avoiding repeat opponents where it can. When no draw without
   a repeat partner exists, a :class:`DrawUserError` is raised (or, with
   ``allow_repeat_partners``, repeat partners are made and reported).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from .common import bye_candidates, check_unique, draw_order, too_few
from .errors import DrawUserError, DrawWarning, _
from .matching import augment_matching, outward
from .types import IndividualDraw, IndividualTable, PlayerEntrant

_WINDOW = 7  # how far below the top player the fast pass looks for a better quartet

Split = tuple[tuple[int, int], tuple[int, int]]


def _sorted_pair(pair: tuple[int, int]) -> tuple[int, int]:
    """The pair with its lower index first."""
    a, b = pair
    return (a, b) if a <= b else (b, a)


def individual_draw(
    players: Sequence[PlayerEntrant],
    *,
    round_number: int,
    seed: int | None = None,
    first_round: str = "seeding",
    allow_repeat_partners: bool = False,
) -> IndividualDraw:
    """Draw one round of an individual event (see the module docstring for the method).

    Raises :class:`DrawUserError` with fewer than four players, or when every possible draw
    repeats a partnership and ``allow_repeat_partners`` is not set.
    """
    check_unique(players)
    if len(players) < 4:
        raise too_few(len(players), 4)
    ordered, seed = draw_order(
        players, round_number=round_number, first_round=first_round, seed=seed
    )
    tables, byes, warnings = _IndividualSolver(ordered, allow_repeat_partners).solve()
    return IndividualDraw(tables=tables, byes=byes, seed=seed, warnings=warnings)


class _IndividualSolver:
    """Works on positions 0..n-1 of the ordered field (0 = top)."""

    def __init__(self, ordered: list[PlayerEntrant], allow_repeat: bool) -> None:
        self.ordered = ordered
        self.n = n = len(ordered)
        pos = {p.id: i for i, p in enumerate(ordered)}
        self.partners = [{pos[o] for o in p.partners if o in pos} for p in ordered]
        self.opp = [{pos[o] for o in p.opponents if o in pos} for p in ordered]
        self.allow_repeat = allow_repeat
        self.must, self.cands, self.slots = bye_candidates([p.had_bye for p in ordered], n % 4)
        self.byes = sorted(self.must + (self.cands[-self.slots :] if self.slots else []))

    # -- costs ----------------------------------------------------------------------------
    def splits(self, q: Sequence[int]) -> Iterator[tuple[int, Split]]:
        """Yield (preference, split) for a quartet in rank order, partner repeats left out."""
        p0, p1, p2, p3 = q
        part = self.partners
        for pref, split in enumerate(
            (((p0, p3), (p1, p2)), ((p0, p2), (p1, p3)), ((p0, p1), (p2, p3)))
        ):
            (a, b), (c, d) = split
            if b not in part[a] and d not in part[c]:
                yield pref, split

    def opp_cost(self, pa: tuple[int, int], pb: tuple[int, int]) -> int:
        """How many of the four player-opponent meetings of two pairs are repeats."""
        oa, ob = self.opp[pa[0]], self.opp[pa[1]]
        c, d = pb
        return (c in oa) + (d in oa) + (c in ob) + (d in ob)

    # -- pipeline ---------------------------------------------------------------------------
    def solve(self) -> tuple[list[IndividualTable], list[int], list[str]]:
        bye_set = set(self.byes)
        rem = [i for i in range(self.n) if i not in bye_set]
        tables: list[Split] = []
        while rem:
            best = self.best_quartet(rem)
            if best is None:
                if len(rem) == 4 and tables and self.repair(tables, rem):
                    break
                return self.fallback(tables)
            tables.append(best)
            for pair in best:
                rem.remove(pair[0])
                rem.remove(pair[1])
        return self.annotate(tables, self.byes, [])

    def best_quartet(self, rem: list[int]) -> Split | None:
        """The table for the best player left: natural quartet first, then the window."""
        best_key: tuple[int, int, int] | None = None
        best: Split | None = None
        for pref, split in self.splits(rem[:4]):
            cost = self.opp_cost(*split)
            if cost == 0:
                return split
            if best_key is None or (cost, 0, pref) < best_key:
                best_key, best = (cost, 0, pref), split
        top, window = rem[0], rem[1 : 1 + _WINDOW]
        for combo in combinations(range(len(window)), 3):
            disp = sum(combo) - 3
            if disp == 0 or (best_key is not None and best_key[0] == 0 and disp >= best_key[1]):
                continue
            q = (top, window[combo[0]], window[combo[1]], window[combo[2]])
            for pref, split in self.splits(q):
                key = (self.opp_cost(*split), disp, pref)
                if best_key is None or key < best_key:
                    best_key, best = key, split
        return best

    def repair(self, tables: list[Split], rem: list[int]) -> bool:
        """Re-form the last table together with the last four players, exhaustively."""
        last = tables[-1]
        eight = sorted([*last[0], *last[1], *rem])
        best_key, best = None, None
        first, others = eight[0], eight[1:]
        for combo in combinations(range(7), 3):
            qa = sorted((first, *(others[c] for c in combo)))
            qb = [others[c] for c in range(7) if c not in combo]
            for pa, sa in self.splits(qa):
                for pb, sb in self.splits(qb):
                    key = (self.opp_cost(*sa) + self.opp_cost(*sb), sum(combo), pa + pb)
                    if best_key is None or key < best_key:
                        best_key, best = key, (sa, sb)
        if best is None:
            return False
        tables[-1:] = list(best)
        return True

    # -- exact fallback -------------------------------------------------------------------
    def fallback(self, tables: list[Split]) -> tuple[list[IndividualTable], list[int], list[str]]:
        """New partners for all by a maximum matching, then seat the pairs (module doc)."""
        must = set(self.must)
        real = [i for i in range(self.n) if i not in must]
        vid = {p: v for v, p in enumerate(real)}
        nr = len(real)
        size = nr + self.slots
        mate = [-1] * size
        for split in tables:
            for a, b in split:
                mate[vid[a]], mate[vid[b]] = vid[b], vid[a]
        flexible = [p for p in self.byes if p not in must]
        for k, p in enumerate(flexible):
            mate[nr + k], mate[vid[p]] = vid[p], nr + k
        cand_v = [vid[p] for p in self.cands]
        cand_set = set(cand_v)
        virtuals = range(nr, size)
        low_first = cand_v[::-1]
        partners = self.partners

        def neighbours(v: int) -> Iterator[int]:
            if v >= nr:
                yield from low_first
                return
            pv = partners[real[v]]
            for to in outward(v, nr):
                if real[to] not in pv:
                    yield to
            if v in cand_set:
                yield from virtuals

        free = [v for v in range(nr) if mate[v] == -1]
        augment_matching(size, mate, neighbours, roots=free)
        warnings: list[str] = []
        pairs = [(real[v], real[mate[v]]) for v in range(nr) if v < mate[v] < nr]
        leftover = [real[v] for v in range(nr) if mate[v] == -1]
        if leftover:
            if not self.allow_repeat:
                raise DrawUserError(
                    _(
                        "No draw without a repeat partner exists for these %(count)d players; "
                        "make the draw by hand or allow repeat partners."
                    ),
                    count=self.n,
                )
            for a, b in zip(leftover[::2], leftover[1::2], strict=True):
                pairs.append((a, b))
                warnings.append(
                    DrawWarning(
                        _("Repeat partners: %(a)s and %(b)s (no draw without one exists)."),
                        a=self.ordered[a].id,
                        b=self.ordered[b].id,
                    )
                )
        byes = sorted(must | {real[mate[v]] for v in virtuals})
        return self.annotate(self.seat(tables, pairs), byes, warnings)

    def seat(self, tables: list[Split], pairs: list[tuple[int, int]]) -> list[Split]:
        """Keep the fast pass's tables whose pairs survived; seat the other pairs in order."""
        have = {_sorted_pair(p) for p in pairs}
        kept = [t for t in tables if all(_sorted_pair(p) in have for p in t)]
        used = {_sorted_pair(p) for t in kept for p in t}
        rest = sorted(_sorted_pair(p) for p in pairs if _sorted_pair(p) not in used)
        seated = list(kept)
        while rest:
            first = rest.pop(0)
            best_j, best_key = 0, None
            for j, other in enumerate(rest[:_WINDOW]):
                key = (self.opp_cost(first, other), j)
                if best_key is None or key < best_key:
                    best_j, best_key = j, key
            seated.append((first, rest.pop(best_j)))
        return seated

    # -- output -----------------------------------------------------------------------------
    def annotate(
        self, tables: list[Split], byes: list[int], warnings: list[str]
    ) -> tuple[list[IndividualTable], list[int], list[str]]:
        ordered = self.ordered
        norm = []
        repeats = 0
        for pa, pb in tables:
            pa, pb = _sorted_pair(pa), _sorted_pair(pb)
            if pb < pa:
                pa, pb = pb, pa
            norm.append((pa, pb))
            repeats += self.opp_cost(pa, pb)
        norm.sort()
        out = [
            IndividualTable(
                (ordered[pa[0]].id, ordered[pa[1]].id), (ordered[pb[0]].id, ordered[pb[1]].id)
            )
            for pa, pb in norm
        ]
        if repeats:
            warnings.append(
                DrawWarning(
                    _("%(count)d player-opponent meetings repeat an earlier round."),
                    count=repeats,
                )
            )
        return out, [ordered[i].id for i in sorted(byes)], warnings
