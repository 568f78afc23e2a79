"""API of a tournament's standings: its entrants' (``standings/``) and a team event's teams'
(``team-standings/``), actions of ``TournamentViewSet``."""

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
from scoring.models import Pair, Tournament
from scoring.ranking.results import StandingsTable, standings_table
from tournaments.api.team_matches import TeamStandingsSerializer, team_standings_data


class StandingLineSerializer(serializers.Serializer):
    """One line of the standings."""

    rank = serializers.IntegerField()
    shared = serializers.BooleanField(help_text="The rank is shared with another entrant.")
    entrant = serializers.IntegerField(help_text="A pair id, or a player id when per player.")
    name = serializers.CharField()
    withdrawn = serializers.BooleanField()
    disqualified = serializers.BooleanField()
    metrics = serializers.DictField(
        child=serializers.FloatField(), help_text="Every metric's value by its key."
    )


class StandingsSerializer(serializers.Serializer):
    """The standings of a tournament after a round."""

    tournament = serializers.IntegerField()
    per_player = serializers.BooleanField()
    after_round = serializers.IntegerField(allow_null=True)
    order = serializers.ListField(
        child=serializers.CharField(), help_text="Metric keys in the regulations' order."
    )
    lines = StandingLineSerializer(many=True)


def standings_data(table: StandingsTable, tournament: Tournament) -> dict[str, Any]:
    """The standings table as the API returns it."""
    lines = []
    for row, entrant, _values in table.lines():
        name = entrant.display_name if isinstance(entrant, Pair) else entrant.name
        lines.append(
            {
                "rank": row.rank,
                "shared": row.shared,
                "entrant": row.entrant,
                "name": name,
                "withdrawn": entrant.withdrawn,
                "disqualified": entrant.disqualified,
                "metrics": row.metrics,
            }
        )
    return {
        "tournament": tournament.pk,
        "per_player": table.per_player,
        "after_round": table.after_round,
        "order": list(table.order),
        "lines": lines,
    }



class StandingsMixin:
    """The tournament's ``standings/`` and ``team-standings/`` actions."""

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "after_round", int, description="Count only the rounds up to this one."
            ),
            OpenApiParameter(
                "by",
                str,
                enum=["pair", "player"],
                description="Rank pairs or players (individual tournaments always rank "
                "players).",
            ),
        ],
        responses=StandingsSerializer,
        summary="Standings",
    )
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """The standings after any round, in the regulations' order; equal entrants share."""
        tournament = self.get_object()  # type: ignore[attr-defined]
        if not can_see_public_page(request.user, tournament, "standings"):
            raise NotFound
        after_round = number_parameter(request.query_params, "after_round")
        per_player = (
            tournament.format == Tournament.Format.INDIVIDUAL
            or request.query_params.get("by") == "player"
        )
        table = standings_table(tournament, per_player=per_player, after_round=after_round)
        return Response(standings_data(table, tournament))

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "after_round", int, description="Count only the rounds up to this one."
            ),
        ],
        responses=TeamStandingsSerializer,
        summary="Team standings (team events)",
    )
    @action(detail=True, methods=["get"], url_path="team-standings")
    def team_standings(self, request: Request, pk: str | None = None) -> Response:
        """Teams ranked by the team score, then the tournament's team tie-breaks; equal teams
        share a rank. Only decided team matches of published rounds count."""
        tournament = self.get_object()  # type: ignore[attr-defined]
        if not can_see_public_page(request.user, tournament, "standings"):
            raise NotFound
        after_round = number_parameter(request.query_params, "after_round")
        return Response(team_standings_data(tournament, after_round))
