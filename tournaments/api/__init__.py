"""API of tournaments: tournaments, standings, players, pairs, tables, rounds, draws, parties,
player profiles, stages and knockout matches, teams and team matches, the calendar and the
timetables.

One module per resource; this package's URLs are the router's.
"""

from __future__ import annotations

from rest_framework.routers import DefaultRouter

from tournaments.api.entrants import PairViewSet, PlayerViewSet, TableViewSet
from tournaments.api.entries import EntryViewSet
from tournaments.api.parties import DealViewSet, PartyViewSet, PenaltyViewSet, RulingViewSet
from tournaments.api.profiles import ProfileViewSet
from tournaments.api.ratings import RatingListViewSet
from tournaments.api.rounds import RoundViewSet
from tournaments.api.seasons import SeasonViewSet
from tournaments.api.stages import MatchViewSet, StageViewSet
from tournaments.api.team_matches import TeamMatchViewSet
from tournaments.api.teams import TeamViewSet
from tournaments.api.timetable import CalendarViewSet, TimetableItemViewSet
from tournaments.api.tournaments import (
    RegulationsSerializer,
    TournamentSerializer,
    TournamentViewSet,
)

__all__ = ["RegulationsSerializer", "TournamentSerializer", "router", "urlpatterns"]

router = DefaultRouter()
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("players", PlayerViewSet, basename="player")
router.register("pairs", PairViewSet, basename="pair")
router.register("tables", TableViewSet, basename="table")
router.register("profiles", ProfileViewSet, basename="profile")
router.register("parties", PartyViewSet, basename="party")
router.register("rounds", RoundViewSet, basename="round")
router.register("deals", DealViewSet, basename="deal")
router.register("penalties", PenaltyViewSet, basename="penalty")
router.register("rulings", RulingViewSet, basename="ruling")
router.register("seasons", SeasonViewSet, basename="season")
router.register("rating-lists", RatingListViewSet, basename="rating-list")
router.register("stages", StageViewSet, basename="stage")
router.register("matches", MatchViewSet, basename="match")
router.register("teams", TeamViewSet, basename="team")
router.register("team-matches", TeamMatchViewSet, basename="team-match")
router.register("entries", EntryViewSet, basename="entry")
router.register("calendar", CalendarViewSet, basename="calendar")
router.register("timetable-items", TimetableItemViewSet, basename="timetable-item")

urlpatterns = router.urls
