"""API of rating lists: the lists (read by all, written by their creators), entries, CSV."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.access.idempotency import IdempotentMixin
from scoring.access.query import KnownQueryMixin
from scoring.core.json_input import JSONInputField
from scoring.models import RatingEntry, RatingList, Tournament
from scoring.ranking.rating_lists import (
    can_create_list,
    can_edit_list,
    ratable_tournaments,
    save_rating_list,
    visible_lists,
)
from scoring.ranking.rating_runs import rating_lines
from tournaments.ranking.rating_views import csv_response


class RatingListSerializer(serializers.ModelSerializer):
    """A rating list: its system, what it rates, its constants and its rated tournaments."""

    tournaments = serializers.PrimaryKeyRelatedField(
        many=True, queryset=Tournament.objects.all(), required=False,
        help_text="The rated tournaments' ids; one rating period each, by start date.",
    )
    created_by = serializers.IntegerField(source="created_by_id", read_only=True)
    parameters = JSONInputField(
        required=False,
        help_text="The system's constants (initial rating, K factors, tau); empty: defaults.",
    )

    class Meta:
        model = RatingList
        fields = ["id", "name", "slug", "system", "subject", "parameters", "public",
                  "tournaments", "created_by", "created_at"]
        read_only_fields = ["created_at"]


class RatingLineSerializer(serializers.Serializer):
    """One subject's current line of a list."""

    rank = serializers.IntegerField()
    subject = serializers.CharField(help_text='A profile id, or two joined by "+" (a pair).')
    profile = serializers.IntegerField()
    partner = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    partner_name = serializers.CharField(allow_blank=True)
    club = serializers.CharField(allow_blank=True)
    rating = serializers.FloatField()
    deviation = serializers.FloatField(allow_null=True, help_text="Glicko-2's RD; null in Elo.")
    volatility = serializers.FloatField(allow_null=True)
    parties = serializers.IntegerField(help_text="Parties rated over every period.")
    tournaments = serializers.IntegerField(help_text="Rated tournaments he played.")
    tournament = serializers.IntegerField(help_text="The tournament of his last rating.")


class RatingHistorySerializer(serializers.ModelSerializer):
    """One row of a subject's history: his rating after one rated tournament."""

    class Meta:
        model = RatingEntry
        fields = ["subject", "profile", "partner", "tournament", "sequence", "rating",
                  "deviation", "volatility", "games", "score", "current"]


def line_data(rating_list: RatingList) -> list[dict[str, Any]]:
    """The list's current lines as the API returns them."""
    out = []
    for line in rating_lines(rating_list):
        e = line.entry
        out.append({
            "rank": line.rank, "subject": e.subject, "profile": e.profile_id,
            "partner": e.partner_id, "name": e.profile.name,
            "partner_name": e.partner.name if e.partner else "", "club": e.profile.club,
            "rating": e.rating, "deviation": e.deviation, "volatility": e.volatility,
            "parties": line.parties, "tournaments": line.tournaments,
            "tournament": e.tournament_id,
        })
    return out


class RatingListViewSet(
    KnownQueryMixin, IdempotentMixin, mixins.CreateModelMixin, mixins.UpdateModelMixin,
    mixins.DestroyModelMixin, viewsets.ReadOnlyModelViewSet,
):
    """Rating lists: public ones for everyone; organizers create lists and change their own."""

    serializer_class = RatingListSerializer
    filterset_fields = ["system", "subject"]

    def get_queryset(self) -> QuerySet[RatingList]:
        """The lists the user may see."""
        return visible_lists(self.request.user).prefetch_related("tournaments").order_by("id")

    def get_object(self) -> RatingList:
        """The list of the URL; a change only by its creator (403 otherwise)."""
        rating_list = super().get_object()
        if self.request.method not in SAFE_METHODS and not can_edit_list(
            self.request.user, rating_list
        ):
            raise PermissionDenied
        return rating_list

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Create a list (organizers); it is computed at once."""
        if not can_create_list(request.user):
            raise PermissionDenied
        return super().create(request, *args, **kwargs)

    def _save(self, serializer: serializers.BaseSerializer, instance: RatingList | None) -> None:
        """Save through the service, which checks the tournaments and recomputes the list."""
        data = dict(serializer.validated_data)
        tournaments = data.pop("tournaments", None)
        if tournaments is None:
            tournaments = list(instance.tournaments.all()) if instance else []
        serializer.instance = save_rating_list(
            actor=self.request.user, rating_list=instance, tournaments=tournaments, **data
        )

    def perform_create(self, serializer: serializers.BaseSerializer) -> None:
        """Create through the service."""
        self._save(serializer, None)

    def perform_update(self, serializer: serializers.BaseSerializer) -> None:
        """Change through the service."""
        self._save(serializer, serializer.instance)

    @extend_schema(responses=RatingLineSerializer(many=True), summary="The list's ratings",
                   description="Every subject's current rating, best first.")
    @action(detail=True, methods=["get"], filter_backends=[])
    def ratings(self, request: Request, pk: str | None = None) -> Response:
        """The current ratings, best first (paged, as every list)."""
        return self.get_paginated_response(self.paginate_queryset(line_data(self.get_object())))

    @extend_schema(
        responses=RatingHistorySerializer(many=True), summary="The list's history",
        parameters=[OpenApiParameter("profile", int, description="One profile's rows only.")],
        description="Every row of every subject's history, by subject and period.",
    )
    @action(detail=True, methods=["get"], filter_backends=[])
    def history(self, request: Request, pk: str | None = None) -> Response:
        """Every history row (``?profile=`` for one player's)."""
        rows = RatingEntry.objects.filter(rating_list=self.get_object()).order_by(
            "subject", "sequence")
        profile = request.query_params.get("profile")
        if profile is not None:
            if not profile.isdigit():
                raise serializers.ValidationError({"profile": ["A whole number is required."]})
            rows = rows.filter(profile_id=int(profile))
        page = self.paginate_queryset(rows)
        return self.get_paginated_response(RatingHistorySerializer(page, many=True).data)

    @extend_schema(
        responses={(200, "text/csv"): OpenApiResponse(OpenApiTypes.BINARY,
                                                      description="UTF-8 CSV with BOM.")},
        summary="The list as CSV",
    )
    @action(detail=True, methods=["get"])
    def csv(self, request: Request, pk: str | None = None) -> HttpResponse:
        """The list as CSV, as its page's download."""
        return csv_response(self.get_object())


__all__ = ["RatingListSerializer", "RatingListViewSet", "ratable_tournaments"]
