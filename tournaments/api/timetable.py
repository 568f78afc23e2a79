"""API of the schedule: the public calendar, the timetable's items (organizers change them) and
a tournament's timetable (its rounds' planned starts and its items, in time order)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import SAFE_METHODS, AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from referee.serializers.inputs import AwareDateTimeField
from scoring.access.idempotency import IdempotentMixin
from scoring.access.permissions import visible_tournaments
from scoring.access.query import FormatFilterNegotiation, KnownQueryMixin
from scoring.models import TimetableItem, Tournament
from scoring.models.tournament import registered_rule_sets
from tournaments.api.common import require_manage, updated_record
from tournaments.api.entrants import MEMBER_REFUSED
from tournaments.schedule import services
from tournaments.schedule.calendar import FILTERS, WHEN, calendar_rows
from tournaments.timetable import timetable


class TimetableItemSerializer(serializers.ModelSerializer):
    """An item of a tournament's timetable: the hall's opening, a break, the prize-giving…"""

    starts_at = AwareDateTimeField(help_text="ISO 8601 with the time zone.")
    ends_at = AwareDateTimeField(required=False, allow_null=True,
                                 help_text="Optional; not before `starts_at`.")
    class Meta:
        model = TimetableItem
        fields = ["id", "tournament", "kind", "title", "label", "starts_at", "ends_at"]


class TimetableItemUpdateSerializer(TimetableItemSerializer):
    """An item as changed: its tournament stays."""

    class Meta(TimetableItemSerializer.Meta):
        read_only_fields = ["tournament"]


class RoundScheduleSerializer(serializers.Serializer):
    """When the round starts."""

    starts_at = AwareDateTimeField(
        allow_null=True,
        help_text="ISO 8601 with the time zone; null to clear. The planned start (the "
        "timetable); the referees' no-show wait counts from the round's actual start.",
    )
    shift_later = serializers.BooleanField(
        default=False,
        help_text="Move every later round not started yet and every timetable item from the "
        "old start on by as much as this round's start moves.",
    )


class TimetableEntrySerializer(serializers.Serializer):
    """One line of a tournament's timetable: a round's planned start or an item."""

    kind = serializers.CharField(help_text="`round`, or the item's kind.")
    label = serializers.CharField(  # type: ignore[assignment]  # a field, not Field.label
        help_text="`Round 3`, or the item's title (translated).")
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(allow_null=True)
    round_number = serializers.IntegerField(allow_null=True)
    item_id = serializers.IntegerField(allow_null=True)
    started = serializers.BooleanField(help_text="A round that has started or finished.")


class TimetableSerializer(serializers.Serializer):
    """A tournament's timetable: its zone and its lines in time order."""

    tournament = serializers.IntegerField()
    time_zone = serializers.CharField(help_text="The tournament's zone (the hall's clock).")
    lines = TimetableEntrySerializer(many=True)


class CalendarSerializer(serializers.ModelSerializer):
    """A tournament as the calendar lists it."""

    rounds = serializers.IntegerField(source="rounds_count", help_text="Its rounds so far.")
    url = serializers.CharField(source="get_absolute_url", help_text="Its public page.")

    class Meta:
        model = Tournament
        fields = ["id", "name", "slug", "status", "start_date", "end_date", "city", "venue",
                  "rule_set", "format", "time_zone", "rounds", "url"]


CALENDAR_FILTERS = [
    OpenApiParameter("when", str, enum=list(WHEN),
                     description="Upcoming (registration), running or finished."),
    OpenApiParameter("city", str, description="The city, exactly as the calendar lists it."),
    OpenApiParameter("rule_set", str, enum=[code for code, _name in registered_rule_sets()],
                     description="The game."),
    OpenApiParameter("format", str, enum=list(Tournament.Format.values),
                     description="Pairs, individual or team tournaments."),
    OpenApiParameter("season", str, description="A public season's short name."),
]


@extend_schema_view(list=extend_schema(
    parameters=CALENDAR_FILTERS, summary="The calendar of public tournaments",
    description="Public tournaments only (whoever asks), soonest first, with the calendar "
    "page's filters."))
class CalendarViewSet(KnownQueryMixin, mixins.ListModelMixin, viewsets.GenericViewSet):
    """The public calendar: the tournaments an anonymous visitor may see, filtered."""

    serializer_class = CalendarSerializer
    permission_classes = [AllowAny]
    filter_backends: list[Any] = []
    content_negotiation_class = FormatFilterNegotiation  # ``?format=pairs`` is the filter's

    def get_queryset(self) -> Any:
        """The calendar's rows with the GET filters (the page's)."""
        params = self.request.query_params
        return calendar_rows({name: params.get(name, "") for name in FILTERS})


@extend_schema_view(
    list=extend_schema(summary="Timetable items of the tournaments the caller sees"),
    create=extend_schema(responses={201: TimetableItemSerializer, **MEMBER_REFUSED},
                         summary="Add an item to a timetable (its organizers)"),
    update=extend_schema(request=TimetableItemUpdateSerializer,
                         responses={200: TimetableItemSerializer, **MEMBER_REFUSED},
                         summary="Change an item (its tournament's organizers)"),
    partial_update=extend_schema(request=TimetableItemUpdateSerializer,
                                 responses={200: TimetableItemSerializer, **MEMBER_REFUSED},
                                 summary="Change part of an item"),
    destroy=extend_schema(responses={204: None, **MEMBER_REFUSED}, summary="Delete an item"),
)
class TimetableItemViewSet(
    KnownQueryMixin, IdempotentMixin, mixins.CreateModelMixin, mixins.UpdateModelMixin,
    mixins.DestroyModelMixin, viewsets.ReadOnlyModelViewSet,
):
    """Items of visible tournaments' timetables; their organizers add, change, delete them."""

    serializer_class = TimetableItemSerializer
    filterset_fields = ["tournament"]

    def get_serializer_class(self) -> type[serializers.BaseSerializer]:
        """A change keeps the item's tournament."""
        if self.request is not None and self.request.method in ("PUT", "PATCH"):
            return TimetableItemUpdateSerializer
        return TimetableItemSerializer

    def get_queryset(self) -> QuerySet[TimetableItem]:
        """Items of the tournaments the caller may see."""
        return TimetableItem.objects.filter(
            tournament__in=visible_tournaments(self.request.user)).order_by("starts_at", "id")

    def get_object(self) -> TimetableItem:
        """The item of the URL; a change only by its tournament's organizers (403)."""
        item = super().get_object()
        if self.request.method not in SAFE_METHODS:
            require_manage(self.request, item.tournament)
        return item

    def perform_create(self, serializer: serializers.BaseSerializer) -> None:
        """Add through the service, for an organizer of the item's tournament."""
        data = dict(serializer.validated_data)
        tournament = data.pop("tournament")
        require_manage(self.request, tournament)
        serializer.instance = services.create_item(tournament, actor=self.request.user, **data)

    def perform_update(self, serializer: serializers.BaseSerializer) -> None:
        """Change through the service."""
        serializer.instance = services.update_item(
            updated_record(serializer).pk, actor=self.request.user, **serializer.validated_data)

    def perform_destroy(self, instance: TimetableItem) -> None:
        """Delete through the service."""
        services.delete_item(instance.pk, actor=self.request.user)


class TimetableMixin:
    """The tournament's ``timetable/`` action (read)."""

    @extend_schema(responses=TimetableSerializer, summary="The tournament's timetable",
                   description="Its rounds' planned starts and its items, in time order "
                   "(the iCalendar feed of the same: `/t/{slug}/timetable.ics`).")
    @action(detail=True, methods=["get"], pagination_class=None)
    def timetable(self, request: Request, pk: str | None = None) -> Response:
        """The rounds' planned starts and the items, in time order."""
        tournament = self.get_object()  # type: ignore[attr-defined]
        return Response(TimetableSerializer({
            "tournament": tournament.pk, "time_zone": tournament.time_zone,
            "lines": timetable(tournament)}).data)
