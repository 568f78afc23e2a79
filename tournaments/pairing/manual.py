"""Validation of a draw the organizer made or edited by hand.

A manual draw is refused (:class:`DrawUserError`) only when it cannot be played: an entrant
listed twice, an available entrant left out, an unknown entrant, a table used twice.
Everything else the engine would have avoided (rematches, repeat partners, repeat opponents,
same-club parties, a second bye while others have none) is only flagged as a warning.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

from .errors import DrawUserError, DrawWarning, _
from .types import Entrant, PlayerEntrant


def _check_tables(tables: Sequence[int] | None, count: int) -> None:
    if tables is None:
        return
    if len(tables) != count:
        raise ValueError("give one table number per party")
    for table, times in Counter(tables).items():
        if times > 1:
            raise DrawUserError(_("Table %(table)s is used twice."), table=table)


def _check_cover(listed: Iterable[int], known: set[int]) -> None:
    """Every known entrant exactly once, nobody unknown."""
    counts = Counter(listed)
    for entrant, times in counts.items():
        if entrant not in known:
            raise DrawUserError(
                _("Entrant %(entrant)s is not in this round's field."), entrant=entrant
            )
        if times > 1:
            raise DrawUserError(_("Entrant %(entrant)s appears twice."), entrant=entrant)
    missing = sorted(known - set(counts))
    if missing:
        raise DrawUserError(
            _("Entrants missing from the draw: %(entrants)s."),
            entrants=", ".join(str(e) for e in missing),
        )


def _bye_warnings(byes: Sequence[int], had_bye: dict[int, int]) -> list[str]:
    out: list[str] = []
    if not byes:
        return out
    fewest_elsewhere = min((b for e, b in had_bye.items() if e not in set(byes)), default=None)
    for e in byes:
        if fewest_elsewhere is not None and had_bye[e] > fewest_elsewhere:
            out.append(
                DrawWarning(
                    _("%(entrant)s gets another bye while others have had fewer."), entrant=e
                )
            )
    return out


def validate_manual(
    parties: Sequence[tuple[int, int]],
    byes: Sequence[int],
    entrants: Sequence[Entrant],
    *,
    tables: Sequence[int] | None = None,
    avoid_same_club: bool = False,
) -> list[str]:
    """Check a hand-made pairs draw; return warnings, raise :class:`DrawUserError` if unplayable.

    ``entrants`` is this round's field with its history; every one of them must be in exactly
    one party or have a bye. ``tables`` (optional, one per party) must not repeat a number.
    """
    known = {e.id for e in entrants}
    for a, b in parties:
        if a == b:
            raise DrawUserError(_("Entrant %(entrant)s cannot play itself."), entrant=a)
    _check_cover([x for p in parties for x in p] + list(byes), known)
    _check_tables(tables, len(parties))
    by_id = {e.id: e for e in entrants}
    warnings: list[str] = []
    for a, b in parties:
        if b in by_id[a].opponents or a in by_id[b].opponents:
            warnings.append(DrawWarning(_("Rematch: %(a)s against %(b)s."), a=a, b=b))
        if avoid_same_club and by_id[a].club and by_id[a].club == by_id[b].club:
            warnings.append(
                DrawWarning(
                    _("%(a)s and %(b)s are of the same club (%(club)s)."),
                    a=a,
                    b=b,
                    club=by_id[a].club,
                )
            )
    warnings += _bye_warnings(byes, {e.id: e.had_bye for e in entrants})
    return warnings


def validate_manual_individual(
    tables: Sequence[tuple[tuple[int, ...], tuple[int, ...]]],
    byes: Sequence[int],
    players: Sequence[PlayerEntrant],
    *,
    table_numbers: Sequence[int] | None = None,
    free_for_all: bool = False,
    table_size: int = 4,
) -> list[str]:
    """Check a hand-made individual draw (two pairs per table); flag repeat partners/opponents.

    With ``free_for_all`` every player plays for himself: a table seats ``table_size``
    players (pair A two, pair B the rest) and every repeated meeting at a table is flagged.
    Raises :class:`DrawUserError` when a player is listed twice, missing or unknown, a table
    number repeats or a table seats the wrong number of players.
    """
    known = {p.id for p in players}
    listed = [x for pa, pb in tables for x in (*pa, *pb)]
    _check_cover(listed + list(byes), known)
    _check_tables(table_numbers, len(tables))
    seats = table_size if free_for_all else 4
    for pa, pb in tables:
        if len(pa) != 2 or len(pa) + len(pb) != seats:
            raise DrawUserError(_("Every table seats %(count)d players."), count=seats)
    by_id = {p.id: p for p in players}
    warnings: list[str] = []
    for pa, pb in tables:
        if free_for_all:
            for x, y in combinations((*pa, *pb), 2):
                if y in by_id[x].opponents or x in by_id[y].opponents:
                    warnings.append(
                        DrawWarning(_("Repeat opponents: %(a)s against %(b)s."), a=x, b=y)
                    )
            continue
        for x, y in (pa, pb):
            if y in by_id[x].partners or x in by_id[y].partners:
                warnings.append(DrawWarning(_("Repeat partners: %(a)s and %(b)s."), a=x, b=y))
        for x in pa:
            for y in pb:
                if y in by_id[x].opponents or x in by_id[y].opponents:
                    warnings.append(
                        DrawWarning(_("Repeat opponents: %(a)s against %(b)s."), a=x, b=y)
                    )
    warnings += _bye_warnings(byes, {p.id: p.had_bye for p in players})
    return warnings
