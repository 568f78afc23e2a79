"""A tournament's timetable as pages, feeds and the API read it: rounds' starts and items."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from scoring.models import Round, TimetableItem, Tournament

NOT_STARTED = (Round.Status.DRAFT, Round.Status.PUBLISHED)
"""A round in these states has not started: its start is still ahead (or late)."""


@dataclass(frozen=True)
class Entry:
    """One line of the timetable: a round's planned start or a timetable item."""

    kind: str
    """``round`` or an item's kind (``opening``, ``break``, ``prizes``, ``other``)."""
    label: str
    starts_at: datetime
    ends_at: datetime | None = None
    round_number: int | None = None
    item_id: int | None = None
    started: bool = False
    """A round that has started (or finished): its planned start is behind it."""

    @property
    def uid(self) -> str:
        """A stable key of the entry within its tournament (the iCalendar UID's tail)."""
        return f"round-{self.round_number}" if self.round_number else f"item-{self.item_id}"


def round_entry(rnd: Round) -> Entry | None:
    """A round's line (None while it has no planned start)."""
    if rnd.scheduled_start is None:
        return None
    return Entry("round", str(rnd), rnd.scheduled_start, round_number=rnd.number,
                 started=rnd.status not in NOT_STARTED)


def item_entry(item: TimetableItem) -> Entry:
    """An item's line."""
    return Entry(item.kind, item.label, item.starts_at, item.ends_at, item_id=item.pk)


def timetable(
    tournament: Tournament,
    rounds: Iterable[Round] | None = None,
    items: Iterable[TimetableItem] | None = None,
) -> list[Entry]:
    """The tournament's timetable in time order (rounds first at the same moment).

    ``rounds`` and ``items``: already loaded (a page that read them), else two queries.
    """
    if rounds is None:
        rounds = tournament.rounds.order_by("number")
    if items is None:
        items = tournament.timetable_items.all()
    lines = [entry for entry in map(round_entry, rounds) if entry is not None]
    lines += [item_entry(item) for item in items]
    return sorted(lines, key=lambda e: (e.starts_at, e.kind != "round", e.round_number or 0,
                                        e.item_id or 0))


def next_start(lines: Iterable[Entry], now: datetime | None = None) -> Entry | None:
    """The first line still ahead: a round not started or an item, whose start is after now."""
    now = now or timezone.now()
    ahead = [e for e in lines if e.starts_at > now and not e.started]
    return ahead[0] if ahead else None


def next_round_start(lines: Iterable[Entry], now: datetime | None = None) -> Entry | None:
    """The next round's line still ahead (the player's area shows it)."""
    return next_start([e for e in lines if e.kind == "round"], now)


def minutes_until(moment: datetime, now: datetime | None = None) -> int:
    """Whole minutes from now until ``moment``, rounded up (0 once it is reached)."""
    seconds = (moment - (now or timezone.now())).total_seconds()
    return max(0, -int(-seconds // 60))
