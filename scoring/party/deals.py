"""Deal services: record, correct and annul deals; each one re-evaluates the party's end.

``end_party`` is the one way a party ends (by the rules here, by a ruling in the referee desk):
it logs the end, opens the protocol and emits ``party.finished``.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.core.compiled import insert_row
from scoring.core.errors import ServiceError
from scoring.models import Deal, Party
from scoring.party.deal_scoring import deal_facts, score_deal, store_score
from scoring.party.event_log import append_event, deal_data
from scoring.party.followers import results_changed
from scoring.party.leaders import settle_leader
from scoring.party.protocol_lock import assert_party_editable, open_protocol
from scoring.party.row_lock import bump_version, check_version, lock_party
from scoring.rules import (
    NEXT_GAME,
    PartyDecision,
    get_rule_set,
    plays_games,
)
from scoring.totals.compute import (
    DealRow,
    FineRow,
    deals_after,
    fine_rows,
    keep_read,
    keep_totals,
    next_deal_number,
    party_rows,
    party_totals,
    recorded,
)
from scoring.totals.stored import store_totals
from scoring.webhooks import services as webhooks

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User


def expiry_moment(party: Party, seconds_left: float | None = None) -> datetime | None:
    """The moment the party's (or given) time ran out, or None while time is left or paused.

    A party without a clock (``party_minutes`` empty) never runs out of time.
    """
    if not party.started_at or party.paused_at:
        return None
    left = party.seconds_left() if seconds_left is None else seconds_left
    if left is None or left > 0:
        return None
    return timezone.now() + timedelta(seconds=left)


def expire_time(
    party: Party, moment: datetime, actor: User | AnonymousUser | None = None
) -> None:
    """Record that the party's time ran out at ``moment``; the caller holds the lock."""
    party.time_expired_at = moment
    party.save(update_fields=["time_expired_at"])
    append_event(party, "time_expired", actor=actor, data={"at": moment.isoformat()})


def expire_game(
    party: Party, moment: datetime, actor: User | AnonymousUser | None = None
) -> None:
    """Record that the game in play ran out of time at ``moment``; the caller holds the lock."""
    party.game_expired_at = moment
    party.save(update_fields=["game_expired_at"])
    append_event(
        party, "game_time_expired", actor=actor,
        data={"game": party.game, "at": moment.isoformat()},
    )


def note_expiry(party: Party) -> None:
    """Mark the party's (and the game's) time as run out if it has; the caller holds the lock."""
    if party.time_expired_at is None:
        moment = expiry_moment(party)
        if moment is not None:
            expire_time(party, moment)
    if party.round.tournament.plays_games and party.game_expired_at is None:
        moment = expiry_moment(party, party.game_seconds_left())
        if moment is not None:
            expire_game(party, moment)


def party_decision(
    party: Party, rows: list[DealRow] | None = None, totals: Any = None
) -> PartyDecision:
    """The rule set's decision for the party's state (games have a clock of their own).

    ``rows`` (the party's deal rows) and ``totals`` are loaded when not given.
    """
    if rows is None:
        loaded = party_rows(party)
        rows = loaded[0]
        if totals is None:
            totals = party_totals(party, loaded)
    elif totals is None:
        totals = party_totals(party)
    tournament = party.round.tournament
    rule_set = get_rule_set(tournament.rule_set)
    cfg = tournament.regulations.rules_config()
    running = party.started_at is not None and party.paused_at is None
    match_expired = party.time_expired_at is not None or (running and party.time_is_out())
    if plays_games(rule_set):
        game_expired = party.game_expired_at is not None or (
            running and party.game_seconds_left() <= 0
        )
        return rule_set.decide(
            totals,
            cfg,
            time_expired=game_expired,
            deals_after_expiry=deals_after(rows, party.game_expired_at, party.game),
            match_time_expired=match_expired,
        )
    return rule_set.decide(
        totals,
        cfg,
        time_expired=match_expired,
        deals_after_expiry=deals_after(rows, party.time_expired_at),
    )


def _follow_games(party: Party, totals: Any, decision: PartyDecision, actor: Any) -> None:
    """Keep the party's game in play in step with the match: the next game once one is won."""
    games = getattr(totals, "games", None)
    if not games:
        return
    current = games[-1].number
    wanted = current + 1 if decision.state == NEXT_GAME else current
    wanted = max(wanted, 1)
    if party.game == wanted:
        return
    previous = party.game
    party.game = wanted
    party.game_started_seconds = party.elapsed_seconds()
    party.game_expired_at = None
    party.save(update_fields=["game", "game_started_seconds", "game_expired_at"])
    if wanted > previous:
        append_event(
            party,
            "game_finished",
            actor=actor,
            data={
                "game": previous,
                "winner": decision.winner or "",
                "reason": decision.reason or "",
                "points": games[-1].points,
            },
        )
    else:
        append_event(party, "game_reopened", actor=actor, data={"game": wanted})


def end_party(
    party: Party,
    *,
    winner: str,
    loser: str = "",
    reason: str,
    actor: Any = None,
    totals: Any = None,
    rows: tuple[list[Any], list[Any]] | None = None,
    event: str = "party_finished",
    why: str = "",
    data: dict[str, Any] | None = None,
    **fields: Any,
) -> None:
    """Finish a locked party with its result: every way a party ends goes through here.

    Saves the result (and ``fields``), logs ``event``, opens the protocol and emits
    ``party.finished`` (the caller bumps the version). ``totals`` (of the deals and fines
    ``rows``) default to the party's totals with its result, so a ruling's end carries the
    regulations' forfeit score; they are stored for the standings as of the bumped version.
    """
    party.status = Party.Status.FINISHED
    party.winner, party.loser, party.end_reason = winner, loser, reason
    party.finished_at = party.finished_at or timezone.now()
    for name, value in fields.items():
        setattr(party, name, value)
    saved = ["status", "winner", "loser", "end_reason", "finished_at"]
    party.save(update_fields=list(dict.fromkeys([*saved, *fields])))
    rows = rows or party_rows(party)
    totals = party_totals(party, rows) if totals is None else totals
    store_totals(party, totals, rows[1], version=party.version + 1)
    results_changed(party)
    append_event(
        party, event, actor=actor, reason=why,
        data={**(data or {}), "winner": winner, "points": totals.points},
    )
    open_protocol(party, actor)
    webhooks.party_finished(party, totals)


def evaluate_party(
    party: Party,
    actor: Any = None,
    deals: list[DealRow] | None = None,
    fines: list[FineRow] | None = None,
    totals: Any = None,
) -> str:
    """Apply the rule set's decision after a change: finish, reopen, or keep playing.

    Every service calls it after changing a party's deals or fines, so a change of a finished
    party of a counted round emits ``standings.changed`` here, once. The deals and fines are
    read once, as plain rows (``deals`` and ``fines``: the caller's, the deals in order); the
    totals come from the one totals function (``totals``: the caller's, made from those rows)
    and a finished party's are stored for the standings as of the version its caller's bump
    gives it.
    """
    webhooks.record_changed(party)
    if party.status == Party.Status.FINISHED:
        results_changed(party)
    if party.end_reason in ("forfeit", "bye", "disqualification", "timeout"):
        return "finished"  # decided by a ruling: its stored totals are made again when read
    if deals is None:
        rows = party_rows(party)
    else:
        rows = (deals, fine_rows(party) if fines is None else fines)
    totals = party_totals(party, rows) if totals is None else totals
    decision = party_decision(party, rows[0], totals)
    if decision.state == "finished":
        winner, loser = decision.winner or "", decision.loser or ""
        if party.status != Party.Status.FINISHED or (party.winner, party.loser) != (winner, loser):
            reason = decision.reason or ""
            end_party(
                party, winner=winner, loser=loser, reason=reason, actor=actor, totals=totals,
                rows=rows, data={"winner": winner, "loser": loser, "reason": reason},
            )
        else:
            store_totals(party, totals, rows[1], version=party.version + 1)
        return decision.state
    reopened = party.status == Party.Status.FINISHED
    if reopened:
        party.status = Party.Status.IN_PROGRESS
        party.winner = ""
        party.loser = ""
        party.end_reason = ""
        party.finished_at = None
        party.save(update_fields=["status", "winner", "loser", "end_reason", "finished_at"])
        append_event(party, "party_reopened", actor=actor, data={"state": decision.state})
    game = party.game
    _follow_games(party, totals, decision, actor)
    if not reopened and party.game == game:  # the party as its totals were made: kept
        keep_totals(party, rows, totals)
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
    plays: list | None = None,
    led: str | None = None,
    number: int | None = None,
    note: str = "",
    client_id: str = "",
    expected_version: int | None = None,
    play_ended_before_time_up: bool = False,
    fish_by: str | None = None,
) -> Deal:
    """Record the next deal of a party in progress; a retried client id returns the same deal.

    In a match of games (UDL, All Fives) the deal belongs to the game in play. With
    ``play_ended_before_time_up`` the referee says the party's time ran out while this deal
    was counted (or the tiles shuffled): it is not the last deal, one more is played. ``led``
    defaults to the leader the rules name (``scoring.party.leaders``); ``fish_by`` made a fish.
    """
    party = lock_party(party_id)
    # the party's deals read once, last first: the retry, the next number, the leader, totals
    deals = recorded(party)
    if client_id:
        for found in deals:
            if found.client_id == client_id:  # a retry: the same deal, whatever the version
                return Deal.objects.get(pk=found.id)
    check_version(party, expected_version)
    assert_party_editable(party, actor, None)
    if party.status == Party.Status.FINISHED:
        raise ServiceError("party", _("The party is finished; no more deals can be recorded."))
    if party.status != Party.Status.IN_PROGRESS:
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
    deal = Deal(
        party=party,
        number=next_number,
        went_out=went_out or "",
        pips=pips or None,
        tiles=tiles or None,
        plays=plays or None,
        led=led or "",
        fish_by=fish_by,
        play_ended_before_time_up=bool(play_ended_before_time_up),
        note=note,
        client_id=client_id,
        recorded_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    store_score(deal, score)
    insert_row(deal)
    rows = ([*(found.row() for found in reversed(deals)), DealRow.of(deal)], fine_rows(party))
    totals = party_totals(party, rows)
    data = {"deal": deal.number, **deal_data(deal)}
    if totals.uncollected and totals.uncollected[-1]:  # scored, not collected (UDL): logged
        data["uncollected"] = totals.uncollected[-1]
    append_event(party, "deal_recorded", actor=actor, data=data)
    evaluate_party(party, actor, *rows, totals)
    bump_version(party)
    keep_read(party, deals, deal)
    return deal


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
) -> Deal:
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
) -> Deal:
    """Annul a deal (it keeps its number and scores nothing); the old values stay logged."""
    reason = _require_reason(reason)
    deal, party = _locked_deal(deal_id, expected_version)
    assert_party_editable(party, actor, reason)
    before = deal_data(deal)
    deal.outcome = Deal.Outcome.ANNULLED
    deal.winner = ""
    deal.points_a = deal.points_b = deal.carry = 0
    deal.scores = deal.play_points = None
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
        data={"deal": deal.number, "before": before, "after": deal_data(deal)},
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
        game=party.game,
        outcome=Deal.Outcome.ANNULLED,
        note=reason,
        recorded_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    append_event(
        party,
        "deal_annulled",
        actor=actor,
        reason=reason,
        data={"deal": deal.number, "in_play": True, "after": deal_data(deal)},
    )
    return deal
