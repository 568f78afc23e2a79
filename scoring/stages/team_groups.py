"""A team event's groups: the teams of each group and each group's team standings, ranked by
the group's own team matches (as ``scoring.stages.groups`` ranks a pairs event's groups by
their own parties)."""

from __future__ import annotations

from scoring.models import Group, Round, Stage, Team, TeamMatch, Tournament
from scoring.teams.results import team_match_results
from scoring.teams.standings import TeamStandingRow, rank_teams


def is_team_stage(stage: Stage) -> bool:
    """Whether the stage is a team event's (its groups draw teams)."""
    return stage.tournament.format == Tournament.Format.TEAMS


def team_group_members(stage: Stage) -> list[tuple[Group, list[int]]]:
    """Each group with its teams in their seeding order (rating, best first, then
    registration): the order of their round robin."""
    out = []
    for group in Group.objects.filter(stage=stage).order_by("name").prefetch_related("teams"):
        teams = sorted(group.teams.all(), key=lambda t: (-t.rating, t.pk))
        out.append((group, [t.pk for t in teams]))
    return out


def team_group_rows(stage: Stage) -> list[tuple[Group, list[TeamStandingRow]]]:
    """Each group with its team standings, best first: its teams ranked by the team score
    and the tournament's team tie-breaks over the decided team matches of the stage's
    published rounds between the group's teams (one results computation for every group)."""
    tournament = stage.tournament
    live = set(TeamMatch.objects.filter(round__stage=stage, knockout_match__isnull=True)
               .exclude(round__status=Round.Status.DRAFT).values_list("id", flat=True))
    results = [r for pk, r in team_match_results(tournament, team_matches=list(live)).items()
               if pk in live]
    members = team_group_members(stage)
    info = {pk: (name, withdrawn, disqualified) for pk, name, withdrawn, disqualified in
            Team.objects.filter(tournament=tournament).values_list(
                "id", "name", "withdrawn", "disqualified")}
    out = []
    for group, ids in members:
        inside = set(ids)
        own = [r for r in results
               if r.a.team in inside and (r.b is None or r.b.team in inside)]
        teams = [(pk, *info[pk]) for pk in ids]
        out.append((group, rank_teams(tournament, teams, own)))
    return out


def team_group_standings(stage: Stage) -> list[tuple[Group, list[int]]]:
    """Each group with its teams ranked by the group's own team matches, best first."""
    return [(group, [row.team for row in rows]) for group, rows in team_group_rows(stage)]
