"""Time as the referee lived it: the moment he entered an action on his device (``entered_at``).

The desk sends, with every action, the moment the referee entered it, on the device's clock
corrected by its measured offset to the server's. A deal's ``entered_at`` decides whether it
was played before or after the party's time ran out (``scoring.totals.compute.moment_of_play``),
however late it arrives from a device that was offline. It is checked against the server's
clock within ``ENTERED_AT_TOLERANCE``: a moment in the future or before the party started is
refused. A deal played in time which arrives after the party ended by time (another device
recorded the last deal) is still taken while the protocol is not signed: it goes in its place,
before the deals played after the time ran out, and the party is decided again.

A deal may be marked ``play_ended_before_time_up`` (the time ran out while it was counted or
the tiles shuffled: one more deal is played) only once the time has run out, and only one
deal of the party (of the game, in a match of games): ``check_counted_after_time_up``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.core.errors import ServiceError
from scoring.models import Deal, Party
from scoring.rules import plays_games
from scoring.totals.compute import RecordedDeal, counted_after_time_up, moment_of_play

ENTERED_AT_TOLERANCE = timedelta(seconds=getattr(settings, "ENTERED_AT_TOLERANCE_SECONDS", 5))
"""How far a device's corrected clock may be off the server's: an ``entered_at`` up to this
much in the future, or before the party's start, is taken (as now, or as the start)."""

_SHIFT = 1_000_000
"""Deal numbers are moved up through this offset, so that no two deals share one meanwhile."""


def checked_entered_at(party: Party, entered_at: datetime | None) -> datetime | None:
    """``entered_at`` checked against the server's clock and the party's start, or None.

    Refused (400 naming ``entered_at``): a moment further than the tolerance in the future,
    or before the party's start. A moment within the tolerance is taken as now or the start.
    """
    if entered_at is None:
        return None
    if timezone.is_naive(entered_at):
        entered_at = timezone.make_aware(entered_at, timezone.get_current_timezone())
    now = timezone.now()
    if entered_at > now + ENTERED_AT_TOLERANCE:
        raise ServiceError("entered_at", _(
            "entered_at: the moment of entry is in the future (the device's clock is ahead of "
            "the server's by more than %(seconds)s s).") % {
                "seconds": int(ENTERED_AT_TOLERANCE.total_seconds())})
    if party.started_at is not None and entered_at < party.started_at - ENTERED_AT_TOLERANCE:
        raise ServiceError("entered_at", _(
            "entered_at: the moment of entry is before the party started."))
    if party.started_at is not None:
        entered_at = max(entered_at, party.started_at)
    return min(entered_at, now)


def played_in_time(party: Party, entered_at: datetime | None) -> bool:
    """Whether a deal entered at ``entered_at`` was played before the party's time ran out."""
    expired = party.time_expired_at
    return entered_at is not None and expired is not None and entered_at <= expired


def takes_late_deal(party: Party, entered_at: datetime | None) -> bool:
    """Whether a party that ended by time still takes a deal: one played in time (its
    ``entered_at`` before the time ran out) that arrives late, from a device that was offline.

    Matches of games (their own clock per game) are not re-decided this way.
    """
    return (
        party.status == Party.Status.FINISHED
        and party.end_reason == Party.EndReason.TIME
        and played_in_time(party, entered_at)
        and not plays_games(party.round.tournament.engine)
    )


def place_in_time(
    party: Party, entered_at: datetime | None, deals: list[RecordedDeal]
) -> int | None:
    """The number a deal played in time takes when deals played after the time ran out are
    recorded already (it goes before the first of them), else None (it is the next deal).

    ``deals`` are the party's deals, last first (``recorded``).
    """
    if not played_in_time(party, entered_at):
        return None
    expired = party.time_expired_at
    later = []
    for row in deals:
        played = moment_of_play(row)
        if (row.outcome != Deal.Outcome.ANNULLED and not row.play_ended_before_time_up
                and played is not None and expired is not None and played > expired):
            later.append(row.number)
    return min(later) if later else None


def make_room(party: Party, number: int, deals: list[RecordedDeal]) -> list[RecordedDeal]:
    """Move the deals numbered ``number`` and on one number up (the caller holds the party's
    lock); returns ``deals`` with their new numbers, in number order."""
    moved = Deal.objects.filter(party=party, number__gte=number)
    moved.update(number=F("number") + _SHIFT)
    Deal.objects.filter(party=party, number__gte=number + _SHIFT).update(
        number=F("number") - _SHIFT + 1)
    renumbered = [
        row._replace(number=row.number + 1) if row.number >= number else row for row in deals
    ]
    return sorted(renumbered, key=lambda row: row.number)



def check_counted_after_time_up(
    party: Party, entered_at: datetime | None, deals: list[RecordedDeal]
) -> None:
    """Refuse ``play_ended_before_time_up`` on a deal the seeds do not allow it on (400 naming
    the field); the caller holds the party's lock and has noted its expiry (``note_expiry``).

    The time-up must have come (the party's, or in a match the game's), and before the deal
    was entered (``entered_at``, else now; a device's clock within the tolerance): a deal
    entered in time was played in time anyway. And only one deal is counted after the time
    ran out (seeds 000/001: "one more deal is played"): the deal after it is the last.
    """
    expired, _game = _time_up(party)
    entered = entered_at or timezone.now()
    if expired is None or entered < expired - ENTERED_AT_TOLERANCE:
        raise ServiceError("play_ended_before_time_up", _(
            "The party's time had not run out when this deal was entered: it was played in "
            "time, so it is not the deal counted after the time ran out. Record it without "
            "that mark."))
    counted = counted_deal(party, deals)
    if counted is not None:
        raise ServiceError("play_ended_before_time_up", _(
            "Deal %(number)s is already the deal counted after the time ran out; only one "
            "more deal is played after it, and that deal is the last. Record this deal "
            "without that mark.") % {"number": counted})


def _time_up(party: Party) -> tuple[datetime | None, int | None]:
    """When the time that decides the party's last deal ran out (the party's; in a match of
    games, the game in play's, else the match's), with that game (None: the party's)."""
    if plays_games(party.round.tournament.engine):
        return party.game_expired_at or party.time_expired_at, party.game
    return party.time_expired_at, None


def counted_deal(party: Party, deals: Sequence[Any]) -> int | None:
    """The number of the party's deal counted after the time ran out (``deals``: its deal
    rows or models), or None: while it is None the desk offers the mark for the next deal."""
    expired, game = _time_up(party)
    return counted_after_time_up(deals, expired, game)
