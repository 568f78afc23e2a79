"""Recomputing a rating list and storing only what changed: from scratch, or from a period on.

A finished or corrected party marks the lists rating its tournament
(:mod:`scoring.ranking.rating_tasks`): ``recompute_from`` lowered to the tournament's rating
period, one run queued. A run takes the mark under the list's row lock, starts from the stored
rows before that period (exactly: Glicko-2's own mu and phi are stored with each row),
recomputes that period and the later ones with the engine, and writes what differs from the
stored rows only (:mod:`scoring.ranking.rating_writes`). Its rows equal a recompute from
scratch's, to the last bit.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from django.db import transaction
from django.db.models import Min, OuterRef, Subquery, Sum

from scoring.models import RatingEntry, RatingList
from scoring.ranking.rating_inputs import (
    list_parameters,
    rated_field,
    rated_tournaments,
    stored_columns,
)
from scoring.ranking.rating_writes import write_rows
from scoring.ratings import HistoryRow, compute_columns, start_state
from scoring.ratings.history import ELO
from scoring.standings import paused_gc

logger = logging.getLogger(__name__)

CHUNK = 1000
"""Ids or names per ``IN (...)`` of a query or an update."""


@dataclass(frozen=True)
class RatingRun:
    """What one run did: the first period it recomputed, its rows from there, and the rows it
    created (new to the list), updated (changed numbers), deleted (no longer made) and whose
    ``current`` it turned."""

    first: int
    rows: int
    created: int
    updated: int
    deleted: int
    turned: int

    @property
    def written(self) -> int:
        """The rows the run wrote (created, updated, deleted or turned)."""
        return self.created + self.updated + self.deleted + self.turned


def recompute_rating_list(list_id: int) -> int:
    """Recompute a list from scratch, write what changed; the number of its entries.

    Every result is read from the database (none from the rating input cache, which is
    written again): the organizer's repair. The list's row is locked, so two runs of one list
    go one after the other; a pending mark is taken (the list is up to date after it).
    """
    run = _run(list_id, 1, (), cached=False)
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


def _run(list_id: int, first: int | None, tournament_ids: Sequence[int], *, cached: bool = True
         ) -> RatingRun | None:
    """Lock the list, take its mark, recompute from the first period needed, write, unmark.

    The garbage collector waits until the list is unlocked: a run makes tens of thousands of
    plain rows that reference counting frees (a full collection in the middle held the lock
    80 ms longer: a party's update takes about that much in all)."""
    with paused_gc(), transaction.atomic():
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
            run = _recompute(rating_list, tournaments, start, cached)
        except ValueError:  # rows stored before Glicko-2's state was: from scratch
            run = _recompute(rating_list, tournaments, 1, cached)
        rating_list.periods = ids
        rating_list.recompute_from = None
        rating_list.recompute_queued_at = None
        rating_list.save(update_fields=["periods", "recompute_from", "recompute_queued_at"])
    logger.info("rating list recomputed: list=%s from=%s tournaments=%s rows=%s created=%s "
                "updated=%s deleted=%s turned=%s", list_id, run.first, len(ids), run.rows,
                run.created, run.updated, run.deleted, run.turned)
    return run


def _recompute(rating_list: RatingList, tournaments: list[Any], first: int, cached: bool = True
               ) -> RatingRun:
    """Recompute the periods from ``first`` on and write the difference to the stored rows."""
    field = rated_field(rating_list, tournaments, first, cached=cached)
    entries = RatingEntry.objects.filter(rating_list=rating_list)
    subjects: set[str] = set()
    in_run: set[str] = set()
    if first > 1:  # who plays from ``first`` on, or had rows there (may fall back to earlier)
        subjects = field.subjects()
        in_run = set(entries.filter(sequence__gte=first).order_by()
                     .values_list("subject", flat=True).distinct())
    state, last_before = _state_before(rating_list, first, subjects, in_run)
    history = compute_columns(rating_list.system, list_parameters(rating_list), field.periods,
                              first=first, start=state, names=field.names)
    written = write_rows(rating_list.pk, first, stored_columns(field.tournaments, history))
    rated_now = {history.names[i] for i in np.unique(history.subject).tolist()}
    turn_on = [pk for subject, (pk, current) in last_before.items()
               if not current and subject not in rated_now]
    turn_off = [pk for subject, (pk, current) in last_before.items()
                if current and subject in rated_now]
    for ids, value in ((turn_on, True), (turn_off, False)):
        for start in range(0, len(ids), CHUNK):
            entries.filter(pk__in=ids[start:start + CHUNK]).update(current=value)
    return RatingRun(first, len(history), written.created, written.updated, written.deleted,
                     len(turn_on) + len(turn_off))


def _state_before(rating_list: RatingList, first: int, subjects: set[str], in_run: set[str]
                  ) -> tuple[dict[str, tuple[float, ...]], dict[str, tuple[int, bool]]]:
    """The subjects' state after period ``first`` − 1 from their stored rows, and each one's
    last row before ``first`` (id, current).

    ``in_run``: the subjects with stored rows from ``first`` on (found by the database, not
    sent by name); ``subjects``: the others the run rates, sent by name, :data:`CHUNK` a
    query. Each subject's last earlier row is one step back along the list's subject index
    (``rating_entry_subject_idx``): a run of the last tournament reads its players' rows,
    not the list's.
    """
    if first <= 1 or not (subjects or in_run):
        return {}, {}
    entries = RatingEntry.objects.filter(rating_list=rating_list).order_by()
    earlier = entries.filter(sequence__lt=first)
    last = earlier.filter(subject=OuterRef("subject")).order_by("-sequence").values("pk")[:1]
    names = sorted(subjects - in_run)
    whose = [entries.filter(sequence__gte=first)] if in_run else []
    whose += [earlier.filter(subject__in=names[at:at + CHUNK])
              for at in range(0, len(names), CHUNK)]
    # grouped by subject (the aggregate makes the group), then one step back for each group
    ids = [pk for rows in whose
           for pk in rows.values("subject").annotate(seen=Min("sequence"))
           .annotate(last=Subquery(last)).values_list("last", flat=True) if pk is not None]
    fields = ("id", "subject", "sequence", "rating", "volatility", "games", "mu", "phi",
              "current")
    found = sorted((row for at in range(0, len(ids), CHUNK)
                    for row in entries.filter(pk__in=ids[at:at + CHUNK]).values_list(*fields)),
                   key=lambda row: row[1])
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
