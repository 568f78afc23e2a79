"""Referee services: the party's clock, check-in, warnings, fines, rulings and its end.

Every service locks the party row (``lock_party``, refusing a stale version with 409), checks
the regulations, changes state inside one transaction and appends to the party's event log.
A client id makes a retried request return what the first one made.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from referee.rulings import (
    FINE,
    WARNING,
    PenaltyDecision,
    PenaltyPreset,
    decide_violation,
    fine_decision,
    forfeit_result,
    offender_side,
    parse_tile,
)
from scoring.errors import ServiceError, translate_engine_error
from scoring.eventlog import append_event
from scoring.locking import assert_party_editable, open_protocol
from scoring.models import (
    Deal,
    Pair,
    Party,
    PartyDesk,
    Penalty,
    Player,
    RefereeSettings,
    Round,
    Ruling,
    Tournament,
)
from scoring.record import bump_version, lock_party
from scoring.rules import (
    FINE_AWARD,
    RuleError,
    RuleSet,
    get_rule_set,
    party_side,
    penalty_for,
)
from scoring.rules import udl as udl_rules
from scoring.services import annul_deal_in_play, evaluate_party, expiry_moment, record_deal
from scoring.totals import party_totals

SIDES = ("a", "b")
WARNING_CATEGORIES = (
    Penalty.Category.MOVE_TIME,
    Penalty.Category.TALKING,
    Penalty.Category.SIGNS,
    Penalty.Category.CONDUCT,
    Penalty.Category.OTHER,
)
"""The kinds of violation a warning is given for (the rulings fine directly)."""


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
    """A pair did not appear: the opponents win with the regulations' forfeit score.

    Where every player keeps his own score the absent side's players lose (Kozel: the Goat).
    """
    party = lock_party(party_id, expected_version)
    _check_side(absent_side, "absent_side")
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
    return party


def _end_by_ruling(
    party: Party,
    *,
    winner: str,
    reason: str,
    actor: Any,
    event: str,
    why: str = "",
    data: dict[str, Any] | None = None,
    loser: str = "",
) -> None:
    """Finish a locked party by a ruling: ``winner`` gets the regulations' forfeit score.

    ``winner`` and ``loser`` are engine sides (a seat where every player keeps his own
    score); with no winner the deals' points stand and ``loser`` alone carries the ruling.
    """
    now = timezone.now()
    if loser:
        data = {**(data or {}), "loser": loser}
    bump_version(
        party,
        status=Party.Status.FINISHED,
        winner=winner,
        loser=loser,
        end_reason=reason,
        finished_at=now,
        started_at=party.started_at or now,
        paused_at=None,
    )
    append_event(
        party,
        event,
        actor=actor,
        reason=why,
        data={**(data or {}), "winner": winner, "points": party_totals(party).points},
    )
    open_protocol(party, actor)


# -- small checks shared by the services ---------------------------------------------------


def _check_side(side: str, field: str = "side") -> str:
    """Refuse anything but "a" or "b"."""
    if side not in SIDES:
        raise ServiceError(field, _("Choose pair A or pair B."))
    return side


def _require_not_finished(party: Party) -> None:
    """Refuse rulings on a finished party or a bye."""
    if party.status == Party.Status.FINISHED:
        raise ServiceError("party", _("The party is finished."))
    if party.is_bye:
        raise ServiceError("party", _("A bye is not played."))


def _rules(party: Party) -> tuple[RuleSet, Any]:
    """The party's rule set and the plain snapshot of its regulations."""
    tournament = party.round.tournament
    return get_rule_set(tournament.rule_set), tournament.regulations.rules_config()


def _engine(call: Any, *args: Any, **kwargs: Any) -> Any:
    """Run a rule-engine function; its refusal becomes a translated service error."""
    try:
        return call(*args, **kwargs)
    except RuleError as exc:
        raise translate_engine_error(exc) from exc


def _seat_side(party: Party, seat: str) -> str:
    """The party side of a seat at the table ("a1" → "a"), or a service error naming ``seat``."""
    rule_set, cfg = _rules(party)
    _engine(rule_set.side_of, seat, "seat")
    if seat not in rule_set.seats_for(cfg):
        raise ServiceError(
            "seat", _("Nobody sits on %(seat)s in this game.") % {"seat": seat.upper()}
        )
    return party_side(seat)


def _offender(
    party: Party,
    side: str,
    seat: str = "",
    player: Player | None = None,
    *,
    whole_pair: bool = False,
) -> str:
    """The engine side a penalty or ruling against ``side`` (and its player) is given to.

    The side itself in pairs games and in singles of two sides; the player's seat where every
    player keeps his own score (Kozel, the Draw, Block and Classic games).
    """
    rule_set, cfg = _rules(party)
    if player is not None and not seat:
        seat = next((s for s, p in party.seat_players().items() if p.pk == player.pk), "")
    return _engine(offender_side, rule_set, cfg, side, seat, whole_pair=whole_pair)


def _forfeit_result(party: Party, *offenders: str) -> tuple[str, str]:
    """Winner and loser (engine sides) of a party a ruling ends against ``offenders``."""
    rule_set, cfg = _rules(party)
    return _engine(forfeit_result, rule_set, cfg, offenders)


def _seated(party: Party, offender: str) -> Player | None:
    """The player on a seat (None for a side)."""
    return party.seat_players().get(offender)


def _player(party: Party, side: str, seat: str = "", player_id: int | None = None) -> Player | None:
    """The player on a seat, or a given player who must belong to the side's pair."""
    pair: Pair | None = party.pair(side)
    if pair is None:
        raise ServiceError("side", _("A bye has no opponent."))
    if seat:
        if _seat_side(party, seat) != side:
            raise ServiceError("seat", _("That seat belongs to the other pair."))
        return pair.player1 if seat.endswith("1") else pair.player2
    if player_id is None:
        return None
    for player in pair.players:
        if player.pk == int(player_id):
            return player
    raise ServiceError("player", _("The player does not play in that pair."))


def _reason(reason: str, required: bool = False) -> str:
    """A stripped reason; some rulings require one."""
    reason = (reason or "").strip()
    if required and not reason:
        raise ServiceError("reason", _("Give a reason."))
    return reason


def deal_in_play(party: Party) -> int:
    """The number of the deal being played (the next one to record)."""
    return (party.deals.aggregate(m=Max("number"))["m"] or 0) + 1


def referee_settings(tournament: Tournament) -> RefereeSettings:
    """The tournament's referee settings (the defaults when none were saved)."""
    found = RefereeSettings.objects.filter(tournament=tournament).first()
    return found or RefereeSettings(tournament=tournament)


def penalty_preset(tournament: Tournament) -> PenaltyPreset:
    """The plain penalty preset the escalation rules take."""
    found = referee_settings(tournament)
    return PenaltyPreset(code=found.penalty_preset, slow_play_points=found.slow_play_points)


def desk_of(party: Party) -> PartyDesk:
    """The party's desk notes, created on first use (call with the party locked)."""
    desk, _created = PartyDesk.objects.get_or_create(party=party)
    return desk


# -- check-in and no-show -------------------------------------------------------------------


def no_show_due_at(party: Party) -> datetime | None:
    """When a pair still absent is a no-show: the regulations' minutes after the start.

    The start is the round's scheduled start, else the moment the party's clock started.
    """
    start = party.round.scheduled_start or party.started_at
    if start is None:
        return None
    return start + timedelta(minutes=party.round.tournament.regulations.no_show_minutes)


@transaction.atomic
def check_in(
    party_id: int,
    *,
    side: str,
    present: bool = True,
    actor: Any = None,
    expected_version: int | None = None,
) -> PartyDesk:
    """Mark a pair present at the table (or, by mistake marked, absent again)."""
    party = lock_party(party_id, expected_version)
    _check_side(side)
    _require_not_finished(party)
    desk = desk_of(party)
    setattr(desk, f"present_{side}", timezone.now() if present else None)
    desk.save()
    append_event(party, "check_in", actor=actor, data={"side": side, "present": bool(present)})
    bump_version(party)
    return desk


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
    return True


# -- penalties -------------------------------------------------------------------------------


def _existing(model: type, party_id: int, client_id: str) -> Any:
    """The record a retried request already made, if any."""
    if not client_id:
        return None
    return model.objects.filter(party_id=party_id, client_id=client_id).order_by("pk").first()


def _locked_unless_done(
    model: type, party_id: int, client_id: str, expected_version: int | None
) -> tuple[Party, Any]:
    """Lock the party for a new record; a retried request gets the record it already made.

    The retry is looked for before the version check too: a retry carries the version the
    device saw before its first attempt succeeded.
    """
    found = _existing(model, party_id, client_id)
    if found is not None:
        return Party.objects.get(pk=party_id), found
    party = lock_party(party_id, expected_version)
    return party, _existing(model, party_id, client_id)


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
) -> Penalty:
    """Write a penalty of a locked party and log it (the caller re-evaluates the party)."""
    penalty = Penalty.objects.create(
        party=party,
        kind=kind or decision.kind,
        category=category,
        side=side,
        player=player,
        points=decision.points,
        mode=decision.mode,
        deal_number=deal_in_play(party),
        game=party.game,
        escalated_from=escalated_from,
        reason=reason,
        client_id=client_id,
        created_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
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
    )
    return penalty


def _check_category(category: str, allowed: tuple[str, ...]) -> str:
    """Refuse a violation category that this action does not take."""
    if category not in allowed:
        raise ServiceError("category", _("Choose the kind of violation."))
    return category


Decide = Callable[
    [Party, str, RuleSet, Any, PenaltyPreset], tuple[PenaltyDecision, Penalty | None]
]
"""(party, engine side, rule set, config, preset) → the decision and the warning it repeats."""


def _penalise(
    party_id: int,
    *,
    side: str,
    category: str,
    allowed: tuple[str, ...],
    decide: Decide,
    seat: str,
    player_id: int | None,
    reason: str,
    client_id: str,
    actor: Any,
    expected_version: int | None,
) -> Penalty:
    """What warnings and fines share: checks, the decision, the record, the party's totals.

    The penalty is written on the engine's side: the player's seat where every player keeps
    his own score, so warnings escalate per player and a fine lands on his account.
    """
    party, found = _locked_unless_done(Penalty, party_id, client_id, expected_version)
    if found is not None:
        return found
    _require_in_progress(party)
    _check_side(side)
    _check_category(category, allowed)
    player = _player(party, side, seat, player_id)
    offender = _offender(party, side, seat, player)
    player = player or _seated(party, offender)
    rule_set, cfg = _rules(party)
    decision, escalated_from = decide(
        party, offender, rule_set, cfg, penalty_preset(party.round.tournament)
    )
    penalty = _add_penalty(
        party,
        decision,
        side=offender,
        category=category,
        player=player,
        actor=actor,
        reason=_reason(reason),
        client_id=client_id,
        escalated_from=escalated_from,
    )
    if decision.is_fine:  # a warning changes no total
        evaluate_party(party, actor)
    bump_version(party)
    return penalty


@transaction.atomic
def give_warning(
    party_id: int,
    *,
    side: str,
    category: str,
    seat: str = "",
    player_id: int | None = None,
    reason: str = "",
    client_id: str = "",
    actor: Any = None,
    expected_version: int | None = None,
) -> Penalty:
    """A violation: a warning, or a fine when the pair repeats that kind (per the regulations).

    Where every player keeps his own score, the warnings are counted per player.
    """

    def decide(
        party: Party, offender: str, rule_set: RuleSet, cfg: Any, preset: PenaltyPreset
    ) -> tuple[PenaltyDecision, Penalty | None]:
        earlier = list(
            party.penalties.filter(
                side=offender, category=category, kind=Penalty.Kind.WARNING, cancelled=False
            )
            .order_by("-id")
            .values_list("id", flat=True)
        )
        decision = _engine(
            decide_violation,
            rule_set,
            cfg,
            preset,
            side=offender,
            category=category,
            warnings_before=len(earlier),
        )
        return decision, Penalty(pk=earlier[0]) if decision.is_fine and earlier else None

    return _penalise(
        party_id, side=side, category=category, allowed=WARNING_CATEGORIES, decide=decide,
        seat=seat, player_id=player_id, reason=reason, client_id=client_id, actor=actor,
        expected_version=expected_version,
    )


@transaction.atomic
def give_fine(
    party_id: int,
    *,
    side: str,
    category: str,
    points: int | None = None,
    seat: str = "",
    player_id: int | None = None,
    reason: str = "",
    client_id: str = "",
    actor: Any = None,
    expected_version: int | None = None,
) -> Penalty:
    """Fine a pair (or, where every player keeps his own score, a player) directly.

    The regulations' points (or the referee's) and mode.
    """

    def decide(
        party: Party, offender: str, rule_set: RuleSet, cfg: Any, preset: PenaltyPreset
    ) -> tuple[PenaltyDecision, Penalty | None]:
        return _engine(
            fine_decision, rule_set, cfg, offender, points, preset=preset, category=category
        ), None

    return _penalise(
        party_id, side=side, category=category, allowed=tuple(Penalty.Category.values),
        decide=decide, seat=seat, player_id=player_id, reason=reason, client_id=client_id,
        actor=actor, expected_version=expected_version,
    )


@transaction.atomic
def cancel_penalty(
    penalty_id: int, *, reason: str, actor: Any = None, expected_version: int | None = None
) -> Penalty:
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
    evaluate_party(party, actor)
    bump_version(party)
    return penalty


# -- rulings --------------------------------------------------------------------------------


def _ruling(
    party: Party,
    kind: str,
    *,
    side: str,
    actor: Any,
    client_id: str = "",
    reason: str = "",
    **fields: Any,
) -> Ruling:
    """Write a ruling of a locked party and log who decided what and why."""
    ruling = Ruling.objects.create(
        party=party,
        kind=kind,
        side=side,
        game=party.game,
        reason=reason,
        client_id=client_id,
        created_by=actor if getattr(actor, "is_authenticated", False) else None,
        **fields,
    )
    append_event(
        party,
        f"ruling_{kind}",
        actor=actor,
        reason=reason,
        data={
            "ruling": ruling.pk,
            "side": side,
            "seat": ruling.seat,
            "player": ruling.player.name if ruling.player else "",
            "choice": ruling.choice,
            "deal": ruling.deal_number,
            **ruling.details,
        },
    )
    return ruling


def _tile_details(tile: object) -> dict[str, Any]:
    """The tile named in a ruling, checked, as logged details (none if not given)."""
    if tile in (None, "", []):
        return {}
    low, high = _engine(parse_tile, tile, "tile")
    return {"tile": [low, high]}


def _ruling_fine(party: Party, side: str, category: str, player: Player | None, actor: Any,
                 reason: str) -> Penalty:
    """The fine a ruling gives the offending pair, as the regulations set it."""
    rule_set, cfg = _rules(party)
    decision = _engine(fine_decision, rule_set, cfg, side)
    return _add_penalty(
        party, decision, side=side, category=category, player=player, actor=actor, reason=reason
    )


@transaction.atomic
def rule_out_of_turn(
    party_id: int,
    *,
    seat: str,
    choice: str,
    tile: object = None,
    reason: str = "",
    client_id: str = "",
    actor: Any = None,
    expected_version: int | None = None,
) -> Ruling:
    """A tile played out of turn; the opponents chose to continue or to reshuffle.

    Continue: the tile is exposed and must be played at the first opportunity; the deal's
    result stands. Reshuffle: the deal in play is annulled and the offending pair fined.
    """
    party, found = _locked_unless_done(Ruling, party_id, client_id, expected_version)
    if found is not None:
        return found
    _require_in_progress(party)
    side = _seat_side(party, seat)
    player = _player(party, side, seat)
    side = _offender(party, side, seat)  # the seat, where every player keeps his own score
    reason = _reason(reason)
    details = _tile_details(tile)
    number = deal_in_play(party)
    if choice == Ruling.Choice.CONTINUE:
        ruling = _ruling(
            party, Ruling.Kind.OUT_OF_TURN, side=side, seat=seat, player=player, choice=choice,
            deal_number=number, details=details, actor=actor, client_id=client_id, reason=reason,
        )
        bump_version(party)
        return ruling
    if choice != Ruling.Choice.RESHUFFLE:
        raise ServiceError("choice", _("The opponents choose: continue or reshuffle."))
    deal = annul_deal_in_play(
        party, actor=actor, reason=reason or _("Reshuffle after a tile played out of turn.")
    )
    penalty = _ruling_fine(party, side, Penalty.Category.OUT_OF_TURN, player, actor, reason)
    ruling = _ruling(
        party, Ruling.Kind.OUT_OF_TURN, side=side, seat=seat, player=player, choice=choice,
        deal_number=number, details=details, deal=deal, penalty=penalty, actor=actor,
        client_id=client_id, reason=reason,
    )
    evaluate_party(party, actor)
    bump_version(party)
    return ruling


@transaction.atomic
def rule_false_pass(
    party_id: int,
    *,
    seat: str,
    points: dict[str, int] | None = None,
    reason: str = "",
    client_id: str = "",
    actor: Any = None,
    expected_version: int | None = None,
) -> Ruling:
    """A "pass" while a tile could be played: the deal ends with the referee's points and the
    offending pair is fined (points default to the regulations', 0 : 0)."""
    party, found = _locked_unless_done(Ruling, party_id, client_id, expected_version)
    if found is not None:
        return found
    _require_in_progress(party)
    side = _seat_side(party, seat)
    player = _player(party, side, seat)
    side = _offender(party, side, seat)  # the seat, where every player keeps his own score
    reason = _reason(reason)
    number = deal_in_play(party)
    penalty = _ruling_fine(party, side, Penalty.Category.FALSE_PASS, player, actor, reason)
    deal = record_deal(
        party.pk,
        actor=actor,
        outcome=Deal.Outcome.REFEREE,
        points=points,
        note=reason or _("Ended by the referee after a false pass."),
    )
    party.refresh_from_db()
    return _ruling(
        party, Ruling.Kind.FALSE_PASS, side=side, seat=seat, player=player, deal_number=number,
        deal=deal, penalty=penalty,
        details={
            "points_a": deal.points_a,
            "points_b": deal.points_b,
            **({"scores": deal.scores} if deal.scores else {}),
        },
        actor=actor, client_id=client_id, reason=reason,
    )


@transaction.atomic
def rule_touched_tile(
    party_id: int,
    *,
    seat: str,
    fits: bool,
    tile: object = None,
    reason: str = "",
    client_id: str = "",
    actor: Any = None,
    expected_version: int | None = None,
) -> Ruling:
    """A player touched a tile on his turn: he plays it if it fits; if not, his pair is fined."""
    party, found = _locked_unless_done(Ruling, party_id, client_id, expected_version)
    if found is not None:
        return found
    _require_in_progress(party)
    side = _seat_side(party, seat)
    player = _player(party, side, seat)
    side = _offender(party, side, seat)  # the seat, where every player keeps his own score
    reason = _reason(reason)
    penalty = None
    if not fits:
        penalty = _ruling_fine(party, side, Penalty.Category.TOUCHED_TILE, player, actor, reason)
    ruling = _ruling(
        party, Ruling.Kind.TOUCHED_TILE, side=side, seat=seat, player=player,
        deal_number=deal_in_play(party), details={**_tile_details(tile), "fits": bool(fits)},
        penalty=penalty, actor=actor, client_id=client_id, reason=reason,
    )
    if penalty is not None:
        evaluate_party(party, actor)
    bump_version(party)
    return ruling


@transaction.atomic
def rule_no_show(
    party_id: int,
    *,
    absent_side: str,
    reason: str = "",
    client_id: str = "",
    actor: Any = None,
    expected_version: int | None = None,
) -> Ruling:
    """The pair not present when the regulations' wait is over forfeits the party.

    Where every player keeps his own score the absent side's players lose (Kozel: the Goat).
    """
    party, found = _locked_unless_done(Ruling, party_id, client_id, expected_version)
    if found is not None:
        return found
    _check_side(absent_side, "absent_side")
    _require_not_finished(party)
    desk = desk_of(party)
    if desk.present(absent_side):
        raise ServiceError("absent_side", _("That pair was marked present."))
    due = no_show_due_at(party)
    if due is None:
        raise ServiceError(
            "party", _("Start the party's clock first: the wait for a no-show counts from it.")
        )
    if timezone.now() < due:
        raise ServiceError(
            "absent_side",
            _("A pair is a no-show only %(minutes)s minutes after the start.")
            % {"minutes": party.round.tournament.regulations.no_show_minutes},
        )
    reason = _reason(reason)
    winner, loser = _forfeit_result(party, absent_side)
    ruling = _ruling(
        party, Ruling.Kind.NO_SHOW, side=absent_side, actor=actor, client_id=client_id,
        reason=reason, details={"due": due.isoformat()},
    )
    _end_by_ruling(
        party, winner=winner, loser=loser, reason=Party.EndReason.FORFEIT, actor=actor,
        event="forfeit", why=reason, data={"absent": absent_side},
    )
    return ruling


@transaction.atomic
def disqualify(
    party_id: int,
    *,
    side: str,
    scope: str,
    reason: str,
    seat: str = "",
    player_id: int | None = None,
    category: str = Penalty.Category.OTHER,
    details: dict[str, Any] | None = None,
    client_id: str = "",
    actor: Any = None,
    expected_version: int | None = None,
) -> Ruling:
    """Disqualify a player or a pair from the party or from the whole tournament.

    The party in play is lost (the opponents get the regulations' forfeit score); from the
    tournament, the pair and player are marked so later draws leave them out, while their
    finished parties stand. Where every player keeps his own score the disqualified player
    loses the party (Kozel: he is the Goat). ``details`` are kept on the ruling.
    """
    party, found = _locked_unless_done(Ruling, party_id, client_id, expected_version)
    if found is not None:
        return found
    _check_side(side)
    reason = _reason(reason, required=True)
    if scope not in (Ruling.Choice.PARTY, Ruling.Choice.TOURNAMENT):
        raise ServiceError("scope", _("Disqualify from the party or from the tournament."))
    _check_category(category, tuple(Penalty.Category.values))
    if party.is_bye:
        raise ServiceError("party", _("A bye is not played."))
    finished = party.status == Party.Status.FINISHED
    if finished and scope == Ruling.Choice.PARTY:
        raise ServiceError("party", _("The party is finished."))
    assert_party_editable(party, actor, reason)
    player = _player(party, side, seat, player_id)
    offender = _offender(party, side, seat, player, whole_pair=True)
    player = player or _seated(party, offender)
    penalty = _add_penalty(
        party, PenaltyDecision(Penalty.Kind.DISQUALIFICATION), side=offender, category=category,
        player=player, actor=actor, reason=reason,
    )
    ruling = _ruling(
        party, Ruling.Kind.DISQUALIFICATION, side=offender, seat=seat, player=player,
        choice=scope, penalty=penalty, actor=actor, client_id=client_id, reason=reason,
        details={**(details or {}), "finished_before": finished},
    )
    if scope == Ruling.Choice.TOURNAMENT:
        _exclude_from_tournament(party, side, player)
    if finished:
        bump_version(party)
    else:
        winner, loser = _forfeit_result(party, offender)
        _end_by_ruling(
            party, winner=winner, loser=loser, reason=Party.EndReason.DISQUALIFICATION,
            actor=actor, event="party_finished", why=reason, data={"disqualified": offender},
        )
    return ruling


def _exclude_from_tournament(party: Party, side: str, player: Player | None) -> None:
    """Mark the disqualified player, or the pair and both its players, for later draws."""
    pair = party.pair(side)
    players = [player] if player is not None else list(pair.players)
    Player.objects.filter(pk__in=[p.pk for p in players]).update(disqualified=True)
    if player is None or party.round.tournament.format == Tournament.Format.PAIRS:
        Pair.objects.filter(pk=pair.pk).update(disqualified=True)


# -- UDL violations ----------------------------------------------------------------------------

UDL_VIOLATIONS = {
    udl_rules.SLOW_PLAY: gettext_lazy("Slow play"),
    udl_rules.OUT_OF_TURN: gettext_lazy("Out-of-turn play"),
    udl_rules.SLAMMING: gettext_lazy("Slamming dominoes"),
    udl_rules.HIDING_TILES: gettext_lazy("Hiding dominoes"),
    udl_rules.MISCONDUCT: gettext_lazy("Misconduct"),
    udl_rules.LEAVING: gettext_lazy("Leaving the table"),
}
"""The violations of the UDL tournament rules (RULES.md 2) the referee desk reports."""

UDL_CONSEQUENCES = {
    udl_rules.SLOW_PLAY: gettext_lazy(
        "Slow play: a warning the first time, then %(points)s points paid to the opponent each "
        "time."
    ),
    udl_rules.OUT_OF_TURN: gettext_lazy(
        "Out-of-turn play: the tile is exposed and must be played at the first opportunity."
    ),
    udl_rules.SLAMMING: gettext_lazy("Slamming dominoes: disqualification from the tournament."),
    udl_rules.HIDING_TILES: gettext_lazy(
        "Hiding dominoes: disqualification from the match, without warning."
    ),
    udl_rules.MISCONDUCT: gettext_lazy(
        "Misconduct: removal from the tournament, without warning."
    ),
    udl_rules.LEAVING: gettext_lazy(
        "Leaving the table: disqualification from the tournament, no substitutions."
    ),
}
"""What each UDL violation costs, as the screen explains it (``points``: the slow-play fine)."""


def _existing_record(party_id: int, client_id: str) -> Penalty | Ruling | None:
    """The penalty or ruling a retried UDL violation already made, if any."""
    for model in (Penalty, Ruling):
        found = _existing(model, party_id, client_id)
        if found is not None:
            return found
    return None


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
) -> Penalty | Ruling:
    """A violation of the UDL tournament rules, with the consequence the rule engine gives it.

    Slow play: a warning, then ``udl_slow_play_points`` paid to the opponent in the game in
    play (a fine in award mode), every time after the first. Out-of-turn play: the tile is
    exposed (the out-of-turn ruling, "continue"). Hiding tiles: disqualified from the match;
    slamming and leaving: disqualified from the tournament; misconduct: removed from it. The
    existing warning, fine, out-of-turn and disqualification services apply it.
    """
    found = _existing_record(party_id, client_id)
    if found is not None:
        return found
    party = lock_party(party_id, expected_version)
    rule_set, cfg = _rules(party)
    if rule_set.code != udl_rules.UdlSingles.code:
        raise ServiceError(
            "violation", _("The UDL rules apply only to a tournament of UDL singles.")
        )
    if violation not in UDL_VIOLATIONS:
        raise ServiceError("violation", _("Choose the violation."))
    if seat:
        side = _seat_side(party, seat)
    _check_side(side)
    seat = seat or f"{side}1"
    player = _player(party, side, seat, player_id)
    label = str(UDL_VIOLATIONS[violation])
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
        return disqualify(
            party.pk, side=side, scope=scope, reason=_reason(reason) or label, seat=seat,
            player_id=player.pk if player else None,
            details={"violation": violation, "consequence": consequence.kind},
            client_id=client_id, actor=actor,
        )

    def decide(
        party: Party, offender: str, rule_set: RuleSet, cfg: Any, preset: PenaltyPreset
    ) -> tuple[PenaltyDecision, Penalty | None]:
        if consequence.kind != udl_rules.POINTS_TO_OPPONENT:
            return PenaltyDecision(WARNING), None
        warning = (
            party.penalties.filter(
                side=offender, category=Penalty.Category.MOVE_TIME, kind=Penalty.Kind.WARNING,
                cancelled=False,
            )
            .order_by("-id")
            .first()
        )
        return PenaltyDecision(FINE, consequence.points, FINE_AWARD), warning

    return _penalise(
        party.pk, side=side, category=Penalty.Category.MOVE_TIME,
        allowed=(Penalty.Category.MOVE_TIME,), decide=decide, seat=seat,
        player_id=player.pk if player else None, reason=_reason(reason), client_id=client_id,
        actor=actor, expected_version=None,
    )


# -- referees of a tournament ----------------------------------------------------------------


@transaction.atomic
def assign_referee(
    tournament: Tournament, *, user: Any, role: str, tables: list[Any] | None = None
) -> Any:
    """Make a user a referee (optionally of some tables) or the chief referee of a tournament."""
    from scoring.models import TournamentRole

    if role not in (TournamentRole.Role.REFEREE, TournamentRole.Role.CHIEF):
        raise ServiceError("role", _("Choose referee or chief referee."))
    tables = list(tables or [])
    if any(table.tournament_id != tournament.pk for table in tables):
        raise ServiceError("tables", _("A table of another tournament."))
    assignment, _created = TournamentRole.objects.get_or_create(
        tournament=tournament, user=user, role=role
    )
    assignment.tables.set(tables if role == TournamentRole.Role.REFEREE else [])
    return assignment


@transaction.atomic
def save_referee_settings(tournament: Tournament, **values: Any) -> RefereeSettings:
    """Change the tournament's penalty rules beyond its regulations (values validated)."""
    found, _created = RefereeSettings.objects.get_or_create(tournament=tournament)
    for name, value in values.items():
        setattr(found, name, value)
    found.save()
    return found
