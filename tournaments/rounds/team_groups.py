"""A team event's groups stage: teams split into groups (snake seeding by the team standings
or the teams' rating, or by hand) and each group's round robin of team matches drawn round by
round; the groups' places then seed the team knockout (``finals.start_finals``)."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.models import Round, Team, Tournament
from scoring.stages.common import engine_error
from scoring.stages.team_groups import team_group_members
from scoring.teams.standings import team_standings
from tournaments.pairing import Draw, Pairing, get_generator
from tournaments.pairing.errors import FieldError
from tournaments.pairing.groups import GroupEntrant, hand_groups, snake_groups


def team_group_seeding(tournament: Tournament) -> list[int]:
    """The teams that may still play in the groups' seeding order, best first: the team
    standings when rounds were played, else the teams' rating (then registration)."""
    teams = list(Team.objects.filter(tournament=tournament, withdrawn=False,
                                     disqualified=False).values_list("id", "rating"))
    free = {pk for pk, _rating in teams}
    if tournament.rounds.exists():
        return [row.team for row in team_standings(tournament) if row.team in free]
    return [pk for pk, _rating in sorted(teams, key=lambda t: (-t[1], t[0]))]


def team_snake(tournament: Tournament, order: Sequence[int], group_count: int,
               avoid_same_club: bool) -> list[list[int]]:
    """The snake split of the teams of ``order`` into ``group_count`` groups (``ServiceError``
    on a group count the field cannot fill)."""
    clubs = {pk: club or country for pk, club, country in Team.objects.filter(
        pk__in=list(order)).values_list("id", "club", "country")}
    try:
        return snake_groups([GroupEntrant(pk, clubs.get(pk) or "") for pk in order],
                            group_count, avoid_same_club=avoid_same_club)
    except FieldError as err:
        raise engine_error(err) from err


def team_hand_split(tournament: Tournament, order: list[int], groups: Sequence[Sequence[int]],
                    group_count: int | None) -> list[list[int]]:
    """The organizer's own split of the teams, checked against the teams that may still play
    (``ServiceError`` on "groups" naming the teams at fault)."""
    names = dict(Team.objects.filter(tournament=tournament).values_list("id", "name"))
    try:
        return hand_groups(groups, order, names=names, count=group_count)
    except FieldError as err:
        raise engine_error(err) from err


def groups_draw(groups: Sequence[Sequence[int]], number: int, present: set[int]) -> Draw:
    """Round ``number`` of every group's round robin (each group's Berger schedule over its
    entrants in the order given), the groups' pairings in group order; ``present``: the
    entrants that play (the others are absent from their schedules)."""
    parties: list[Pairing] = []
    byes: list[int] = []
    for members in groups:
        absent = [pk for pk in members if pk not in present]
        draw = get_generator("round_robin", absent=absent).generate(list(members),
                                                                    round_number=number)
        if not isinstance(draw, Draw):
            raise TypeError("The round robin gave a draw of an individual event")
        parties += draw.parties
        byes += draw.byes
    return Draw(parties=parties, byes=byes)


def stage_round_number(rnd: Round) -> int:
    """The round's number within its groups stage (from 1)."""
    return Round.objects.filter(stage=rnd.stage, number__lte=rnd.number).count()


def team_groups_round(rnd: Round, present: set[int]) -> Draw:
    """A round of a team event's groups stage: every group's round robin of teams in its
    seeding order (:func:`groups_draw`); ``present``: the teams that play."""
    if rnd.stage is None:
        raise TypeError("A round of a groups stage has its stage")
    members = [ids for _group, ids in team_group_members(rnd.stage)]
    return groups_draw(members, stage_round_number(rnd), present)
