"""API of player profiles: the list, a search by name, one profile, and merging two.

Public read: name, club, city (and where a merged profile points). Organizers and staff also
see the birth year and the federation id. A merged profile's address answers 301 to the kept
one. Merging: ``permissions.can_merge_profiles``.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponsePermanentRedirect
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.access import permissions
from scoring.access.idempotency import IdempotentMixin
from scoring.access.query import KnownQueryMixin
from scoring.models import Profile
from scoring.models.people import person_key
from scoring.people.profiles import live_profiles, merge_profiles, resolve_profile
from tournaments.api.common import valid

PRIVATE_FIELDS = ("birth_year", "federation_id")


class ProfileSerializer(serializers.ModelSerializer):
    """A player profile; ``birth_year`` and ``federation_id`` for organizers and staff only."""

    class Meta:
        model = Profile
        fields = ["id", "name", "club", "city", "birth_year", "federation_id"]
        read_only_fields = fields

    def get_fields(self) -> dict[str, serializers.Field]:
        """The private fields only for those who may see them."""
        fields = super().get_fields()
        request = self.context.get("request")
        if request is None or not permissions.can_see_profile_details(request.user):
            for name in PRIVATE_FIELDS:
                fields.pop(name, None)
        return fields


class MergeSerializer(serializers.Serializer):
    """The profile merged into the one of the address."""

    other = serializers.PrimaryKeyRelatedField(
        queryset=Profile.objects.all(),
        help_text="The id of the profile merged into this one (its entries and rating rows "
        "move here; it then points here).")


class SearchSerializer(serializers.Serializer):
    """The list's query: a name to search for (a NUL character is refused, naming ``search``)."""

    search = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)


@extend_schema_view(list=extend_schema(parameters=[OpenApiParameter(
    "search", OpenApiTypes.STR, description="Profiles whose name contains this (case, ё/е "
    "and spaces do not matter).")]))
class ProfileViewSet(KnownQueryMixin, IdempotentMixin, viewsets.ReadOnlyModelViewSet):
    """Player profiles: one person across tournaments."""

    serializer_class = ProfileSerializer

    def get_queryset(self) -> QuerySet[Profile]:
        """Profiles not merged into another, by name; ``?search=`` narrows by name."""
        found = live_profiles().order_by("name_key", "pk")
        query = valid(SearchSerializer, self.request.query_params) if self.action == "list" else {}
        text = query.get("search", "")
        if text:
            found = found.filter(name_key__contains=person_key(text))
        return found

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Any:
        """One profile; a merged one's address redirects (301) to the kept profile."""
        pk = kwargs.get("pk")
        merged = None if pk is None else (
            Profile.objects.filter(pk=pk).exclude(merged_into=None).first())
        if merged is not None:
            kept = resolve_profile(merged.pk)
            return HttpResponsePermanentRedirect(
                request.path.replace(f"/{merged.pk}/", f"/{kept.pk}/"))
        return super().retrieve(request, *args, **kwargs)

    @extend_schema(request=MergeSerializer, responses={
        200: ProfileSerializer,
        400: OpenApiResponse(OpenApiTypes.OBJECT, description="The two profiles cannot be "
                             "merged (the same one, two federation ids, two user accounts, "
                             "both in one tournament): {other: [message]}."),
        403: OpenApiResponse(OpenApiTypes.OBJECT, description="Only staff, and organizers of "
                             "a tournament where one of the two plays, merge profiles."),
    })
    @action(detail=True, methods=["post"])
    def merge(self, request: Request, pk: str | None = None) -> Response:
        """Merge another profile of the same person into this one; every result is kept."""
        keep = self.get_object()
        other = valid(MergeSerializer, request.data)["other"]
        if not permissions.can_merge_profiles(request.user, keep, other):
            raise PermissionDenied
        keep = merge_profiles(keep, other, actor=request.user)
        return Response(ProfileSerializer(keep, context={"request": request}).data)
