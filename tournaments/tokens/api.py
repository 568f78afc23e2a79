"""API of read-only tokens: ``/api/v1/auth/read-only-tokens/`` — an organizer lists, issues
(the key, ``token``, in that answer only) and revokes (``DELETE``) his tokens."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.routers import DefaultRouter

from scoring.access import api_tokens, permissions
from scoring.access.idempotency import IdempotentMixin
from scoring.access.query import KnownQueryMixin
from scoring.core.errors import ServiceError
from scoring.models import ReadOnlyToken


class ReadOnlyTokenSerializer(serializers.ModelSerializer):
    """A read-only token as listed: its name, the first characters of its key, its state."""

    active = serializers.BooleanField(read_only=True, help_text="False once revoked.")

    class Meta:
        model = ReadOnlyToken
        fields = ["id", "name", "prefix", "active", "created_at", "revoked_at"]
        read_only_fields = ["prefix", "created_at", "revoked_at"]


class IssuedTokenSerializer(ReadOnlyTokenSerializer):
    """A token just issued, with its key: shown in this answer only, never again."""

    token = serializers.CharField(source="key", read_only=True, help_text=(
        "The token's key, shown only now: send it as 'Authorization: Token <key>'. It reads "
        "the tournaments you organize (and public ones); every write with it is 403."))

    class Meta(ReadOnlyTokenSerializer.Meta):
        fields = [*ReadOnlyTokenSerializer.Meta.fields, "token"]


class ReadOnlyTokenViewSet(KnownQueryMixin, IdempotentMixin, mixins.ListModelMixin,
                           mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                           mixins.DestroyModelMixin, viewsets.GenericViewSet):
    """The user's read-only API tokens (organizers only; not with a read-only token)."""

    serializer_class = ReadOnlyTokenSerializer
    permission_classes = [IsAuthenticated]

    def check_permissions(self, request: Request) -> None:
        """Logged in, an organizer, and not through a read-only token."""
        super().check_permissions(request)
        if api_tokens.read_only(request.user):
            raise PermissionDenied(_("A read-only token cannot list, issue or revoke tokens."))
        if not permissions.is_organizer(request.user):
            raise PermissionDenied(_("Only organizers issue read-only API tokens."))

    def get_queryset(self) -> QuerySet[ReadOnlyToken]:
        """The user's own tokens, the newest first."""
        if getattr(self, "swagger_fake_view", False):  # the schema's generation: no user
            return ReadOnlyToken.objects.none()
        return api_tokens.tokens_of(self.request.user)

    @extend_schema(responses={201: IssuedTokenSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Issue a token (``name``: what or who will use it); the answer holds its key
        (``token``) this once."""
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            token, key = api_tokens.issue_token(request.user, serializer.validated_data["name"])
        except ServiceError as err:
            raise ValidationError({err.field: [err.message]}) from err
        token.key = key  # type: ignore[attr-defined]
        return Response(IssuedTokenSerializer(token).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={204: OpenApiResponse(description="Revoked: its key is refused "
                                                               "from now on.")})
    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Revoke the token (it stays listed, ``active`` false)."""
        api_tokens.revoke_token(self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)


router = DefaultRouter()
router.register("auth/read-only-tokens", ReadOnlyTokenViewSet, basename="read-only-token")
