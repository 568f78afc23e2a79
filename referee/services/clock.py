"""The party's clock: start, pause, resume, time up (the match's or the game's), its end;
check-in and the no-show wait."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Min
from django.utils import timezone
from django.utils.translation import gettext as _

from referee.services.common import (
    _check_side,
    _end_by_ruling,
    _forfeit_result,
    _require_in_progress,
    _require_not_finished,
    actor_id,
    desk_of,
)
from scoring.core.errors import ServiceError
from scoring.models import Party, PartyDesk, Round
from scoring.party.done import Done
from scoring.party.ending import evaluate_party, expire_game, expire_time, expiry_moment
from scoring.party.event_log import append_event
from scoring.party.row_lock import bump_version, lock_party

logger = logging.getLogger(__name__)


@transaction.atomic
def start_party(party_id: int, *, actor: Any = None, expected_version: int | None = None) -> Party:
    """Start a party of a published round: its clock starts now."""
    party = lock_party(party_id, expected_version)
    if party.status != Party.Status.SCHEDULED:
        raise ServiceError("party", _("The party has already started."))
    if party.is_bye:
        raise ServiceError("party", _("A bye is not played."))
    rnd = party.round
    if rnd.status == Round.Status.DRAFT:
        raise ServiceError("round", _("The draw of this round is not published yet."))
    if rnd.status == Round.Status.FINISHED:
        raise ServiceError("round", _("The round is closed."))
    if party.half > 1 and party.table_id is not None and Party.objects.filter(
        round=rnd, table_id=party.table_id, half__lt=party.half
    ).exclude(status=Party.Status.FINISHED).exists():
        raise ServiceError("party", _("The first half at this table is not finished."))
    now = timezone.now()
    if rnd.status == Round.Status.PUBLISHED:
        Round.objects.filter(pk=rnd.pk).update(status=Round.Status.IN_PROGRESS)
    bump_version(party, status=Party.Status.IN_PROGRESS, started_at=now)
    append_event(party, "party_started", actor=actor, data={"at": now.isoformat()})
    logger.info("party %s started: actor %s", party.pk, actor_id(actor))
    return party


@transaction.atomic
def pause_clock(
    party_id: int, *, actor: Any = None, reason: str = "", expected_version: int | None = None
) -> Party:
    """Stop the party's clock at once; the reason may come with it or later (``explain_pause``)."""
    party = lock_party(party_id, expected_version)
    _require_in_progress(party)
    if party.paused_at:
        raise ServiceError("clock", _("The clock is already paused."))
    reason = (reason or "").strip()
    now = timezone.now()
    party.paused_at = now
    append_event(
        party,
        "clock_paused",
        actor=actor,
        reason=reason,
        data={"elapsed": round(party.elapsed_seconds(now), 1)},
        with_version=("paused_at",),
    )
    bump_version(party)  # the pause and the version written with the event (PostgreSQL)
    logger.info("party %s clock paused: actor %s", party.pk, actor_id(actor))
    return party


@transaction.atomic
def explain_pause(
    party_id: int, *, reason: str, actor: Any = None, expected_version: int | None = None
) -> Party:
    """Give (or change) the reason of the pause in progress, after the clock stopped."""
    party = lock_party(party_id, expected_version)
    _require_in_progress(party)
    if not party.paused_at:
        raise ServiceError("clock", _("The clock is running: there is no pause to explain."))
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("reason", _("Give a reason for the pause."))
    append_event(
        party, "pause_reason", actor=actor, reason=reason,
        data={"paused_at": party.paused_at.isoformat()},
    )
    bump_version(party)
    logger.info("party %s pause explained: actor %s", party.pk, actor_id(actor))
    return party


@transaction.atomic
def resume_clock(
    party_id: int, *, actor: Any = None, reason: str = "", expected_version: int | None = None
) -> Party:
    """Restart a paused clock; the pause does not count towards the time limit."""
    party = lock_party(party_id, expected_version)
    _require_in_progress(party)
    if not party.paused_at:
        raise ServiceError("clock", _("The clock is running."))
    now = timezone.now()
    paused = (now - party.paused_at).total_seconds()
    party.paused_at, party.paused_seconds = None, party.paused_seconds + paused
    append_event(
        party,
        "clock_resumed",
        actor=actor,
        reason=(reason or "").strip(),
        data={"paused_seconds": round(paused, 1)},
        with_version=("paused_at", "paused_seconds"),
    )
    bump_version(party)  # the clock and the version written with the event (PostgreSQL)
    logger.info("party %s clock resumed: actor %s", party.pk, actor_id(actor))
    return party


@transaction.atomic
def mark_time_expired(
    party_id: int, *, actor: Any = None, expected_version: int | None = None
) -> Done[Party]:
    """Note that the party's time ran out: the deal in play is the last one (idempotent).

    A party without a clock (``party_minutes`` empty) has no time to run out: the referee's
    request is refused naming ``clock``, the clock worker's does nothing.
    """
    party = lock_party(party_id, expected_version)
    if party.status != Party.Status.IN_PROGRESS or party.time_expired_at:
        return Done(party, party)
    if not party.has_clock:
        if actor is None:
            return Done(party, party)
        raise ServiceError(
            "clock", _("This party has no clock: it ends by its rules, not by time.")
        )
    moment = expiry_moment(party)
    if moment is None:
        if actor is None:
            return Done(party, party)
        moment = timezone.now()
    expire_time(party, moment, actor)
    evaluation = evaluate_party(party, actor)
    bump_version(party)
    logger.info("party %s time up: actor %s", party.pk, actor_id(actor))
    return Done(party, party, evaluation.evaluated)


@transaction.atomic
def mark_game_time_expired(
    party_id: int, *, actor: Any = None, expected_version: int | None = None
) -> Done[Party]:
    """Declare the game in play out of time (the hall's clock ran out), idempotently.

    In a match of timed games (UDL, All Fives) this is what the game clock running out does:
    the game's expiry is noted and the rule set decides (the deal in play is the last one,
    then the leader wins the game or a level score goes to overtime).
    """
    party = lock_party(party_id, expected_version)
    if not party.round.tournament.plays_games:
        raise ServiceError("game", _("The games of this party have no clock of their own."))
    _require_in_progress(party)
    if party.game_expired_at is not None:
        return Done(party, party)
    expire_game(party, expiry_moment(party, party.game_seconds_left()) or timezone.now(), actor)
    evaluation = evaluate_party(party, actor)
    bump_version(party)
    logger.info("party %s game %s time up: actor %s", party.pk, party.game, actor_id(actor))
    return Done(party, party, evaluation.evaluated)


@transaction.atomic
def finish_party(party_id: int, *, actor: Any = None, expected_version: int | None = None) -> Party:
    """Finish a party whose result the regulations decide (after a correction, say)."""
    party = lock_party(party_id, expected_version)
    _require_in_progress(party)
    if evaluate_party(party, actor).state != "finished":
        raise ServiceError(
            "party", _("The party has no winner yet: play on until the regulations end it.")
        )
    bump_version(party)
    logger.info("party %s finished: actor %s", party.pk, actor_id(actor))
    return party


@transaction.atomic
def forfeit_party(
    party_id: int,
    *,
    absent_side: str,
    actor: Any = None,
    reason: str = "",
    expected_version: int | None = None,
) -> Party:
    """A pair did not appear: the opponents win with the regulations' forfeit score.

    Where every player keeps his own score the absent side's players lose (Kozel: the Goat).
    """
    party = lock_party(party_id, expected_version)
    _check_side(absent_side, "side")
    _require_not_finished(party)
    winner, loser = _forfeit_result(party, absent_side)
    _end_by_ruling(
        party,
        winner=winner,
        loser=loser,
        reason=Party.EndReason.FORFEIT,
        actor=actor,
        event="forfeit",
        why=reason,
        data={"absent": absent_side},
    )
    logger.info("party %s forfeited by %s: actor %s", party.pk, absent_side, actor_id(actor))
    return party


# -- check-in and no-show -------------------------------------------------------------------


ROUND_STARTED_AT = "round_started_at"
"""The annotation a sweep gives each party: its round's actual start (``round_actual_start``)."""


def round_actual_start(round_id: int) -> datetime | None:
    """When the round actually started: the first of its parties' clocks to start (one query)."""
    found = Party.objects.filter(round_id=round_id, started_at__isnull=False).aggregate(
        first=Min("started_at"))
    return found["first"]


def no_show_due_at(party: Party) -> datetime | None:
    """When a pair still absent is a no-show: the regulations' minutes after the ACTUAL start.

    The start is the party's own clock start once it has started; before that, when its round
    actually started (its first party's clock: a sweep annotates it as ``round_started_at``,
    else one query); a team match's second half waits for its own start. The planned
    ``scheduled_start`` is not the start: a round that begins late raises no no-show before it
    begins. None: nothing has started yet.
    """
    start = party.started_at
    if start is None and party.half == 1:
        if hasattr(party, ROUND_STARTED_AT):
            start = getattr(party, ROUND_STARTED_AT)
        else:
            start = round_actual_start(party.round_id)
    if start is None:
        return None
    return start + timedelta(minutes=party.round.tournament.regulations.no_show_minutes)


@transaction.atomic
def check_in(
    party_id: int,
    *,
    side: str = "",
    seat: str = "",
    present: bool = True,
    actor: Any = None,
    expected_version: int | None = None,
) -> PartyDesk:
    """Mark a player (``seat``) or every player of a side present at the table (or, marked
    by mistake, absent again).

    Presence is kept per player; a side is present once all its players are (seed 001: a
    pair with one or both players absent five minutes after the start is a no-show).
    """
    party = lock_party(party_id, expected_version)
    players = party.seat_players()
    if seat:
        if seat not in players:
            raise ServiceError("seat", _("Nobody sits at seat %(seat)s in this party.")
                               % {"seat": seat.upper()})
        side = seat[0]
    _check_side(side)
    _require_not_finished(party)
    desk = desk_of(party)
    seats = [key for key in players if key[0] == side]
    marks = _seat_marks(desk, players)
    moment = timezone.now().isoformat()
    for key in [seat] if seat else seats:
        if present:
            marks.setdefault(key, moment)
        else:
            marks.pop(key, None)
    desk.present_seats = marks
    for key in ("a", "b"):  # a side is present once every one of its players is
        times = [marks[s] for s in players if s[0] == key and s in marks]
        whole = bool(times) and len(times) == len([s for s in players if s[0] == key])
        latest = max((datetime.fromisoformat(t) for t in times), default=None)
        setattr(desk, f"present_{key}", latest if whole else None)
    desk.save()
    data: dict[str, Any] = {"side": side, "present": bool(present)}
    if seat:
        data["seat"] = seat
    append_event(party, "check_in", actor=actor, data=data)
    bump_version(party)
    logger.info(
        "party %s check-in %s %s: actor %s", party.pk, seat or side, bool(present),
        actor_id(actor),
    )
    return desk


def _seat_marks(desk: PartyDesk, players: dict[str, Any]) -> dict[str, str]:
    """Each present player's moment of check-in (a side marked present as a whole before
    presence was kept per player gives its players that side's moment)."""
    marks = dict(desk.present_seats or {})
    for key in players:
        whole = getattr(desk, f"present_{key[0]}")
        if key not in marks and whole is not None:
            marks[key] = whole.isoformat()
    return marks


@transaction.atomic
def raise_no_show(party_id: int) -> bool:
    """Raise a no-show candidate when the wait is over and a pair is not checked in.

    For the background worker: safe to run any number of times; True when raised now.
    """
    party = lock_party(party_id)
    if party.status == Party.Status.FINISHED or party.is_bye:
        return False
    due = no_show_due_at(party)
    if due is None or timezone.now() < due:
        return False
    desk = desk_of(party)
    if desk.no_show_raised_at or not desk.absent_sides:
        return False
    desk.no_show_raised_at = timezone.now()
    desk.no_show_sides = desk.absent_sides
    desk.save()
    append_event(party, "no_show_candidate", data={"absent": desk.no_show_sides})
    logger.info("party %s no-show raised: %s, actor None", party.pk, desk.no_show_sides)
    return True
