"""Penalties: warnings, fines, their escalation per the regulations, and their cancelling."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Required, TypedDict, Unpack

from django.db import transaction
from django.utils.translation import gettext as _

from referee.rulings import PenaltyDecision, PenaltyPreset, decide_violation, fine_decision
from referee.services.common import (
    _check_side,
    _engine,
    _offender,
    _player,
    _reason,
    _require_in_progress,
    _rules,
    _seated,
    actor_id,
    deal_in_play,
)
from referee.services.staffing import penalty_preset
from scoring.core.compiled import insert_row
from scoring.core.errors import ServiceError
from scoring.models import Party, Penalty, Player
from scoring.party.done import Done
from scoring.party.ending import evaluate_party
from scoring.party.event_log import append_event
from scoring.party.protocol_lock import assert_party_editable
from scoring.party.row_lock import bump_version, check_version, lock_party
from scoring.rules import RuleSet
from scoring.totals.compute import (
    Evaluated,
    FineRow,
    PenaltyRow,
    deal_rows,
    fines_in_force,
    next_deal_number,
    party_totals,
    penalties_recorded,
)

logger = logging.getLogger(__name__)


WARNING_CATEGORIES = (
    Penalty.Category.MOVE_TIME,
    Penalty.Category.TALKING,
    Penalty.Category.SIGNS,
    Penalty.Category.CONDUCT,
    Penalty.Category.OTHER,
)
"""The kinds of violation a warning is given for (the rulings fine directly)."""


def _add_penalty(
    party: Party,
    decision: PenaltyDecision,
    *,
    side: str,
    category: str,
    player: Player | None,
    actor: Any,
    reason: str = "",
    client_id: str = "",
    escalated_from: Penalty | None = None,
    kind: str | None = None,
    deal_number: int | None = None,
    with_version: bool = False,
) -> Penalty:
    """Write a penalty of a locked party and log it (the caller re-evaluates the party).

    ``deal_number`` is the deal in play, if the caller read the deals (else it is read);
    ``with_version``: the log's statement saves the party's next version too, the caller's
    ``bump_version(party)`` following (``append_event``)."""
    penalty = Penalty(
        party=party,
        kind=kind or decision.kind,
        category=category,
        side=side,
        player=player,
        points=decision.points,
        mode=decision.mode,
        deal_number=deal_in_play(party) if deal_number is None else deal_number,
        game=party.game,
        escalated_from=escalated_from,
        reason=reason,
        client_id=client_id,
        created_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    insert_row(penalty)
    append_event(
        party,
        penalty.kind,
        actor=actor,
        reason=reason,
        data={
            "penalty": penalty.pk,
            "category": category,
            "side": side,
            "player": player.name if player else "",
            "points": penalty.points,
            "mode": penalty.mode,
            "escalated": escalated_from is not None,
        },
        with_version=() if with_version else None,
    )
    return penalty


def _check_category(category: str, allowed: tuple[str, ...]) -> str:
    """Refuse a violation category that this action does not take."""
    if category not in allowed:
        raise ServiceError("category", _("Choose the kind of violation."))
    return category


Decide = Callable[
    [Party, str, RuleSet, Any, PenaltyPreset, list[PenaltyRow]],
    tuple[PenaltyDecision, Penalty | None],
]
"""(party, engine side, rule set, config, preset, the party's penalties newest first) → the
decision and the warning it repeats."""


class PenaltyTarget(TypedDict, total=False):
    """Whom a warning or fine is given to, by whom and why: the arguments both take.

    ``side`` ("a" or "b") is required; ``seat`` or ``player_id`` name the player (a seat where
    every player keeps his own score); ``client_id`` makes a retry safe.
    """

    side: Required[str]
    seat: str
    player_id: int | None
    reason: str
    client_id: str
    actor: Any
    expected_version: int | None


def _penalise(
    party_id: int,
    *,
    category: str,
    allowed: tuple[str, ...],
    decide: Decide,
    **target: Unpack[PenaltyTarget],
) -> Done[Penalty]:
    """What warnings and fines share: checks, the decision, the record, the party's totals.

    The penalty is written on the engine's side: the player's seat where every player keeps
    his own score, so warnings escalate per player and a fine lands on his account. Under the
    party's lock its penalties and deals are read once each, as plain rows: the retry (found
    whatever the version: a retry carries the version its first attempt saw), the earlier
    warnings, the deal in play, and the totals of the answer (the result's ``evaluated``).
    """
    side, seat = target["side"], target.get("seat", "")
    actor, client_id = target.get("actor"), target.get("client_id", "")
    party = lock_party(party_id)
    penalties = penalties_recorded(party)
    if client_id:
        for row in reversed(penalties):  # the first it made, as ``_existing`` finds it
            if row.client_id == client_id:
                return Done(Penalty.objects.get(pk=row.id), party)
    check_version(party, target.get("expected_version"))
    _require_in_progress(party)
    _check_side(side)
    _check_category(category, allowed)
    player = _player(party, side, seat, target.get("player_id"))
    offender = _offender(party, side, seat, player)
    player = player or _seated(party, offender)
    rule_set, cfg = _rules(party)
    decision, escalated_from = decide(
        party, offender, rule_set, cfg, penalty_preset(party.round.tournament), penalties
    )
    deals = deal_rows(party)
    penalty = _add_penalty(
        party,
        decision,
        side=offender,
        category=category,
        player=player,
        actor=actor,
        reason=_reason(target.get("reason", "")),
        client_id=client_id,
        escalated_from=escalated_from,
        deal_number=next_deal_number(deals),
        with_version=True,
    )
    fines = fines_in_force(penalties)
    if decision.is_fine:
        evaluated = evaluate_party(party, actor, deals, [*fines, FineRow.of(penalty)]).evaluated
    else:  # a warning changes no total: the ones of the rows read
        evaluated = Evaluated((deals, fines), party_totals(party, (deals, fines)))
    bump_version(party)
    logger.info(
        "%s %s given: party %s, side %s, actor %s",
        penalty.kind, category, party.pk, offender, actor_id(actor),
    )
    return Done(penalty, party, evaluated)


def _earlier_warnings(
    party: Party, offender: str, category: str, rows: list[PenaltyRow] | None = None
) -> list[int]:
    """The ids of the offender's active warnings of a kind in the party, newest first (from
    ``rows``, its penalties newest first, when the caller read them)."""
    if rows is not None:
        return [
            row.id for row in rows
            if row.side == offender and row.category == category
            and row.kind == Penalty.Kind.WARNING and not row.cancelled
        ]
    return list(
        party.penalties.filter(
            side=offender, category=category, kind=Penalty.Kind.WARNING, cancelled=False
        )
        .order_by("-id")
        .values_list("id", flat=True)
    )


def active_warnings(party: Party, offender: str, category: str) -> int:
    """How many active warnings of a kind the offender (side or seat) has in the party."""
    return len(_earlier_warnings(party, offender, category))


def _warning_decision(
    rule_set: RuleSet, cfg: Any, preset: PenaltyPreset, offender: str, category: str,
    warnings_before: int,
) -> PenaltyDecision:
    """The one escalation rule of a warning: a warning, or a fine after the regulations' count."""
    return _engine(
        decide_violation, rule_set, cfg, preset,
        side=offender, category=category, warnings_before=warnings_before,
    )


def next_warning(
    party: Party,
    *,
    category: str,
    offender: str,
    warnings_before: int | None = None,
    preset: PenaltyPreset | None = None,
) -> PenaltyDecision:
    """What the next warning of ``category`` to ``offender`` will do: a warning, or a fine.

    ``offender`` is the engine side the warning is given to (the pair's side, or the player's
    seat where every player keeps his own score). ``warnings_before`` (his active warnings of
    that kind) and ``preset`` may come from the caller, who has them; else they are read.
    The same rule ``give_warning`` applies, so the screen's preview and the record agree.
    """
    rule_set, cfg = _rules(party)
    if warnings_before is None:
        warnings_before = active_warnings(party, offender, category)
    if preset is None:
        preset = penalty_preset(party.round.tournament)
    return _warning_decision(rule_set, cfg, preset, offender, category, warnings_before)


@transaction.atomic
def give_warning(
    party_id: int, *, category: str, **target: Unpack[PenaltyTarget]
) -> Done[Penalty]:
    """A violation: a warning, or a fine when the pair repeats that kind (per the regulations).

    Where every player keeps his own score, the warnings are counted per player.
    """

    def decide(
        party: Party, offender: str, rule_set: RuleSet, cfg: Any, preset: PenaltyPreset,
        penalties: list[PenaltyRow],
    ) -> tuple[PenaltyDecision, Penalty | None]:
        earlier = _earlier_warnings(party, offender, category, penalties)
        decision = _warning_decision(rule_set, cfg, preset, offender, category, len(earlier))
        return decision, Penalty(pk=earlier[0]) if decision.is_fine and earlier else None

    return _penalise(
        party_id, category=category, allowed=WARNING_CATEGORIES, decide=decide, **target
    )


@transaction.atomic
def give_fine(
    party_id: int,
    *,
    category: str,
    points: int | None = None,
    **target: Unpack[PenaltyTarget],
) -> Done[Penalty]:
    """Fine a pair (or, where every player keeps his own score, a player) directly.

    The regulations' points (or the referee's) and mode.
    """

    def decide(
        party: Party, offender: str, rule_set: RuleSet, cfg: Any, preset: PenaltyPreset,
        penalties: list[PenaltyRow],
    ) -> tuple[PenaltyDecision, Penalty | None]:
        return _engine(
            fine_decision, rule_set, cfg, offender, points, preset=preset, category=category
        ), None

    return _penalise(
        party_id, category=category, allowed=tuple(Penalty.Category.values), decide=decide,
        **target,
    )


@transaction.atomic
def cancel_penalty(
    penalty_id: int, *, reason: str, actor: Any = None, expected_version: int | None = None
) -> Done[Penalty]:
    """Cancel a warning or fine given by mistake; it stays on record, marked cancelled."""
    reason = _reason(reason, required=True)
    party_id = (
        Penalty.objects.filter(pk=penalty_id).order_by().values_list("party_id", flat=True).first()
    )
    if party_id is None:
        raise ServiceError("penalty", _("No such penalty."))
    party = lock_party(party_id, expected_version)
    assert_party_editable(party, actor, reason)
    penalty = Penalty.objects.get(pk=penalty_id)
    if penalty.cancelled:
        raise ServiceError("penalty", _("The penalty is already cancelled."))
    if penalty.kind == Penalty.Kind.DISQUALIFICATION:
        raise ServiceError("penalty", _("A disqualification cannot be cancelled here."))
    penalty.cancelled = True
    penalty.save(update_fields=["cancelled"])
    append_event(
        party,
        "penalty_cancelled",
        actor=actor,
        reason=reason,
        data={
            "penalty": penalty.pk,
            "kind": penalty.kind,
            "category": penalty.category,
            "side": penalty.side,
            "points": penalty.points,
            "before": {"cancelled": False},
            "after": {"cancelled": True},
        },
    )
    evaluation = evaluate_party(party, actor)
    bump_version(party)
    logger.info("penalty %s cancelled: party %s, actor %s", penalty.pk, party.pk, actor_id(actor))
    return Done(penalty, party, evaluation.evaluated, locked=False)
