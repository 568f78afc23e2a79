"""API of player profiles: the list, a search by name, one profile, merging two, unmerging.

A person is shown only through the tournaments the user may see (``scoring.access.profiles.
visible_profiles``): name, club, city (and where a merged profile points). Staff, and the
organizers of a tournament where the person plays, also read the birth year and the federation
id. A merged profile's address answers 301 to the kept one. Merging and unmerging:
``scoring.access.profiles.can_merge_profiles`` and ``can_unmerge_profiles``.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404, HttpResponsePermanentRedirect
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

from scoring.access import profiles as access
from scoring.access.idempotency import IdempotentMixin
from scoring.access.query import KnownQueryMixin
from scoring.models import Profile
from scoring.models.people import person_key
from scoring.people.merges import last_merge, merge_profiles, unmerge_profiles
from scoring.people.profiles import resolve_profile
from tournaments.api.common import valid

PRIVATE_FIELDS = ("birth_year", "federation_id")


class ProfileSerializer(serializers.ModelSerializer):
    """A player profile; ``birth_year`` and ``federation_id`` only for staff and for the
    organizers of a tournament where the person plays (left out for everyone else)."""

    birth_year = serializers.IntegerField(
        required=False, allow_null=True,
        help_text="Only for staff and the organizers of a tournament where he plays.")
    federation_id = serializers.CharField(
        required=False, help_text="Only for staff and the organizers of a tournament where "
        "he plays.")

    class Meta:
        model = Profile
        fields = ["id", "name", "club", "city", "birth_year", "federation_id"]
        read_only_fields = fields

    def to_representation(self, instance: Profile) -> dict[str, Any]:
        """The private fields only for those who may read this profile's."""
        data = super().to_representation(instance)
        details = self.context.get("details")
        if details is None:
            request = self.context.get("request")
            details = access.profiles_with_details(
                getattr(request, "user", None), [instance.pk])
        if instance.pk not in details:
            for name in PRIVATE_FIELDS:
                data.pop(name, None)
        return data


def profile_data(request: Request, profile: Profile) -> dict[str, Any]:
    """One profile as the API answers it to this user."""
    return ProfileSerializer(profile, context={"request": request}).data


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
        """The profiles the user may see and not merged into another, by name; ``?search=``
        narrows by name."""
        found = access.visible_profiles(self.request.user).filter(
            merged_into__isnull=True).order_by("name_key", "pk")
        query = valid(SearchSerializer, self.request.query_params) if self.action == "list" else {}
        text = query.get("search", "")
        if text:
            found = found.filter(name_key__contains=person_key(text))
        return found

    def get_serializer(self, *args: Any, **kwargs: Any) -> Any:
        """The serializer, told once which of the profiles shown the user reads in full."""
        shown = args[0] if args else None
        if isinstance(shown, Profile):
            shown = [shown]
        if isinstance(shown, list):
            kwargs.setdefault("context", self.get_serializer_context())
            kwargs["context"]["details"] = access.profiles_with_details(
                self.request.user, [p.pk for p in shown])
        return super().get_serializer(*args, **kwargs)

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Any:
        """One profile; a merged one's address redirects (301) to the kept profile."""
        pk = kwargs.get("pk")
        merged = None if pk is None else (
            Profile.objects.filter(pk=pk).exclude(merged_into=None).first())
        if merged is not None:
            kept = resolve_profile(merged.pk)
            if not access.can_see_profile(request.user, kept):
                raise Http404
            return HttpResponsePermanentRedirect(
                request.path.replace(f"/{merged.pk}/", f"/{kept.pk}/"))
        return super().retrieve(request, *args, **kwargs)

    @extend_schema(request=MergeSerializer, responses={
        200: ProfileSerializer,
        400: OpenApiResponse(OpenApiTypes.OBJECT, description="The two profiles cannot be "
                             "merged (the same one, two federation ids, two user accounts, "
                             "both in one tournament): {other: [message]}."),
        403: OpenApiResponse(OpenApiTypes.OBJECT, description="Only staff, and an organizer "
                             "for whom both profiles play only in tournaments he organizes, "
                             "merge profiles."),
    })
    @action(detail=True, methods=["post"])
    def merge(self, request: Request, pk: str | None = None) -> Response:
        """Merge another profile of the same person into this one; every result is kept, and
        the merge is logged so that ``unmerge`` (on the other profile) undoes it."""
        keep = self.get_object()
        other = valid(MergeSerializer, request.data)["other"]
        if not access.can_merge_profiles(request.user, keep, other):
            raise PermissionDenied
        done = merge_profiles(keep, other, actor=request.user)
        return Response(profile_data(request, done.kept))

    @extend_schema(request=None, responses={
        200: ProfileSerializer,
        400: OpenApiResponse(OpenApiTypes.OBJECT, description="The merge cannot be undone as "
                             "it was (a later merge of either profile is not undone): "
                             "{merge: [message]}."),
        403: OpenApiResponse(OpenApiTypes.OBJECT, description="Only those who may merge the "
                             "two profiles (staff, or an organizer of every tournament of "
                             "both) undo their merge."),
        404: OpenApiResponse(OpenApiTypes.OBJECT, description="No such profile, or it is not "
                             "merged into another."),
    })
    @action(detail=True, methods=["post"])
    def unmerge(self, request: Request, pk: str | None = None) -> Response:
        """Undo the merge of this profile (the one merged away) into another: its entries,
        rating rows, login and field values come back exactly; answers it restored."""
        merge = last_merge(int(str(pk))) if str(pk).isdigit() else None
        if merge is None:
            raise Http404
        if not access.can_unmerge_profiles(request.user, merge):
            raise PermissionDenied
        done = unmerge_profiles(merge, actor=request.user)
        return Response(profile_data(request, done.restored))
