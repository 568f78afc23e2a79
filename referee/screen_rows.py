"""The party screen's rows of its records: deals, penalties and rulings as shown (plain dicts).

Choice labels are looked up in the field's choices kept once per process and translated per
row (``choice_label``), not through ``get_<field>_display``, which makes the choices hashable
anew on every call, translating each label (that was a tenth of a 40-deal screen's time).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from django.core.exceptions import FieldError
from django.db.models import ForeignObjectRel, Model

from scoring.models import Deal, Penalty, Ruling, side_and_seat
from scoring.models.event_text import redeal_reason_text


@cache
def _choices(model: type[Model], name: str) -> dict[Any, Any]:
    """A model field's choices by value (their labels translated when shown)."""
    field = model._meta.get_field(name)
    if isinstance(field, ForeignObjectRel):
        raise FieldError(f"{model.__name__}.{name} is a relation's other side, with no choices")
    return dict(field.flatchoices)


def choice_label(record: Model, name: str) -> str:
    """The label of a record's choice field in the active language, as ``get_<name>_display``
    gives it (which makes its choices hashable anew, translating every label, each call)."""
    value = getattr(record, name)
    return str(_choices(type(record), name).get(value, value))


def record_row(record: Penalty | Ruling, **extra: Any) -> dict[str, Any]:
    """What penalties and rulings show alike, plus their own ``extra`` values."""
    side, seat = side_and_seat(record)
    return {
        "id": record.pk,
        "kind": record.kind,
        "kind_label": choice_label(record, "kind"),
        "side": side,
        "seat": seat,
        "player": record.player_id,
        "player_name": record.player.name if record.player else "",
        "deal_number": record.deal_number,
        "reason": record.reason,
        "created_at": record.created_at,
        **extra,
    }


def penalty_row(penalty: Penalty) -> dict[str, Any]:
    """A penalty as shown."""
    return record_row(
        penalty,
        category=penalty.category,
        category_label=choice_label(penalty, "category"),
        points=penalty.points,
        mode=penalty.mode,
        escalated=penalty.escalated_from_id is not None,
        cancelled=penalty.cancelled,
    )


def ruling_row(ruling: Ruling) -> dict[str, Any]:
    """A ruling as shown."""
    return record_row(
        ruling,
        choice=ruling.choice,
        choice_label=choice_label(ruling, "choice") if ruling.choice else "",
        redeal_reason_label=redeal_reason_text(ruling.details.get("redeal_reason", "")),
        details=ruling.details,
        undone=bool(ruling.details.get("undone")),
    )


def deal_row(deal: Deal, running: Mapping[str, int] | None,
             uncollected: Mapping[str, int] | None = None) -> dict[str, Any]:
    """A deal as shown: its points per party side and per engine side, plays, game, totals,
    and the points its sides scored but did not collect (``Totals.uncollected``)."""
    return {
        "id": deal.pk,
        "number": deal.number,
        "game": deal.game,
        "outcome": deal.outcome,
        "outcome_label": choice_label(deal, "outcome"),
        **dict(zip(("side", "seat"), side_and_seat(deal), strict=True)),
        "points": deal.points_by_side(),
        "plays": [list(play) for play in deal.plays or []],
        "led": deal.led,
        "carry": deal.carry,
        "running": dict(running) if running is not None else None,
        "uncollected": dict(uncollected or {}),
        "recorded_by": deal.recorded_by_id,
    }
