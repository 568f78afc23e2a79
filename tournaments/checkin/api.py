"""API of check-in: ``/api/v1/checkin-windows/`` (the organizer opens, moves, closes and
deletes his tournaments' windows) and ``/api/v1/checkins/`` (a player checks in only himself,
the organizer anyone of his tournament; each sees the check-ins he may)."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
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
from scoring.models import CheckIn, CheckInWindow, Pair, Player, Tournament
from tournaments.checkin import services


class CheckInWindowSerializer(serializers.ModelSerializer):
    """A check-in window: its tournament, round, times and state, with its counts."""

    tournament = serializers.PrimaryKeyRelatedField(queryset=Tournament.objects.all())
    is_open = serializers.SerializerMethodField(help_text="Whether entrants may check in now.")
    checked_in = serializers.SerializerMethodField(help_text="Entrants checked in so far.")

    class Meta:
        model = CheckInWindow
        fields = ["id", "tournament", "round_number", "opens_at", "closes_at", "closed",
                  "closed_at", "is_open", "checked_in"]
        read_only_fields = ["closed", "closed_at"]
        validators: list[Any] = []  # one window per round: the service answers on the field

    def get_is_open(self, window: CheckInWindow) -> bool:
        """Whether entrants may check in now."""
        return window.is_open()

    def get_checked_in(self, window: CheckInWindow) -> int:
        """Entrants checked in so far (counted with the list's query)."""
        counted = getattr(window, "checked_in_count", None)
        return window.checkins.count() if counted is None else int(counted)


class HallCheckInSerializer(serializers.ModelSerializer):
    """A check-in: the window, the entrant (``pair``, or ``player`` in an individual event),
    how, when and by whom. A player may leave the entrant out: his own is meant."""

    window = serializers.PrimaryKeyRelatedField(queryset=CheckInWindow.objects.all())
    pair = serializers.PrimaryKeyRelatedField(queryset=Pair.objects.all(), required=False,
                                              allow_null=True)
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(), required=False,
                                                allow_null=True)

    class Meta:
        model = CheckIn
        fields = ["id", "window", "pair", "player", "how", "at", "by"]
        read_only_fields = ["how", "at", "by"]
        validators: list[Any] = []


def _refused(err: ServiceError) -> ValidationError:
    """A service's refusal as the API's 400 ``{field: [message]}``."""
    return ValidationError({err.field: [err.message]})


class CheckInWindowViewSet(KnownQueryMixin, IdempotentMixin, viewsets.ModelViewSet):
    """The check-in windows of the tournaments the user organizes or plays in (writes:
    organizers of the window's tournament)."""

    serializer_class = CheckInWindowSerializer
    permission_classes = [IsAuthenticated]
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]
    filterset_fields = ["tournament"]

    def get_queryset(self) -> QuerySet[CheckInWindow]:
        """Listed: windows of managed tournaments and of those the user plays in; one window:
        of any tournament he may see (a write is then refused with 403, not hidden)."""
        user = self.request.user
        if getattr(self, "swagger_fake_view", False) or not user.is_authenticated:
            return CheckInWindow.objects.none()
        if self.action != "list":
            found = CheckInWindow.objects.filter(
                tournament__in=permissions.visible_tournaments(user))
        else:
            found = CheckInWindow.objects.filter(
                Q(tournament__in=permissions.managed_tournaments(user))
                | Q(tournament__players__user=user)).distinct()
        return (found.select_related("tournament")
                .annotate(checked_in_count=Count("checkins", distinct=True))
                .order_by("tournament_id", "round_number"))

    def _manage(self, tournament: Tournament) -> None:
        """Organizers of the tournament only."""
        if not permissions.can_manage(self.request.user, tournament):
            raise PermissionDenied(_("Only the tournament's organizers manage its check-in."))

    def perform_create(self, serializer: Any) -> None:
        """Open a window through the service."""
        data = serializer.validated_data
        self._manage(data["tournament"])
        try:
            serializer.instance = services.open_window(
                data["tournament"], round_number=data.get("round_number", 1),
                opens_at=data.get("opens_at"), closes_at=data["closes_at"],
                actor=self.request.user)
        except ServiceError as err:
            raise _refused(err) from err

    def perform_update(self, serializer: Any) -> None:
        """Move the window's times (its tournament and round stay)."""
        window = serializer.instance
        self._manage(window.tournament)
        data = serializer.validated_data
        for name in ("tournament", "round_number"):
            if name in data and data[name] != getattr(window, name):
                raise ValidationError({name: [_("A window keeps its tournament and round.")]})
        try:
            serializer.instance = services.change_window(
                window.pk, opens_at=data.get("opens_at"), closes_at=data.get("closes_at"),
                actor=self.request.user)
        except ServiceError as err:
            raise _refused(err) from err

    def perform_destroy(self, instance: CheckInWindow) -> None:
        """Delete a window with its check-ins (its round then draws everyone)."""
        self._manage(instance.tournament)
        instance.delete()

    @extend_schema(request=None, responses={200: CheckInWindowSerializer})
    @action(detail=True, methods=["post"])
    def close(self, request: Request, pk: str | None = None) -> Response:
        """Close the window now (sends ``checkin.closed`` with the counts, once)."""
        window = self.get_object()
        self._manage(window.tournament)
        done = services.close_window(window.pk, actor=request.user)
        return Response(self.get_serializer(done.window).data)


class CheckInViewSet(KnownQueryMixin, IdempotentMixin, mixins.ListModelMixin,
                     mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                     mixins.DestroyModelMixin, viewsets.GenericViewSet):
    """Check-ins: the organizer's tournaments' all, a player's his own."""

    serializer_class = HallCheckInSerializer
    permission_classes = [IsAuthenticated]
    filterset_fields = ["window"]

    def get_queryset(self) -> QuerySet[CheckIn]:
        """Check-ins of managed tournaments, and the user's own entrant's (to take one back:
        any of a tournament he may see, refused with 403 unless he organizes it)."""
        user = self.request.user
        if getattr(self, "swagger_fake_view", False) or not user.is_authenticated:
            return CheckIn.objects.none()
        own = Q(player__user=user) | Q(pair__player1__user=user) | Q(pair__player2__user=user)
        managed = Q(window__tournament__in=permissions.managed_tournaments(user))
        if self.action == "destroy":
            managed = Q(window__tournament__in=permissions.visible_tournaments(user))
        return (CheckIn.objects.filter(managed | own)
                .select_related("window__tournament").order_by("pk"))

    def _entrant(self, window: CheckInWindow, data: dict[str, Any]) -> Pair | Player:
        """The entrant to check in: the one named (organizers: any; a player: his own),
        else the user's own."""
        tournament = window.tournament
        organizer = permissions.can_manage(self.request.user, tournament)
        own = services.own_entrant(tournament,
                                   services.player_of(tournament, self.request.user))
        named = data.get("pair") or data.get("player")
        if not organizer and own is None:
            raise PermissionDenied(_("You do not play in this tournament."))
        if named is None:
            if own is None:
                kind = "player" if services.by_players(tournament) else "pair"
                raise ValidationError({kind: [_("Name the entrant to check in.")]})
            return own
        if not organizer and named != own:
            raise PermissionDenied(_("A player checks in only himself."))
        return named

    def perform_create(self, serializer: Any) -> None:
        """Check in through the service: once (a repeat answers the first record)."""
        data = serializer.validated_data
        window = data["window"]
        if not permissions.can_view(self.request.user, window.tournament):
            raise PermissionDenied
        entrant = self._entrant(window, data)
        how = (CheckIn.How.ORGANIZER
               if permissions.can_manage(self.request.user, window.tournament)
               and entrant != services.own_entrant(
                   window.tournament, services.player_of(window.tournament, self.request.user))
               else CheckIn.How.PHONE)
        try:
            done = services.check_in(window.pk, entrant, how=how, by=self.request.user)
        except ServiceError as err:
            raise _refused(err) from err
        serializer.instance = done.checkin
        self._created = done.created

    @extend_schema(responses={201: HallCheckInSerializer, 200: OpenApiResponse(
        HallCheckInSerializer, description="Already checked in: the first record.")})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Check an entrant in (201), or answer his check-in of before (200)."""
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        self.perform_create(serializer)
        code = status.HTTP_201_CREATED if self._created else status.HTTP_200_OK
        return Response(serializer.data, status=code)

    def perform_destroy(self, instance: CheckIn) -> None:
        """Take a check-in back (organizers of its tournament only)."""
        if not permissions.can_manage(self.request.user, instance.window.tournament):
            raise PermissionDenied(_("Only the tournament's organizers take a check-in back."))
        try:
            services.undo_check_in(instance.pk, actor=self.request.user)
        except ServiceError as err:
            raise _refused(err) from err


router = DefaultRouter()
router.register("checkin-windows", CheckInWindowViewSet, basename="checkin-window")
router.register("checkins", CheckInViewSet, basename="checkin")
