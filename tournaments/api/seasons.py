"""API of seasons: the list, and a season with its rule, tournaments and table (read-only)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers, viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from scoring import permissions
from scoring.models import Season
from scoring.seasons import SeasonPage, season_page, season_tournaments


class SeasonSerializer(serializers.ModelSerializer):
    """A season's name, address and scoring rule."""

    url = serializers.SerializerMethodField(help_text="The season's public table page.")

    class Meta:
        model = Season
        fields = ["id", "name", "slug", "scoring", "best_n", "place_points", "tie_breaks",
                  "public", "url"]

    def get_url(self, season: Season) -> str:
        """The public page's address."""
        return season.get_absolute_url()


class SeasonResultSerializer(serializers.Serializer):
    """One tournament's result on a season line."""

    tournament = serializers.IntegerField()
    place = serializers.IntegerField(help_text="The place in the tournament's standings.")
    points = serializers.FloatField(help_text="The season points of this result.")
    counted = serializers.BooleanField(help_text="False: not among the best N, dropped.")


class SeasonLineSerializer(serializers.Serializer):
    """One person's line of the season table."""

    rank = serializers.IntegerField()
    shared = serializers.BooleanField(help_text="The place is shared after every tie-break.")
    profile = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    total = serializers.FloatField()
    wins = serializers.IntegerField(help_text="Tournaments won (1st place).")
    best = serializers.FloatField(help_text="The best single result, in season points.")
    played = serializers.IntegerField(help_text="Tournaments with a result.")
    results = SeasonResultSerializer(many=True)


class SeasonTournamentSerializer(serializers.Serializer):
    """A tournament of the season, in date order."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()
    start_date = serializers.DateField()


class SeasonTableSerializer(SeasonSerializer):
    """A season with its tournaments and its table."""

    tournaments = SeasonTournamentSerializer(many=True)
    lines = SeasonLineSerializer(many=True)

    class Meta(SeasonSerializer.Meta):
        fields = [*SeasonSerializer.Meta.fields, "tournaments", "lines"]


def season_data(season: Season, page: SeasonPage) -> dict[str, Any]:
    """The season and its table as the API answers them."""
    lines = [
        {
            "rank": line.rank, "shared": line.shared, "profile": line.profile,
            "name": page.people[line.profile][0], "club": page.people[line.profile][1],
            "total": line.total, "wins": line.wins, "best": line.best, "played": line.played,
            "results": [
                {"tournament": pk, "place": cell.place, "points": cell.value,
                 "counted": cell.counted}
                for pk, cell in line.cells.items()
            ],
        }
        for line in page.lines
    ]
    return {**SeasonSerializer(season).data, "tournaments": page.tournaments, "lines": lines}


@extend_schema_view(
    list=extend_schema(summary="Seasons: the public ones and the caller's own"),
    retrieve=extend_schema(summary="A season with its table", responses=SeasonTableSerializer),
)
class SeasonViewSet(viewsets.ReadOnlyModelViewSet):
    """Seasons by their short name; a season's table is read from the stored placings."""

    serializer_class = SeasonSerializer
    lookup_field = "slug"
    lookup_value_converter = "str"

    def get_queryset(self) -> QuerySet[Season]:
        """Public seasons, the caller's own, every one for a superuser."""
        user = self.request.user
        if user.is_superuser:
            return Season.objects.order_by("-created_at", "name")
        visible = Q(public=True)
        if user.is_authenticated:
            visible |= Q(created_by=user)
        return Season.objects.filter(visible).order_by("-created_at", "name")

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The season, its tournaments (the hidden ones only for its organizer), its table."""
        season = self.get_object()
        everything = permissions.can_edit_season(request.user, season)
        page = season_page(season, season_tournaments(season, everything=everything))
        return Response(season_data(season, page))
