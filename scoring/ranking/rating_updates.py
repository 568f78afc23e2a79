"""Recomputing a rating list and storing only what changed: from scratch, or from a period on.

A finished or corrected party marks the lists rating its tournament
(:mod:`scoring.ranking.rating_tasks`): ``recompute_from`` lowered to the tournament's rating
period, one run queued. A run takes the mark under the list's row lock, starts from the stored
rows before that period (exactly: Glicko-2's own mu and phi are stored with each row),
recomputes that period and the later ones with the engine, compares them with the stored rows
and writes the changed rows only. Its rows equal a recompute from scratch's, to the last bit.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Sum

from scoring.core.bulk import copy_rows
from scoring.models import RatingEntry, RatingList
from scoring.ranking.rating_inputs import (
    VALUES,
    entry_fields,
    entry_values,
    list_parameters,
    rated_field,
    rated_tournaments,
)
from scoring.ratings import HistoryRow, compute_history, start_state
from scoring.ratings.history import ELO

logger = logging.getLogger(__name__)

CHUNK = 1000
"""Ids per ``IN (...)`` of a delete or an update."""

INSERTED = 50_000
"""Rows per COPY (or ``bulk_create``) of the rows created."""

WINDOW = 2
"""Periods before a run's first period whose rows are read whole for the subjects' last rows
(the others' are read by their names)."""


@dataclass(frozen=True)
class RatingRun:
    """What one run did: the first period it recomputed, its rows from there, and the rows it
    created (new or changed), deleted (gone or changed) and whose ``current`` it turned."""

    first: int
    rows: int
    created: int
    deleted: int
    turned: int

    @property
    def written(self) -> int:
        """The rows the run wrote (created, deleted or turned)."""
        return self.created + self.deleted + self.turned


def recompute_rating_list(list_id: int) -> int:
    """Recompute a list from scratch, write what changed; the number of its entries.

    The list's row is locked, so two runs of one list go one after the other; a pending mark
    is taken (the list is up to date after it).
    """
    run = _run(list_id, 1, ())
    return 0 if run is None else run.rows


def update_rating_list(list_id: int, tournament_ids: Sequence[int] = ()) -> RatingRun | None:
    """The list's pending run: from its mark (lowered to these tournaments' periods, a mark
    sent with the task when the list was busy) on; None when nothing was pending."""
    return _run(list_id, None, tournament_ids)


def period_of(periods: Sequence[int], tournament_ids: Iterable[int]) -> int:
    """The first rating period of these tournaments in ``periods`` (tournament ids in period
    order); those not there are another list's, or new to this one, which a run finds by
    comparing ``periods`` with the list's tournaments (past the last period when none is)."""
    found = [periods.index(t) + 1 for t in tournament_ids if t in periods]
    return min(found, default=len(periods) + 1)


def _first_difference(stored: Sequence[int], ids: Sequence[int]) -> int:
    """The first period whose tournament differs between the stored rows and the list now."""
    for index, (was, now) in enumerate(zip(stored, ids, strict=False)):
        if was != now:
            return index + 1
    return min(len(stored), len(ids)) + 1


def _run(list_id: int, first: int | None, tournament_ids: Sequence[int]) -> RatingRun | None:
    """Lock the list, take its mark, recompute from the first period needed, write, unmark."""
    with transaction.atomic():
        rating_list = RatingList.objects.select_for_update().filter(pk=list_id).first()
        if rating_list is None:
            return None
        tournaments = rated_tournaments(rating_list)
        ids = [t.pk for t in tournaments]
        marks = [m for m in (first, rating_list.recompute_from) if m is not None]
        if tournament_ids:
            marks.append(period_of(ids, tournament_ids))
        if not marks:
            return None
        start = max(1, min(*marks, _first_difference(rating_list.periods, ids)))
        try:
            run = _recompute(rating_list, tournaments, start)
        except ValueError:  # rows stored before Glicko-2's state was: from scratch
            run = _recompute(rating_list, tournaments, 1)
        rating_list.periods = ids
        rating_list.recompute_from = None
        rating_list.recompute_queued_at = None
        rating_list.save(update_fields=["periods", "recompute_from", "recompute_queued_at"])
    logger.info("rating list recomputed: list=%s from=%s tournaments=%s rows=%s created=%s "
                "deleted=%s turned=%s", list_id, run.first, len(ids), run.rows, run.created,
                run.deleted, run.turned)
    return run


def _recompute(rating_list: RatingList, tournaments: list[Any], first: int) -> RatingRun:
    """Recompute the periods from ``first`` on and write the difference to the stored rows."""
    field = rated_field(rating_list, tournaments, first)
    entries = RatingEntry.objects.filter(rating_list=rating_list)
    old = {
        (row[1], row[2]): (row[0], row[3:])
        for row in entries.filter(sequence__gte=first).values_list(
            "id", "subject", "tournament_id", *VALUES)
    }
    stored = len(old)
    subjects = {key[0] for key in old}
    for parties in field.periods:
        for party in parties:
            for side in party.sides:
                subjects.update(side)
    state, last_before = _state_before(rating_list, first, subjects)
    rows = compute_history(rating_list.system, list_parameters(rating_list), field.periods,
                           first=first, start=state)
    created, stale = _changed(rating_list, field.tournaments, rows, old)
    stale.extend(pk for pk, _values in old.values())
    rated_now = {row.subject for row in rows}
    turn_on = [pk for subject, (pk, current) in last_before.items()
               if not current and subject not in rated_now]
    turn_off = [pk for subject, (pk, current) in last_before.items()
                if current and subject in rated_now]
    for ids, value in ((turn_on, True), (turn_off, False)):
        for start in range(0, len(ids), CHUNK):
            entries.filter(pk__in=ids[start:start + CHUNK]).update(current=value)
    if stale and len(stale) == stored:  # every row from ``first`` on changed: one DELETE
        entries.filter(sequence__gte=first).delete()
    for start in range(0, len(stale) if len(stale) < stored else 0, CHUNK):
        entries.filter(pk__in=stale[start:start + CHUNK]).delete()
    for start in range(0, len(created), INSERTED):
        copy_rows(RatingEntry, created[start:start + INSERTED])
    return RatingRun(first, len(rows), len(created), len(stale), len(turn_on) + len(turn_off))


def _changed(rating_list: RatingList, tournaments: list[Any], rows: list[HistoryRow],
             old: dict[tuple[str, int], tuple[int, tuple[Any, ...]]]
             ) -> tuple[list[dict[str, Any]], list[int]]:
    """The rows to create (new, or differing from the stored row of their subject and
    tournament) and the stored rows they replace; ``old`` keeps the stored rows not made."""
    last = {row.subject: row.period for row in rows}
    created, stale = [], []
    for row in rows:
        tournament = tournaments[row.period - 1].pk
        values = entry_values(row, last)
        found = old.pop((row.subject, tournament), None)
        if found is not None:
            if found[1] == values:
                continue
            stale.append(found[0])
        created.append(entry_fields(rating_list.pk, row.subject, tournament, values))
    return created, stale


def _state_before(rating_list: RatingList, first: int, subjects: set[str]
                  ) -> tuple[dict[str, tuple[float, ...]], dict[str, tuple[int, bool]]]:
    """The subjects' state after period ``first`` − 1 from their stored rows, and each one's
    last row before ``first`` (id, current).

    A subject whose current row is before ``first`` has it as his last; the others' are in
    the rows of the :data:`WINDOW` periods before ``first``, or else among their own earlier
    rows (read by their names, :data:`CHUNK` a query): a run of the last period reads the
    current rows and a few periods' rows, not the whole list's.
    """
    if first <= 1 or not subjects:
        return {}, {}
    earlier = RatingEntry.objects.filter(rating_list=rating_list, sequence__lt=first)
    fields = ("id", "subject", "sequence", "rating", "volatility", "games", "mu", "phi",
              "current")
    last: dict[str, tuple[Any, ...]] = {}
    for row in earlier.filter(current=True).values_list(*fields):
        if row[1] in subjects:
            last[row[1]] = row
    near = max(1, first - WINDOW)
    wanted = subjects - set(last)
    for row in earlier.filter(sequence__gte=near).values_list(*fields):
        if row[1] in wanted and (row[1] not in last or last[row[1]][2] < row[2]):
            last[row[1]] = row
    names = sorted(wanted - set(last))
    for start in range(0, len(names) if near > 1 else 0, CHUNK):
        chunk = earlier.filter(sequence__lt=near, subject__in=names[start:start + CHUNK])
        for row in chunk.values_list(*fields):
            if row[1] not in last or last[row[1]][2] < row[2]:
                last[row[1]] = row
    found = sorted(last.values(), key=lambda row: row[1])
    history = [HistoryRow(subject, period, rating, None, volatility, games, 0.0, mu, phi)
               for _pk, subject, period, rating, volatility, games, mu, phi, _c in found]
    last_before = {row[1]: (row[0], row[8]) for row in found}
    return _start(rating_list, first, history), last_before


def _start(rating_list: RatingList, first: int, history: list[HistoryRow]
           ) -> dict[str, tuple[float, ...]]:
    """The start state from each subject's last row before ``first``: Glicko-2's is that row
    (:func:`start_state`); Elo's is its rating and his parties before ``first``, summed by
    the database."""
    if rating_list.system != ELO:
        return start_state(rating_list.system, history)
    wanted = {row.subject: row.rating for row in history}
    played = (RatingEntry.objects.filter(rating_list=rating_list, sequence__lt=first)
              .values("subject").annotate(total=Sum("games")).order_by()
              .values_list("subject", "total"))
    return {subject: (wanted[subject], int(total)) for subject, total in played
            if subject in wanted}
