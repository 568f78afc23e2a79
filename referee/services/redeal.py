"""A redeal (Kozel, seeds 000 and 002): a hand the rules deal again, ruled and logged, no score."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from referee.rulings import parse_tile
from referee.services.common import (
    _engine,
    _locked_unless_done,
    _reason,
    _require_in_progress,
    _rules,
    _seat_side,
    deal_in_play,
)
from referee.services.rulings import _ruling
from scoring.core.errors import ServiceError
from scoring.models import Ruling
from scoring.party.done import Done
from scoring.party.row_lock import bump_version


@transaction.atomic
def rule_redeal(
    party_id: int,
    *,
    seat: str,
    hand: Sequence[object] | None = None,
    redeal_reason: str = "",
    reason: str = "",
    client_id: str = "",
    actor: Any = None,
    expected_version: int | None = None,
) -> Done[Ruling]:
    """The hand dealt to the player on ``seat`` is dealt again, as the game's rules say.

    ``hand``: the tiles the referee entered, which the rule set checks (Kozel: five or more
    doubles, or six or more tiles of one number); without them ``redeal_reason`` is the reason
    the referee confirms. The ruling is logged with the deal in play, whose number stays:
    nothing is scored. Refused where the game's rules deal no hand again.
    """
    party, found = _locked_unless_done(Ruling, party_id, client_id, expected_version)
    if found is not None:
        return Done(found, party)
    _require_in_progress(party)
    rule_set, cfg = _rules(party)
    if not rule_set.redeal_reasons:
        raise ServiceError("party", _("The rules of this game deal no hand again."))
    _seat_side(party, seat)
    player = party.seat_players().get(seat)
    if player is None:
        message = _("Nobody sits on %(seat)s in this game.") % {"seat": seat.upper()}
        raise ServiceError("seat", message)
    tiles = [_engine(parse_tile, tile, "hand") for tile in hand or ()]
    why = _engine(rule_set.redeal, tiles, redeal_reason, cfg)
    reason = _reason(reason)
    details: dict[str, Any] = {"redeal_reason": why}
    if tiles:
        details["hand"] = [list(tile) for tile in tiles]
    ruling = _ruling(
        party, Ruling.Kind.REDEAL, side=seat[0], seat=seat, player=player,
        deal_number=deal_in_play(party), details=details, actor=actor, client_id=client_id,
        reason=reason,
    )
    bump_version(party)
    return Done(ruling, party)
