"""API of tournaments: their fields, regulations and standings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.access import permissions
from scoring.access.idempotency import IdempotentMixin
from scoring.access.permissions import visible_tournaments
from scoring.access.query import FormatFilterNegotiation, KnownQueryMixin
from scoring.core.errors import ServiceError
from scoring.models import GAME_SETTINGS, RatingList, Regulations, Tournament
from scoring.models.tournament import TEAM_TIE_BREAKS
from scoring.ranking.rating_lists import take_ratings
from scoring.rules.game_settings import BOOL, CHOICE, DECLARATIONS, GameSetting
from scoring.standings import METRICS
from tournaments.api.club_standings import ClubStandingsMixin
from tournaments.api.common import REFUSED, require_manage, updated_record, valid
from tournaments.api.entry_settings import EntrySettingsMixin
from tournaments.api.standings import StandingsMixin
from tournaments.api.timetable import TimetableMixin
from tournaments.registration.services import rate_teams
from tournaments.rounds import services as rounds
from tournaments.setup.forms import RegulationsForm, TournamentForm
from tournaments.setup.game_setting_fields import setting_choices, setting_label
from tournaments.setup.services import (
    create_tournament,
    not_a_setting,
    update_regulations,
    update_tournament,
)
from tournaments.setup.team_settings import check_tie_breaks


class TakeRatingsSerializer(serializers.Serializer):
    """The rating list whose current ratings seed the tournament's players."""

    rating_list = serializers.PrimaryKeyRelatedField(
        queryset=RatingList.objects.all(),
        help_text="A players' list the caller may see (public, or his own).",
    )


class TakenRatingsSerializer(serializers.Serializer):
    """How many players took a rating from the list."""

    players = serializers.IntegerField(
        help_text="Players whose seeding rating was set (linked to a profile in the list).")


TOURNAMENT_FIELDS = [name for field in TournamentForm.Meta.fields
                     for name in ((field, "status") if field == "rule_set" else (field,))]
"""The edit page's fields and, after the rule set, the status, which only the round flow sets."""


class TournamentSerializer(serializers.ModelSerializer):
    """A tournament's own fields (the same ones its edit page has).

    A new tournament's regulations start from its rule set's preset; ``players`` and
    ``kozel_pairs`` change it where the rule set lets them vary. Without a ``slug`` one is
    derived from the name.
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
    team_tie_breaks = serializers.ListField(
        child=serializers.ChoiceField(choices=list(TEAM_TIE_BREAKS)),
        required=False,
        help_text="A team tournament's tie-breaks after the team score, first deciding most: "
        "`party_wins`, `point_difference`, `head_to_head`, `buchholz`, each once; empty for "
        "this default order. An unknown name is 400 naming `team_tie_breaks`.",
    )

    class Meta:
        model = Tournament
        fields = ["id", *TOURNAMENT_FIELDS, "players", "kozel_pairs", "singles"]
        read_only_fields = ["status"]
        extra_kwargs = {
            "team_squad_pairs": {"help_text": "A team tournament: pairs in a team (2–6); two "
                                 "play each team match, the others are substitutes."},
            "team_lineup_changes": {"help_text": "A team tournament of fixed pairs: the captain "
                                    "names the two pairs of each team match."},
            "team_members": {"help_text": "A team tournament: `pairs` (each team registers "
                             "fixed pairs) or `players` (each team registers players; the "
                             "captain pairs four of them for each team match)."},
            "team_squad_players": {"help_text": "A team tournament of players: players in a "
                                   "team (4–12); four play each team match, the others are "
                                   "substitutes."},
            "team_halves": {"help_text": "A team tournament: a second half in which the pairs "
                            "swap opponents (A1–B2, A2–B1)."},
            "team_scoring": {"help_text": "A team tournament: how a team match is scored."},
            "status": {"help_text": "Changed only by the round flow: running once a draw is "
                       "published, finished by `POST /tournaments/{id}/finish/` (`reopen/` "
                       "takes it back)."},
            "slug": {
                "required": False,
                "allow_blank": True,
                "help_text": "The short name in the tournament's addresses. Empty or left out "
                "when creating: derived from the name, Cyrillic in Latin letters "
                "(\"Кубок Москвы 2026\" → \"kubok-moskvy-2026\", then -2, -3… if taken).",
            }
        }

    def validate_team_tie_breaks(self, value: list[str]) -> list[str]:
        """Each tie-break once; empty for the default order."""
        try:
            return check_tie_breaks(value)
        except ServiceError as err:
            raise ValidationError(err.message) from err

    def get_singles(self, tournament: Tournament) -> bool:
        """Whether a side is one player in this tournament's rule set."""
        try:
            return tournament.singles
        except Regulations.DoesNotExist:
            return False


def setting_field(setting: GameSetting[Any]) -> serializers.Field:
    """The serializer field of a game setting (optional), made from its declaration."""
    common: dict[str, Any] = {
        "required": False,
        "label": setting_label(setting),
        "help_text": "A game setting: present only where the tournament's rule set has it.",
    }
    if setting.kind == BOOL:
        return serializers.BooleanField(**common)
    if setting.kind == CHOICE:
        return serializers.ChoiceField(choices=setting_choices(setting), **common)
    return serializers.IntegerField(
        min_value=setting.minimum, max_value=setting.maximum, **common)


class RegulationsSerializer(serializers.ModelSerializer):
    """The rule settings of a tournament: the common ones and its game's own settings.

    The schema lists the game settings of every rule set, each optional: a tournament's
    regulations carry only those of its rule set (``RuleSet.settings``; none for sport
    domino), and a change of another game's setting is refused with 400 naming it.
    """

    standings_order = serializers.ListField(
        child=serializers.ChoiceField(choices=list(METRICS)),
        required=False,
        help_text="Metric keys in order; empty for the default order.",
    )

    class Meta:
        model = Regulations
        fields = RegulationsForm.Meta.fields

    def _tournament(self) -> Tournament | None:
        """The tournament whose regulations these are (None when unknown: the schema)."""
        if isinstance(self.instance, Regulations) and self.instance.tournament_id:
            return self.instance.tournament
        return None

    def get_fields(self) -> dict[str, serializers.Field]:
        """The common settings and the game settings of the tournament's rule set."""
        fields = super().get_fields()
        tournament = self._tournament()
        for setting in DECLARATIONS if tournament is None else tournament.engine.settings:
            fields[setting.name] = setting_field(setting)
        return fields

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        """Refuse the settings of another game, naming each one."""
        tournament = self._tournament()
        if tournament is not None and isinstance(data, Mapping):
            foreign = [
                name
                for name in GAME_SETTINGS
                if name in data and name not in tournament.engine.setting_names
            ]
            if foreign:
                raise ValidationError({name: [not_a_setting(tournament)] for name in foreign})
        return super().to_internal_value(data)


@extend_schema_view(
    create=extend_schema(
        responses={201: TournamentSerializer, **REFUSED},
        summary="Create a tournament (its creator becomes its organizer)",
        description="Without a slug, one is derived from the name (Cyrillic in Latin "
        "letters, -2, -3… when taken); a given slug is validated (400 naming `slug`).",
    ),
    update=extend_schema(responses={200: TournamentSerializer, **REFUSED}),
    partial_update=extend_schema(responses={200: TournamentSerializer, **REFUSED}),
)
class TournamentViewSet(
    KnownQueryMixin,
    IdempotentMixin,
    ClubStandingsMixin,
    EntrySettingsMixin,
    StandingsMixin,
    TimetableMixin,
    mixins.CreateModelMixin, mixins.UpdateModelMixin, viewsets.ReadOnlyModelViewSet
):
    """Tournaments the user may see; organizers create them and change their own."""

    serializer_class = TournamentSerializer
    filterset_fields = ["status", "format", "rule_set"]
    content_negotiation_class = FormatFilterNegotiation  # ``?format=pairs`` is the filter's

    def get_queryset(self) -> QuerySet[Tournament]:
        """Visible tournaments (with their regulations: whether sides are single players)."""
        return (
            visible_tournaments(self.request.user)
            .select_related("regulations")
            .order_by("-start_date", "id")
        )

    def filter_queryset(self, queryset: QuerySet[Any]) -> QuerySet[Any]:
        """The filters on the list only: ``?format=json`` on a tournament is the answer's."""
        return super().filter_queryset(queryset) if self.action == "list" else queryset

    def get_object(self) -> Tournament:
        """The tournament of the URL; a change only by its organizers (403 otherwise)."""
        tournament = super().get_object()
        if self.request.method not in SAFE_METHODS:
            require_manage(self.request, tournament)
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
            updated_record(serializer).pk, actor=self.request.user, **serializer.validated_data
        )

    @extend_schema(
        methods=["GET"],
        responses=RegulationsSerializer,
        summary="Regulations",
        description="The common settings and the game settings of the tournament's rule set "
        "only (the schema lists every game's, each optional).",
    )
    @extend_schema(
        methods=["PUT", "PATCH"],
        request=RegulationsSerializer,
        responses={200: RegulationsSerializer, **REFUSED},
        summary="Change the regulations (organizers)",
        description="Settings that contradict each other are refused with 400 naming the "
        "field, and so is a setting of another game (\"Not a setting of <game>.\").",
    )
    @action(detail=True, methods=["get", "put", "patch"])
    def regulations(self, request: Request, pk: str | None = None) -> Response:
        """GET: the settings of the tournament's game. PUT/PATCH: change them (organizers)."""
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
        request=TakeRatingsSerializer,
        responses={200: TakenRatingsSerializer, **REFUSED},
        summary="Take the seeding ratings from a rating list (organizers)",
        description="Each player linked to a profile takes his current rating in the list "
        "(rounded) as his seeding rating, and the pairs of the registration theirs from their "
        "players; the others keep theirs. A list of pairs, or one the caller may not see, is "
        "400 naming `rating_list`.",
    )
    @action(detail=True, methods=["post"], url_path="take-ratings")
    def take_ratings(self, request: Request, pk: str | None = None) -> Response:
        """Seed the tournament's players from a rating list; the number of players set."""
        tournament = self.get_object()
        data = valid(TakeRatingsSerializer, request.data)
        count = take_ratings(tournament, data["rating_list"], actor=request.user)
        rate_teams(tournament.pk)  # the teams' ratings follow their pairs' ratings
        return Response({"players": count})

    @extend_schema(
        request=None,
        responses={200: TournamentSerializer, **REFUSED},
        summary="Finish the tournament (organizers)",
        description="Once its last round is closed (400 naming `round` otherwise, `tournament` "
        "when it has no round or is finished already). A finished tournament takes no new "
        "round and no new deal (400 naming `tournament`).",
    )
    @action(detail=True, methods=["post"])
    def finish(self, request: Request, pk: str | None = None) -> Response:
        """Finish the tournament through the round flow."""
        tournament = rounds.finish_tournament(self.get_object().pk, actor=request.user)
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(
        request=None,
        responses={200: TournamentSerializer, **REFUSED},
        summary="Reopen a finished tournament (organizers)",
        description="It runs again: a round or a deal can be added (400 naming `tournament` "
        "when it is not finished).",
    )
    @action(detail=True, methods=["post"])
    def reopen(self, request: Request, pk: str | None = None) -> Response:
        """Take the tournament's finish back."""
        tournament = rounds.reopen_tournament(self.get_object().pk, actor=request.user)
        return Response(TournamentSerializer(tournament).data)
