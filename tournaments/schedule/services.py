"""Changing the timetable: its items, and a round's start moved with the later ones."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.core.errors import ServiceError
from scoring.models import Round, TimetableItem, Tournament
from tournaments.rounds import services as rounds
from tournaments.setup.services import actor_id
from tournaments.timetable import NOT_STARTED

logger = logging.getLogger(__name__)

ITEM_FIELDS = ("kind", "title", "starts_at", "ends_at")


@dataclass(frozen=True)
class ScheduleShift:
    """What moving a round's start moved: the round, by how much, and the later ones."""

    round: Round
    delta: timedelta | None
    """None when the start was set or cleared rather than moved (nothing else moves then)."""
    rounds: list[Round] = field(default_factory=list)
    items: list[TimetableItem] = field(default_factory=list)


def _check_times(starts_at: datetime | None, ends_at: datetime | None) -> None:
    """Refuse an item without its start, or one ending before it starts."""
    if starts_at is None:
        raise ServiceError("starts_at", _("Give the time it starts."))
    if ends_at is not None and ends_at < starts_at:
        raise ServiceError("ends_at", _("It cannot end before it starts."))


@transaction.atomic
def create_item(tournament: Tournament, *, actor: Any = None, **fields: Any) -> TimetableItem:
    """Add an item to the tournament's timetable."""
    data = {name: fields[name] for name in ITEM_FIELDS if name in fields}
    _check_times(data.get("starts_at"), data.get("ends_at"))
    item = TimetableItem.objects.create(tournament=tournament, **data)
    logger.info("timetable item added: tournament=%s item=%s at=%s actor=%s",
                tournament.pk, item.pk, item.starts_at, actor_id(actor))
    return item


@transaction.atomic
def update_item(item_id: int, *, actor: Any = None, **changes: Any) -> TimetableItem:
    """Change an item's kind, title or times."""
    item = TimetableItem.objects.select_for_update().get(pk=item_id)
    for name in ITEM_FIELDS:
        if name in changes:
            setattr(item, name, changes[name])
    _check_times(item.starts_at, item.ends_at)
    item.save()
    logger.info("timetable item changed: tournament=%s item=%s at=%s actor=%s",
                item.tournament_id, item.pk, item.starts_at, actor_id(actor))
    return item


@transaction.atomic
def delete_item(item_id: int, *, actor: Any = None) -> None:
    """Remove an item from the timetable."""
    item = TimetableItem.objects.select_for_update().get(pk=item_id)
    item.delete()
    logger.info("timetable item deleted: tournament=%s item=%s actor=%s",
                item.tournament_id, item_id, actor_id(actor))


@transaction.atomic
def move_round_start(
    round_id: int, starts_at: datetime | None, *, shift_later: bool = False, actor: Any = None
) -> ScheduleShift:
    """Set a round's planned start; with ``shift_later``, every later round not started yet
    and every item from the old start on move by the same delta.

    Refused (``starts_at``) once the round has started, as ``schedule_round``.
    """
    before = rounds.lock_round(round_id).scheduled_start
    rnd = rounds.schedule_round(round_id, starts_at, actor=actor)
    if not shift_later or before is None or starts_at is None or starts_at == before:
        return ScheduleShift(rnd, None)
    delta = starts_at - before
    later = list(
        Round.objects.select_for_update()
        .filter(tournament_id=rnd.tournament_id, number__gt=rnd.number,
                scheduled_start__isnull=False, status__in=NOT_STARTED)
        .order_by("number")
    )
    for other in later:
        if other.scheduled_start is not None:  # so filtered; the field itself may be empty
            other.scheduled_start += delta
            other.save(update_fields=["scheduled_start"])
    items = list(TimetableItem.objects.select_for_update()
                 .filter(tournament_id=rnd.tournament_id, starts_at__gte=before)
                 .order_by("starts_at", "pk"))
    for item in items:
        item.starts_at += delta
        item.ends_at = item.ends_at + delta if item.ends_at else None
        item.save(update_fields=["starts_at", "ends_at"])
    logger.info(
        "timetable shifted: tournament=%s round=%s delta=%s rounds=%s items=%s actor=%s",
        rnd.tournament_id, rnd.number, delta, [r.number for r in later],
        [i.pk for i in items], actor_id(actor))
    return ScheduleShift(rnd, delta, later, items)
