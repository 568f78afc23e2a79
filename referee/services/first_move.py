"""The start-of-party draw for the first move (RULES.md, starting a party)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from referee.services.common import _require_not_finished, _seat_side
from scoring.core.errors import ServiceError
from scoring.models import Party
from scoring.party.event_log import append_event
from scoring.party.row_lock import bump_version, lock_party


@transaction.atomic
def record_first_mover(
    party_id: int, *, seat: str, actor: Any = None, expected_version: int | None = None
) -> Party:
    """Record who won the draw for the first move: he leads deal 1 (and the protocol says so).

    Refused once deal 1 is recorded: its leader is on the deal.
    """
    party = lock_party(party_id, expected_version)
    _require_not_finished(party)
    _seat_side(party, seat)
    if party.deals.exists():
        raise ServiceError("seat", _("Deal 1 is recorded: the first move is on it."))
    player = party.seat_players().get(seat)
    party.first_mover = seat
    party.save(update_fields=["first_mover"])
    append_event(
        party, "first_mover", actor=actor,
        data={"seat": seat, "player": player.name if player else ""},
    )
    bump_version(party)
    return party
