"""API of team events: team matches (teams, boards, tables, parties, result), a team's line-up
for one team match, and the team standings.

``/api/v1/team-matches/`` lists the team matches of the tournaments the user sees (a draft
round's only for its organizers), filtered by ``tournament`` or ``round``;
``POST /team-matches/{id}/lineup/`` names a team's line-up for the match before the round is
published (organizers, or the team's captain): two pairs when the regulations let line-ups
change, or, for a team of players, four players paired for the match. The team standings are
``GET /api/v1/tournaments/{id}/team-standings/`` (:func:`team_standings_data`).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import django_filters
from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.access.idempotency import IdempotentMixin
from scoring.access.permissions import visible_tournaments
from scoring.access.query import KnownQueryMixin
from scoring.core.errors import ServiceError
from scoring.models import Party, Team, TeamMatch, Tournament
from scoring.teams.results import TeamMatchResult, team_match_results
from scoring.teams.standings import TIE_BREAK_METRICS, team_standings
from tournaments.api.common import REFUSED, published_q, valid
from tournaments.rounds.team_lineups import may_name_lineup, set_lineup


class TeamRefSerializer(serializers.Serializer):
    """A team as a team match names it."""

    id = serializers.IntegerField()
    name = serializers.CharField()


class TeamMatchPartySerializer(serializers.Serializer):
    """One party of a team match: its half, board and table, the two pairs, status and
    winner (the side: "a" is team A's pair)."""

    id = serializers.IntegerField()
    half = serializers.IntegerField()
    board = serializers.IntegerField(allow_null=True)
    table = serializers.IntegerField(allow_null=True, help_text="The table's number.")
    pair_a = serializers.IntegerField()
    pair_b = serializers.IntegerField(allow_null=True)
    status = serializers.CharField()
    winner_side = serializers.CharField(
        allow_blank=True, help_text="The winning side: \"a\" (team A's pair), \"b\", or blank.")


class TeamSideSerializer(serializers.Serializer):
    """One team's figures in a team match (the standings' party figures over its boards)."""

    team = serializers.IntegerField()
    parties_won = serializers.IntegerField()
    points = serializers.IntegerField()
    points_against = serializers.IntegerField()
    efectiveness = serializers.FloatField()
    score = serializers.FloatField(help_text="The team score by the tournament's team scoring.")


class TeamMatchResultSerializer(serializers.Serializer):
    """A team match's result: both sides, parties finished of all, decided, the winner."""

    a = TeamSideSerializer()
    b = TeamSideSerializer(allow_null=True)
    parties = serializers.IntegerField()
    finished = serializers.IntegerField()
    decided = serializers.BooleanField()
    level = serializers.BooleanField()
    winner_team = serializers.IntegerField(allow_null=True)


class TeamMatchSerializer(serializers.Serializer):
    """A team match: round, teams, the two tables (board 1's first), its parties by half and
    board, and its result. A bye has no team B, no tables and no parties."""

    id = serializers.IntegerField()
    tournament = serializers.IntegerField()
    round = serializers.IntegerField()
    round_number = serializers.IntegerField()
    team_a = TeamRefSerializer()
    team_b = TeamRefSerializer(allow_null=True)
    bye = serializers.BooleanField()
    tables = serializers.ListField(child=serializers.IntegerField(),
                                   help_text="Board 1's table number, then board 2's.")
    knockout_match = serializers.IntegerField(allow_null=True)
    decided_at = serializers.DateTimeField(allow_null=True)
    parties = TeamMatchPartySerializer(many=True)
    result = TeamMatchResultSerializer()


class LineupSerializer(serializers.Serializer):
    """A team's line-up for one team match: two pairs (board 1's, then board 2's) of a team
    of fixed pairs, or four players of a team of players (board 1's pair, then board 2's)."""

    team = serializers.IntegerField()
    pairs = serializers.ListField(
        child=serializers.IntegerField(), required=False,
        help_text="A team of fixed pairs: two of its pairs, board 1's first.")
    players = serializers.ListField(
        child=serializers.IntegerField(), required=False,
        help_text="A team of players: four of its players — board 1's two, then board 2's.")


class TeamStandingRowSerializer(serializers.Serializer):
    """One team's line of the team standings."""

    rank = serializers.IntegerField()
    shared = serializers.BooleanField()
    team = serializers.IntegerField()
    name = serializers.CharField()
    score = serializers.FloatField()
    played = serializers.IntegerField()
    won = serializers.IntegerField(help_text="Team matches won, byes included.")
    level = serializers.IntegerField()
    lost = serializers.IntegerField()
    byes = serializers.IntegerField()
    party_wins = serializers.IntegerField()
    points_for = serializers.IntegerField()
    points_against = serializers.IntegerField()
    point_difference = serializers.IntegerField()
    efectiveness = serializers.FloatField()
    head_to_head = serializers.FloatField()
    buchholz = serializers.FloatField()
    withdrawn = serializers.BooleanField()


class TeamStandingsSerializer(serializers.Serializer):
    """The team standings: the team scoring, the order ranked by, the rows best first."""

    tournament = serializers.IntegerField()
    team_scoring = serializers.CharField()
    order = serializers.ListField(child=serializers.CharField())
    rows = TeamStandingRowSerializer(many=True)


def _result(result: TeamMatchResult | None) -> dict[str, Any] | None:
    """A result as the API gives it."""
    if result is None:
        return None

    def side(s: Any) -> dict[str, Any] | None:
        return None if s is None else {
            "team": s.team, "parties_won": s.parties_won, "points": s.points,
            "points_against": s.points_against, "efectiveness": s.efectiveness,
            "score": s.score}

    return {"a": side(result.a), "b": side(result.b), "parties": result.parties,
            "finished": result.finished, "decided": result.decided, "level": result.level,
            "winner_team": result.winner}


def team_matches_data(matches: list[TeamMatch]) -> list[dict[str, Any]]:
    """Team matches (parties, teams and round loaded) with their results: one results
    computation per tournament."""
    by_tournament: dict[int, list[TeamMatch]] = defaultdict(list)
    for tm in matches:
        by_tournament[tm.round.tournament_id].append(tm)
    results: dict[int, TeamMatchResult] = {}
    for group in by_tournament.values():
        results.update(team_match_results(group[0].round.tournament,
                                          team_matches=[tm.pk for tm in group]))
    out = []
    for tm in matches:
        first = tm.first_table
        out.append({
            "id": tm.pk, "tournament": tm.round.tournament_id, "round": tm.round_id,
            "round_number": tm.round.number,
            "team_a": {"id": tm.team_a_id, "name": tm.team_a.name},
            "team_b": None if tm.team_b is None else {"id": tm.team_b_id,
                                                      "name": tm.team_b.name},
            "bye": tm.is_bye, "tables": [] if first is None else [first, first + 1],
            "knockout_match": tm.knockout_match_id, "decided_at": tm.decided_at,
            "parties": [
                {"id": p.pk, "half": p.half, "board": p.board,
                 "table": p.table.number if p.table else None, "pair_a": p.pair_a_id,
                 "pair_b": p.pair_b_id, "status": p.status, "winner_side": p.winner}
                for p in tm.parties.all()
            ],
            "result": _result(results.get(tm.pk)),
        })
    return out


class TeamMatchFilter(django_filters.FilterSet):
    """Team matches' filters: a tournament's (its id), a round's."""

    tournament = django_filters.ModelChoiceFilter(
        field_name="round__tournament", queryset=Tournament.objects.all(),
        help_text="The tournament's id: its team matches of every round.")

    class Meta:
        model = TeamMatch
        fields = ["tournament", "round"]


class TeamMatchViewSet(KnownQueryMixin, IdempotentMixin, viewsets.ReadOnlyModelViewSet):
    """Team matches of visible tournaments (a draft round's only for its organizers)."""

    serializer_class = TeamMatchSerializer
    filterset_class = TeamMatchFilter

    def get_queryset(self) -> QuerySet[TeamMatch]:
        """Visible team matches with their teams, round and parties."""
        return self._matches().filter(published_q(self.request.user, "round__"))

    def _matches(self) -> QuerySet[TeamMatch]:
        """The team matches of the tournaments whose draw the user sees, drafts' too."""
        parties = Party.objects.select_related("table").order_by("half", "board", "id")
        return (
            TeamMatch.objects.filter(
                round__tournament__in=visible_tournaments(self.request.user, "draw"))
            .select_related("round__tournament__regulations", "team_a", "team_b")
            .prefetch_related(Prefetch("parties", queryset=parties))
            .order_by("round__tournament", "round__number", "first_table", "id")
        )

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The team matches, a page at a time, with their results."""
        queryset = self.filter_queryset(self.get_queryset())
        page = self.paginate_queryset(queryset)
        matches = list(page if page is not None else queryset)
        data = team_matches_data(matches)
        if page is not None:
            return self.get_paginated_response(data)
        return Response(data)

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """One team match with its result."""
        return Response(team_matches_data([self.get_object()])[0])

    @extend_schema(request=LineupSerializer, responses={200: TeamMatchSerializer, **REFUSED},
                   summary="Set a team's line-up for the team match (organizers, captains)")
    @action(detail=True, methods=["post"])
    def lineup(self, request: Request, pk: str | None = None) -> Response:
        """Name a team's line-up before the round is published: two pairs (board 1, board 2;
        needs the regulations' ``team_lineup_changes``) or, for a team of players, four
        players paired for the match; its parties are made again. The organizers, or the
        team's captain for his own team."""
        tm = self._matches().filter(pk=int(pk or 0)).first()  # a draft's: its captains' too
        if tm is None:
            raise NotFound
        sides = list(Team.objects.filter(pk__in=[tm.team_a_id, tm.team_b_id]))
        mine = [t for t in sides if may_name_lineup(request.user, tm, t)]
        if not mine:
            raise PermissionDenied if self.get_queryset().filter(pk=tm.pk).exists() \
                else NotFound
        data = valid(LineupSerializer, request.data)
        team = next((t for t in sides if t.pk == data["team"]), None)
        if team is None:
            raise ServiceError("team", _("The team does not play this team match."))
        if team not in mine:
            raise PermissionDenied
        set_lineup(tm.pk, team.pk, data.get("pairs", ()), data.get("players", ()),
                   actor=request.user)
        return Response(team_matches_data([self._matches().get(pk=tm.pk)])[0])


def team_standings_data(tournament: Tournament, after_round: int | None) -> dict[str, Any]:
    """The team standings as the API gives them."""
    rows = team_standings(tournament, after_round=after_round)
    return {
        "tournament": tournament.pk,
        "team_scoring": tournament.team_scoring,
        "order": ["team_score", *dict.fromkeys(
            key for key in (tournament.team_tie_breaks or []) if key in TIE_BREAK_METRICS)],
        "rows": [row.__dict__ for row in rows],
    }

