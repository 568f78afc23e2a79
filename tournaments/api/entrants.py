"""API of a tournament's members: players, pairs and tables, and withdrawing entrants."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import OuterRef, QuerySet, Subquery
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.access.idempotency import IdempotentMixin
from scoring.access.permissions import visible_tournaments
from scoring.access.profiles import visible_profiles
from scoring.access.query import KnownQueryMixin
from scoring.models import Pair, Player, Profile, Table
from tournaments.api.common import REFUSED, published_q, require_manage, updated_record, valid
from tournaments.registration.services import (
    add_table,
    register_pair,
    register_player,
    remove_member,
    update_member,
    withdraw_pair,
    withdraw_player,
)
from tournaments.setup.services import registers_sides


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
            if not isinstance(field, serializers.RelatedField):
                raise TypeError(f"{type(self).__name__}.tournament is not a relation")
            # the stubs' Manager.__get__ leaks into this assignment (mypy issue 13608)
            field.queryset = visible_tournaments(request.user)  # type: ignore[arg-type]
        return fields

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """A fixed table must be one of the tournament's own tables."""
        tournament = attrs.get("tournament") or getattr(self.instance, "tournament", None)
        table = attrs.get("fixed_table")
        if table is not None and tournament is not None and table.tournament_id != tournament.pk:
            raise ValidationError({"fixed_table": [_("No such table in this tournament.")]})
        return attrs


def _sides(player: Player | OuterRef) -> QuerySet[Pair]:
    """The registered side of one player whose player is ``player`` (a row or OuterRef)."""
    return Pair.objects.filter(
        player1=player, player2__isnull=True, formed_in_round__isnull=True
    )


class PlayerSerializer(_MemberSerializer):
    """A registered player; in singles created with his side of one player."""

    register_side = serializers.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        write_only=True,
        help_text="When creating: also register the player as his side of one player, in the "
        "same transaction. Left out: yes where a side is one player (a singles rule set, "
        "pairs format), no elsewhere; true elsewhere is refused.",
    )
    side = serializers.SerializerMethodField(
        help_text="The id of the player's side of one player (a Pair with player2 null), "
        "null when he has none."
    )

    class Meta:
        model = Player
        fields = ["id", "tournament", "name", "club", "city", "country", "rating", "fixed_table",
                  "withdrawn", "disqualified", "register_side", "side", "profile"]
        read_only_fields = ["withdrawn", "disqualified"]
        extra_kwargs = {"profile": {
            "required": False, "allow_null": True,
            "queryset": Profile.objects.filter(merged_into__isnull=True),
            "help_text": "The player's profile (the same person in other tournaments). When "
            "creating: an existing profile's id (one the user may see), or left out for a new "
            "profile made of the player's name, club and city. Changed only by merging "
            "profiles."}}

    def get_fields(self) -> dict[str, serializers.Field]:
        """``register_side`` only when creating; ``profile`` is set only when creating, to a
        profile the user may see (one playing in a tournament he may see)."""
        fields = super().get_fields()
        request = self.context.get("request")
        if self.instance is not None:
            fields.pop("register_side")
            fields["profile"].read_only = True
        elif request is not None and isinstance(fields["profile"], serializers.RelatedField):
            fields["profile"].queryset = Profile.objects.filter(  # type: ignore[arg-type]
                merged_into__isnull=True, pk__in=visible_profiles(request.user).values("pk"))
        return fields

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """A side of one player only where a side is one player (singles, pairs format)."""
        attrs = super().validate(attrs)
        tournament = attrs.get("tournament")
        if self.instance is None and tournament is not None:
            sides = registers_sides(tournament)
            if attrs.get("register_side") is None:
                attrs["register_side"] = sides
            elif attrs["register_side"] and not sides:
                raise ValidationError({"register_side": [_(
                    "Only in a singles rule set with the pairs format is a player a side."
                )]})
        return attrs

    def get_side(self, player: Player) -> int | None:
        """The id of the player's side of one player, if he has one."""
        if hasattr(player, "side_id"):
            return player.side_id
        return _sides(player).values_list("pk", flat=True).first()


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


MEMBER_REFUSED = {
    **REFUSED,
    403: OpenApiResponse(
        OpenApiTypes.OBJECT,
        description="Only the tournament's organizers may do this: {detail: message}.",
    ),
    404: OpenApiResponse(
        OpenApiTypes.OBJECT, description="Not found, or not visible to the user: {detail: message}."
    ),
}
"""The refusals of creating, changing and deleting players, pairs and tables."""


class _TournamentChild(
    KnownQueryMixin,
    IdempotentMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.ReadOnlyModelViewSet,
):
    """Members (players, pairs, tables) of visible tournaments; organizers change them."""

    filterset_fields = ["tournament"]
    serializer_class: type[PlayerSerializer | PairSerializer | TableSerializer]
    register: Callable[..., Player | Pair | Table]
    """The service that adds a member: ``register(tournament, **fields)``."""
    public_page = ""
    """The public page whose switch also hides these rows ("entrants"), if any."""

    def get_queryset(self) -> QuerySet:
        """Rows of visible tournaments (whose public page, if any, is switched on)."""
        model = self.serializer_class.Meta.model
        return model.objects.filter(
            tournament__in=visible_tournaments(self.request.user, self.public_page)
        ).order_by("id")

    def get_object(self) -> Player | Pair | Table:
        """The member of the URL; a change only by its tournament's organizers (403)."""
        member = super().get_object()
        if self.request.method not in SAFE_METHODS:
            require_manage(self.request, member.tournament)
        return member

    def perform_create(self, serializer: serializers.BaseSerializer) -> None:
        """Add the member through the service, for an organizer of its tournament."""
        data = dict(serializer.validated_data)
        tournament = data.pop("tournament")
        require_manage(self.request, tournament)
        serializer.instance = type(self).register(tournament, **data)

    def perform_update(self, serializer: serializers.BaseSerializer) -> None:
        """Change the member through the service."""
        serializer.instance = update_member(
            updated_record(serializer), actor=self.request.user, **serializer.validated_data
        )

    def perform_destroy(self, instance: Player | Pair | Table) -> None:
        """Delete the member unless a pair or a draw refers to it."""
        remove_member(instance, actor=self.request.user)


def _member_schema(serializer_class: type[serializers.Serializer], **more: Any) -> Any:
    """The documented answers of a member viewset's changing operations."""
    return extend_schema_view(
        **{
            "create": extend_schema(responses={201: serializer_class, **MEMBER_REFUSED}),
            "update": extend_schema(responses={200: serializer_class, **MEMBER_REFUSED}),
            "partial_update": extend_schema(
                responses={200: serializer_class, **MEMBER_REFUSED}
            ),
            "destroy": extend_schema(responses={204: None, **MEMBER_REFUSED}),
            **more,
        }
    )


class WithdrawSerializer(serializers.Serializer):
    """Withdraw from later draws (true) or take part again (false)."""

    withdrawn = serializers.BooleanField(default=True)


class _WithdrawMixin(viewsets.GenericViewSet):
    """The ``withdraw`` action of pairs and players (organizers only)."""

    withdraw_service: Callable[..., Pair | Player]

    @extend_schema(
        request=WithdrawSerializer,
        summary="Withdraw from later draws or reinstate",
        description="Results already played stay as they are. Organizers only.",
    )
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk: str | None = None) -> Response:
        """Withdraw the pair or player from later draws, or reinstate it."""
        entrant = self.get_object()
        require_manage(request, entrant.tournament)
        data = valid(WithdrawSerializer, request.data)
        type(self).withdraw_service(entrant.pk, withdrawn=data["withdrawn"], actor=request.user)
        entrant.refresh_from_db()
        return Response(self.get_serializer(entrant).data)


def _register_player(tournament: Any, *, register_side: bool = False, **fields: Any) -> Player:
    """Register a player (and, asked, his side of one player) through the service."""
    return register_player(tournament, side=register_side, **fields)


@_member_schema(
    PlayerSerializer,
    withdraw=extend_schema(responses={200: PlayerSerializer, **REFUSED}),
    create=extend_schema(
        responses={201: PlayerSerializer, **MEMBER_REFUSED},
        description="Where a side is one player (a singles rule set, pairs format) the player "
        "and his side of one player are registered in one transaction, and `side` names the "
        "side's id; `register_side: false` registers the player alone. Elsewhere only the "
        "player is registered.",
    ),
)
class PlayerViewSet(_WithdrawMixin, _TournamentChild):
    """Players; in singles each with his side of one player."""

    public_page = "entrants"

    serializer_class = PlayerSerializer
    withdraw_service = staticmethod(withdraw_player)
    register = staticmethod(_register_player)

    def get_queryset(self) -> QuerySet[Player]:
        """Players, each with the id of his side of one player (singles)."""
        side = _sides(OuterRef("pk")).values("pk")[:1]
        return super().get_queryset().annotate(side_id=Subquery(side))


@_member_schema(
    PairSerializer,
    withdraw=extend_schema(responses={200: PairSerializer, **REFUSED}),
    create=extend_schema(
        responses={201: PairSerializer, **MEMBER_REFUSED},
        description="Two players of the tournament. Where a side is one player (singles) "
        "a side has `player2` null, and a second player is refused (400 naming `player2`); "
        "`POST /api/players/` registers a singles player with his side in one call.",
    ),
)
class PairViewSet(_WithdrawMixin, _TournamentChild):
    """Pairs (in individual tournaments also the pairs each round's draw formed)."""

    public_page = "entrants"

    serializer_class = PairSerializer
    filterset_fields = ["tournament", "formed_in_round"]
    withdraw_service = staticmethod(withdraw_pair)
    register = staticmethod(register_pair)

    def get_queryset(self) -> QuerySet[Pair]:
        """Pairs with their players; pairs of a draft draw only for its organizers."""
        return (
            super()
            .get_queryset()
            .filter(published_q(self.request.user, "formed_in_round__", nullable=True))
            .select_related("player1", "player2")
        )


@_member_schema(TableSerializer)
class TableViewSet(_TournamentChild):
    """Tables."""

    serializer_class = TableSerializer
    register = staticmethod(add_table)
