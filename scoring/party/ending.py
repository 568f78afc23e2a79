"""The party's end: its time running out, the rule set's decision after every change of its
deals or fines (``evaluate_party``), and ``end_party``, the one way a party ends (by the rules
here, by a ruling in the referee desk): it logs the end, opens the protocol and emits
``party.finished``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.utils import timezone

from scoring.models import Party
from scoring.party.event_log import append_event
from scoring.party.followers import results_changed
from scoring.party.protocol_lock import open_protocol
from scoring.rules import (
    NEXT_GAME,
    PartyDecision,
    get_rule_set,
    plays_games,
)
from scoring.stages.knockout import party_changed, team_match_decided
from scoring.teams.deciding import team_match_changed
from scoring.totals.compute import (
    DealRow,
    Evaluated,
    FineRow,
    deals_after,
    fine_rows,
    party_rows,
    party_totals,
)
from scoring.totals.stored import store_totals
from scoring.webhooks import services as webhooks

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User


@dataclass(frozen=True)
class Evaluation:
    """What ``evaluate_party`` decided: the state (continue, finished …), and the rows and
    totals it was made from while the party is still as they describe it (else None: the
    party ended, reopened or moved to the next game since)."""

    state: str
    evaluated: Evaluated | None = None


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
    if party.match_id is not None:  # a knockout party: its match may be decided
        party_changed(party)
    if party.team_match_id is not None:  # a team match's party: the team match may be decided
        team_match_decided(team_match_changed(party))


def evaluate_party(
    party: Party,
    actor: Any = None,
    deals: list[DealRow] | None = None,
    fines: list[FineRow] | None = None,
    totals: Any = None,
) -> Evaluation:
    """Apply the rule set's decision after a change: finish, reopen, or keep playing.

    Every service calls it after changing a party's deals or fines, so a change of a finished
    party of a counted round emits ``standings.changed`` here, once. The deals and fines are
    read once, as plain rows (``deals`` and ``fines``: the caller's, the deals in order); the
    totals come from the one totals function (``totals``: the caller's, made from those rows)
    and a finished party's are stored for the standings as of the version its caller's bump
    gives it. Returns the decision's state, with the rows and totals while the party is still
    as they were made (the answer to the action shows them).
    """
    webhooks.record_changed(party)
    if party.status == Party.Status.FINISHED:
        results_changed(party)
    if party.end_reason in ("forfeit", "bye", "disqualification", "timeout"):
        # decided by a ruling: its stored totals are made again when read
        return Evaluation("finished")
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
            if party.team_match_id is not None:  # a corrected result: decided again
                team_match_decided(team_match_changed(party))
        return Evaluation(decision.state)
    reopened = party.status == Party.Status.FINISHED
    if reopened:
        party.status = Party.Status.IN_PROGRESS
        party.winner = ""
        party.loser = ""
        party.end_reason = ""
        party.finished_at = None
        party.save(update_fields=["status", "winner", "loser", "end_reason", "finished_at"])
        append_event(party, "party_reopened", actor=actor, data={"state": decision.state})
        if party.match_id is not None:
            party_changed(party)
        if party.team_match_id is not None:
            team_match_changed(party, stored=False)
    game = party.game
    _follow_games(party, totals, decision, actor)
    if not reopened and party.game == game:  # the party as its totals were made
        return Evaluation(decision.state, Evaluated(rows, totals))
    return Evaluation(decision.state)
