"""Party lifecycle services: start, clock, time expiry, finish and forfeit."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from referee.eventlog import append_event
from scoring.services import evaluate_party, expiry_moment
from scoring.totals import party_totals
from tournaments.errors import ServiceError
from tournaments.models import Party, Round
from tournaments.services import bump_version, lock_party


def _require_in_progress(party: Party) -> None:
    """Refuse actions that need a running party."""
    if party.status == Party.Status.FINISHED:
        raise ServiceError("party", _("The party is finished."))
    if party.status != Party.Status.IN_PROGRESS:
        raise ServiceError("party", _("The party has not started yet."))


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
    now = timezone.now()
    if rnd.status == Round.Status.PUBLISHED:
        Round.objects.filter(pk=rnd.pk).update(status=Round.Status.IN_PROGRESS)
    bump_version(party, status=Party.Status.IN_PROGRESS, started_at=now)
    append_event(party, "party_started", actor=actor, data={"at": now.isoformat()})
    return party


@transaction.atomic
def pause_clock(
    party_id: int, *, actor: Any = None, reason: str, expected_version: int | None = None
) -> Party:
    """Stop the party's clock, with a reason."""
    party = lock_party(party_id, expected_version)
    _require_in_progress(party)
    if party.paused_at:
        raise ServiceError("clock", _("The clock is already paused."))
    if not (reason or "").strip():
        raise ServiceError("reason", _("Give a reason for the pause."))
    now = timezone.now()
    bump_version(party, paused_at=now)
    append_event(
        party,
        "clock_paused",
        actor=actor,
        reason=reason.strip(),
        data={"elapsed": round(party.elapsed_seconds(now), 1)},
    )
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
    bump_version(party, paused_at=None, paused_seconds=party.paused_seconds + paused)
    append_event(
        party,
        "clock_resumed",
        actor=actor,
        reason=(reason or "").strip(),
        data={"paused_seconds": round(paused, 1)},
    )
    return party


@transaction.atomic
def mark_time_expired(
    party_id: int, *, actor: Any = None, expected_version: int | None = None
) -> Party:
    """Note that the party's time ran out: the deal in play is the last one (idempotent)."""
    party = lock_party(party_id, expected_version)
    if party.status != Party.Status.IN_PROGRESS or party.time_expired_at:
        return party
    moment = expiry_moment(party)
    if moment is None:
        if actor is None:
            return party
        moment = timezone.now()
    party.time_expired_at = moment
    party.save(update_fields=["time_expired_at"])
    append_event(party, "time_expired", actor=actor, data={"at": moment.isoformat()})
    evaluate_party(party, actor)
    bump_version(party)
    return party


@transaction.atomic
def finish_party(party_id: int, *, actor: Any = None, expected_version: int | None = None) -> Party:
    """Finish a party whose result the regulations decide (after a correction, say)."""
    party = lock_party(party_id, expected_version)
    _require_in_progress(party)
    if evaluate_party(party, actor) != "finished":
        raise ServiceError(
            "party", _("The party has no winner yet: play on until the regulations end it.")
        )
    bump_version(party)
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
    """A pair did not appear: the opponents win with the regulations' forfeit score."""
    party = lock_party(party_id, expected_version)
    if absent_side not in ("a", "b"):
        raise ServiceError("absent_side", _("Choose the pair that did not appear."))
    if party.status == Party.Status.FINISHED:
        raise ServiceError("party", _("The party is finished."))
    if party.is_bye:
        raise ServiceError("party", _("A bye is not played."))
    winner = "b" if absent_side == "a" else "a"
    now = timezone.now()
    bump_version(
        party,
        status=Party.Status.FINISHED,
        winner=winner,
        end_reason=Party.EndReason.FORFEIT,
        finished_at=now,
        started_at=party.started_at or now,
    )
    append_event(
        party,
        "forfeit",
        actor=actor,
        reason=reason,
        data={"absent": absent_side, "winner": winner, "points": party_totals(party).points},
    )
    return party
