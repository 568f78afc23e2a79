"""``make run`` serves a live demo: ``seed_demo --fresh`` loads the demo anew at serve time.

An hour after an earlier ``make run`` every live demo party has run out of time; loading the
demo anew starts their clocks now, prints the served address in the protocols, and leaves
other tournaments and every login as they were.
"""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from scoring.models import Match, Party, Protocol, Stage, Tournament
from tests.factories import TournamentFactory
from tournaments.management.commands.seed_demo import DEMO_SLUG, KOZEL_SLUG, UDL_SLUG
from tournaments.management.demo_autumn import AUTUMN_SLUG
from tournaments.management.demo_entries import ENTRIES_SLUG
from tournaments.management.demo_finals import FINALS_SLUG, GROUPS_SLUG

pytestmark = pytest.mark.django_db

DEMOS = (DEMO_SLUG, UDL_SLUG, KOZEL_SLUG, AUTUMN_SLUG, FINALS_SLUG, GROUPS_SLUG, ENTRIES_SLUG)


def _live() -> list[Party]:
    return list(
        Party.objects.filter(round__tournament__slug__in=DEMOS, status=Party.Status.IN_PROGRESS)
        .select_related("round__tournament__regulations")
    )


def test_fresh_demo_restarts_the_live_clocks_and_keeps_everything_else(
        client, protocol_files, settings, django_capture_on_commit_callbacks):
    settings.SITE_URL = "http://127.0.0.1:8000"
    call_command("seed_demo", stdout=StringIO())
    live = _live()
    assert len(live) >= 4  # the sport demo's running tables, the UDL match, the finals' and
    # the groups' parties at their tables
    # an hour and a half later: every live party has run out of time
    Party.objects.filter(pk__in=[p.pk for p in live]).update(
        started_at=timezone.now() - timedelta(minutes=90))
    assert all(p.seconds_left() <= 0 for p in _live())
    own = TournamentFactory(slug="my-real-event")
    logins = get_user_model().objects.count()

    settings.SITE_URL = "http://127.0.0.1:8123"  # make run PORT=8123
    out = StringIO()
    loading = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):  # the season's refresh task
        call_command("seed_demo", "--fresh", stdout=out)
    loaded_in = (timezone.now() - loading).total_seconds()

    assert out.getvalue().count("loaded.") == 8  # seven tournaments, the season and rating
    fresh = _live()
    assert len(fresh) == len(live)
    for party in fresh:  # each clock started during the load: at most that long ago
        limit = party.round.tournament.regulations.party_minutes * 60
        assert party.started_at >= loading, party
        assert party.seconds_left() > limit - loaded_in - 1, party
        assert party.time_expired_at is None
    assert sorted(Tournament.objects.values_list("slug", flat=True)) == sorted(
        [*DEMOS, own.slug])
    assert get_user_model().objects.count() == logins
    _shows_the_finals(client)
    signed = Protocol.objects.filter(status=Protocol.Status.SIGNED)
    assert signed.exists()
    assert all(p.data["verify_url"].startswith("http://127.0.0.1:8123/v/") for p in signed)

    # one person across the demo's tournaments: the Double-Six Cup's first eight players
    # played the finished autumn cup too, each on one profile, kept by --fresh
    from scoring.models import Player, Profile

    assert Tournament.objects.get(slug=AUTUMN_SLUG).status == Tournament.Status.FINISHED
    ivan = Profile.objects.get(user__username="player01")
    assert set(ivan.entries.values_list("tournament__slug", flat=True)) == {DEMO_SLUG,
                                                                            AUTUMN_SLUG}
    assert not Player.objects.filter(tournament__slug__in=DEMOS, profile=None).exists()
    assert Profile.objects.filter(entries__tournament__slug=AUTUMN_SLUG).distinct().count() == 8

    # the club season and rating list over both: the same people, one line each
    from scoring.models import RatingEntry, RatingList, Season, TournamentPlacing
    from tournaments.management.demo_autumn import RATING_SLUG, SEASON_SLUG

    season = Season.objects.get(slug=SEASON_SLUG)
    assert set(season.tournaments.values_list("slug", flat=True)) == {DEMO_SLUG, AUTUMN_SLUG}
    assert TournamentPlacing.objects.filter(profile=ivan).count() == 2
    rated = RatingEntry.objects.filter(rating_list=RatingList.objects.get(slug=RATING_SLUG),
                                       profile=ivan)
    assert rated.count() == 2 and rated.filter(current=True).count() == 1


def _shows_the_finals(client) -> None:
    """The finals demo's bracket is being played; the groups demo shows its two groups."""
    matches = Match.objects.filter(stage__tournament__slug=FINALS_SLUG, bracket_round=1)
    assert sorted(matches.values_list("status", flat=True)) == [
        "decided", "decided", "decided", "ready"]
    assert Party.objects.filter(match__isnull=False, status=Party.Status.IN_PROGRESS).count() == 1
    assert Stage.objects.get(tournament__slug=FINALS_SLUG, format="knockout").status == "running"
    bracket = client.get(f"/t/{FINALS_SLUG}/bracket/").content.decode()
    assert "Quarter-finals" in bracket and "Semi-finals" in bracket and ">Bracket</a>" in bracket
    groups = client.get(f"/t/{GROUPS_SLUG}/groups/").content.decode()
    assert "Group A" in groups and "Group B" in groups and ">Groups</a>" in groups
    assert Party.objects.filter(round__tournament__slug=GROUPS_SLUG,
                                status=Party.Status.IN_PROGRESS).count() == 1
