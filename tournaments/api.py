"""API of tournaments: tournaments, regulations, players, pairs, tables, rounds, parties."""

from __future__ import annotations

from django.db.models import Q, QuerySet
from rest_framework import serializers, viewsets
from rest_framework.routers import DefaultRouter

from scoring.totals import party_totals
from tournaments.models import Pair, Party, Player, Table, Tournament


def visible_tournaments(user: object) -> QuerySet[Tournament]:
    """Tournaments the user may read through the API."""
    qs = Tournament.objects.all()
    if getattr(user, "is_superuser", False):
        return qs
    visible = Q(public=True)
    if getattr(user, "is_authenticated", False):
        visible |= Q(roles__user=user) | Q(players__user=user)
    return qs.filter(visible).distinct()


class TournamentSerializer(serializers.ModelSerializer):
    """A tournament's own fields."""

    class Meta:
        model = Tournament
        fields = ["id", "name", "slug", "format", "rule_set", "status", "venue", "city",
                  "start_date", "end_date", "time_zone", "language", "public"]


class PlayerSerializer(serializers.ModelSerializer):
    """A registered player."""

    class Meta:
        model = Player
        fields = ["id", "tournament", "name", "club", "city", "rating", "withdrawn",
                  "disqualified"]


class PairSerializer(serializers.ModelSerializer):
    """A registered pair."""

    display_name = serializers.CharField(read_only=True)

    class Meta:
        model = Pair
        fields = ["id", "tournament", "name", "display_name", "player1", "player2", "rating",
                  "fixed_table", "withdrawn", "disqualified"]


class TableSerializer(serializers.ModelSerializer):
    """A numbered table."""

    class Meta:
        model = Table
        fields = ["id", "tournament", "number", "label"]


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


class TournamentViewSet(viewsets.ReadOnlyModelViewSet):
    """Tournaments the user may see."""

    serializer_class = TournamentSerializer
    filterset_fields = ["status", "format", "rule_set"]

    def get_queryset(self) -> QuerySet[Tournament]:
        """Visible tournaments."""
        return visible_tournaments(self.request.user).order_by("-start_date", "id")


class _TournamentChild(viewsets.ReadOnlyModelViewSet):
    """Read access to the members of visible tournaments."""

    filterset_fields = ["tournament"]

    def get_queryset(self) -> QuerySet:
        """Rows of visible tournaments."""
        model = self.serializer_class.Meta.model
        return model.objects.filter(
            tournament__in=visible_tournaments(self.request.user)
        ).order_by("id")


class PlayerViewSet(_TournamentChild):
    """Players."""

    serializer_class = PlayerSerializer


class PairViewSet(_TournamentChild):
    """Pairs."""

    serializer_class = PairSerializer

    def get_queryset(self) -> QuerySet[Pair]:
        """Pairs with their players."""
        return super().get_queryset().select_related("player1", "player2")


class TableViewSet(_TournamentChild):
    """Tables."""

    serializer_class = TableSerializer


class PartyViewSet(viewsets.ReadOnlyModelViewSet):
    """Parties of visible tournaments."""

    serializer_class = PartySerializer
    filterset_fields = ["round", "status", "table"]

    def get_queryset(self) -> QuerySet[Party]:
        """Parties with what their totals need."""
        return (
            Party.objects.filter(round__tournament__in=visible_tournaments(self.request.user))
            .select_related("round__tournament__regulations", "table")
            .prefetch_related("deals", "penalties")
            .order_by("id")
        )


router = DefaultRouter()
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("players", PlayerViewSet, basename="player")
router.register("pairs", PairViewSet, basename="pair")
router.register("tables", TableViewSet, basename="table")
router.register("parties", PartyViewSet, basename="party")

urlpatterns = router.urls

