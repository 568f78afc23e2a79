"""A player's timeout in Kozel (seed 000): the game stops by his fault, not by the clock."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from referee.services.common import (
    _end_by_ruling,
    _engine,
    _locked_unless_done,
    _reason,
    _require_in_progress,
    _rules,
    _seat_side,
)
from referee.services.rulings import _ruling
from scoring.core.errors import ServiceError
from scoring.models import Party, Ruling
from scoring.totals.compute import party_totals


@transaction.atomic
def rule_player_timeout(
    party_id: int,
    *,
    seat: str,
    reason: str = "",
    client_id: str = "",
    actor: Any = None,
    expected_version: int | None = None,
) -> Ruling:
    """The player on ``seat`` timed out: the game stops, the deals' points stand.

    The rule set decides the result (Kozel: he, or his pair, is the Goat) and rates the party
    by its timeout rule: he gets nothing, the others are "not at fault" (at least 1 each).
    """
    party, found = _locked_unless_done(Ruling, party_id, client_id, expected_version)
    if found is not None:
        return found
    _require_in_progress(party)
    rule_set, cfg = _rules(party)
    decide = getattr(rule_set, "timeout", None)
    if decide is None:
        raise ServiceError("party", _("A player's timeout ends only a Kozel game."))
    _seat_side(party, seat)
    player = party.seat_players().get(seat)
    if player is None:
        message = _("Nobody sits on %(seat)s in this game.") % {"seat": seat.upper()}
        raise ServiceError("seat", message)
    decision = _engine(decide, party_totals(party), seat, cfg)
    reason = _reason(reason)
    ruling = _ruling(
        party, Ruling.Kind.TIMEOUT, side=seat[0], seat=seat, player=player, actor=actor,
        client_id=client_id, reason=reason,
    )
    _end_by_ruling(
        party, winner=decision.winner or "", loser=decision.loser or "",
        reason=Party.EndReason.TIMEOUT, actor=actor, event="player_timeout", why=reason,
        data={"seat": seat, "player": player.name},
    )
    return ruling
