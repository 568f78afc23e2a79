"""The knockout stage as it is played (its draw: ``tournaments.rounds.finals``): each match
decided by its parties, its winner (and a semi-final's loser) sent on, the next round's parties
made as soon as both their sides are known, the rounds closed and the stage finished.

A match's party is an ordinary party (desk, protocol, signatures, webhooks): it ends through
``scoring.party.ending.end_party``, which calls :func:`party_changed` here in the same
transaction.
"""

from __future__ import annotations

import logging
from typing import Any

from django.utils import timezone

from scoring.models import Match, Pair, Party, Round, Stage, Table, TeamMatch, Tournament
from scoring.stages.common import next_round_number
from scoring.standings.knockout import loser_goes, rounds_for, slots_for, winner_goes
from scoring.teams.results import TeamMatchResult
from scoring.teams.seating import round_lineups, seat_team_match
from scoring.teams.seats import TablesError, adjacent_tables
from scoring.webhooks.services import emit, tournament_ref

logger = logging.getLogger(__name__)


def rounds_of(stage: Stage) -> int:
    """How many rounds the stage's bracket has, the final included."""
    return rounds_for(slots_for(stage.bracket_size or 2))


def _round_for(match: Match, game: int) -> Round:
    """The published round that holds party ``game`` of the matches of ``match``'s bracket
    round (made the first time one is needed)."""
    found = Round.objects.filter(
        stage=match.stage, bracket_round=match.bracket_round, match_game=game).first()
    if found is not None:
        return found
    now = timezone.now()
    return Round.objects.create(
        tournament_id=match.stage.tournament_id, number=next_round_number(
            match.stage.tournament_id), stage=match.stage, bracket_round=match.bracket_round,
        match_game=game, status=Round.Status.PUBLISHED, drawn_at=now, published_at=now,
    )


def _free_table(rnd: Round) -> int | None:
    """The first table not taken in the round nor by an unfinished party of the tournament
    (else the first not taken in the round; None when there is none)."""
    tables = list(Table.objects.filter(tournament_id=rnd.tournament_id).order_by("number")
                  .values_list("pk", flat=True))
    taken = set(Party.objects.filter(round=rnd).values_list("table_id", flat=True))
    busy = set(Party.objects.filter(round__tournament_id=rnd.tournament_id).exclude(
        status=Party.Status.FINISHED).values_list("table_id", flat=True))
    for free in (taken | busy, taken):
        for pk in tables:
            if pk not in free:
                return pk
    return None


def open_party(match: Match, game: int) -> Party:
    """Make party ``game`` of a match whose two sides are known, in its round, at a free
    table."""
    rnd = _round_for(match, game)
    if match.pair_a_id is None or match.pair_b_id is None:
        raise ValueError("a match's party needs both sides")
    party = Party.objects.create(
        round=rnd, table_id=_free_table(rnd), pair_a_id=match.pair_a_id,
        pair_b_id=match.pair_b_id, match=match,
    )
    if match.status != Match.Status.READY:
        match.status = Match.Status.READY
        match.save(update_fields=["status"])
    return party


def _free_adjacent_tables(rnd: Round) -> int:
    """Board 1's table of a team match of a knockout round: the first two adjacent tables
    not taken in the round nor by an unfinished party of the tournament (else not taken in
    the round; else tables 1 and 2)."""
    tables = dict(Table.objects.filter(tournament_id=rnd.tournament_id).order_by("number")
                  .values_list("number", "pk"))
    taken = set(Party.objects.filter(round=rnd).values_list("table_id", flat=True))
    busy = set(Party.objects.filter(round__tournament_id=rnd.tournament_id).exclude(
        status=Party.Status.FINISHED).values_list("table_id", flat=True))
    for free in (taken | busy, taken):
        try:
            return adjacent_tables([n for n, pk in tables.items() if pk not in free], 1)[0]
        except TablesError:
            continue
    return adjacent_tables(list(tables), 1)[0]


def open_team_match(match: Match) -> list[Party]:
    """Make the team match of a knockout match whose two teams are known (a team event's
    knockout): in its round, at two free adjacent tables, each team's first two pairs able
    to play (a team of players: its first four, paired in registration order). Its parties."""
    if match.team_a_id is None or match.team_b_id is None:
        raise ValueError("a match's team match needs both teams")
    rnd = _round_for(match, 1)
    tournament = match.stage.tournament
    tm = TeamMatch.objects.create(
        round=rnd, team_a_id=match.team_a_id, team_b_id=match.team_b_id,
        first_table=_free_adjacent_tables(rnd), knockout_match=match)
    lineups = round_lineups(tournament, rnd, [match.team_a_id, match.team_b_id])
    tables = dict(Table.objects.filter(tournament_id=rnd.tournament_id)
                  .values_list("number", "pk"))
    parties = seat_team_match(tournament, tm, lineups[match.team_a_id],
                              lineups[match.team_b_id], tables)
    if match.status != Match.Status.READY:
        match.status = Match.Status.READY
        match.save(update_fields=["status"])
    return parties


def _kind(match: Match) -> str:
    """What a match's sides are: "team" in a team event's knockout, else "pair"."""
    return "team" if match.stage.tournament.format == Tournament.Format.TEAMS else "pair"


def _place(stage: Stage, slot: Any, entrant_id: int, seed: int | None) -> list[Party]:
    """Put a pair (a team in a team event) into its slot of a later match; make that match's
    party (its team match) once both sides are known. The parties made."""
    match = Match.objects.select_for_update().select_related("stage__tournament").get(
        stage=stage, bracket_round=slot.bracket_round, position=slot.position,
        third_place=slot.third_place,
    )
    kind = _kind(match)
    setattr(match, f"{kind}_{slot.side}_id", entrant_id)
    setattr(match, f"seed_{slot.side}", seed)
    match.save(update_fields=[f"{kind}_{slot.side}", f"seed_{slot.side}"])
    if kind == "team":
        if (match.team_a_id and match.team_b_id
                and not TeamMatch.objects.filter(knockout_match=match).exists()):
            return open_team_match(match)
        return []
    if match.pair_a_id and match.pair_b_id and not match.parties.exists():
        return [open_party(match, 1)]
    return []


def _sides(match: Match) -> tuple[int | None, int | None]:
    """A match's two sides: pair ids, or team ids in a team event."""
    if _kind(match) == "team":
        return match.team_a_id, match.team_b_id
    return match.pair_a_id, match.pair_b_id


def _seed_of(match: Match, entrant_id: int | None) -> int | None:
    """The seed a match's side carries."""
    return match.seed_a if entrant_id == _sides(match)[0] else match.seed_b


def decide_match(match: Match, winner_id: int | None, now: Any) -> list[Party]:
    """Decide a match: its winner goes on (a semi-final's loser to third place), the round
    and the stage finish when their last match is decided. The parties made. In a team
    event the winner and the sides are teams (``team_winner``)."""
    stage = match.stage
    rounds = rounds_of(stage)
    team = _kind(match) == "team"
    if team:
        match.team_winner_id = winner_id
    else:
        match.winner_id = winner_id
    match.status = Match.Status.DECIDED
    match.decided_at = now
    match.save(update_fields=["team_winner" if team else "winner", "status", "decided_at"])
    made: list[Party] = []
    if not match.third_place and winner_id is not None:
        up = winner_goes(match.bracket_round, match.position, rounds)
        if up is not None:
            made += _place(stage, up, winner_id, _seed_of(match, winner_id))
        a, b = _sides(match)
        loser = None if a is None or b is None else (b if winner_id == a else a)
        down = loser_goes(match.bracket_round, match.position, rounds, stage.third_place)
        if down is not None and loser is not None:
            made += _place(stage, down, loser, _seed_of(match, loser))
    if not match.bye:
        emit_match_decided(match)
    logger.info("match decided: stage=%s match=%s winner=%s", stage.pk, match.pk, winner_id)
    _finish_rounds(stage, match.bracket_round, now)
    return made


def _finish_rounds(stage: Stage, bracket_round: int, now: Any) -> None:
    """Close the rounds of a bracket round once its every match is decided; finish the
    stage after its last."""
    open_matches = Match.objects.filter(stage=stage).exclude(status=Match.Status.DECIDED)
    if open_matches.filter(bracket_round=bracket_round).exists():
        return
    Round.objects.filter(stage=stage, bracket_round=bracket_round).exclude(
        status=Round.Status.FINISHED).update(status=Round.Status.FINISHED, finished_at=now)
    if not open_matches.exists() and stage.status != Stage.Status.FINISHED:
        stage.status = Stage.Status.FINISHED
        stage.finished_at = now
        stage.save(update_fields=["status", "finished_at"])
        logger.info("stage finished: stage=%s", stage.pk)
        emit_stage_finished(stage)


def _wins(match: Match) -> tuple[dict[int, int], int]:
    """Parties won by each side of a match, and how many of its parties are unfinished."""
    wins: dict[int, int] = {}
    unfinished = 0
    for party in match.parties.all():
        if party.status != Party.Status.FINISHED:
            unfinished += 1
            continue
        side = party.winner[:1]
        pair = party.pair_a_id if side == "a" else party.pair_b_id if side == "b" else None
        if pair is not None:
            wins[pair] = wins.get(pair, 0) + 1
    return wins, unfinished


def party_changed(party: Party) -> list[Party]:
    """A knockout party ended (by the rules, a forfeit or a disqualification) or reopened: its
    match is decided once a side has won the parties it needs, else its next party is made
    (a level party is played again); a match decided again with another winner moves that
    winner on while the next match has not begun. The parties made."""
    if party.match_id is None:
        return []
    match = Match.objects.select_for_update().select_related("stage").get(pk=party.match_id)
    stage = match.stage
    wins, unfinished = _wins(match)
    winner = next((pk for pk, n in wins.items() if n >= stage.wins_needed), None)
    if match.status == Match.Status.DECIDED:
        if winner == match.winner_id:
            return []
        if not _undecide(match):
            logger.warning("match %s decided again after its winner played on", match.pk)
            return []
    if winner is not None:
        return decide_match(match, winner, timezone.now())
    if unfinished:
        return []
    played = match.parties.count()
    return [open_party(match, played + 1)]


def knockout_winner(result: TeamMatchResult, match: Match) -> int:
    """The team that goes on from a decided team match of the knockout: the winner by the
    team score; when level, the one with more points over the boards; then the better
    (lower) seed (team A when neither has one)."""
    if result.winner is not None:
        return result.winner
    a, b = result.a, result.b
    if b is None:
        return a.team
    if a.points != b.points:
        return a.team if a.points > b.points else b.team
    seed_a, seed_b = match.seed_a, match.seed_b
    if seed_b is not None and (seed_a is None or seed_b < seed_a):
        return b.team
    return a.team


def team_match_decided(result: TeamMatchResult | None) -> list[Party]:
    """A team match of a team event's knockout changed (``scoring.party.ending`` calls it
    after ``scoring.teams.deciding``): once decided its knockout match is decided and the
    winning team goes on. A correction that would change a decided knockout match's winner
    is logged, not applied. The parties made."""
    if result is None or not result.knockout or not result.decided:
        return []
    tm = TeamMatch.objects.get(pk=result.team_match)
    if tm.knockout_match_id is None:
        return []
    match = Match.objects.select_for_update().select_related("stage__tournament").get(
        pk=tm.knockout_match_id)
    winner = knockout_winner(result, match)
    if match.status == Match.Status.DECIDED:
        if winner != match.team_winner_id:
            logger.warning("team match %s decided again with another winner: kept %s",
                           tm.pk, match.team_winner_id)
        return []
    return decide_match(match, winner, timezone.now())


def _undecide(match: Match) -> bool:
    """Take a match's decision back while the matches its sides went on to have no party;
    whether it could."""
    stage = match.stage
    rounds = rounds_of(stage)
    slots = [s for s in (
        winner_goes(match.bracket_round, match.position, rounds),
        loser_goes(match.bracket_round, match.position, rounds, stage.third_place),
    ) if s is not None and not match.third_place]
    later = [Match.objects.select_for_update().get(
        stage=stage, bracket_round=s.bracket_round, position=s.position,
        third_place=s.third_place) for s in slots]
    if any(m.parties.exists() for m in later):
        return False
    for slot, later_match in zip(slots, later, strict=True):
        setattr(later_match, f"pair_{slot.side}_id", None)
        setattr(later_match, f"seed_{slot.side}", None)
        later_match.status = Match.Status.WAITING
        later_match.save(update_fields=[f"pair_{slot.side}", f"seed_{slot.side}", "status"])
    match.winner_id = None
    match.status = Match.Status.READY
    match.decided_at = None
    match.save(update_fields=["winner", "status", "decided_at"])
    Stage.objects.filter(pk=stage.pk).update(status=Stage.Status.RUNNING, finished_at=None)
    stage.status = Stage.Status.RUNNING
    Round.objects.filter(stage=stage, bracket_round__gte=match.bracket_round).update(
        status=Round.Status.PUBLISHED, finished_at=None)
    return True


# -- webhooks ------------------------------------------------------------------------------


def _pair_ref(pair_id: int | None, names: dict[int, str]) -> dict[str, Any] | None:
    """A pair as a payload names it."""
    return None if pair_id is None else {"pair": pair_id, "name": names.get(pair_id, "")}


def match_ref(match: Match) -> dict[str, Any]:
    """A match as a payload names it: stage, round, position, sides, winner, parties."""
    ids = [pk for pk in (match.pair_a_id, match.pair_b_id) if pk]
    names = {p.pk: p.display_name for p in Pair.objects.filter(pk__in=ids).select_related(
        "player1", "player2")}
    return {
        "id": match.pk,
        "stage": match.stage_id,
        "bracket_round": match.bracket_round,
        "position": match.position,
        "third_place": match.third_place,
        "status": match.status,
        "a": _pair_ref(match.pair_a_id, names),
        "b": _pair_ref(match.pair_b_id, names),
        "seed_a": match.seed_a,
        "seed_b": match.seed_b,
        "winner_pair": match.winner_id,
        "parties": list(match.parties.order_by("pk").values_list("pk", flat=True)),
        "team_a": match.team_a_id,
        "team_b": match.team_b_id,
        "winner_team": match.team_winner_id,
    }


def emit_match_decided(match: Match) -> None:
    """Emit ``match.decided`` for a decided knockout match."""
    tournament = match.stage.tournament
    emit(tournament.pk, "match.decided", lambda: {
        "tournament": tournament_ref(tournament), "match": match_ref(match)})


def emit_stage_finished(stage: Stage) -> None:
    """Emit ``stage.finished`` for a stage whose play is over."""
    tournament = stage.tournament
    emit(tournament.pk, "stage.finished", lambda: {
        "tournament": tournament_ref(tournament),
        "stage": {"id": stage.pk, "order": stage.order, "format": stage.format},
    })
