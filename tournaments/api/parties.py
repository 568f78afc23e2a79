"""API of parties: one resource a party, with its records and its actions beneath it.

``/api/v1/parties/`` lists parties (totals by the game's scoring units); ``/parties/{id}/`` is
the party's whole state (clock, phase, match or Kozel accounts, deals, penalties, rulings) with
links; ``/parties/{id}/deals|penalties|rulings|events/`` its records; every referee action is a
``POST /parties/{id}/<action>/`` (``referee.api.PartyActions``). A deal or penalty is corrected
at ``/deals/{id}/`` and ``/penalties/{id}/``.
"""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet
from django.http import Http404
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from referee import state
from referee.api import DealCorrections, PartyActions, PenaltyCorrections
from referee.serializers import (
    DealRecordSerializer,
    PartyStateSerializer,
    PenaltyRecordSerializer,
    RulingRecordSerializer,
)
from referee.serializers.outputs import LOSER_HELP, PairsSerializer, WhoField, scores_field
from referee.sides import pairs_of
from scoring.access.permissions import visible_tournaments
from scoring.access.query import KnownQueryMixin
from scoring.models import PARTY_RELATED, Deal, Party, Penalty, Ruling, Tournament
from scoring.totals.compute import party_totals, prefetched_rows
from tournaments.api.common import published_q

LINKS = ("deals", "penalties", "rulings", "events")
WHOLE_LIST: dict[str, Any] = {"pagination_class": None, "filter_backends": []}
"""A party's own records come as one list: no pages, no filters."""
"""The party's own records, each a list beneath it."""


class LinksSerializer(serializers.Serializer):
    """Where the party's records, protocol, round and tournament are."""

    self = serializers.URLField()
    deals = serializers.URLField()
    penalties = serializers.URLField()
    rulings = serializers.URLField()
    events = serializers.URLField(help_text="The event log (the party's referees only).")
    protocol = serializers.URLField()
    round = serializers.URLField()
    tournament = serializers.URLField()


def party_links(request: Request, party: Party) -> dict[str, str]:
    """Absolute URLs of the party and of what belongs to it."""

    def url(name: str, pk: int) -> str:
        return reverse(name, kwargs={"pk": pk}, request=request)

    links = {"self": url("party-detail", party.pk)}
    links.update({name: url(f"party-{name}", party.pk) for name in LINKS})
    links["protocol"] = url("party-protocol-detail", party.pk)
    links["round"] = url("round-detail", party.round_id)
    links["tournament"] = url("tournament-detail", party.round.tournament_id)
    return links


class PointsSerializer(serializers.Serializer):
    """A party's points so far."""

    points = scores_field()


class PartyListSerializer(serializers.ModelSerializer):
    """A party in a list: where, who, how it stands (totals by the game's scoring units)."""

    tournament = serializers.IntegerField(source="round.tournament_id", read_only=True)
    round_number = serializers.IntegerField(source="round.number", read_only=True)
    table_number = serializers.IntegerField(source="table.number", read_only=True, default=None)
    pairs = serializers.SerializerMethodField()
    totals = serializers.SerializerMethodField()
    links = serializers.SerializerMethodField()
    winner = WhoField()
    loser = WhoField(source="lost_by", help_text=LOSER_HELP)

    class Meta:
        model = Party
        fields = ["id", "tournament", "round", "round_number", "table", "table_number",
                  "pairs", "status", "started_at", "time_expired_at", "finished_at",
                  "end_reason", "winner", "loser", "version", "totals", "links"]

    @extend_schema_field(PairsSerializer)
    def get_pairs(self, party: Party) -> dict[str, Any]:
        """Both sides with their seated players (``b`` is null for a bye)."""
        return pairs_of(party)

    @extend_schema_field(PointsSerializer)
    def get_totals(self, party: Party) -> dict[str, dict[str, int]]:
        """Points by the game's scoring units: the sides, or the seats (never sums of seats)."""
        return {"points": dict(party_totals(party, prefetched_rows(party)).points)}

    @extend_schema_field(LinksSerializer)
    def get_links(self, party: Party) -> dict[str, str]:
        """Where its records are."""
        return party_links(self.context["request"], party)


class PartyDetailSerializer(PartyStateSerializer):
    """The party's whole state, as its referee's screen shows it, with links."""

    links = LinksSerializer()


class PartyFilter(django_filters.FilterSet):
    """The parties' filters: a tournament's (by its id, as every ``tournament`` field), a
    round's, a status, a table's."""

    tournament = django_filters.ModelChoiceFilter(
        field_name="round__tournament", queryset=Tournament.objects.all(),
        help_text="The tournament's id: its parties of every round.")

    class Meta:
        model = Party
        fields = ["tournament", "round", "status", "table"]


class PartyViewSet(KnownQueryMixin, PartyActions, viewsets.ReadOnlyModelViewSet):
    """Parties of visible tournaments (a draft draw's only for its organizers), their records,
    and the referee's actions on them."""

    serializer_class = PartyListSerializer
    filterset_class = PartyFilter

    def get_queryset(self) -> QuerySet[Party]:
        """Visible parties with what their totals need."""
        return (
            Party.objects.filter(
                round__tournament__in=visible_tournaments(self.request.user, "draw")
            )
            .filter(published_q(self.request.user, "round__"))
            .select_related(*PARTY_RELATED)
            .prefetch_related("deals", "penalties")
            .order_by("id")
        )

    def _party(self, pk: str | None) -> Party:
        """The visible party of the URL (404 otherwise), loaded for its state."""
        if pk is None:
            raise Http404
        party = state.party_queryset().filter(
            pk__in=self.get_queryset().filter(pk=pk).values("pk")
        ).first()
        if party is None:
            raise Http404
        return party

    @extend_schema(responses=PartyDetailSerializer)
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The party's whole state: clock, phase, totals, match or Kozel accounts, records."""
        party = self._party(kwargs.get("pk"))
        data = dict(PartyStateSerializer(state.party_state(party)).data)
        data["links"] = party_links(request, party)
        return Response(data)

    def _records(self, pk: str | None, model: type[Deal] | type[Penalty] | type[Ruling],
                 serializer: type[serializers.BaseSerializer]) -> Response:
        """The party's records of one kind, oldest first (a whole list, not paged)."""
        party = self._party(pk)
        rows = model.objects.filter(party=party).select_related(
            *(f"party__{name}" for name in PARTY_RELATED)
        ).order_by("id")
        return Response(serializer(rows, many=True).data)

    @extend_schema(responses=DealRecordSerializer(many=True))
    @action(detail=True, methods=["get"], **WHOLE_LIST)
    def deals(self, request: Request, pk: str | None = None) -> Response:
        """The party's deals in order, annulled ones included."""
        return self._records(pk, Deal, DealRecordSerializer)

    @extend_schema(responses=PenaltyRecordSerializer(many=True))
    @action(detail=True, methods=["get"], **WHOLE_LIST)
    def penalties(self, request: Request, pk: str | None = None) -> Response:
        """The party's warnings, fines and disqualifications, cancelled ones included."""
        return self._records(pk, Penalty, PenaltyRecordSerializer)

    @extend_schema(responses=RulingRecordSerializer(many=True))
    @action(detail=True, methods=["get"], **WHOLE_LIST)
    def rulings(self, request: Request, pk: str | None = None) -> Response:
        """The referee's rulings in the party."""
        return self._records(pk, Ruling, RulingRecordSerializer)


class _RecordViewSet(KnownQueryMixin, viewsets.GenericViewSet):
    """One record of a visible party (a draft draw's only for its organizers)."""

    serializer_class: type[
        DealRecordSerializer | PenaltyRecordSerializer | RulingRecordSerializer
    ]


    def get_queryset(self) -> QuerySet:
        """Records of visible parties."""
        model = self.serializer_class.Meta.model
        return (
            model.objects.filter(
                party__round__tournament__in=visible_tournaments(self.request.user, "draw")
            )
            .filter(published_q(self.request.user, "party__round__"))
            .select_related(*(f"party__{name}" for name in PARTY_RELATED))
            .order_by("party_id", "id")
        )

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The record."""
        return Response(self.get_serializer(self.get_object()).data)


class DealViewSet(DealCorrections, _RecordViewSet):
    """A recorded deal; its referee corrects or annuls it."""

    serializer_class = DealRecordSerializer


class PenaltyViewSet(PenaltyCorrections, _RecordViewSet):
    """A warning, fine or disqualification; its referee cancels one given by mistake."""

    serializer_class = PenaltyRecordSerializer


class RulingViewSet(_RecordViewSet):
    """A referee's ruling."""

    serializer_class = RulingRecordSerializer


__all__ = ["DealViewSet", "PartyViewSet", "PenaltyViewSet", "RulingViewSet"]
