"""API of the club and country standings: a tournament's best results of each club added up
(``scoring.ranking.clubs``), beside its standings."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.access.permissions import can_see_public_page
from scoring.core.errors import number_parameter
from scoring.models import Player
from scoring.ranking.clubs import BY, By, ClubStandingsTable, club_standings_table


class CountedEntrantSerializer(serializers.Serializer):
    """One entrant a club's line counts: its standings line."""

    entrant = serializers.IntegerField(help_text="A pair id, or a player id when per player.")
    name = serializers.CharField()
    rank = serializers.IntegerField(help_text="Its rank in the standings.")
    shared = serializers.BooleanField(help_text="Its rank is shared with another entrant.")
    metrics = serializers.DictField(
        child=serializers.FloatField(), help_text="Its values of the criteria added up, by key."
    )


class ClubLineSerializer(serializers.Serializer):
    """One club (or country) of the club standings."""

    rank = serializers.IntegerField()
    shared = serializers.BooleanField(help_text="The rank is shared with another club.")
    name = serializers.CharField(help_text="The club (country) as its best entrant spells it.")
    total = serializers.FloatField(
        help_text="The sum of the counted entrants' first criterion (`order[0]`).")
    tie_break = serializers.FloatField(
        allow_null=True,
        help_text="The sum of their second criterion (`order[1]`); null when the order has "
        "one criterion.")
    best_rank = serializers.IntegerField(help_text="The best rank among them (the last tie-break).")
    entrants = CountedEntrantSerializer(many=True, help_text="The entrants counted, best first.")


class ClubStandingsSerializer(serializers.Serializer):
    """The club or country standings of a tournament after a round."""

    tournament = serializers.IntegerField()
    by = serializers.ChoiceField(choices=list(BY))
    per_player = serializers.BooleanField(help_text="The entrants are players (individual).")
    after_round = serializers.IntegerField(allow_null=True)
    best = serializers.IntegerField(
        help_text="Results counted per club: the regulations' `club_best_results`.")
    order = serializers.ListField(
        child=serializers.CharField(),
        help_text="The criteria added up: the first two metric keys of the standings order.")
    lines = ClubLineSerializer(many=True)


def club_standings_data(table: ClubStandingsTable, tournament: int) -> dict[str, Any]:
    """The club standings as the API returns them."""
    keys = [metric.key for metric in table.criteria]
    standings = table.standings
    lines = [{
        "rank": row.rank,
        "shared": row.shared,
        "name": row.name,
        "total": row.total,
        "tie_break": row.tie_break,
        "best_rank": row.best_rank,
        "entrants": [{
            "entrant": line.entrant,
            "name": entrant.name if isinstance(entrant, Player) else entrant.display_name,
            "rank": line.rank,
            "shared": line.shared,
            "metrics": {key: line.metrics[key] for key in keys},
        } for line, entrant in table.counted(row)],
    } for row in table.rows]
    return {
        "tournament": tournament,
        "by": table.by,
        "per_player": standings.per_player,
        "after_round": standings.after_round,
        "best": table.best,
        "order": keys,
        "lines": lines,
    }


class ClubStandingsMixin:
    """The tournament's ``club-standings/`` action (on ``TournamentViewSet``)."""

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "by", str, enum=list(BY),
                description="Add up the entrants' results per club (the default) or per "
                "country."),
            OpenApiParameter(
                "after_round", int, description="Count only the rounds up to this one."),
        ],
        responses=ClubStandingsSerializer,
        summary="Club and country standings",
        description="Each club's (country's) best `club_best_results` entrants in the "
        "standings: the sum of the standings order's first criterion, ties broken by the sum "
        "of its second, then by the best rank among them; equal clubs share a rank. A pair of "
        "players of two clubs counts for both; entrants without a club are left out. Where "
        "the standings are public (404 otherwise).",
    )
    @action(detail=True, methods=["get"], url_path="club-standings")
    def club_standings(self, request: Request, pk: str | None = None) -> Response:
        """The club (``?by=country``: country) standings after any round."""
        tournament = self.get_object()  # type: ignore[attr-defined]
        if not can_see_public_page(request.user, tournament, "standings"):
            raise NotFound
        after_round = number_parameter(request.query_params, "after_round")
        by: By = "country" if request.query_params.get("by") == "country" else "club"
        table = club_standings_table(tournament, by=by, after_round=after_round)
        return Response(club_standings_data(table, tournament.pk))
