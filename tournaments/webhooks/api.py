"""API of webhooks: an organizer's subscriptions, their deliveries, and replaying one."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.routers import DefaultRouter

from scoring.access import permissions
from scoring.access.idempotency import IdempotentMixin
from scoring.access.query import KnownQueryMixin
from scoring.core.errors import ServiceError
from scoring.models import WEBHOOK_EVENTS, Tournament, WebhookDelivery, WebhookSubscription
from scoring.webhooks import services as webhooks


class WebhookSubscriptionSerializer(serializers.ModelSerializer):
    """A webhook: the tournament, URL, events and whether it is active (its signing secret is
    answered only when it is made: ``WebhookSecretSerializer``)."""

    tournament = serializers.PrimaryKeyRelatedField(queryset=Tournament.objects.all())
    events = serializers.ListField(child=serializers.ChoiceField(choices=WEBHOOK_EVENTS),
                                   allow_empty=False)

    class Meta:
        model = WebhookSubscription
        fields = ["id", "tournament", "url", "events", "active", "created_at", "last_sequence"]
        read_only_fields = ["created_at", "last_sequence"]


class WebhookSecretSerializer(WebhookSubscriptionSerializer):
    """A webhook with its signing secret: answered once, when the webhook is registered and
    when its secret is renewed (``POST /webhooks/{id}/renew-secret/``); no read shows it."""

    class Meta(WebhookSubscriptionSerializer.Meta):
        fields = [*WebhookSubscriptionSerializer.Meta.fields, "secret"]
        read_only_fields = [*WebhookSubscriptionSerializer.Meta.read_only_fields, "secret"]


class WebhookDeliverySerializer(serializers.ModelSerializer):
    """A delivery: event, payload, sequence number, state and the log of its attempts."""

    log = serializers.ListField(child=serializers.DictField(), read_only=True)
    payload = serializers.DictField(read_only=True)

    class Meta:
        model = WebhookDelivery
        fields = ["id", "subscription", "sequence", "event", "payload", "status", "attempts",
                  "next_attempt_at", "response_code", "response_body", "error", "log",
                  "replay_of", "created_at", "delivered_at"]
        read_only_fields = fields


class _OrganizersOnly(viewsets.GenericViewSet):
    """Lists show the user's managed tournaments; a record of a tournament he can see but
    does not organize is refused with 403, one of a hidden tournament is not found (404)."""

    permission_classes = [IsAuthenticated]

    def _tournaments(self) -> QuerySet[Tournament]:
        user = self.request.user
        if self.action == "list":
            return permissions.managed_tournaments(user)
        return permissions.visible_tournaments(user)

    def check_object_permissions(self, request: Request,
                                 obj: WebhookSubscription | WebhookDelivery) -> None:
        """Organizers of the record's tournament only."""
        super().check_object_permissions(request, obj)
        tournament = obj.tournament if isinstance(obj, WebhookSubscription) else \
            obj.subscription.tournament
        if not permissions.can_manage(request.user, tournament):
            raise PermissionDenied


def _refused(err: ServiceError) -> ValidationError:
    """A service's refusal as the API's 400 ``{field: [message]}``."""
    return ValidationError({err.field: [err.message]})


@extend_schema_view(create=extend_schema(
    request=WebhookSubscriptionSerializer, responses={201: WebhookSecretSerializer},
    description="Register a URL; the answer carries the signing secret, shown this once."))
class WebhookSubscriptionViewSet(
    KnownQueryMixin, IdempotentMixin, _OrganizersOnly, viewsets.ModelViewSet
):
    """The webhooks of the tournaments the user organizes."""

    serializer_class = WebhookSubscriptionSerializer
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def get_serializer_class(self) -> type[WebhookSubscriptionSerializer]:
        """With the secret for the answer of a registration only."""
        if self.action == "create":
            return WebhookSecretSerializer
        return WebhookSubscriptionSerializer

    def get_queryset(self) -> QuerySet[WebhookSubscription]:
        """Subscriptions of the tournaments the user manages (may see, for one record)."""
        return WebhookSubscription.objects.filter(
            tournament__in=self._tournaments()).select_related("tournament").order_by("pk")

    def perform_create(self, serializer: Any) -> None:
        """Register through the service (URL guard); organizers of the tournament only."""
        data = serializer.validated_data
        tournament = data["tournament"]
        if not permissions.can_manage(self.request.user, tournament):
            raise PermissionDenied
        try:
            serializer.instance = webhooks.create_subscription(
                tournament, url=data["url"], events=data["events"], actor=self.request.user)
        except ServiceError as err:
            raise _refused(err) from err

    def perform_update(self, serializer: Any) -> None:
        """Change URL, events or the active flag (the tournament stays)."""
        data = serializer.validated_data
        if "tournament" in data and data["tournament"] != serializer.instance.tournament:
            raise ValidationError({"tournament": ["A webhook stays with its tournament."]})
        try:
            webhooks.update_subscription(serializer.instance, url=data.get("url"),
                                         events=data.get("events"), active=data.get("active"))
        except ServiceError as err:
            raise _refused(err) from err

    def perform_destroy(self, instance: WebhookSubscription) -> None:
        """Delete through the service."""
        webhooks.delete_subscription(instance)

    @extend_schema(request=None, responses={200: WebhookSecretSerializer})
    @action(detail=True, methods=["post"], url_path="renew-secret")
    def renew_secret(self, request: Request, pk: str | None = None) -> Response:
        """A new signing secret, answered this once; the old one no longer signs deliveries."""
        subscription = webhooks.renew_secret(self.get_object(), actor=request.user)
        return Response(WebhookSecretSerializer(subscription).data)


class WebhookDeliveryViewSet(KnownQueryMixin, IdempotentMixin, _OrganizersOnly,
                             mixins.ListModelMixin, mixins.RetrieveModelMixin,
                             viewsets.GenericViewSet):
    """Deliveries of the user's webhooks, newest first; ``replay`` sends one again."""

    serializer_class = WebhookDeliverySerializer
    filterset_fields = ["subscription", "status", "event"]

    def get_queryset(self) -> QuerySet[WebhookDelivery]:
        """Deliveries of the tournaments the user manages (may see, for one record)."""
        return WebhookDelivery.objects.filter(
            subscription__tournament__in=self._tournaments()
        ).select_related("subscription__tournament").order_by("-created_at", "-pk")

    @extend_schema(request=None, responses={201: OpenApiResponse(WebhookDeliverySerializer)})
    @action(detail=True, methods=["post"])
    def replay(self, request: Request, pk: str | None = None) -> Response:
        """Send this delivery's payload again as a new delivery (the next sequence number)."""
        replay = webhooks.replay_delivery(self.get_object())
        return Response(WebhookDeliverySerializer(replay).data, status=status.HTTP_201_CREATED)


router = DefaultRouter()
router.register("webhooks", WebhookSubscriptionViewSet, basename="webhook")
router.register("webhook-deliveries", WebhookDeliveryViewSet, basename="webhook-delivery")
urlpatterns = router.urls
