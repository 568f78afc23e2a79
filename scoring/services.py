"""Deal services: record, correct and annul deals; each one re-evaluates the party's end."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from referee.eventlog import append_event
from scoring.locking import assert_party_editable, open_protocol
from scoring.models import Deal
from scoring.rules import DealFacts, RuleError, get_rule_set
from scoring.totals import party_totals
from tournaments.errors import ServiceError, translate_engine_error
from tournaments.models import Party
from tournaments.services import bump_version, lock_party


def _score(party: Party, facts: DealFacts) -> Any:
    """Score a deal with the tournament's rule set; engine errors become service errors."""
    tournament = party.round.tournament
    try:
        return get_rule_set(tournament.rule_set).score_deal(
            facts, tournament.regulations.rules_config()
        )
    except RuleError as exc:
        raise translate_engine_error(exc) from exc


def _facts(
    outcome: str,
    winner: str | None,
    went_out: str | None,
    pips: dict[str, int] | None,
    points: dict[str, int] | None,
) -> DealFacts:
    """Build the engine's deal facts from request values (empty strings mean none)."""
    return DealFacts(
        outcome=outcome,
        winner=winner or None,
        went_out=went_out or None,
        pips=pips or None,
        points=points or None,
    )


def deals_after_expiry(party: Party) -> int:
    """How many deals were completed after the party's time ran out."""
    if not party.time_expired_at:
        return 0
    return (
        party.deals.exclude(outcome=Deal.Outcome.ANNULLED)
        .filter(recorded_at__gt=party.time_expired_at)
        .count()
    )


def expiry_moment(party: Party) -> Any:
    """The moment the party's time ran out, or None while time is left or the clock stands."""
    if not party.started_at or party.paused_at:
        return None
    left = party.seconds_left()
    if left > 0:
        return None
    return timezone.now() + timezone.timedelta(seconds=left)


def evaluate_party(party: Party, actor: Any = None) -> str:
    """Apply the rule set's decision after a change: finish, reopen, or keep playing."""
    tournament = party.round.tournament
    rule_set = get_rule_set(tournament.rule_set)
    if party.end_reason in ("forfeit", "bye", "disqualification"):
        return "finished"
    totals = party_totals(party)
    decision = rule_set.decide(
        totals,
        tournament.regulations.rules_config(),
        time_expired=party.time_expired_at is not None,
        deals_after_expiry=deals_after_expiry(party),
    )
    if decision.state == "finished":
        if party.status != Party.Status.FINISHED or party.winner != decision.winner:
            party.status = Party.Status.FINISHED
            party.winner = decision.winner or ""
            party.end_reason = decision.reason or ""
            party.finished_at = party.finished_at or timezone.now()
            party.save(update_fields=["status", "winner", "end_reason", "finished_at"])
            append_event(
                party,
                "party_finished",
                actor=actor,
                data={"winner": party.winner, "reason": party.end_reason, "points": totals.points},
            )
            open_protocol(party, actor)
    elif party.status == Party.Status.FINISHED:
        party.status = Party.Status.IN_PROGRESS
        party.winner = ""
        party.end_reason = ""
        party.finished_at = None
        party.save(update_fields=["status", "winner", "end_reason", "finished_at"])
        append_event(party, "party_reopened", actor=actor, data={"state": decision.state})
    return decision.state


@transaction.atomic
def record_deal(
    party_id: int,
    *,
    actor: Any = None,
    outcome: str,
    winner: str | None = None,
    went_out: str | None = None,
    pips: dict[str, int] | None = None,
    points: dict[str, int] | None = None,
    tiles: dict[str, list] | None = None,
    number: int | None = None,
    note: str = "",
    client_id: str = "",
    expected_version: int | None = None,
) -> Deal:
    """Record the next deal of a party in progress; a retried client id returns the same deal."""
    if client_id:
        existing = Deal.objects.filter(party_id=party_id, client_id=client_id).first()
        if existing is not None:
            return existing
    party = lock_party(party_id, expected_version)
    if client_id:
        existing = party.deals.filter(client_id=client_id).first()
        if existing is not None:
            return existing
    assert_party_editable(party, actor, None)
    if party.status == Party.Status.FINISHED:
        raise ServiceError("party", _("The party is finished; no more deals can be recorded."))
    if party.status != Party.Status.IN_PROGRESS:
        raise ServiceError("party", _("The party has not started yet."))
    next_number = (party.deals.aggregate(m=Max("number"))["m"] or 0) + 1
    if number is not None and int(number) != next_number:
        raise ServiceError(
            "number",
            _("Deal %(number)s is already recorded; the next deal is %(next)s.")
            % {"number": number, "next": next_number}
            if int(number) < next_number
            else _("The next deal is %(next)s, not %(number)s.")
            % {"number": number, "next": next_number},
        )
    if outcome == Deal.Outcome.ANNULLED:
        raise ServiceError("outcome", _("A deal is annulled by a ruling, not recorded."))
    score = _score(party, _facts(outcome, winner, went_out, pips, points))
    if party.time_expired_at is None:
        moment = expiry_moment(party)
        if moment is not None:
            party.time_expired_at = moment
            party.save(update_fields=["time_expired_at"])
            append_event(party, "time_expired", actor=None, data={"at": moment.isoformat()})
    deal = Deal.objects.create(
        party=party,
        number=next_number,
        outcome=score.outcome,
        winner=score.winner or "",
        points_a=score.points["a"],
        points_b=score.points["b"],
        went_out=went_out or "",
        pips=pips or None,
        tiles=tiles or None,
        note=note,
        client_id=client_id,
        recorded_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    append_event(
        party,
        "deal_recorded",
        actor=actor,
        data={"deal": deal.number, **_deal_data(deal)},
    )
    evaluate_party(party, actor)
    bump_version(party)
    return deal


def _deal_data(deal: Deal) -> dict[str, Any]:
    """The values of a deal as logged in the event log."""
    return {
        "outcome": deal.outcome,
        "winner": deal.winner,
        "points_a": deal.points_a,
        "points_b": deal.points_b,
        "went_out": deal.went_out,
        "pips": deal.pips,
    }


def _locked_deal(deal_id: int, expected_version: int | None) -> tuple[Deal, Party]:
    """Load a deal and lock its party."""
    party_id = Deal.objects.filter(pk=deal_id).values_list("party_id", flat=True).first()
    if party_id is None:
        raise ServiceError("deal", _("No such deal."))
    party = lock_party(party_id, expected_version)
    return Deal.objects.get(pk=deal_id), party


def _require_reason(reason: str) -> str:
    """A correction or annulment needs a reason."""
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("reason", _("Give a reason for the change."))
    return reason


@transaction.atomic
def correct_deal(
    deal_id: int,
    *,
    actor: Any = None,
    reason: str,
    outcome: str,
    winner: str | None = None,
    went_out: str | None = None,
    pips: dict[str, int] | None = None,
    points: dict[str, int] | None = None,
    expected_version: int | None = None,
) -> Deal:
    """Correct a recorded deal; the old values stay in the event log."""
    reason = _require_reason(reason)
    deal, party = _locked_deal(deal_id, expected_version)
    assert_party_editable(party, actor, reason)
    if outcome == Deal.Outcome.ANNULLED:
        raise ServiceError("outcome", _("Use annul to annul a deal."))
    score = _score(party, _facts(outcome, winner, went_out, pips, points))
    before = _deal_data(deal)
    deal.outcome = score.outcome
    deal.winner = score.winner or ""
    deal.points_a = score.points["a"]
    deal.points_b = score.points["b"]
    deal.went_out = went_out or ""
    deal.pips = pips or None
    return _save_changed_deal(party, deal, "deal_corrected", before, actor, reason)


@transaction.atomic
def annul_deal(
    deal_id: int, *, actor: Any = None, reason: str, expected_version: int | None = None
) -> Deal:
    """Annul a deal (it keeps its number and scores nothing); the old values stay logged."""
    reason = _require_reason(reason)
    deal, party = _locked_deal(deal_id, expected_version)
    assert_party_editable(party, actor, reason)
    before = _deal_data(deal)
    deal.outcome = Deal.Outcome.ANNULLED
    deal.winner = ""
    deal.points_a = deal.points_b = 0
    return _save_changed_deal(party, deal, "deal_annulled", before, actor, reason)


def _save_changed_deal(
    party: Party, deal: Deal, kind: str, before: dict[str, Any], actor: Any, reason: str
) -> Deal:
    """Save a corrected or annulled deal, log old and new values, re-evaluate the party."""
    deal.save()
    append_event(
        party,
        kind,
        actor=actor,
        reason=reason,
        data={"deal": deal.number, "before": before, "after": _deal_data(deal)},
    )
    evaluate_party(party, actor)
    bump_version(party)
    return deal


def annul_deal_in_play(party: Party, *, actor: Any = None, reason: str) -> Deal:
    """Record the deal in play as annulled (a reshuffle); the caller holds the party's lock.

    The deal keeps its number and scores nothing; the caller re-evaluates the party and bumps
    its version once the whole ruling is applied.
    """
    reason = _require_reason(reason)
    if party.status != Party.Status.IN_PROGRESS:
        raise ServiceError("party", _("The party is not in progress."))
    number = (party.deals.aggregate(m=Max("number"))["m"] or 0) + 1
    deal = Deal.objects.create(
        party=party,
        number=number,
        outcome=Deal.Outcome.ANNULLED,
        note=reason,
        recorded_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    append_event(
        party,
        "deal_annulled",
        actor=actor,
        reason=reason,
        data={"deal": deal.number, "in_play": True, "after": _deal_data(deal)},
    )
    return deal
