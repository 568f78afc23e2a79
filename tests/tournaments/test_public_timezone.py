"""Dates and times on a tournament's pages are shown in the tournament's own time zone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.core.exceptions import ValidationError
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from scoring.core.timezones import TournamentTimeZoneMiddleware, activate_tournament_zone
from scoring.models import Penalty, Round, Tournament
from tournaments.setup.forms import TournamentForm

pytestmark = pytest.mark.django_db

# 06:05 UTC is 16:05 in Vladivostok (UTC+10) and 09:05 in Moscow, the site's default zone.
MOMENT = datetime(2025, 5, 1, 6, 5, tzinfo=UTC)


@pytest.fixture
def far_east(tournament):
    Tournament.objects.filter(pk=tournament.pk).update(time_zone="Asia/Vladivostok")
    tournament.refresh_from_db()
    return tournament


def test_the_table_map_shows_the_start_in_the_tournaments_zone(client, far_east, make_party):
    party = make_party()
    Round.objects.filter(pk=party.round_id).update(scheduled_start=MOMENT)
    html = client.get(reverse("tournaments:current_draw", args=[far_east.slug])).content.decode()
    assert "Starts at 1 May, 16:05." in html
    assert "09:05" not in html


def test_the_party_page_shows_penalty_times_in_the_tournaments_zone(client, far_east, party):
    penalty = Penalty.objects.create(party=party, kind="warning", category="talking", side="a")
    Penalty.objects.filter(pk=penalty.pk).update(created_at=MOMENT)
    html = client.get(party.get_absolute_url()).content.decode()
    assert "16:05 · Warning" in html


def test_the_referee_screen_shows_times_in_the_tournaments_zone(
    client, far_east, party, referee_user
):
    penalty = Penalty.objects.create(party=party, kind="warning", category="talking", side="a")
    Penalty.objects.filter(pk=penalty.pk).update(created_at=MOMENT)
    client.force_login(referee_user)
    html = client.get(reverse("referee:party", args=[party.pk])).content.decode()
    assert "16:05 · <strong>" in html


def test_the_player_area_shows_penalty_times_in_the_tournaments_zone(client, far_east, party):
    player = party.pair_a.player1
    penalty = Penalty.objects.create(
        party=party, kind="warning", category="talking", side="a", player=player
    )
    Penalty.objects.filter(pk=penalty.pk).update(created_at=MOMENT)
    html = client.get(reverse("tournaments:personal_area", args=[player.access_token]))
    assert "1 May, 16:05" in html.content.decode()


def test_each_request_starts_and_ends_in_the_default_zone(far_east):
    def view(request):
        activate_tournament_zone(far_east)
        assert timezone.get_current_timezone_name() == "Asia/Vladivostok"
        return "response"

    timezone.activate(far_east.time_zone)  # left over by an earlier request of this thread
    middleware = TournamentTimeZoneMiddleware(view)
    assert middleware(RequestFactory().get("/")) == "response"
    assert timezone.get_current_timezone_name() == "Europe/Moscow"


def test_an_unknown_zone_is_refused_and_never_breaks_a_page(client, tournament):
    form = TournamentForm(
        data={"name": "X", "slug": "x-zone", "format": "pairs", "rule_set": "sport",
              "status": "registration", "start_date": "2025-05-01",
              "time_zone": "Mars/Olympus", "language": "ru"}
    )
    assert not form.is_valid() and "time_zone" in form.errors
    tournament.time_zone = "Mars/Olympus"
    with pytest.raises(ValidationError):
        tournament.full_clean()
    Tournament.objects.filter(pk=tournament.pk).update(time_zone="Mars/Olympus")
    response = client.get(reverse("tournaments:current_draw", args=[tournament.slug]))
    assert response.status_code == 200
