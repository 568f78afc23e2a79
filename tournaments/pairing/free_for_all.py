"""Draw for games where every player plays for himself: tables of three or four players.

Kozel, and the draw, block and classic games of three or four players, have no partners:
everyone at a table is an opponent. Each round:

1. order the field (round 1 by seeding or by lot, later by score, then rank);
2. ``n % table_size`` players get a bye: the fewest byes first, the lowest-ranked first among
   equals;
3. take the best-ranked player left and seat with him the ``table_size - 1`` players, among
   the next three tables' worth, with whom the table repeats the fewest earlier meetings
   (displacing as little as possible), so the strongest players meet each other; repeat
   until all are seated;
4. while a table repeats meetings, swap one of its players with one of another table (the
   nearest tables first) whenever that lowers the number of repeated meetings.

A table's seats follow the standings: its best player is a1, then b1, a2 (and b2). Pair A of
the table holds a1 and a2, pair B holds b1 (and b2): seat groups, not partners.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .common import bye_candidates, check_unique, draw_order, too_few
from .errors import DrawWarning, _
from .types import IndividualDraw, IndividualTable, PlayerEntrant

TABLE_SIZES = (3, 4)
_WINDOW_TABLES = 3  # how many tables' worth of players below the top one the draw looks at


def free_for_all_draw(
    players: Sequence[PlayerEntrant],
    *,
    round_number: int,
    seed: int | None = None,
    first_round: str = "seeding",
    table_size: int = 4,
) -> IndividualDraw:
    """Draw one round of tables of ``table_size`` players, each for himself (module doc).

    Raises :class:`DrawUserError` when fewer players than a table's seats are available.
    """
    check_unique(players)
    if table_size not in TABLE_SIZES:
        raise ValueError(f"table_size must be one of {TABLE_SIZES}, not {table_size!r}")
    if len(players) < table_size:
        raise too_few(len(players), table_size)
    ordered, seed = draw_order(
        players, round_number=round_number, first_round=first_round, seed=seed
    )
    n = len(ordered)
    must, candidates, slots = bye_candidates([p.had_bye for p in ordered], n % table_size)
    byes = sorted(must + (candidates[-slots:] if slots else []))
    position = {p.id: i for i, p in enumerate(ordered)}
    met = [{position[o] for o in p.opponents if o in position} for p in ordered]
    left = [i for i in range(n) if i not in set(byes)]
    groups: list[tuple[int, ...]] = []
    while left:
        group = _best_group(left, met, table_size)
        groups.append(group)
        left = [i for i in left if i not in group]
    groups = sorted(_improve(groups, met))
    repeats = sum(repeated_meetings(group, met) for group in groups)
    tables = [_seated([ordered[i].id for i in group]) for group in groups]
    warnings: list[str] = []
    if repeats:
        warnings.append(
            DrawWarning(
                _("%(count)d player-opponent meetings repeat an earlier round."), count=repeats
            )
        )
    return IndividualDraw(
        tables=tables, byes=[ordered[i].id for i in byes], seed=seed, warnings=warnings
    )


def repeated_meetings(group: Sequence[int], met: Sequence[set[int]]) -> int:
    """How many of the meetings of a table's players (positions) repeat an earlier round."""
    return sum(1 for x, y in combinations(group, 2) if y in met[x] or x in met[y])


def _best_group(left: list[int], met: Sequence[set[int]], size: int) -> tuple[int, ...]:
    """The table of the best player left: fewest repeated meetings, then least displacement."""
    top, window = left[0], left[1 : 1 + _WINDOW_TABLES * size]
    _key, group = min(
        ((repeated_meetings(group, met), sum(combo)), group)
        for combo in combinations(range(len(window)), size - 1)
        for group in [(top, *(window[c] for c in combo))]
    )
    return group


def _improve(groups: list[tuple[int, ...]], met: Sequence[set[int]]) -> list[tuple[int, ...]]:
    """Swap players between tables while a swap lowers the repeated meetings (module doc)."""
    tables = [list(group) for group in groups]
    cost = [repeated_meetings(table, met) for table in tables]
    while True:
        swap = next(
            (found for i in range(len(tables)) if cost[i]
             for found in [_better_swap(tables, cost, i, met)] if found),
            None,
        )
        if swap is None:
            return [tuple(sorted(table)) for table in tables]
        (i, a, cost_i), (j, b, cost_j) = swap
        tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
        cost[i], cost[j] = cost_i, cost_j


def _better_swap(
    tables: list[list[int]], cost: list[int], i: int, met: Sequence[set[int]]
) -> tuple[tuple[int, int, int], tuple[int, int, int]] | None:
    """The first swap of a player of table ``i`` that lowers the repeats (nearest tables first)."""
    for j in sorted(range(len(tables)), key=lambda j: (abs(j - i), j)):
        if j == i:
            continue
        for a, x in enumerate(tables[i]):
            for b, y in enumerate(tables[j]):
                one = [y if k == a else p for k, p in enumerate(tables[i])]
                two = [x if k == b else p for k, p in enumerate(tables[j])]
                cost_i, cost_j = repeated_meetings(one, met), repeated_meetings(two, met)
                if cost_i + cost_j < cost[i] + cost[j]:
                    return (i, a, cost_i), (j, b, cost_j)
    return None


def _seated(ids: Sequence[int]) -> IndividualTable:
    """A table's players (in standings order) in their seats a1, b1, a2, b2."""
    return IndividualTable(tuple(ids[0::2]), tuple(ids[1::2]))
