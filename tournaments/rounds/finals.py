"""Start the finals (the knockout stage drawn after the last qualifying round) or the groups.

The bracket comes from the qualifiers the organizer confirmed (best first), else from the
qualifying standings or, after groups, their cross-over (``tournaments.pairing.knockout``);
byes go to the best seeds. The play itself (matches decided, winners sent on) is
``scoring.stages.knockout``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.core.errors import ServiceError, translate_engine_error
from scoring.models import BOARDS, Group, Match, Pair, Party, Round, Stage, Team, Tournament
from scoring.ranking.results import ranked_entrants
from scoring.stages.common import (
    available_pairs,
    current_stage,
    engine_error,
    knockout_stage,
    require_all_finished,
    standings_order,
)
from scoring.stages.groups import group_members, group_standings
from scoring.stages.knockout import (
    decide_match,
    emit_stage_finished,
    open_party,
    open_team_match,
)
from scoring.teams.seating import team_pairs
from scoring.teams.seats import TablesError, adjacent_tables
from scoring.teams.standings import team_standings
from tournaments.pairing import Draw, Pairing, get_generator
from tournaments.pairing.errors import FieldError
from tournaments.pairing.groups import GroupEntrant, group_names, snake_groups
from tournaments.pairing.knockout import (
    Opening,
    check_field,
    cross_over,
    rounds_for,
    seed_bracket,
    slots_for,
)
from tournaments.rounds.draws import table_numbers

logger = logging.getLogger(__name__)


@dataclass
class Finals:
    """What starting the finals did: the knockout stage, its matches, the parties it made."""

    stage: Stage
    matches: list[Match] = field(default_factory=list)
    parties: list[Party] = field(default_factory=list)


def proposed_qualifiers(tournament: Tournament, size: int) -> list[int]:
    """The pairs the finals would take (best first): the first ``size`` of the qualifying
    standings who may still play; the organizer edits the list before the draw."""
    free = available_pairs(tournament)
    return [pk for pk in standings_order(tournament) if pk in free][:size]


def _openings(tournament: Tournament, previous: Stage, size: int,
              qualifiers: Sequence[int] | None) -> tuple[list[Opening], list[int]]:
    """The bracket's first round and its seeds, from the list given, the groups or the
    standings."""
    free = available_pairs(tournament)
    try:
        if qualifiers is not None:
            unknown = [pk for pk in qualifiers if pk not in free]
            if unknown:
                raise ServiceError("qualifiers", _(
                    "Not a pair of this tournament that may still play: %(ids)s."
                ) % {"ids": ", ".join(map(str, unknown))})
            check_field(len(qualifiers), len(free))
            return seed_bracket(list(qualifiers)), list(qualifiers)
        if previous.format == Stage.Format.GROUPS:
            groups = [[pk for pk in g if pk in free] for _g, g in group_standings(previous)]
            if not groups or size % len(groups):
                raise ServiceError("bracket_size", _(
                    "The bracket of %(size)s does not take as many from each of the "
                    "%(groups)s groups.") % {"size": size, "groups": len(groups)})
            openings = cross_over(groups, size // len(groups))
        else:
            ranked = [pk for pk in standings_order(tournament) if pk in free]
            check_field(size, len(ranked))
            openings = seed_bracket(ranked[:size])
    except FieldError as err:
        raise engine_error(err) from err
    seeds = sorted(
        (side for o in openings for side in (o.a, o.b) if side is not None),
        key=lambda side: side.seed,
    )
    return openings, [side.entrant for side in seeds]


@transaction.atomic
def start_finals(
    tournament_id: int, *, bracket_size: int | None = None, third_place: bool = False,
    best_of: int = 1, qualifiers: Sequence[int] | None = None, actor: Any = None,
) -> Finals:
    """Draw the knockout stage after the last qualifying round: the bracket from
    ``qualifiers`` (pair ids, best first) or the qualifying standings (or the groups'
    cross-over), byes to the best seeds, the first round's parties published.

    Refused while a qualifying party is unfinished or a round is a draft, when the finals have
    started, or the bracket is larger than the qualified field; nothing is written then.
    """
    tournament = Tournament.objects.select_for_update(of=("self",)).select_related(
        "regulations").get(pk=tournament_id)
    if tournament.status == Tournament.Status.FINISHED:
        raise ServiceError("tournament", _("The tournament is finished; reopen it first."))
    if tournament.format == Tournament.Format.INDIVIDUAL:
        raise ServiceError("format", _("Finals are for tournaments of pairs or of players "
                                       "who each play as a side."))
    if knockout_stage(tournament) is not None:
        raise ServiceError("stage", _("The finals have started already."))
    if not tournament.rounds.exists():
        raise ServiceError("round", _("No qualifying round has been played yet."))
    require_all_finished(tournament)
    if best_of < 1 or best_of % 2 == 0:
        raise ServiceError("best_of", _("A match is the best of an odd number of parties."))
    size = len(qualifiers) if qualifiers is not None else bracket_size
    if size is None:
        raise ServiceError("bracket_size", _("Say how many pairs go to the finals."))
    previous = current_stage(tournament)
    teams = tournament.format == Tournament.Format.TEAMS
    if teams:
        openings, seeds = _team_openings(tournament, previous, size, qualifiers, best_of)
    else:
        openings, seeds = _openings(tournament, previous, size, qualifiers)
    now = timezone.now()
    Stage.objects.filter(tournament=tournament).exclude(status=Stage.Status.FINISHED).update(
        status=Stage.Status.FINISHED, finished_at=now)
    stage = Stage.objects.create(
        tournament=tournament, order=previous.order + 1, format=Stage.Format.KNOCKOUT,
        bracket_size=len(seeds), third_place=third_place and len(seeds) >= 4, best_of=best_of,
        qualifiers=seeds,
    )
    finals = Finals(stage, matches=_bracket(stage, openings, teams))
    for match in finals.matches:
        if match.bracket_round == 1 and match.bye:
            sides = (match.team_a_id, match.team_b_id) if teams else (
                match.pair_a_id, match.pair_b_id)
            finals.parties += decide_match(match, sides[0] or sides[1], now)
    for match in finals.matches:
        if match.bracket_round == 1 and not match.bye:
            if teams:
                finals.parties += open_team_match(match)
            else:
                finals.parties.append(open_party(match, 1))
    logger.info("finals started: tournament=%s stage=%s size=%s actor=%s",
                tournament.pk, stage.pk, len(seeds), getattr(actor, "pk", None))
    emit_stage_finished(previous)
    return finals


def _team_openings(tournament: Tournament, previous: Stage, size: int,
                   qualifiers: Sequence[int] | None, best_of: int,
                   ) -> tuple[list[Opening], list[int]]:
    """A team event's bracket: the qualifiers given (team ids, best first) or the best
    ``size`` teams of the team standings; refused after groups, for a best of N, or when the
    first round's team matches lack two adjacent tables each."""
    if previous.format == Stage.Format.GROUPS:
        raise ServiceError("stage", _("A team knockout follows Swiss or round robin rounds."))
    if best_of != 1:
        raise ServiceError("best_of", _("A team knockout match is one team match."))
    free = {row.team for row in team_standings(tournament) if not row.withdrawn}
    try:
        if qualifiers is not None:
            unknown = [pk for pk in qualifiers if pk not in free]
            if unknown:
                raise ServiceError("qualifiers", _(
                    "Not a team of this tournament that may still play: %(ids)s."
                ) % {"ids": ", ".join(map(str, unknown))})
            check_field(len(qualifiers), len(free))
            ranked = list(qualifiers)
        else:
            ranked = [row.team for row in team_standings(tournament) if row.team in free]
            check_field(size, len(ranked))
            ranked = ranked[:size]
        openings = seed_bracket(ranked)
    except FieldError as err:
        raise engine_error(err) from err
    playing = sum(1 for o in openings if not o.bye)
    try:
        adjacent_tables(list(table_numbers(tournament)), playing)
    except TablesError as err:
        raise translate_engine_error(err) from err
    lineups = team_pairs(ranked)
    short = [pk for pk in ranked if len(lineups.get(pk, [])) < BOARDS]
    if short:
        name = Team.objects.get(pk=short[0]).name
        raise ServiceError("qualifiers", _(
            "Team %(team)s has fewer than two pairs able to play.") % {"team": name})
    return openings, ranked


def _bracket(stage: Stage, openings: Sequence[Opening], teams: bool = False) -> list[Match]:
    """Every match of the bracket: the first round's sides and seeds, the rest waiting; the
    sides are teams in a team event."""
    rounds = rounds_for(slots_for(len(openings) * 2))
    kind = "team" if teams else "pair"
    matches = []
    for opening in openings:
        a, b = opening.a, opening.b
        matches.append(Match(
            stage=stage, bracket_round=1, position=opening.position,
            seed_a=a.seed if a else None, seed_b=b.seed if b else None,
            bye=opening.bye,
            status=Match.Status.READY if not opening.bye else Match.Status.WAITING,
            **{f"{kind}_a_id": a.entrant if a else None,
               f"{kind}_b_id": b.entrant if b else None},
        ))
    for bracket_round in range(2, rounds + 1):
        matches += [Match(stage=stage, bracket_round=bracket_round, position=p)
                    for p in range(2 ** (rounds - bracket_round))]
    if stage.third_place:
        matches.append(Match(stage=stage, bracket_round=rounds, position=0, third_place=True))
    Match.objects.bulk_create(matches)
    return list(Match.objects.filter(stage=stage).order_by("bracket_round", "position"))


@transaction.atomic
def start_groups(
    tournament_id: int, *, group_count: int, avoid_same_club: bool = False, actor: Any = None,
) -> list[Group]:
    """Split the field into ``group_count`` groups by snake seeding (the qualifying standings
    when rounds were played, else rating), each a round robin drawn round by round.

    Before any round the tournament's first stage becomes the groups stage; after qualifying
    rounds (all finished) a groups stage follows them. Refused when a group would have fewer
    than two pairs, or the finals have started; nothing is written then.
    """
    tournament = Tournament.objects.select_for_update(of=("self",)).select_related(
        "regulations").get(pk=tournament_id)
    if tournament.format == Tournament.Format.INDIVIDUAL:
        raise ServiceError("format", _("Groups are for tournaments of pairs."))
    if knockout_stage(tournament) is not None:
        raise ServiceError("stage", _("The finals have started already."))
    stage = current_stage(tournament)
    if stage.format == Stage.Format.GROUPS:
        raise ServiceError("stage", _("The groups are drawn already."))
    free = available_pairs(tournament)
    played = tournament.rounds.exists()
    if played:
        require_all_finished(tournament)
        order = [pk for pk in standings_order(tournament) if pk in free]
    else:
        order = [pk for pk in ranked_entrants(tournament, False).values_list("pk", flat=True)
                 if pk in free]
    clubs = dict(Pair.objects.filter(pk__in=order).values_list("pk", "player1__club"))
    try:
        split = snake_groups([GroupEntrant(pk, clubs.get(pk) or "") for pk in order],
                             group_count, avoid_same_club=avoid_same_club)
    except FieldError as err:
        raise engine_error(err) from err
    if played:
        Stage.objects.filter(pk=stage.pk).update(
            status=Stage.Status.FINISHED, finished_at=timezone.now())
        emit_stage_finished(stage)
        stage = Stage.objects.create(
            tournament=tournament, order=stage.order + 1, format=Stage.Format.GROUPS,
            group_count=group_count)
    else:
        stage.format = Stage.Format.GROUPS
        stage.group_count = group_count
        stage.save(update_fields=["format", "group_count"])
    groups = []
    for name, members in zip(group_names(group_count), split, strict=True):
        group = Group.objects.create(stage=stage, name=name)
        group.entrants.set(members)
        groups.append(group)
    logger.info("groups drawn: tournament=%s stage=%s groups=%s actor=%s",
                tournament.pk, stage.pk, group_count, getattr(actor, "pk", None))
    return groups


def groups_round(rnd: Round, present: set[int]) -> Draw:
    """A round of a groups stage: round ``n`` of the stage of every group's round robin
    (each group's Berger schedule in its seeding order), the groups' parties in group order;
    ``present``: the pairs that play (the others are absent from their schedules)."""
    stage = rnd.stage
    if stage is None:
        raise TypeError("A round of a groups stage has its stage")
    number = Round.objects.filter(stage=stage, number__lte=rnd.number).count()
    parties: list[Pairing] = []
    byes: list[int] = []
    for _group, members in group_members(stage):
        absent = [pk for pk in members if pk not in present]
        draw = get_generator("round_robin", absent=absent).generate(members, round_number=number)
        if not isinstance(draw, Draw):
            raise TypeError("The round robin gave a draw of an individual event")
        parties += draw.parties
        byes += draw.byes
    return Draw(parties=parties, byes=byes)
