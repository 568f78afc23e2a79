"""Groups of a groups stage: who plays in which, how many rounds their round robins take and
each group's standings."""

from __future__ import annotations

from django.db.models import Count

from scoring.models import Group, Stage
from scoring.ranking.results import ranked_entrants, standings_rows


def group_rounds(stage: Stage) -> int:
    """The rounds the stage's round robins take: its largest group's (one more when odd)."""
    largest = max(
        (g.size for g in Group.objects.filter(stage=stage).annotate(size=Count("entrants"))),
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


def group_standings(stage: Stage) -> list[tuple[Group, list[int]]]:
    """Each group with its pairs ranked by the group's own parties (the tournament's order and
    tie-breaks), best first."""
    tournament = stage.tournament
    return [
        (group, [row.entrant for row in standings_rows(tournament, ids, per_player=False)])
        for group, ids in group_members(stage)
    ]
