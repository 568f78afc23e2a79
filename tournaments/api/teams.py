"""API of a team tournament's teams: each with its pairs and captain; organizers register,
change, withdraw and delete them through the team registration service."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.access.idempotency import IdempotentMixin
from scoring.access.permissions import visible_tournaments
from scoring.access.query import KnownQueryMixin
from scoring.core.errors import ServiceError
from scoring.models import Pair, Player, Team, Tournament
from tournaments.api.common import require_manage, valid
from tournaments.api.entrants import MEMBER_REFUSED, WithdrawSerializer
from tournaments.registration.team_players import (
    SquadCaptain,
    SquadEntry,
    register_squad,
    update_squad,
)
from tournaments.registration.teams import (
    Captain,
    NewPair,
    PairEntry,
    register_team,
    remove_team,
    update_team,
    withdraw_team,
)


class TeamPlayerSerializer(serializers.ModelSerializer):
    """A player of a team's pair: id and name."""

    class Meta:
        model = Player
        fields = ["id", "name"]
        read_only_fields = fields


class TeamPairSerializer(serializers.ModelSerializer):
    """One of a team's pairs: its id, names, players and rating."""

    display_name = serializers.CharField(read_only=True)
    player1 = TeamPlayerSerializer(read_only=True)
    player2 = TeamPlayerSerializer(read_only=True, allow_null=True)

    class Meta:
        model = Pair
        fields = ["id", "name", "display_name", "player1", "player2", "rating", "withdrawn"]
        read_only_fields = fields


class TeamSerializer(serializers.ModelSerializer):
    """A team: its name, club, country, captain (a player id), rating (its pairs' mean, or its
    players', rounded down), its pairs (a team of fixed pairs) or players (a team of
    players, paired for each team match)."""

    pairs = TeamPairSerializer(many=True, read_only=True)
    players = TeamPlayerSerializer(many=True, read_only=True)

    class Meta:
        model = Team
        fields = ["id", "tournament", "name", "club", "country", "captain", "rating",
                  "withdrawn", "disqualified", "pairs", "players"]
        read_only_fields = fields


class NewPlayerSerializer(serializers.Serializer):
    """A new player of a new pair."""

    name = serializers.CharField(max_length=200)
    club = serializers.CharField(max_length=200, required=False, allow_blank=True,
                                 help_text="Left out: the team's club.")
    city = serializers.CharField(max_length=100, required=False, allow_blank=True)
    rating = serializers.IntegerField(required=False, default=0)


class TeamPairEntrySerializer(serializers.Serializer):
    """One of the team's pairs: a registered pair (``pair``), or a new one (``players``: two
    new players, registered with the team, and its ``name``)."""

    pair = serializers.IntegerField(required=False, help_text="A registered pair's id.")
    players = NewPlayerSerializer(many=True, required=False,
                                  help_text="A new pair's two players.")
    name = serializers.CharField(max_length=200, required=False, allow_blank=True,
                                 default="", help_text="A new pair's name (optional).")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """Either a registered pair or two new players."""
        has_pair, players = "pair" in attrs, attrs.get("players")
        if has_pair == (players is not None):
            raise ValidationError(_("Give either a registered pair's id or two new players."))
        if players is not None and len(players) != 2:
            raise ValidationError({"players": [_("A pair has two players.")]})
        return attrs


class SquadEntrySerializer(NewPlayerSerializer):
    """One of a team of players: a registered player (``player``), or a new one's fields."""

    player = serializers.IntegerField(required=False, help_text="A registered player's id.")
    name = serializers.CharField(max_length=200, required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """Either a registered player or a new one's name."""
        if ("player" in attrs) == bool(attrs.get("name")):
            raise ValidationError(_("Give either a registered player's id or a new player's "
                                    "name."))
        return attrs


class TeamWriteSerializer(serializers.Serializer):
    """A team as registered or changed: its fields, its pairs or players (the whole list) and
    captain."""

    tournament = serializers.IntegerField(
        help_text="A team tournament the caller organizes (when creating; fixed after).")
    name = serializers.CharField(max_length=200)
    club = serializers.CharField(max_length=200, required=False, allow_blank=True)
    country = serializers.CharField(max_length=100, required=False, allow_blank=True)
    pairs = TeamPairEntrySerializer(
        many=True, required=False,
        help_text="A team of fixed pairs: two pairs at least, up to the tournament's squad "
        "size; each a registered pair of no other team, or two new players. Changing: the "
        "whole list (pairs left out leave the team).")
    players = SquadEntrySerializer(
        many=True, required=False,
        help_text="A team of players (`team_members` \"players\"): four players at least, up "
        "to `team_squad_players`; each a registered player of no other team "
        "(`{\"player\": id}`) or a new one (`{\"name\": …, \"rating\": …}`). Changing: the "
        "whole list.")
    captain = serializers.IntegerField(
        required=False, allow_null=True,
        help_text="One of the team's players, by id (null: no captain). Changing and left "
        "out: kept.")
    captain_name = serializers.CharField(
        required=False, allow_blank=True, max_length=200,
        help_text="Or the captain by name: one of the team's players (a new one too).")



class TeamChangeSerializer(TeamWriteSerializer):
    """A team as changed: its tournament stays."""

    tournament = None  # type: ignore[assignment]


def _entries(tournament: Tournament, given: list[dict[str, Any]], club: str) -> list[PairEntry]:
    """The pairs as the service takes them (an unknown pair: 400 naming ``pairs``)."""
    entries: list[PairEntry] = []
    for item in given:
        if "pair" in item:
            pair = Pair.objects.filter(pk=item["pair"], tournament=tournament).first()
            if pair is None:
                raise ServiceError("pairs", _("No pair %(id)s in this tournament.")
                                   % {"id": item["pair"]})
            entries.append(pair)
            continue
        first, second = ({"club": club, **player} for player in item["players"])
        entries.append(NewPair((first, second), item.get("name", "")))
    return entries


def _captain(tournament: Tournament, data: dict[str, Any]) -> Captain:
    """The captain as the service takes it: a player of the tournament, a name or None."""
    if data.get("captain_name"):
        return str(data["captain_name"])
    if data.get("captain") is None:
        return None
    player = Player.objects.filter(pk=data["captain"], tournament=tournament).first()
    if player is None:
        raise ServiceError("captain", _("No such player in this tournament."))
    return player


def _squad(tournament: Tournament, given: list[dict[str, Any]], club: str
           ) -> list[SquadEntry]:
    """The players as the squad service takes them (an unknown one: 400 naming
    ``players``)."""
    entries: list[SquadEntry] = []
    for item in given:
        if "player" in item:
            player = Player.objects.filter(pk=item["player"], tournament=tournament).first()
            if player is None:
                raise ServiceError("players", _("No player %(id)s in this tournament.")
                                   % {"id": item["player"]})
            entries.append(player)
        else:
            entries.append({"club": club, **item})
    return entries


def _squad_captain(tournament: Tournament, data: dict[str, Any]) -> SquadCaptain:
    """The captain of a team of players as the service takes it."""
    captain = _captain(tournament, data)
    return None if isinstance(captain, tuple) else captain


def _by_players(tournament: Tournament) -> bool:
    """Whether the tournament's teams are players paired for each team match."""
    return tournament.team_members == Tournament.TeamMembers.PLAYERS


def _in_api(err: ServiceError) -> ServiceError:
    """A refusal of one pair (``pair2``, ``pair2_player1_name``) names ``pairs`` in the API."""
    if err.field.startswith("pair") and err.field != "pairs":
        number = err.field[4:].split("_", 1)[0]
        return ServiceError("pairs", _("Pair %(number)s: %(message)s")
                            % {"number": number, "message": err.message})
    return err


TEAM_REFUSED = {**MEMBER_REFUSED}
"""Refusals of the team writes: 400 naming the field, 403 for others, 404 unseen."""


@extend_schema_view(
    list=extend_schema(summary="Teams (team tournaments)",
                       description="`?tournament=` for one tournament's teams, with their "
                       "pairs."),
    retrieve=extend_schema(summary="A team with its pairs"),
    create=extend_schema(
        request=TeamWriteSerializer, responses={201: TeamSerializer, **TEAM_REFUSED},
        summary="Register a team (organizers)",
        description="A team of players (`team_members` \"players\"): with its `players`, "
        "registered ones (`{\"player\": id}`) or new ones (`{\"name\": …}`), from four to "
        "`team_squad_players`; refused with 400 naming `players`: fewer than four or more "
        "than the squad, a player in another team or given twice. A team of fixed pairs: "
        "with its pairs: registered ones (`{\"pair\": id}`) or new ones with their "
        "two new players (`{\"players\": [{\"name\": …}, {\"name\": …}]}`), from two to the "
        "squad size. Refused with 400 naming the field, nothing written: not a team "
        "tournament (`tournament`), a name taken (`name`), too few or too many pairs, a pair "
        "of another team, a player in two teams (`pairs`), a captain who is not one of its "
        "players (`captain`)."),
    update=extend_schema(
        request=TeamChangeSerializer, responses={200: TeamSerializer, **TEAM_REFUSED},
        summary="Change a team (organizers)",
        description="The pairs given replace the team's (those left out leave it; one that "
        "has played for the team stays: 400 naming `pairs`)."),
    partial_update=extend_schema(
        request=TeamChangeSerializer, responses={200: TeamSerializer, **TEAM_REFUSED},
        summary="Change some of a team's fields (organizers)"),
    destroy=extend_schema(
        responses={204: None, **TEAM_REFUSED}, summary="Delete a team (organizers)",
        description="Only before its first team match (400 naming `team`: withdraw it); its "
        "pairs stay registered."),
    withdraw=extend_schema(
        request=WithdrawSerializer, responses={200: TeamSerializer, **TEAM_REFUSED},
        summary="Withdraw a team from later draws or reinstate it (organizers)"),
)
class TeamViewSet(
    KnownQueryMixin,
    IdempotentMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.ReadOnlyModelViewSet,
):
    """Teams of visible tournaments (whose entrants are public); organizers change them."""

    serializer_class = TeamSerializer
    filterset_fields = ["tournament"]

    def get_queryset(self) -> QuerySet[Team]:
        """Teams of visible tournaments, with their pairs and players."""
        pairs = Pair.objects.filter(formed_in_round__isnull=True).select_related(
            "player1", "player2").order_by("id")
        return (Team.objects.filter(tournament__in=visible_tournaments(
            self.request.user, "entrants")).prefetch_related(
            Prefetch("pairs", queryset=pairs),
            Prefetch("players", queryset=Player.objects.order_by("id"))).order_by("id"))

    def get_object(self) -> Team:
        """The team of the URL; a change only by its tournament's organizers (403)."""
        team = super().get_object()
        if self.request.method not in SAFE_METHODS:
            require_manage(self.request, team.tournament)
        return team

    def _answer(self, changed: Team, code: int = status.HTTP_200_OK) -> Response:
        """The team as it is now."""
        team = self.get_queryset().get(pk=changed.pk)
        return Response(TeamSerializer(team).data, status=code)

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Register a team through the service, for an organizer of its tournament."""
        data = valid(TeamWriteSerializer, request.data)
        tournament = visible_tournaments(request.user).filter(pk=data["tournament"]).first()
        if tournament is None:
            raise ValidationError({"tournament": [_("No such tournament.")]})
        require_manage(request, tournament)
        if _by_players(tournament):
            if "players" not in data:
                raise ValidationError({"players": [_("Give the team's players.")]})
            squad = register_squad(
                tournament, name=data["name"], club=data.get("club", ""),
                country=data.get("country", ""),
                players=_squad(tournament, data["players"], data.get("club", "")),
                captain=_squad_captain(tournament, data), actor=request.user)
            return self._answer(squad.team, status.HTTP_201_CREATED)
        if "pairs" not in data:
            raise ValidationError({"pairs": [_("Give the team's pairs.")]})
        try:
            done = register_team(
                tournament, name=data["name"], club=data.get("club", ""),
                country=data.get("country", ""),
                pairs=_entries(tournament, data["pairs"], data.get("club", "")),
                captain=_captain(tournament, data), actor=request.user)
        except ServiceError as err:
            raise _in_api(err) from err
        return self._answer(done.team, status.HTTP_201_CREATED)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Change a team through the service (PATCH: only the fields given)."""
        team = self.get_object()
        partial = kwargs.get("partial", False)
        serializer = TeamChangeSerializer(team, data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        tournament = team.tournament
        changes: dict[str, Any] = {k: data[k] for k in ("name", "club", "country") if k in data}
        if "captain" in data or "captain_name" in data:
            changes["captain"] = (_squad_captain if _by_players(tournament) else _captain)(
                tournament, data)
        if _by_players(tournament):
            if "players" in data:
                changes["players"] = _squad(tournament, data["players"],
                                            data.get("club", team.club))
            return self._answer(update_squad(team.pk, actor=request.user, **changes).team)
        if "pairs" in data:
            changes["pairs"] = _entries(tournament, data["pairs"],
                                        data.get("club", team.club))
        try:
            done = update_team(team.pk, actor=request.user, **changes)
        except ServiceError as err:
            raise _in_api(err) from err
        return self._answer(done.team)

    def perform_destroy(self, instance: Team) -> None:
        """Delete the team unless it has played."""
        remove_team(instance.pk, actor=self.request.user)

    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk: str | None = None) -> Response:
        """Withdraw the team from later draws, or reinstate it."""
        team = self.get_object()
        data = valid(WithdrawSerializer, request.data)
        withdraw_team(team.pk, withdrawn=data["withdrawn"], actor=request.user)
        return Response(TeamSerializer(self.get_queryset().get(pk=team.pk)).data)
