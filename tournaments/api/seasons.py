"""API of seasons: the list, a season with its rule, tournaments and table; its organizer
creates, changes and deletes it through the season services."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, viewsets
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.access import permissions
from scoring.access.idempotency import IdempotentMixin
from scoring.access.query import KnownQueryMixin
from scoring.core.json_input import JSONInputField
from scoring.models import Season, Tournament
from scoring.ranking.seasons import SeasonPage, season_page, season_tournaments
from tournaments.api.common import REFUSED, updated_record
from tournaments.ranking.season_services import create_season, delete_season, update_season


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


class SeasonWriteSerializer(SeasonSerializer):
    """A season as its organizer sends it: the rule and the ids of its tournaments."""

    tournaments = serializers.PrimaryKeyRelatedField(
        many=True, queryset=Tournament.objects.all(), required=False,
        help_text="The ids of the season's tournaments, each one the caller organizes.",
    )
    tie_breaks = JSONInputField(
        required=False, help_text="In order, each once: `wins`, `best`, `played`.")
    place_points = JSONInputField(
        required=False, help_text="Season points of the 1st, 2nd, 3rd… place (numbers ≥ 0).")

    class Meta(SeasonSerializer.Meta):
        fields = [*SeasonSerializer.Meta.fields, "tournaments"]


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


SLUG = OpenApiParameter(
    "slug", str, OpenApiParameter.PATH, pattern=r"^[-\w]+$",
    description="The season's short name (letters, digits, hyphens and underscores).",
)
"""The season's address: a slug, so a request with another kind of text is an invalid one."""


@extend_schema_view(
    list=extend_schema(summary="Seasons: the public ones and the caller's own"),
    retrieve=extend_schema(summary="A season with its table", responses=SeasonTableSerializer,
                           parameters=[SLUG]),
    create=extend_schema(
        request=SeasonWriteSerializer, responses={201: SeasonWriteSerializer, **REFUSED},
        summary="Create a season of the caller's tournaments (organizers)",
        description="The rule is checked by the season service: only tournaments the caller "
        "organizes, known tie-breaks each once, points by place for `place_points`, "
        "`best_n` ≥ 1; a refusal is 400 naming the field.",
    ),
    update=extend_schema(request=SeasonWriteSerializer, parameters=[SLUG],
                         responses={200: SeasonWriteSerializer, **REFUSED},
                         summary="Change a season (its organizer)"),
    partial_update=extend_schema(request=SeasonWriteSerializer, parameters=[SLUG],
                                 responses={200: SeasonWriteSerializer, **REFUSED},
                                 summary="Change part of a season (its organizer)"),
    destroy=extend_schema(responses={204: None, **REFUSED}, parameters=[SLUG],
                          summary="Delete a season (its organizer; the tournaments stay)"),
)
class SeasonViewSet(
    KnownQueryMixin, IdempotentMixin, mixins.CreateModelMixin, mixins.UpdateModelMixin,
    mixins.DestroyModelMixin, viewsets.ReadOnlyModelViewSet,
):
    """Seasons by their short name; a season's table is read from the stored placings;
    organizers create seasons, and a season's organizer changes or deletes it."""

    serializer_class = SeasonSerializer
    lookup_field = "slug"
    lookup_value_converter = "str"

    def get_serializer_class(self) -> type[serializers.BaseSerializer]:
        """The write serializer (with the tournaments' ids) for a change."""
        if self.request is not None and self.request.method not in SAFE_METHODS:
            return SeasonWriteSerializer
        return SeasonSerializer

    def get_queryset(self) -> QuerySet[Season]:
        """Public seasons, the caller's own, every one for a superuser."""
        user = self.request.user
        if user.is_superuser:
            return Season.objects.order_by("-created_at", "name")
        visible = Q(public=True)
        if user.is_authenticated:
            visible |= Q(created_by=user)
        return Season.objects.filter(visible).order_by("-created_at", "name")

    def get_object(self) -> Season:
        """The season of the URL; a change only by its organizer (403 otherwise)."""
        season = super().get_object()
        if self.request.method not in SAFE_METHODS and not permissions.can_edit_season(
            self.request.user, season
        ):
            raise PermissionDenied
        return season

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The season, its tournaments (the hidden ones only for its organizer), its table."""
        season = self.get_object()
        everything = permissions.can_edit_season(request.user, season)
        page = season_page(season, season_tournaments(season, everything=everything))
        return Response(season_data(season, page))

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Create a season (organizers only, 403 otherwise)."""
        if not permissions.can_create_season(request.user):
            raise PermissionDenied
        return super().create(request, *args, **kwargs)

    def perform_create(self, serializer: serializers.BaseSerializer) -> None:
        """Create through the service, which checks the rule and the tournaments."""
        data = dict(serializer.validated_data)
        tournaments = data.pop("tournaments", [])
        serializer.instance = create_season(actor=self.request.user, tournaments=tournaments,
                                            **data)

    def perform_update(self, serializer: serializers.BaseSerializer) -> None:
        """Change through the service; the tournaments left out stay as they are."""
        data = dict(serializer.validated_data)
        tournaments = data.pop("tournaments", None)
        serializer.instance = update_season(updated_record(serializer).pk, actor=self.request.user,
                                            tournaments=tournaments, **data)

    def perform_destroy(self, instance: Season) -> None:
        """Delete through the service."""
        delete_season(instance.pk, actor=self.request.user)
