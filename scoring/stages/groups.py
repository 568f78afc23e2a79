"""Groups of a groups stage: who plays in which, how many rounds their round robins take and
each group's standings."""

from __future__ import annotations

from functools import cache

from django.db.models import Count

from scoring.models import Group, Round, Stage
from scoring.ranking.loaders import load_party_rows
from scoring.ranking.results import ranked_entrants, results_version, standings_rows
from scoring.standings import StandingRow
from scoring.standings.types import PartyResult, PlainResult

from .team_groups import is_team_stage, team_group_standings


def group_rounds(stage: Stage) -> int:
    """The rounds the stage's round robins take: its largest group's (one more when odd)."""
    largest = max(
        (max(g.size, g.teams_size) for g in Group.objects.filter(stage=stage).annotate(
            size=Count("entrants", distinct=True), teams_size=Count("teams", distinct=True))),
        default=0,
    )
    return largest if largest % 2 else max(0, largest - 1)


def group_members(stage: Stage) -> list[tuple[Group, list[int]]]:
    """Each group with its pairs in the standings' tie order (rating, then registration)."""
    order = list(ranked_entrants(stage.tournament, False).values_list("pk", flat=True))
    rank = {pk: i for i, pk in enumerate(order)}
    out = []
    for group in Group.objects.filter(stage=stage).order_by("name").prefetch_related("entrants"):
        ids = sorted((p.pk for p in group.entrants.all()), key=lambda pk: rank.get(pk, 0))
        out.append((group, ids))
    return out


def stage_party_rows(stage: Stage) -> list[PartyResult | PlainResult]:
    """The counted parties of the stage's own rounds (a groups stage after qualifying rounds
    ranks its groups by their own parties only), as the standings engine takes them."""
    numbers = set(Round.objects.filter(stage=stage).values_list("number", flat=True))
    return [
        row for row in load_party_rows(stage.tournament, per_player=False)
        if (row.round if isinstance(row, PartyResult) else row[0]) in numbers
    ]


def group_rows(stage: Stage, version: str | None = None) -> list[tuple[Group, list[StandingRow]]]:
    """Each group with its standings' rows, best first: its pairs ranked among themselves in
    the tournament's order and tie-breaks (the parties read once for every group, and only
    when a group's rows are not cached under the results ``version``)."""
    tournament = stage.tournament
    version = results_version(tournament) if version is None else version
    parties = cache(lambda: stage_party_rows(stage))
    return [
        (group, standings_rows(tournament, ids, per_player=False,
                               version=f"{version}:stage-{stage.pk}", results=parties))
        for group, ids in group_members(stage)
    ]


def group_standings(stage: Stage) -> list[tuple[Group, list[int]]]:
    """Each group with its pairs ranked by the group's own parties (the tournament's order and
    tie-breaks), best first; a team event's with its teams
    (:func:`scoring.stages.team_groups.team_group_standings`)."""
    if is_team_stage(stage):
        return team_group_standings(stage)
    return [(group, [row.entrant for row in rows]) for group, rows in group_rows(stage)]
