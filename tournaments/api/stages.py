"""API of stages: a tournament's stages, their groups, the knockout bracket and its matches;
starting the groups and the finals."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.access.idempotency import IdempotentMixin
from scoring.access.permissions import visible_tournaments
from scoring.access.query import KnownQueryMixin
from scoring.core.errors import number_parameter
from scoring.models import Group, Match, Stage, Tournament
from scoring.ranking.places import final_standings
from scoring.ranking.results import standings_table
from scoring.stages.groups import group_standings
from tournaments.api.common import REFUSED, require_manage, valid
from tournaments.rounds import finals


class KnockoutMatchSerializer(serializers.ModelSerializer):
    """A knockout match: its place in the bracket, its sides and seeds, status, winner and
    parties (pair ids, or team ids in a team event; null while unknown or for a bye; a team
    match's parties are at ``team-matches/?round=``)."""

    parties: serializers.Field = serializers.PrimaryKeyRelatedField(many=True, read_only=True)
    winner_pair = serializers.IntegerField(
        source="winner_id", read_only=True, allow_null=True,
        help_text="The pair that won the match (null while undecided).")

    winner_team = serializers.IntegerField(
        source="team_winner_id", read_only=True, allow_null=True,
        help_text="A team event's knockout: the team that won the match (null while "
        "undecided).")

    class Meta:
        model = Match
        fields = ["id", "stage", "bracket_round", "position", "third_place", "pair_a",
                  "pair_b", "team_a", "team_b", "seed_a", "seed_b", "bye", "status",
                  "winner_pair", "winner_team", "decided_at", "parties"]
        read_only_fields = fields


class StageGroupSerializer(serializers.ModelSerializer):
    """A group of a groups stage: its name and pairs (ids), or a team event's teams (ids)."""

    class Meta:
        model = Group
        fields = ["id", "name", "entrants", "teams"]
        read_only_fields = fields


class StageSerializer(serializers.ModelSerializer):
    """A stage of a tournament: order, format, status and its settings."""

    groups = StageGroupSerializer(many=True, read_only=True)

    class Meta:
        model = Stage
        fields = ["id", "tournament", "order", "format", "status", "bracket_size",
                  "third_place", "best_of", "group_count", "qualifiers", "finished_at",
                  "groups"]
        read_only_fields = fields


class StartFinalsSerializer(serializers.Serializer):
    """Start the finals: how many qualify (or who, best first), third place, best of N."""

    tournament = serializers.IntegerField()
    bracket_size = serializers.IntegerField(
        required=False, min_value=2, max_value=256,
        help_text="How many pairs go to the finals (the qualifying standings' best).")
    qualifiers = serializers.ListField(
        child=serializers.IntegerField(), required=False, allow_empty=False,
        help_text="The qualifiers' pair ids, best first, as the organizer confirmed them "
        "(instead of bracket_size).")
    third_place = serializers.BooleanField(required=False, default=False)
    best_of = serializers.IntegerField(required=False, default=1, min_value=1, max_value=9)


class DrawGroupsSerializer(serializers.Serializer):
    """Draw the groups: how many (snake seeding, optionally keeping two pairs of one club
    apart), or the organizer's own split."""

    tournament = serializers.IntegerField()
    group_count = serializers.IntegerField(
        min_value=1, max_value=64, required=False,
        help_text="How many groups the snake seeding draws (required without groups; with "
        "them, their number if given).")
    avoid_same_club = serializers.BooleanField(
        required=False, default=False,
        help_text="Snake seeding: keep two pairs of one club apart where a swap in the same "
        "row can (ignored with groups).")
    groups = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        required=False, allow_empty=False, max_length=64,
        help_text="The groups by hand: per group (named A, B … in this order) its pairs' ids; "
        "every pair that may still play in exactly one group, two or more a group. A team event "
        "splits its teams: team ids.")


class QualifiersSerializer(serializers.Serializer):
    """The pairs the finals would take, best first."""

    qualifiers = serializers.ListField(child=serializers.IntegerField())


class FinalPlacingSerializer(serializers.Serializer):
    """One line of the final placings."""

    place = serializers.IntegerField()
    pair = serializers.IntegerField()


class KnockoutBracketSerializer(serializers.Serializer):
    """The bracket: its rounds' matches (first to final), the match for third place and the
    tournament's final placings (the bracket's places, then the qualifying standings)."""

    stage = StageSerializer()
    rounds = serializers.ListField(child=KnockoutMatchSerializer(many=True))
    third_place = KnockoutMatchSerializer(allow_null=True)
    placings = FinalPlacingSerializer(many=True)


def _tournament(request: Request, pk: int) -> Tournament:
    """A tournament the user sees and manages (404, 403 otherwise)."""
    tournament = visible_tournaments(request.user).filter(pk=pk).select_related(
        "regulations").first()
    if tournament is None:
        raise NotFound
    require_manage(request, tournament)
    return tournament


def final_placings(tournament: Tournament) -> list[dict[str, int]]:
    """The tournament's final placings: places by pair id."""
    rows = final_standings(tournament, standings_table(tournament, per_player=False).rows)
    return [{"place": row.rank, "pair": row.entrant} for row in rows]


class StageViewSet(KnownQueryMixin, IdempotentMixin, viewsets.ReadOnlyModelViewSet):
    """Stages of visible tournaments; drawing groups and starting the finals (organizers)."""

    serializer_class = StageSerializer
    filterset_fields = ["tournament", "format"]

    def get_queryset(self) -> QuerySet[Stage]:
        """Stages of the tournaments the user sees."""
        return Stage.objects.filter(
            tournament__in=visible_tournaments(self.request.user)
        ).prefetch_related("groups__entrants", "groups__teams").order_by("tournament", "order")

    @extend_schema(request=StartFinalsSerializer,
                   responses={201: KnockoutBracketSerializer, **REFUSED},
                   summary="Start the finals: draw the knockout bracket")
    @action(detail=False, methods=["post"])
    def finals(self, request: Request) -> Response:
        """Draw the knockout stage after the last qualifying round (every party finished)."""
        data = valid(StartFinalsSerializer, request.data)
        tournament = _tournament(request, data["tournament"])
        done = finals.start_finals(
            tournament.pk, bracket_size=data.get("bracket_size"),
            qualifiers=data.get("qualifiers"), third_place=data["third_place"],
            best_of=data["best_of"], actor=request.user,
        )
        return Response(self._bracket(done.stage), status=status.HTTP_201_CREATED)

    @extend_schema(
        parameters=[OpenApiParameter("tournament", int, required=True),
                    OpenApiParameter("size", int, required=True)],
        responses={200: QualifiersSerializer},
        summary="The qualifiers the finals would take (best first)",
    )
    @action(detail=False, methods=["get"])
    def qualifiers(self, request: Request) -> Response:
        """The first pairs of the qualifying standings who may still play, best first: the
        list to confirm or edit before the finals are drawn."""
        pk = number_parameter(request.query_params, "tournament")
        size = number_parameter(request.query_params, "size")
        tournament = _tournament(request, pk or 0)
        return Response({"qualifiers": finals.proposed_qualifiers(tournament, size or 0)})

    @extend_schema(request=DrawGroupsSerializer, responses={201: StageSerializer, **REFUSED},
                   summary="Draw the groups (snake seeding, or as given by hand)")
    @action(detail=False, methods=["post"])
    def groups(self, request: Request) -> Response:
        """Split the field into round-robin groups (snake seeding, or the ``groups`` given);
        their rounds are then created and drawn as any round."""
        data = valid(DrawGroupsSerializer, request.data)
        tournament = _tournament(request, data["tournament"])
        made = finals.start_groups(
            tournament.pk, group_count=data.get("group_count"),
            avoid_same_club=data["avoid_same_club"], groups=data.get("groups"),
            actor=request.user,
        )
        stage = self.get_queryset().get(pk=made[0].stage_id)
        return Response(StageSerializer(stage).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: KnockoutBracketSerializer},
                   summary="A knockout stage's bracket")
    @action(detail=True, methods=["get"])
    def bracket(self, request: Request, pk: str | None = None) -> Response:
        """The bracket round by round, the match for third place and the final placings."""
        stage = self.get_object()
        if not stage.is_knockout:
            raise NotFound
        return Response(self._bracket(stage))

    @extend_schema(responses={200: {
        "type": "object", "description": "Per group's name, its pairs' ids (a team event's: "
        "its teams' ids, ranked by the group's own team matches), best first.",
        "additionalProperties": {"type": "array", "items": {"type": "integer"}}}},
        summary="A groups stage's standings per group")
    @action(detail=True, methods=["get"], url_path="group-standings")
    def group_standings(self, request: Request, pk: str | None = None) -> Response:
        """Each group's pairs ranked by its own parties, best first."""
        stage = self.get_object()
        return Response({group.name: ids for group, ids in group_standings(stage)})

    def _bracket(self, stage: Stage) -> dict[str, Any]:
        """The bracket's answer."""
        matches = list(Match.objects.filter(stage=stage).prefetch_related("parties"))
        rounds: dict[int, list[Match]] = {}
        for match in matches:
            if not match.third_place:
                rounds.setdefault(match.bracket_round, []).append(match)
        third = next((m for m in matches if m.third_place), None)
        stage = self.get_queryset().get(pk=stage.pk)
        return KnockoutBracketSerializer({
            "stage": stage,
            "rounds": [sorted(rounds[r], key=lambda m: m.position) for r in sorted(rounds)],
            "third_place": third,
            "placings": final_placings(stage.tournament),
        }).data


class MatchViewSet(KnownQueryMixin, viewsets.ReadOnlyModelViewSet):
    """Knockout matches of visible tournaments."""

    serializer_class = KnockoutMatchSerializer
    filterset_fields = ["stage", "bracket_round", "status"]

    def get_queryset(self) -> QuerySet[Match]:
        """Matches of the tournaments the user sees."""
        return Match.objects.filter(
            stage__tournament__in=visible_tournaments(self.request.user)
        ).prefetch_related("parties").order_by("stage", "third_place", "bracket_round",
                                                "position")
