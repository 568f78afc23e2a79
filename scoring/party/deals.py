"""Deal services: record, correct and annul deals; each one re-evaluates the party's end
(``scoring.party.ending``) and returns what it did (``scoring.party.done.Done``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from scoring.core.compiled import insert_row
from scoring.core.errors import ServiceError
from scoring.models import Deal, Party, Tournament
from scoring.party.deal_scoring import deal_facts, score_deal, store_score
from scoring.party.done import Done
from scoring.party.ending import evaluate_party, note_expiry
from scoring.party.entry_time import (
    check_counted_after_time_up,
    checked_entered_at,
    make_room,
    place_in_time,
    takes_late_deal,
)
from scoring.party.event_log import append_event, deal_data
from scoring.party.leaders import settle_leader
from scoring.party.protocol_lock import assert_party_editable
from scoring.party.row_lock import bump_version, check_version, lock_party
from scoring.totals.compute import (
    DealRow,
    fine_rows,
    next_deal_number,
    party_totals,
    recorded,
)


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
    plays: list | None = None,
    led: str | None = None,
    number: int | None = None,
    note: str = "",
    client_id: str = "",
    expected_version: int | None = None,
    play_ended_before_time_up: bool = False,
    fish_by: str | None = None,
    entered_at: datetime | None = None,
) -> Done[Deal]:
    """Record the next deal of a party in progress; a retried client id returns the same deal.

    In a match of games (UDL, All Fives) the deal belongs to the game in play. With
    ``play_ended_before_time_up`` the referee says the party's time ran out while this deal
    was counted (or the tiles shuffled): it is not the last deal, one more is played; refused
    before the time ran out and on a second such deal (``check_counted_after_time_up``). ``led``
    defaults to the leader the rules name (``scoring.party.leaders``); ``fish_by`` made a fish.
    ``entered_at`` is when the referee entered it on his device (``scoring.party.entry_time``):
    it decides whether the deal was played before the time ran out; a deal played in time that
    arrives after deals played later (a device that was offline) goes before them, even once
    the party ended by time (it is decided again). The result carries the deals read under
    the lock with the new one, and the totals made. A finished tournament takes no deal.
    """
    party = lock_party(party_id)
    # the party's deals read once, last first: the retry, the next number, the leader, totals
    deals = recorded(party)
    if client_id:
        for found in deals:
            if found.client_id == client_id:  # a retry: the same deal, whatever the version
                return Done(Deal.objects.get(pk=found.id), party)
    check_version(party, expected_version)
    if party.round.tournament.status == Tournament.Status.FINISHED:  # read with the lock
        raise ServiceError("tournament", _("The tournament is finished: no deal can be "
                                           "recorded."))
    assert_party_editable(party, actor, None)
    entered_at = checked_entered_at(party, entered_at)
    if party.status == Party.Status.FINISHED and not takes_late_deal(party, entered_at):
        raise ServiceError("party", _("The party is finished; no more deals can be recorded."))
    if party.status not in (Party.Status.IN_PROGRESS, Party.Status.FINISHED):
        raise ServiceError("party", _("The party has not started yet."))
    next_number = next_deal_number(deals)
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
    led, fish_by = settle_leader(party, outcome, led, fish_by, deals)
    facts = deal_facts(
        outcome, winner, went_out, pips, points, tiles=tiles, plays=plays, led=led, game=party.game
    )
    score = score_deal(party, facts)
    note_expiry(party)
    if play_ended_before_time_up:
        check_counted_after_time_up(party, entered_at, deals)
    place = place_in_time(party, entered_at, deals)
    in_order = [*reversed(deals)] if place is None else make_room(party, place, deals)
    deal = Deal(
        party=party,
        number=next_number if place is None else place,
        went_out=went_out or "",
        pips=pips or None,
        tiles=tiles or None,
        plays=plays or None,
        led=led or "",
        fish_by=fish_by,
        play_ended_before_time_up=bool(play_ended_before_time_up),
        entered_at=entered_at,
        note=note,
        client_id=client_id,
        recorded_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    store_score(deal, score)
    insert_row(deal)
    in_play = sorted([*(found.row() for found in in_order), DealRow.of(deal)], key=_number)
    rows = (in_play, fine_rows(party))
    totals = party_totals(party, rows)
    data = {"deal": deal.number, **deal_data(deal)}
    if place is not None:  # played before these, which move one number on
        data["moved_on"] = [row.number - 1 for row in in_order if row.number > place]
    if totals.uncollected and totals.uncollected[-1]:  # scored, not collected (UDL): logged
        data["uncollected"] = totals.uncollected[-1]
    append_event(party, "deal_recorded", actor=actor, data=data, with_version=())
    evaluation = evaluate_party(party, actor, *rows, totals)
    bump_version(party)  # written with the event (PostgreSQL)
    return Done(deal, party, evaluation.evaluated, deals if place is None else None, False)


def _number(row: DealRow) -> int:
    """A deal row's number (the order of a party's deals)."""
    return row.number


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
    tiles: dict[str, list] | None = None,
    plays: list | None = None,
    led: str | None = None,
    expected_version: int | None = None,
) -> Done[Deal]:
    """Correct a recorded deal; the old values stay in the event log."""
    reason = _require_reason(reason)
    deal, party = _locked_deal(deal_id, expected_version)
    assert_party_editable(party, actor, reason)
    if outcome == Deal.Outcome.ANNULLED:
        raise ServiceError("outcome", _("Use annul to annul a deal."))
    facts = deal_facts(
        outcome, winner, went_out, pips, points, tiles=tiles, plays=plays, led=led, game=deal.game
    )
    score = score_deal(party, facts)
    before = deal_data(deal)
    store_score(deal, score)
    deal.went_out = went_out or ""
    deal.pips = pips or None
    deal.tiles = tiles or None
    deal.plays = plays or None
    deal.led = led or ""
    return _save_changed_deal(party, deal, "deal_corrected", before, actor, reason)


@transaction.atomic
def annul_deal(
    deal_id: int, *, actor: Any = None, reason: str, expected_version: int | None = None
) -> Done[Deal]:
    """Annul a deal (it keeps its number and scores nothing); the old values stay logged."""
    reason = _require_reason(reason)
    deal, party = _locked_deal(deal_id, expected_version)
    assert_party_editable(party, actor, reason)
    before = deal_data(deal)
    store_score(deal, annulled_score(party, deal.game))
    return _save_changed_deal(party, deal, "deal_annulled", before, actor, reason)


def annulled_score(party: Party, game: int) -> Any:
    """An annulled deal's score as the rule set keeps it: nothing, for each of its sides (per
    seat in the games scored per player, where side-keyed zeros were refused)."""
    return score_deal(party, deal_facts(Deal.Outcome.ANNULLED, None, None, None, None, game=game))


def _save_changed_deal(
    party: Party, deal: Deal, kind: str, before: dict[str, Any], actor: Any, reason: str
) -> Done[Deal]:
    """Save a corrected or annulled deal, log old and new values, re-evaluate the party."""
    deal.save()
    append_event(
        party,
        kind,
        actor=actor,
        reason=reason,
        data={"deal": deal.number, "before": before, "after": deal_data(deal)},
    )
    evaluation = evaluate_party(party, actor)
    bump_version(party)
    return Done(deal, party, evaluation.evaluated, locked=False)


def annul_deal_in_play(party: Party, *, actor: Any = None, reason: str) -> Deal:
    """Record the deal in play as annulled (a reshuffle); the caller holds the party's lock.

    The deal keeps its number and scores nothing; the caller re-evaluates the party and bumps
    its version once the whole ruling is applied.
    """
    reason = _require_reason(reason)
    if party.status != Party.Status.IN_PROGRESS:
        raise ServiceError("party", _("The party is not in progress."))
    number = (party.deals.aggregate(m=Max("number"))["m"] or 0) + 1
    deal = Deal(
        party=party,
        number=number,
        note=reason,
        recorded_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    store_score(deal, annulled_score(party, party.game))
    deal.save()
    append_event(
        party,
        "deal_annulled",
        actor=actor,
        reason=reason,
        data={"deal": deal.number, "in_play": True, "after": deal_data(deal)},
    )
    return deal
