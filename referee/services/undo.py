"""Undo: an action just made is taken back within a short window, where the rules allow it.

A deal is annulled, a warning or fine cancelled, a ruling without lasting consequence (a tile
exposed, a touched tile, a redeal) marked undone with its fine cancelled. Only the referee who
made the record may undo it, only for ``settings.REFEREE_UNDO_SECONDS`` (60 by default) and
only while nothing else happened at the party (the version the undo control carries). The
change goes through the same services as a correction, and the event log records "undone by …".
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from referee.services.common import actor_id
from referee.services.penalties import cancel_penalty
from scoring.core.errors import ServiceError
from scoring.models import Deal, Penalty, Ruling
from scoring.party.deals import annul_deal
from scoring.party.event_log import append_event
from scoring.party.protocol_lock import assert_party_editable
from scoring.party.row_lock import bump_version, lock_party

logger = logging.getLogger(__name__)

UNDO_RECORDS: dict[str, type[Deal] | type[Penalty] | type[Ruling]] = {
    "deal": Deal, "penalty": Penalty, "ruling": Ruling,
}
"""What an undo names, by the word the undo control and the API use."""


def undo_seconds() -> int:
    """How long an action can be undone after it was made (a setting, 60 s by default)."""
    return int(getattr(settings, "REFEREE_UNDO_SECONDS", 60))


def _made(record: Any) -> tuple[int | None, datetime]:
    """Who made a deal, penalty or ruling (user id) and when."""
    if isinstance(record, Deal):
        return record.recorded_by_id, record.recorded_at
    return record.created_by_id, record.created_at


def _record_name(record: Any) -> str:
    """The undo's word for a record ("deal", "penalty", "ruling")."""
    return next(name for name, model in UNDO_RECORDS.items() if isinstance(record, model))


def _undoable_kind(record: Any) -> bool:
    """Whether the rules let this record be taken back (no lasting consequence).

    A deal (annulled), a warning or fine (cancelled), a tile played out of turn when play
    continued, a touched tile, a redeal (it scored nothing). Not a reshuffle, a false pass, a
    no-show or a disqualification: the deal was replayed or ended, or the party ended.
    """
    if isinstance(record, Deal):
        return record.outcome != Deal.Outcome.ANNULLED
    if isinstance(record, Penalty):
        return record.kind in (Penalty.Kind.WARNING, Penalty.Kind.FINE) and not record.cancelled
    if isinstance(record, Ruling):
        if record.details.get("undone"):
            return False
        return record.kind in (Ruling.Kind.TOUCHED_TILE, Ruling.Kind.REDEAL) or (
            record.kind == Ruling.Kind.OUT_OF_TURN and record.choice == Ruling.Choice.CONTINUE
        )
    return False


def undo_refusal(record: Any, actor: Any, now: datetime | None = None) -> str:
    """Why ``actor`` may not undo ``record`` now ("" when he may)."""
    if not _undoable_kind(record):
        return _("This cannot be undone: correct or cancel it with a reason instead.")
    author, made_at = _made(record)
    if author is None or author != getattr(actor, "pk", None):
        return _("Only the referee who made it can undo it.")
    if (now or timezone.now()) > made_at + timedelta(seconds=undo_seconds()):
        return _("The time to undo it is over: correct or cancel it with a reason instead.")
    return ""


def undo_offer(record: Any, actor: Any) -> dict[str, Any] | None:
    """What the undo control offers after an action made ``record`` (None: nothing to undo).

    ``record`` and ``id`` name it, ``seconds`` is the time left to undo it.
    """
    if not isinstance(record, Deal | Penalty | Ruling) or undo_refusal(record, actor):
        return None
    _author, made_at = _made(record)
    left = (made_at + timedelta(seconds=undo_seconds()) - timezone.now()).total_seconds()
    return {"record": _record_name(record), "id": record.pk, "seconds": max(1, int(left))}


def _undo_ruling(party: Any, ruling: Ruling, actor: Any, reason: str) -> None:
    """Mark a ruling undone; a fine it gave is cancelled (its exposed tile is no more)."""
    penalty = (None if ruling.penalty_id is None
               else Penalty.objects.filter(pk=ruling.penalty_id, cancelled=False).first())
    if penalty is not None:
        cancel_penalty(penalty.pk, reason=reason, actor=actor)  # checks the protocol's lock
    else:
        assert_party_editable(party, actor, reason)
    ruling.details = {**ruling.details, "undone": True}
    ruling.save(update_fields=["details"])


@transaction.atomic
def undo_action(
    party_id: int,
    *,
    record: str,
    record_id: int,
    actor: Any = None,
    expected_version: int | None = None,
) -> Any:
    """Take back an action just made (within the undo window, by the referee who made it).

    The deal is annulled, the warning or fine cancelled, the ruling marked undone (its fine
    cancelled); the event log gets the change and an "undone by …" entry. Refused when the
    window is over, the record is another referee's, the rules do not allow it, or the party
    changed since (a stale ``expected_version``: 409).
    """
    model = UNDO_RECORDS.get(record)
    if model is None:
        raise ServiceError("record", _("Name a deal, a penalty or a ruling."))
    party = lock_party(party_id, expected_version)
    target = model.objects.filter(pk=record_id, party_id=party.pk).first()
    if target is None:
        raise ServiceError("id", _("Nothing of this party to undo."))
    refusal = undo_refusal(target, actor)
    if refusal:
        raise ServiceError("id", refusal)
    who = actor.get_full_name() or actor.get_username()
    reason = _("Undone by %(user)s") % {"user": who}
    data: dict[str, Any] = {"record": record, "id": target.pk, "by": who}
    if isinstance(target, Deal):
        annul_deal(target.pk, actor=actor, reason=reason)
        data["deal"] = target.number
    elif isinstance(target, Penalty):
        cancel_penalty(target.pk, reason=reason, actor=actor)
        data.update(kind=target.kind, category=target.category, side=target.side,
                    player=target.player.name if target.player else "")
    else:
        _undo_ruling(party, target, actor, reason)
        data.update(kind=target.kind, seat=target.seat, side=target.side, choice=target.choice)
    party.refresh_from_db()
    append_event(party, "action_undone", actor=actor, data=data)  # its text says who undid it
    bump_version(party)
    logger.info(
        "%s %s undone: party %s, actor %s", record, target.pk, party.pk, actor_id(actor)
    )
    target.refresh_from_db()
    return target
