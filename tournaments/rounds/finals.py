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
from scoring.models import Group, Match, Pair, Party, Round, Stage, Tournament
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
from scoring.teams.seats import TablesError, adjacent_tables
from scoring.teams.standings import team_standings
from tournaments.pairing import Draw
from tournaments.pairing.errors import FieldError
from tournaments.pairing.groups import GroupEntrant, group_names, hand_groups, snake_groups
from tournaments.pairing.knockout import (
    Opening,
    check_field,
    cross_over,
    rounds_for,
    seed_bracket,
    slots_for,
)
from tournaments.rounds.draws import table_numbers
from tournaments.rounds.team_draws import refuse_short_teams
from tournaments.rounds.team_groups import (
    groups_draw,
    stage_round_number,
    team_group_seeding,
    team_hand_split,
    team_snake,
)

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


def _groups_cross_over(previous: Stage, free: set[int], size: int) -> list[Opening]:
    """The bracket's first round from the groups' places (pairs, or a team event's teams,
    that may still play): as many from each group, crossed over."""
    groups = [[pk for pk in g if pk in free] for _g, g in group_standings(previous)]
    if not groups or size % len(groups):
        raise ServiceError("bracket_size", _(
            "The bracket of %(size)s does not take as many from each of the %(groups)s "
            "groups.") % {"size": size, "groups": len(groups)})
    return cross_over(groups, size // len(groups))


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
            openings = _groups_cross_over(previous, free, size)
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
    """A team event's bracket: the qualifiers given (team ids, best first), the groups'
    cross-over (each group ranked by its own team matches) or the best ``size`` teams of
    the team standings; refused for a best of N, or when the first round's team matches
    lack two adjacent tables each."""
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
            openings = seed_bracket(ranked)
        elif previous.format == Stage.Format.GROUPS:
            openings = _groups_cross_over(previous, free, size)
            ranked = [side.entrant for side in sorted(
                (s for o in openings for s in (o.a, o.b) if s is not None),
                key=lambda side: side.seed)]
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
    refuse_short_teams(tournament, ranked, "qualifiers")
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


def group_seeding(tournament: Tournament) -> list[int]:
    """The pairs that may still play in the groups' seeding order, best first: the qualifying
    standings when rounds were played, else rating (a team event's teams:
    ``team_group_seeding``)."""
    if tournament.format == Tournament.Format.TEAMS:
        return team_group_seeding(tournament)
    free = available_pairs(tournament)
    if tournament.rounds.exists():
        order = standings_order(tournament)
    else:
        order = list(ranked_entrants(tournament, False).values_list("pk", flat=True))
    return [pk for pk in order if pk in free]


def _snake(order: Sequence[int], group_count: int, avoid_same_club: bool) -> list[list[int]]:
    """The snake split of ``order`` into ``group_count`` groups (``ServiceError`` on a group
    count the field cannot fill)."""
    clubs = dict(Pair.objects.filter(pk__in=order).values_list("pk", "player1__club"))
    try:
        return snake_groups([GroupEntrant(pk, clubs.get(pk) or "") for pk in order],
                            group_count, avoid_same_club=avoid_same_club)
    except FieldError as err:
        raise engine_error(err) from err


def proposed_groups(tournament: Tournament, group_count: int, *, avoid_same_club: bool = False,
                    order: Sequence[int] | None = None) -> list[list[int]]:
    """The groups the snake seeding would draw (pair ids per group, best first), for the
    organizer to confirm or change before the draw; ``order``: ``group_seeding``'s, when
    the caller has it. ``ServiceError`` on "group_count" when a group would have fewer than
    two pairs."""
    if tournament.format == Tournament.Format.TEAMS:
        return team_snake(tournament, team_group_seeding(tournament) if order is None
                          else order, group_count, avoid_same_club)
    return _snake(group_seeding(tournament) if order is None else order, group_count,
                  avoid_same_club)


def _hand_split(tournament: Tournament, order: list[int], groups: Sequence[Sequence[int]],
                group_count: int | None) -> list[list[int]]:
    """The organizer's own split, checked against the pairs that may still play
    (``ServiceError`` on "groups" naming the pairs at fault)."""
    ids = {pk for group in groups for pk in group} | set(order)
    names = {p.pk: p.display_name for p in Pair.objects.filter(
        tournament=tournament, pk__in=ids).select_related("player1", "player2")}
    try:
        return hand_groups(groups, order, names=names, count=group_count)
    except FieldError as err:
        raise engine_error(err) from err


@transaction.atomic
def start_groups(
    tournament_id: int, *, group_count: int | None = None, avoid_same_club: bool = False,
    groups: Sequence[Sequence[int]] | None = None, actor: Any = None,
) -> list[Group]:
    """Split the field into round-robin groups, each drawn round by round (a team event's
    field is its teams: ``tournaments.rounds.team_groups``): ``groups`` as the
    organizer made them by hand (pair ids per group, named A, B … in that order; each group's
    round robin takes its pairs in the tie order, as ``group_members`` gives them), else
    ``group_count`` groups by snake seeding (the qualifying standings when rounds were played,
    else rating).

    Before any round the tournament's first stage becomes the groups stage; after qualifying
    rounds (all finished) a groups stage follows them. Refused when a group would have fewer
    than two pairs, a split by hand leaves out a pair that may still play, names one twice or
    one that may not play (or more groups than ``group_count``), or the finals have started;
    nothing is written then.
    """
    tournament = Tournament.objects.select_for_update(of=("self",)).select_related(
        "regulations").get(pk=tournament_id)
    if tournament.format == Tournament.Format.INDIVIDUAL:
        raise ServiceError("format", _("Groups are for tournaments of pairs or of teams."))
    if knockout_stage(tournament) is not None:
        raise ServiceError("stage", _("The finals have started already."))
    stage = current_stage(tournament)
    if stage.format == Stage.Format.GROUPS:
        raise ServiceError("stage", _("The groups are drawn already."))
    played = tournament.rounds.exists()
    if played:
        require_all_finished(tournament)
    teams = tournament.format == Tournament.Format.TEAMS
    order = team_group_seeding(tournament) if teams else group_seeding(tournament)
    if groups is not None:
        split = (team_hand_split(tournament, order, groups, group_count) if teams
                 else _hand_split(tournament, order, groups, group_count))
    elif group_count is None:
        raise ServiceError("group_count", _("Say how many groups to draw."))
    elif teams:
        split = team_snake(tournament, order, group_count, avoid_same_club)
    else:
        split = _snake(order, group_count, avoid_same_club)
    count = len(split)
    if played:
        Stage.objects.filter(pk=stage.pk).update(
            status=Stage.Status.FINISHED, finished_at=timezone.now())
        emit_stage_finished(stage)
        stage = Stage.objects.create(
            tournament=tournament, order=stage.order + 1, format=Stage.Format.GROUPS,
            group_count=count)
    else:
        stage.format = Stage.Format.GROUPS
        stage.group_count = count
        stage.save(update_fields=["format", "group_count"])
    made = []
    for name, members in zip(group_names(count), split, strict=True):
        group = Group.objects.create(stage=stage, name=name)
        (group.teams if teams else group.entrants).set(members)
        made.append(group)
    logger.info("groups drawn: tournament=%s stage=%s groups=%s by_hand=%s actor=%s",
                tournament.pk, stage.pk, count, groups is not None, getattr(actor, "pk", None))
    return made


def groups_round(rnd: Round, present: set[int]) -> Draw:
    """A round of a groups stage: every group's round robin of pairs in the tie order, as
    ``group_members`` gives them (:func:`~tournaments.rounds.team_groups.groups_draw`);
    ``present``: the pairs that play."""
    if rnd.stage is None:
        raise TypeError("A round of a groups stage has its stage")
    members = [ids for _group, ids in group_members(rnd.stage)]
    return groups_draw(members, stage_round_number(rnd), present)
