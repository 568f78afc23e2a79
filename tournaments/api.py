"""API of tournaments: tournaments, standings, players, pairs, tables, rounds, draws, parties."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.routers import DefaultRouter

from scoring import permissions
from scoring.errors import ServiceError
from scoring.models import (
    Deal,
    Pair,
    Party,
    Penalty,
    Player,
    Regulations,
    Round,
    Ruling,
    Table,
    Tournament,
)
from scoring.permissions import managed_tournaments, visible_tournaments
from scoring.results import StandingsTable, standings_table
from scoring.standings import METRICS
from scoring.totals import party_totals
from tournaments import rounds
from tournaments.forms import RegulationsForm, TournamentForm
from tournaments.services import (
    add_table,
    create_tournament,
    register_pair,
    register_player,
    remove_member,
    update_member,
    update_regulations,
    update_tournament,
    withdraw_pair,
    withdraw_player,
)

REFUSED = {
    400: OpenApiResponse(
        OpenApiTypes.OBJECT,
        description="Refused by the regulations or the round's state: {field: [message]}.",
    ),
    403: OpenApiResponse(description="Only the tournament's organizers may do this."),
    404: OpenApiResponse(description="No such round, or not visible to the user."),
}
"""The refusals every changing round endpoint documents."""


def _published_q(user: Any, prefix: str, nullable: bool = False) -> Q:
    """Rows of published rounds, or of any round of a tournament the user organizes."""
    if getattr(user, "is_superuser", False):
        return Q()
    q = ~Q(**{f"{prefix}status": Round.Status.DRAFT}) | Q(
        **{f"{prefix}tournament__in": managed_tournaments(user)}
    )
    if nullable:
        q |= Q(**{f"{prefix[:-2]}__isnull": True})
    return q


def _require_manage(request: Request, tournament: Tournament) -> None:
    """Only the tournament's organizers change its rounds and entrants (403 otherwise)."""
    if not permissions.can_manage(request.user, tournament):
        raise PermissionDenied


def _valid(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    """Validated request data (400 with the field errors otherwise)."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class StandingLineSerializer(serializers.Serializer):
    """One line of the standings."""

    rank = serializers.IntegerField()
    shared = serializers.BooleanField(help_text="The rank is shared with another entrant.")
    entrant = serializers.IntegerField(help_text="A pair id, or a player id when per player.")
    name = serializers.CharField()
    withdrawn = serializers.BooleanField()
    disqualified = serializers.BooleanField()
    metrics = serializers.DictField(
        child=serializers.FloatField(), help_text="Every metric's value by its key."
    )


class StandingsSerializer(serializers.Serializer):
    """The standings of a tournament after a round."""

    tournament = serializers.IntegerField()
    per_player = serializers.BooleanField()
    after_round = serializers.IntegerField(allow_null=True)
    order = serializers.ListField(
        child=serializers.CharField(), help_text="Metric keys in the regulations' order."
    )
    lines = StandingLineSerializer(many=True)


def standings_data(table: StandingsTable, tournament: Tournament) -> dict[str, Any]:
    """The standings table as the API returns it."""
    lines = []
    for row, entrant, _values in table.lines():
        name = entrant.name if table.per_player else entrant.display_name
        lines.append(
            {
                "rank": row.rank,
                "shared": row.shared,
                "entrant": row.entrant,
                "name": name,
                "withdrawn": entrant.withdrawn,
                "disqualified": entrant.disqualified,
                "metrics": row.metrics,
            }
        )
    return {
        "tournament": tournament.pk,
        "per_player": table.per_player,
        "after_round": table.after_round,
        "order": list(table.order),
        "lines": lines,
    }


class TournamentSerializer(serializers.ModelSerializer):
    """A tournament's own fields (the same ones its edit page has).

    A new tournament's regulations start from its rule set's preset; ``players`` and
    ``kozel_pairs`` change it where the rule set lets them vary.
    """

    players = serializers.IntegerField(
        min_value=2,
        max_value=4,
        required=False,
        allow_null=True,
        write_only=True,
        help_text="Players at a table (2–4) where the rule set lets them vary (draw, block, "
        "classic, Kozel); empty for the rule set's own number.",
    )
    kozel_pairs = serializers.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        write_only=True,
        help_text="Kozel: four play as two pairs.",
    )
    singles = serializers.SerializerMethodField(
        help_text="Whether a side is one player (a pair is then registered with player2 null)."
    )

    class Meta:
        model = Tournament
        fields = ["id", *TournamentForm.Meta.fields, "players", "kozel_pairs", "singles"]

    def get_singles(self, tournament: Tournament) -> bool:
        """Whether a side is one player in this tournament's rule set."""
        try:
            return tournament.singles
        except Regulations.DoesNotExist:
            return False


class RegulationsSerializer(serializers.ModelSerializer):
    """Every rule setting of a tournament, the game settings of every rule set included."""

    standings_order = serializers.ListField(
        child=serializers.ChoiceField(choices=list(METRICS)),
        required=False,
        help_text="Metric keys in order; empty for the default order.",
    )

    class Meta:
        model = Regulations
        fields = RegulationsForm.Meta.fields


class _MemberSerializer(serializers.ModelSerializer):
    """A player, pair or table: its tournament is chosen when it is created, never changed."""

    def get_fields(self) -> dict[str, serializers.Field]:
        """The tournament: one the user may see, and read-only once created."""
        fields = super().get_fields()
        request = self.context.get("request")
        field = fields["tournament"]
        if self.instance is not None:
            fields["tournament"] = serializers.PrimaryKeyRelatedField(read_only=True)
        elif request is not None and not field.read_only:
            field.queryset = visible_tournaments(request.user)
        return fields

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """A fixed table must be one of the tournament's own tables."""
        tournament = attrs.get("tournament") or getattr(self.instance, "tournament", None)
        table = attrs.get("fixed_table")
        if table is not None and tournament is not None and table.tournament_id != tournament.pk:
            raise ValidationError({"fixed_table": [_("No such table in this tournament.")]})
        return attrs


class PlayerSerializer(_MemberSerializer):
    """A registered player."""

    class Meta:
        model = Player
        fields = ["id", "tournament", "name", "club", "city", "rating", "fixed_table",
                  "withdrawn", "disqualified"]
        read_only_fields = ["withdrawn", "disqualified"]


class PairSerializer(_MemberSerializer):
    """A registered pair; in singles a side of one player (``player2`` null)."""

    display_name = serializers.CharField(read_only=True)

    class Meta:
        model = Pair
        fields = ["id", "tournament", "name", "display_name", "player1", "player2", "rating",
                  "fixed_table", "formed_in_round", "withdrawn", "disqualified"]
        read_only_fields = ["formed_in_round", "withdrawn", "disqualified"]


class TableSerializer(_MemberSerializer):
    """A numbered table."""

    class Meta:
        model = Table
        fields = ["id", "tournament", "number", "label"]
        validators: list[Any] = []  # the service names a taken number in the "number" field


class PartySerializer(serializers.ModelSerializer):
    """A party with its derived totals."""

    totals = serializers.SerializerMethodField()
    round_number = serializers.IntegerField(source="round.number", read_only=True)
    table_number = serializers.IntegerField(source="table.number", read_only=True, default=None)

    class Meta:
        model = Party
        fields = ["id", "round", "round_number", "table", "table_number", "pair_a", "pair_b",
                  "status", "started_at", "time_expired_at", "finished_at", "end_reason",
                  "winner", "version", "totals"]

    def get_totals(self, party: Party) -> dict[str, int]:
        """Points per side, derived from deals and fines."""
        return party_totals(party).points


@extend_schema_view(
    create=extend_schema(
        responses={201: TournamentSerializer, **REFUSED},
        summary="Create a tournament (its creator becomes its organizer)",
    ),
    update=extend_schema(responses={200: TournamentSerializer, **REFUSED}),
    partial_update=extend_schema(responses={200: TournamentSerializer, **REFUSED}),
)
class TournamentViewSet(
    mixins.CreateModelMixin, mixins.UpdateModelMixin, viewsets.ReadOnlyModelViewSet
):
    """Tournaments the user may see; organizers create them and change their own."""

    serializer_class = TournamentSerializer
    filterset_fields = ["status", "format", "rule_set"]

    def get_queryset(self) -> QuerySet[Tournament]:
        """Visible tournaments (with their regulations: whether sides are single players)."""
        return (
            visible_tournaments(self.request.user)
            .select_related("regulations")
            .order_by("-start_date", "id")
        )

    def get_object(self) -> Tournament:
        """The tournament of the URL; a change only by its organizers (403 otherwise)."""
        tournament = super().get_object()
        if self.request.method not in SAFE_METHODS:
            _require_manage(self.request, tournament)
        return tournament

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Create a tournament with its rule set's preset; the creator becomes its organizer."""
        if not permissions.can_create_tournament(request.user):
            raise PermissionDenied
        return super().create(request, *args, **kwargs)

    def perform_create(self, serializer: serializers.BaseSerializer) -> None:
        """Create through the service."""
        serializer.instance = create_tournament(
            organizer=self.request.user, **serializer.validated_data
        )

    def perform_update(self, serializer: serializers.BaseSerializer) -> None:
        """Change through the service."""
        serializer.instance = update_tournament(
            serializer.instance.pk, actor=self.request.user, **serializer.validated_data
        )

    @extend_schema(methods=["GET"], responses=RegulationsSerializer, summary="Regulations")
    @extend_schema(
        methods=["PUT", "PATCH"],
        request=RegulationsSerializer,
        responses={200: RegulationsSerializer, **REFUSED},
        summary="Change the regulations (organizers)",
        description="Settings that contradict each other are refused with 400 naming the field.",
    )
    @action(detail=True, methods=["get", "put", "patch"])
    def regulations(self, request: Request, pk: str | None = None) -> Response:
        """GET: every rule setting. PUT/PATCH: change them (the tournament's organizers)."""
        tournament = self.get_object()
        found, _created = Regulations.objects.get_or_create(tournament=tournament)
        if request.method == "GET":
            return Response(RegulationsSerializer(found).data)
        serializer = RegulationsSerializer(
            found, data=request.data, partial=request.method == "PATCH"
        )
        serializer.is_valid(raise_exception=True)
        found = update_regulations(
            tournament.pk, actor=request.user, **serializer.validated_data
        )
        return Response(RegulationsSerializer(found).data)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "after_round", int, description="Count only the rounds up to this one."
            ),
            OpenApiParameter(
                "by",
                str,
                enum=["pair", "player"],
                description="Rank pairs or players (individual tournaments always rank "
                "players).",
            ),
        ],
        responses=StandingsSerializer,
        summary="Standings",
    )
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """The standings after any round, in the regulations' order; equal entrants share."""
        tournament = self.get_object()
        after = request.query_params.get("after_round")
        try:
            after_round = int(after) if after else None
        except ValueError as exc:
            raise ValidationError({"after_round": ["A round number."]}) from exc
        per_player = (
            tournament.format == Tournament.Format.INDIVIDUAL
            or request.query_params.get("by") == "player"
        )
        table = standings_table(tournament, per_player=per_player, after_round=after_round)
        return Response(standings_data(table, tournament))


MEMBER_REFUSED = {
    **REFUSED,
    403: OpenApiResponse(description="Only the tournament's organizers may do this."),
    404: OpenApiResponse(description="Not found, or not visible to the user."),
}
"""The refusals of creating, changing and deleting players, pairs and tables."""


class _TournamentChild(
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.ReadOnlyModelViewSet,
):
    """Members (players, pairs, tables) of visible tournaments; organizers change them."""

    filterset_fields = ["tournament"]
    register: Any
    """The service that adds a member: ``register(tournament, **fields)``."""

    def get_queryset(self) -> QuerySet:
        """Rows of visible tournaments."""
        model = self.serializer_class.Meta.model
        return model.objects.filter(
            tournament__in=visible_tournaments(self.request.user)
        ).order_by("id")

    def get_object(self) -> Any:
        """The member of the URL; a change only by its tournament's organizers (403)."""
        member = super().get_object()
        if self.request.method not in SAFE_METHODS:
            _require_manage(self.request, member.tournament)
        return member

    def perform_create(self, serializer: serializers.BaseSerializer) -> None:
        """Add the member through the service, for an organizer of its tournament."""
        data = dict(serializer.validated_data)
        tournament = data.pop("tournament")
        _require_manage(self.request, tournament)
        serializer.instance = type(self).register(tournament, **data)

    def perform_update(self, serializer: serializers.BaseSerializer) -> None:
        """Change the member through the service."""
        serializer.instance = update_member(
            serializer.instance, actor=self.request.user, **serializer.validated_data
        )

    def perform_destroy(self, instance: Any) -> None:
        """Delete the member unless a pair or a draw refers to it."""
        remove_member(instance, actor=self.request.user)


def _member_schema(serializer_class: type[serializers.Serializer], **more: Any) -> Any:
    """The documented answers of a member viewset's changing operations."""
    return extend_schema_view(
        **more,
        create=extend_schema(responses={201: serializer_class, **MEMBER_REFUSED}),
        update=extend_schema(responses={200: serializer_class, **MEMBER_REFUSED}),
        partial_update=extend_schema(responses={200: serializer_class, **MEMBER_REFUSED}),
        destroy=extend_schema(responses={204: None, **MEMBER_REFUSED}),
    )


class WithdrawSerializer(serializers.Serializer):
    """Withdraw from later draws (true) or take part again (false)."""

    withdrawn = serializers.BooleanField(default=True)


class _WithdrawMixin:
    """The ``withdraw`` action of pairs and players (organizers only)."""

    withdraw_service: Any

    @extend_schema(
        request=WithdrawSerializer,
        summary="Withdraw from later draws or reinstate",
        description="Results already played stay as they are. Organizers only.",
    )
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk: str | None = None) -> Response:
        """Withdraw the pair or player from later draws, or reinstate it."""
        entrant = self.get_object()
        _require_manage(request, entrant.tournament)
        data = _valid(WithdrawSerializer, request.data)
        type(self).withdraw_service(entrant.pk, withdrawn=data["withdrawn"], actor=request.user)
        entrant.refresh_from_db()
        return Response(self.get_serializer(entrant).data)


@_member_schema(
    PlayerSerializer, withdraw=extend_schema(responses={200: PlayerSerializer, **REFUSED})
)
class PlayerViewSet(_WithdrawMixin, _TournamentChild):
    """Players."""

    serializer_class = PlayerSerializer
    withdraw_service = staticmethod(withdraw_player)
    register = staticmethod(register_player)


@_member_schema(
    PairSerializer, withdraw=extend_schema(responses={200: PairSerializer, **REFUSED})
)
class PairViewSet(_WithdrawMixin, _TournamentChild):
    """Pairs (in individual tournaments also the pairs each round's draw formed)."""

    serializer_class = PairSerializer
    filterset_fields = ["tournament", "formed_in_round"]
    withdraw_service = staticmethod(withdraw_pair)
    register = staticmethod(register_pair)

    def get_queryset(self) -> QuerySet[Pair]:
        """Pairs with their players; pairs of a draft draw only for its organizers."""
        return (
            super()
            .get_queryset()
            .filter(_published_q(self.request.user, "formed_in_round__", nullable=True))
            .select_related("player1", "player2")
        )


@_member_schema(TableSerializer)
class TableViewSet(_TournamentChild):
    """Tables."""

    serializer_class = TableSerializer
    register = staticmethod(add_table)


class PartyViewSet(viewsets.ReadOnlyModelViewSet):
    """Parties of visible tournaments."""

    serializer_class = PartySerializer
    filterset_fields = ["round", "status", "table"]

    def get_queryset(self) -> QuerySet[Party]:
        """Parties with what their totals need; parties of a draft draw only for organizers."""
        return (
            Party.objects.filter(round__tournament__in=visible_tournaments(self.request.user))
            .filter(_published_q(self.request.user, "round__"))
            .select_related("round__tournament__regulations", "table")
            .prefetch_related("deals", "penalties")
            .order_by("id")
        )


class DealRecordSerializer(serializers.ModelSerializer):
    """A recorded deal, as the protocol shows it."""

    outcome = serializers.CharField(read_only=True)
    winner = serializers.CharField(read_only=True)

    class Meta:
        model = Deal
        fields = ["id", "party", "number", "outcome", "winner", "points_a", "points_b",
                  "went_out", "pips", "tiles", "note", "recorded_at", "updated_at"]


class PenaltyRecordSerializer(serializers.ModelSerializer):
    """A warning, fine or disqualification given in a party."""

    kind = serializers.CharField(read_only=True)
    category = serializers.CharField(read_only=True)
    side = serializers.CharField(read_only=True)
    mode = serializers.CharField(read_only=True)

    class Meta:
        model = Penalty
        fields = ["id", "party", "kind", "category", "side", "player", "points", "mode",
                  "deal_number", "escalated_from", "cancelled", "reason", "created_at"]


class RulingRecordSerializer(serializers.ModelSerializer):
    """A referee's ruling in a party (out of turn, false pass, touched tile, no-show, …)."""

    kind = serializers.CharField(read_only=True)
    side = serializers.CharField(read_only=True)
    choice = serializers.CharField(read_only=True)

    class Meta:
        model = Ruling
        fields = ["id", "party", "kind", "side", "seat", "player", "choice", "deal_number",
                  "deal", "penalty", "details", "reason", "created_at"]


class _PartyRecordViewSet(viewsets.ReadOnlyModelViewSet):
    """Read access to the records of parties the user may see (writes go through the desk)."""

    filterset_fields = ["party"]

    def get_queryset(self) -> QuerySet:
        """Records of visible parties; those of a draft draw only for its organizers."""
        model = self.serializer_class.Meta.model
        return (
            model.objects.filter(
                party__round__tournament__in=visible_tournaments(self.request.user)
            )
            .filter(_published_q(self.request.user, "party__round__"))
            .order_by("party_id", "id")
        )


class DealViewSet(_PartyRecordViewSet):
    """Deals of visible parties."""

    serializer_class = DealRecordSerializer


class PenaltyViewSet(_PartyRecordViewSet):
    """Warnings, fines and disqualifications of visible parties."""

    serializer_class = PenaltyRecordSerializer


class RulingViewSet(_PartyRecordViewSet):
    """Rulings of visible parties."""

    serializer_class = RulingRecordSerializer


class RoundSerializer(serializers.ModelSerializer):
    """A round: its status, the draw's seed and warnings."""

    warnings = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = ["id", "tournament", "number", "status", "seed", "drawn_at", "published_at",
                  "finished_at", "warnings"]
        read_only_fields = fields

    def get_warnings(self, rnd: Round) -> list[str]:
        """The draw's warnings, translated."""
        return rnd.warning_texts()


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
            .filter(_published_q(self.request.user, ""))
            .select_related("tournament__regulations")
            .order_by("tournament", "number")
        )

    def _managed(self) -> Round:
        """The round of the URL, for an organizer of its tournament."""
        rnd = self.get_object()
        _require_manage(self.request, rnd.tournament)
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
        data = _valid(RoundCreateSerializer, request.data)
        tournament = visible_tournaments(request.user).filter(pk=data["tournament"]).first()
        if tournament is None:
            raise NotFound
        _require_manage(request, tournament)
        rnd = rounds.create_round(tournament.pk, actor=request.user)
        return Response(RoundSerializer(rnd).data, status=status.HTTP_201_CREATED)

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
        data = _valid(DrawEditSerializer, request.data)
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
        data = _valid(GenerateDrawSerializer, request.data)
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
        data = _valid(SwapTablesSerializer, request.data)
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


router = DefaultRouter()
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("players", PlayerViewSet, basename="player")
router.register("pairs", PairViewSet, basename="pair")
router.register("tables", TableViewSet, basename="table")
router.register("parties", PartyViewSet, basename="party")
router.register("rounds", RoundViewSet, basename="round")
router.register("deals", DealViewSet, basename="deal")
router.register("penalties", PenaltyViewSet, basename="penalty")
router.register("rulings", RulingViewSet, basename="ruling")

urlpatterns = router.urls

