"""What every part of the tournaments API shares: the documented refusals and the checks."""

from __future__ import annotations

from typing import Any, TypeVar

from django.db.models import Model, Q
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request

from scoring.access import permissions
from scoring.access.permissions import managed_tournaments
from scoring.models import Round, Tournament

M = TypeVar("M", bound=Model)

REFUSED = {
    400: OpenApiResponse(
        OpenApiTypes.OBJECT,
        description="Refused by the regulations or the round's state: {field: [message]}.",
    ),
    403: OpenApiResponse(
        OpenApiTypes.OBJECT,
        description="Only the tournament's organizers may do this: {detail: message}.",
    ),
    404: OpenApiResponse(
        OpenApiTypes.OBJECT,
        description="No such round, or not visible to the user: {detail: message}.",
    ),
}
"""The refusals every changing round endpoint documents."""


def published_q(user: Any, prefix: str, nullable: bool = False) -> Q:
    """Rows of published rounds, or of any round of a tournament the user organizes."""
    if getattr(user, "is_superuser", False):
        return Q()
    q = ~Q(**{f"{prefix}status": Round.Status.DRAFT}) | Q(
        **{f"{prefix}tournament__in": managed_tournaments(user)}
    )
    if nullable:
        q |= Q(**{f"{prefix[:-2]}__isnull": True})
    return q


def require_manage(request: Request, tournament: Tournament) -> None:
    """Only the tournament's organizers change its rounds and entrants (403 otherwise)."""
    if not permissions.can_manage(request.user, tournament):
        raise PermissionDenied


def valid(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    """Validated request data (400 with the field errors otherwise)."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def updated_record(serializer: serializers.BaseSerializer[M]) -> M:
    """The record an update changes (a serializer of an update always holds it)."""
    if serializer.instance is None:
        raise TypeError("An update's serializer holds no record")
    return serializer.instance
