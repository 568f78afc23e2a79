"""UDL violations: the consequence the UDL rules give each one, applied by the existing
warning, fine, out-of-turn and disqualification services."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from referee.rulings import FINE, WARNING, PenaltyDecision, PenaltyPreset
from referee.services.common import (
    _check_side,
    _engine,
    _existing,
    _player,
    _reason,
    _rules,
    _seat_side,
)
from referee.services.penalties import _earlier_warnings, _penalise
from referee.services.rulings import disqualify, rule_out_of_turn
from scoring.core.errors import ServiceError
from scoring.models import Party, Penalty, Ruling
from scoring.party.done import Done
from scoring.party.row_lock import lock_party
from scoring.rules import FINE_AWARD, RuleSet, penalty_for
from scoring.rules import udl as udl_rules
from scoring.totals.compute import PenaltyRow


def _existing_record(party_id: int, client_id: str) -> Penalty | Ruling | None:
    """The penalty or ruling a retried UDL violation already made, if any."""
    return _existing(Penalty, party_id, client_id) or _existing(Ruling, party_id, client_id)


@transaction.atomic
def rule_udl_violation(
    party_id: int,
    *,
    violation: str,
    side: str = "",
    seat: str = "",
    player_id: int | None = None,
    tile: object = None,
    reason: str = "",
    client_id: str = "",
    actor: Any = None,
    expected_version: int | None = None,
) -> Done[Penalty] | Done[Ruling] | Penalty | Ruling:
    """A violation of the UDL tournament rules, with the consequence the rule engine gives it.

    Slow play: a warning, then ``udl_slow_play_points`` paid to the opponent in the game in
    play (a fine in award mode), every time after the first. Out-of-turn play: the tile is
    exposed (the out-of-turn ruling, "continue"). Hiding tiles: disqualified from the match;
    slamming and leaving: disqualified from the tournament; misconduct: removed from it;
    equipment broken by slamming: disqualified and banned for life (the ruling's reason and
    ``details`` carry the rule). The existing warning, fine, out-of-turn and disqualification
    services apply it.
    """
    found = _existing_record(party_id, client_id)
    if found is not None:
        return found
    party = lock_party(party_id, expected_version)
    rule_set, cfg = _rules(party)
    if not rule_set.violations:
        raise ServiceError(
            "violation", _("The UDL rules apply only to a tournament of UDL singles.")
        )
    if violation not in rule_set.violations:
        raise ServiceError("violation", _("Choose the violation."))
    if seat:
        side = _seat_side(party, seat)
    _check_side(side)
    seat = seat or f"{side}1"
    player = _player(party, side, seat, player_id)
    label = gettext(rule_set.violations[violation])
    earlier = 0
    if violation == udl_rules.SLOW_PLAY:
        earlier = party.penalties.filter(
            side=side, category=Penalty.Category.MOVE_TIME, kind=Penalty.Kind.WARNING,
            cancelled=False,
        ).count()
    consequence = _engine(penalty_for, violation, earlier, cfg)
    if consequence.kind == udl_rules.EXPOSED_TILE:
        return rule_out_of_turn(
            party.pk, seat=seat, choice=Ruling.Choice.CONTINUE, tile=tile,
            reason=_reason(reason) or label, client_id=client_id, actor=actor,
        )
    if consequence.ends_match:
        scope = Ruling.Choice.TOURNAMENT if consequence.ends_tournament else Ruling.Choice.PARTY
        rule = gettext(rule_set.consequences.get(violation, label)) % {
            "points": cfg.udl_slow_play_points
        }
        return disqualify(
            party.pk, side=side, scope=scope, reason=_reason(reason) or rule, seat=seat,
            player_id=player.pk if player else None,
            details={"violation": violation, "consequence": consequence.kind, "rule": rule,
                     "lifetime_ban": consequence.lifetime_ban},
            client_id=client_id, actor=actor,
        )

    def decide(
        party: Party, offender: str, rule_set: RuleSet, cfg: Any, preset: PenaltyPreset,
        penalties: list[PenaltyRow],
    ) -> tuple[PenaltyDecision, Penalty | None]:
        if consequence.kind != udl_rules.POINTS_TO_OPPONENT:
            return PenaltyDecision(WARNING), None
        earlier = _earlier_warnings(party, offender, Penalty.Category.MOVE_TIME, penalties)
        warning = Penalty(pk=earlier[0]) if earlier else None
        return PenaltyDecision(FINE, consequence.points, FINE_AWARD), warning

    return _penalise(
        party.pk, side=side, category=Penalty.Category.MOVE_TIME,
        allowed=(Penalty.Category.MOVE_TIME,), decide=decide, seat=seat,
        player_id=player.pk if player else None, reason=_reason(reason), client_id=client_id,
        actor=actor, expected_version=None,
    )
