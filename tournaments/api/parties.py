"""API of parties and their records: deals, penalties and rulings (read only)."""

from __future__ import annotations

from django.db.models import QuerySet
from rest_framework import serializers, viewsets

from scoring.models import Deal, Party, Penalty, Ruling
from scoring.permissions import visible_tournaments
from scoring.totals import party_totals
from tournaments.api.common import published_q


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


class PartyViewSet(viewsets.ReadOnlyModelViewSet):
    """Parties of visible tournaments."""

    serializer_class = PartySerializer
    filterset_fields = ["round", "status", "table"]

    def get_queryset(self) -> QuerySet[Party]:
        """Parties with what their totals need; parties of a draft draw only for organizers."""
        return (
            Party.objects.filter(round__tournament__in=visible_tournaments(self.request.user))
            .filter(published_q(self.request.user, "round__"))
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
            .filter(published_q(self.request.user, "party__round__"))
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
