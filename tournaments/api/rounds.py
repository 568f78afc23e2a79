"""API of rounds: creating them, their draws, starting and closing them."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.errors import ServiceError
from scoring.models import Party, Round, Tournament
from scoring.permissions import visible_tournaments
from tournaments import rounds
from tournaments.api.common import REFUSED, published_q, require_manage, valid


class RoundSerializer(serializers.ModelSerializer):
    """A round: its status, the draw's seed and warnings."""

    warnings = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = ["id", "tournament", "number", "status", "seed", "drawn_at",
                  "scheduled_start", "published_at", "finished_at", "warnings"]
        read_only_fields = fields

    def get_warnings(self, rnd: Round) -> list[str]:
        """The draw's warnings, translated."""
        return rnd.warning_texts()


class AwareDateTimeField(serializers.DateTimeField):
    """An ISO 8601 date and time that names its time zone (a bare local time is refused)."""

    default_error_messages = {
        "naive": gettext_lazy(
            "Give the time with its time zone, e.g. 2026-05-01T10:00:00+03:00."
        ),
    }

    def to_internal_value(self, value: Any) -> Any:
        """The moment; a string without a time zone is refused."""
        if isinstance(value, str):
            try:
                parsed = parse_datetime(value.strip())
            except ValueError:
                parsed = None
            if parsed is not None and parsed.tzinfo is None:
                self.fail("naive")
        return super().to_internal_value(value)


class RoundScheduleSerializer(serializers.Serializer):
    """When the round starts."""

    scheduled_start = AwareDateTimeField(
        allow_null=True,
        help_text="ISO 8601 with the time zone; null to clear. The referees' no-show wait "
        "counts from it (the parties' own start otherwise).",
    )


class RoundCreateSerializer(serializers.Serializer):
    """The tournament whose next round to create."""

    tournament = serializers.IntegerField()


class DrawPartySerializer(serializers.ModelSerializer):
    """A party of a draw: table, pairs with their players; a bye has no pair B."""

    table_number = serializers.IntegerField(source="table.number", read_only=True, default=None)
    pair_a_name = serializers.CharField(source="pair_a.display_name", read_only=True)
    pair_b_name = serializers.CharField(
        source="pair_b.display_name", read_only=True, default=None
    )
    players_a = serializers.SerializerMethodField()
    players_b = serializers.SerializerMethodField()
    is_bye = serializers.BooleanField(read_only=True)

    class Meta:
        model = Party
        fields = ["id", "table_number", "pair_a", "pair_b", "pair_a_name", "pair_b_name",
                  "players_a", "players_b", "is_bye", "status", "end_reason", "winner",
                  "version"]

    def get_players_a(self, party: Party) -> list[int]:
        """Player ids of pair A."""
        return [p.pk for p in party.pair_a.players]

    def get_players_b(self, party: Party) -> list[int]:
        """Player ids of pair B (empty for a bye)."""
        return [p.pk for p in party.pair_b.players] if party.pair_b_id else []


class DrawSerializer(serializers.Serializer):
    """A round's draw: the round, its parties by table (byes last) and its warnings."""

    round = RoundSerializer()
    parties = DrawPartySerializer(many=True)


class GenerateDrawSerializer(serializers.Serializer):
    """Options of a generated draw."""

    seed = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        help_text="A recorded seed reproduces a draw by lot; empty for a new one.",
    )


class DrawEditPartySerializer(serializers.Serializer):
    """One party of a hand-made draw: pair ids, or two player ids per side (individual)."""

    table = serializers.IntegerField(min_value=1, help_text="Table number.")
    a = serializers.IntegerField(required=False, help_text="Pair A's id (pairs tournaments).")
    b = serializers.IntegerField(required=False, help_text="Pair B's id (pairs tournaments).")
    players_a = serializers.ListField(
        child=serializers.IntegerField(), min_length=2, max_length=2, required=False,
        help_text="Two player ids (individual tournaments).",
    )
    players_b = serializers.ListField(
        child=serializers.IntegerField(), min_length=2, max_length=2, required=False,
        help_text="Two player ids (individual tournaments).",
    )


class DrawEditSerializer(serializers.Serializer):
    """A whole hand-made draw: every available entrant once, at a table or with a bye."""

    parties = DrawEditPartySerializer(many=True)
    byes = serializers.ListField(
        child=serializers.IntegerField(), required=False, default=list,
        help_text="Pair ids (or player ids in an individual tournament) with a bye.",
    )


class SwapTablesSerializer(serializers.Serializer):
    """Two table numbers whose parties change places (or a move to a free table)."""

    first = serializers.IntegerField(min_value=1)
    second = serializers.IntegerField(min_value=1)


class StartedSerializer(serializers.Serializer):
    """How many parties were started."""

    started = serializers.IntegerField()


def _draw_sides(tournament: Tournament, parties: list[dict[str, Any]]) -> list[tuple]:
    """The service's ``(table, a, b)`` from the request, per the tournament's format."""
    individual = tournament.format == Tournament.Format.INDIVIDUAL
    keys = ("players_a", "players_b") if individual else ("a", "b")
    out = []
    for index, party in enumerate(parties):
        if any(party.get(key) is None for key in keys):
            raise ServiceError(
                "parties",
                _("Party %(index)s needs the fields %(fields)s.")
                % {"index": index + 1, "fields": ", ".join(keys)},
            )
        out.append((party["table"], party[keys[0]], party[keys[1]]))
    return out


class RoundViewSet(
    mixins.CreateModelMixin, mixins.DestroyModelMixin, viewsets.ReadOnlyModelViewSet
):
    """Rounds and their draws: create → generate → preview/edit/swap → publish → start → close.

    Reading needs the tournament to be visible (a draft round only to its organizers);
    every change is for the tournament's organizers.
    """

    serializer_class = RoundSerializer
    filterset_fields = ["tournament", "status"]

    def get_queryset(self) -> QuerySet[Round]:
        """Rounds of visible tournaments; drafts only for their organizers."""
        return (
            Round.objects.filter(tournament__in=visible_tournaments(self.request.user))
            .filter(published_q(self.request.user, ""))
            .select_related("tournament__regulations")
            .order_by("tournament", "number")
        )

    def _managed(self) -> Round:
        """The round of the URL, for an organizer of its tournament."""
        rnd = self.get_object()
        require_manage(self.request, rnd.tournament)
        return rnd

    def _draw(self, rnd: Round) -> Response:
        """The round's draw as :class:`DrawSerializer` (the round read afresh)."""
        rnd = Round.objects.select_related("tournament").get(pk=rnd.pk)
        parties = sorted(
            Party.objects.filter(round=rnd).select_related(
                "table", "pair_a__player1", "pair_a__player2", "pair_b__player1",
                "pair_b__player2",
            ),
            key=lambda p: (p.is_bye, p.table.number if p.table_id else 0, p.pk),
        )
        return Response(DrawSerializer({"round": rnd, "parties": parties}).data)

    @extend_schema(
        request=RoundCreateSerializer,
        responses={201: RoundSerializer, 409: OpenApiResponse(
            description="A concurrent request created the round first."), **REFUSED},
        summary="Create the next round (a draft)",
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Create the tournament's next round; the previous one must be closed."""
        data = valid(RoundCreateSerializer, request.data)
        tournament = visible_tournaments(request.user).filter(pk=data["tournament"]).first()
        if tournament is None:
            raise NotFound
        require_manage(request, tournament)
        rnd = rounds.create_round(tournament.pk, actor=request.user)
        return Response(RoundSerializer(rnd).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=RoundScheduleSerializer,
        responses={200: RoundSerializer, **REFUSED},
        summary="Set the round's scheduled start",
        description="The no-show wait of the referee desk counts from it. Refused (400 naming "
        "`scheduled_start`) once the round or one of its parties has started, or for a time "
        "without its time zone.",
    )
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Set or clear the scheduled start of a round that has not started."""
        rnd = self._managed()
        data = valid(RoundScheduleSerializer, request.data)
        rnd = rounds.schedule_round(rnd.pk, data["scheduled_start"], actor=request.user)
        return Response(RoundSerializer(rnd).data)

    @extend_schema(
        responses={204: None, **REFUSED},
        summary="Delete a draft round (the last one) with its draw",
    )
    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Delete the last round while it is a draft."""
        rounds.delete_round(self._managed().pk, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(methods=["GET"], responses=DrawSerializer, summary="Preview the draw")
    @extend_schema(
        methods=["PUT"],
        request=DrawEditSerializer,
        responses={200: DrawSerializer, **REFUSED},
        summary="Replace a draft round's draw by hand",
        description="Refused only when the draw cannot be played; rematches, repeat "
        "partners, same-club parties and fixed tables not kept come back as warnings.",
    )
    @action(detail=True, methods=["get", "put"])
    def draw(self, request: Request, pk: str | None = None) -> Response:
        """GET: the draw (a draft only for organizers). PUT: replace it by hand."""
        if request.method == "GET":
            return self._draw(self.get_object())
        rnd = self._managed()
        data = valid(DrawEditSerializer, request.data)
        parties = _draw_sides(rnd.tournament, data["parties"])
        rounds.edit_draw(rnd.pk, parties=parties, byes=data["byes"], actor=request.user)
        return self._draw(rnd)

    @extend_schema(
        request=GenerateDrawSerializer,
        responses={200: DrawSerializer, **REFUSED},
        summary="Generate the draw of a draft round",
        description="With the regulations' pairing system; replaces any draw the round had. "
        "Parties are seated in standings order; byes are finished at once.",
    )
    @action(detail=True, methods=["post"])
    def generate(self, request: Request, pk: str | None = None) -> Response:
        """Generate (or generate again) the draw of a draft round."""
        rnd = self._managed()
        data = valid(GenerateDrawSerializer, request.data)
        rounds.generate_draw(rnd.pk, seed=data.get("seed"), actor=request.user)
        return self._draw(rnd)

    @extend_schema(
        request=SwapTablesSerializer,
        responses={200: DrawSerializer, **REFUSED},
        summary="Swap two tables",
    )
    @action(detail=True, methods=["post"])
    def swap(self, request: Request, pk: str | None = None) -> Response:
        """Swap the parties at two tables (or move one to a free table) before they start."""
        rnd = self._managed()
        data = valid(SwapTablesSerializer, request.data)
        rounds.swap_tables(rnd.pk, data["first"], data["second"], actor=request.user)
        return self._draw(rnd)

    @extend_schema(
        request=None, responses={200: RoundSerializer, **REFUSED}, summary="Publish the draw"
    )
    @action(detail=True, methods=["post"])
    def publish(self, request: Request, pk: str | None = None) -> Response:
        """Publish a draft round: players and the public see the draw."""
        rnd = rounds.publish_round(self._managed().pk, actor=request.user)
        return Response(RoundSerializer(rnd).data)

    @extend_schema(
        request=None,
        responses={200: StartedSerializer, **REFUSED},
        summary="Start every party of the round",
    )
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk: str | None = None) -> Response:
        """Start the clock of every party of the published round that has not started."""
        started = rounds.start_round(self._managed().pk, actor=request.user)
        return Response({"started": started})

    @extend_schema(
        request=None, responses={200: RoundSerializer, **REFUSED}, summary="Close the round"
    )
    @action(detail=True, methods=["post"])
    def close(self, request: Request, pk: str | None = None) -> Response:
        """Close a round whose parties are all finished."""
        rnd = rounds.close_round(self._managed().pk, actor=request.user)
        return Response(RoundSerializer(rnd).data)
