"""API of rounds: creating them, their draws, starting and closing them."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from referee.serializers.outputs import PairsSerializer, WhoField
from referee.sides import pairs_of
from scoring.access.idempotency import IdempotentMixin
from scoring.access.permissions import can_see_public_page, visible_tournaments
from scoring.access.query import KnownQueryMixin
from scoring.core.errors import ServiceError
from scoring.models import Pair, Party, Round, Tournament
from scoring.rules import SEATS
from tournaments.api.common import REFUSED, published_q, require_manage, valid
from tournaments.api.timetable import RoundScheduleSerializer
from tournaments.rounds import draw_services
from tournaments.rounds import services as rounds
from tournaments.schedule.services import move_round_start


class RoundSerializer(serializers.ModelSerializer):
    """A round: its status, the draw's seed and warnings."""

    warnings = serializers.SerializerMethodField()
    starts_at = serializers.DateTimeField(
        source="scheduled_start", read_only=True, allow_null=True,
        help_text="When the round is planned to start (the timetable; the no-show wait counts "
        "from the actual start: the party's clock, else its round's first party's).",
    )

    class Meta:
        model = Round
        fields = ["id", "tournament", "number", "status", "seed", "drawn_at",
                  "starts_at", "published_at", "finished_at", "warnings"]
        read_only_fields = fields

    def get_warnings(self, rnd: Round) -> list[str]:
        """The draw's warnings, translated."""
        return rnd.warning_texts()


class RoundMovedSerializer(RoundSerializer):
    """The round, and what moved with its start."""

    moved_rounds = serializers.ListField(
        child=serializers.IntegerField(), read_only=True,
        help_text="The numbers of the later rounds moved with it.")
    moved_items = serializers.ListField(
        child=serializers.IntegerField(), read_only=True,
        help_text="The ids of the timetable items moved with it.")

    class Meta(RoundSerializer.Meta):
        fields = [*RoundSerializer.Meta.fields, "moved_rounds", "moved_items"]
        read_only_fields = fields


class RoundCreateSerializer(serializers.Serializer):
    """The tournament whose next round to create."""

    tournament = serializers.IntegerField()


SEAT_IDS = serializers.DictField(
    child=serializers.IntegerField(),
    help_text='The player id at each seat: {"a1": 11, "b1": 13, "a2": 12, "b2": 14} (a1 and a2 '
    "are side a; a singles party has a1 and b1 only).",
)


class DrawPartySerializer(serializers.ModelSerializer):
    """A party of a draw: its table, the player at each seat, both sides (b null for a bye).

    ``table_number`` and ``seats`` are the shape a hand-made draw takes (``PUT …/draw/``) in
    every format, so a draw read can be edited and sent back.
    """

    table = serializers.IntegerField(source="table_id", read_only=True, allow_null=True)
    table_number = serializers.IntegerField(source="table.number", read_only=True, default=None)
    seats = serializers.SerializerMethodField()
    pairs = serializers.SerializerMethodField()
    is_bye = serializers.BooleanField(read_only=True)
    winner = WhoField()

    class Meta:
        model = Party
        fields = ["id", "table", "table_number", "seats", "pairs", "is_bye", "status",
                  "end_reason", "winner", "version"]

    @extend_schema_field(SEAT_IDS)
    def get_seats(self, party: Party) -> dict[str, int]:
        """The player id at each seat taken."""
        return {seat: player.pk for seat, player in party.seat_players().items()}

    @extend_schema_field(PairsSerializer)
    def get_pairs(self, party: Party) -> dict[str, Any]:
        """Both sides with their seated players (``b`` is null for a bye)."""
        return pairs_of(party)


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
    """One party of a hand-made draw, the same in every format: its table and who sits where."""

    table_number = serializers.IntegerField(min_value=1, help_text="The table's number.")
    seats = serializers.DictField(
        child=serializers.IntegerField(),
        help_text='The player id at each seat, e.g. {"a1": 11, "a2": 12, "b1": 13, "b2": 14}. '
        "In a pairs tournament the two players of a side must be a registered pair (a singles "
        "side: a1 or b1 alone); in an individual one they form the side's pair for the round.",
    )

    def validate_seats(self, seats: dict[str, int]) -> dict[str, int]:
        """Seats of the table only (a1, b1, a2, b2), each side seated."""
        unknown = sorted(set(seats) - set(SEATS))
        if unknown:
            raise serializers.ValidationError(
                _("No such seat: %(seats)s (the seats are a1, b1, a2, b2).")
                % {"seats": ", ".join(unknown)}
            )
        if "a1" not in seats or "b1" not in seats:
            raise serializers.ValidationError(_("Seat both sides: a1 and b1 at least."))
        return seats


class DrawEditSerializer(serializers.Serializer):
    """A whole hand-made draw: every available entrant once, at a table or with a bye."""

    parties = DrawEditPartySerializer(many=True)
    byes = serializers.ListField(
        child=serializers.IntegerField(), required=False, default=list,
        help_text="Player ids with a bye (in a pairs tournament, a player names his pair).",
    )


class SwapTablesSerializer(serializers.Serializer):
    """Two table numbers whose parties change places (or a move to a free table)."""

    first = serializers.IntegerField(min_value=1)
    second = serializers.IntegerField(min_value=1)


class StartedSerializer(serializers.Serializer):
    """How many parties were started."""

    started = serializers.IntegerField()


def _draw_sides(
    tournament: Tournament, parties: list[dict[str, Any]], byes: list[int]
) -> tuple[list[tuple], list[int]]:
    """The service's ``(table, a, b)`` and byes from the request's seats, per the format.

    An individual tournament takes the players of each side (seat 1, then seat 2); a pairs
    tournament the registered pair those players make.
    """

    def side(seats: dict[str, int], key: str) -> tuple[int, ...]:
        return tuple(seats[s] for s in (f"{key}1", f"{key}2") if s in seats)

    if tournament.format == Tournament.Format.INDIVIDUAL:
        return [
            (p["table_number"], side(p["seats"], "a"), side(p["seats"], "b")) for p in parties
        ], byes
    pair_of: dict[frozenset[int], int] = {}
    player_pair: dict[int, int] = {}
    for pair in Pair.objects.filter(tournament=tournament, formed_in_round__isnull=True):
        players = [pid for pid in (pair.player1_id, pair.player2_id) if pid is not None]
        pair_of[frozenset(players)] = pair.pk
        player_pair.update(dict.fromkeys(players, pair.pk))
    out = []
    for index, party in enumerate(parties):
        found = []
        for key in ("a", "b"):
            seated = frozenset(side(party["seats"], key))
            if seated not in pair_of:
                raise ServiceError(
                    "parties",
                    _("Party %(index)s: the players at side %(side)s are not a registered "
                      "pair.") % {"index": index + 1, "side": key},
                )
            found.append(pair_of[seated])
        out.append((party["table_number"], *found))
    unknown = [pid for pid in byes if pid not in player_pair]
    if unknown:
        raise ServiceError(
            "byes", _("Not a player of a registered pair: %(ids)s.")
            % {"ids": ", ".join(map(str, unknown))},
        )
    return out, list(dict.fromkeys(player_pair[pid] for pid in byes))


class RoundViewSet(
    KnownQueryMixin,
    IdempotentMixin,
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
            key=lambda p: (p.is_bye, p.table.number if p.table is not None else 0, p.pk),
        )
        return Response(DrawSerializer({"round": rnd, "parties": parties}).data)

    @extend_schema(
        request=RoundCreateSerializer,
        responses={201: RoundSerializer, 409: OpenApiResponse(
            OpenApiTypes.OBJECT,
            description="A concurrent request created the round first: {field: [message]}."),
            **REFUSED},
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
        responses={200: RoundMovedSerializer, **REFUSED},
        summary="Set the round's planned start (and move the later ones)",
        description="The timetable's start of the round; with `shift_later` every later round "
        "not started yet and every timetable item from the old start on move by as much "
        "(`moved_rounds`, `moved_items`). The no-show wait of the referee desk counts from the "
        "round's actual start, not this one. Refused (400 naming `starts_at`) once the round "
        "or one of its parties has started, or for a time without its time zone.",
    )
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Set or clear the planned start of a round that has not started."""
        rnd = self._managed()
        data = valid(RoundScheduleSerializer, request.data)
        shift = move_round_start(rnd.pk, data["starts_at"], shift_later=data["shift_later"],
                                 actor=request.user)
        answer = RoundSerializer(shift.round).data
        answer["moved_rounds"] = [later.number for later in shift.rounds]
        answer["moved_items"] = [item.pk for item in shift.items]
        return Response(answer)

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
            rnd = self.get_object()
            if not can_see_public_page(request.user, rnd.tournament, "draw"):
                raise NotFound
            return self._draw(rnd)
        rnd = self._managed()
        data = valid(DrawEditSerializer, request.data)
        parties, byes = _draw_sides(rnd.tournament, data["parties"], data["byes"])
        draw_services.edit_draw(rnd.pk, parties=parties, byes=byes, actor=request.user)
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
        draw_services.generate_draw(rnd.pk, seed=data.get("seed"), actor=request.user)
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
        draw_services.swap_tables(rnd.pk, data["first"], data["second"], actor=request.user)
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
