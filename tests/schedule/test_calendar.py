"""The public calendar: what it lists, its filters, its iCalendar feed, the API's twin."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse
from icalendar import Calendar
from rest_framework.test import APIClient

from scoring.models import Season, Tournament
from tests.factories import RoundFactory, TournamentFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def events(organizer):
    """Four tournaments: upcoming in Kazan, running in Moscow, finished in Kazan, a private one."""
    kazan = TournamentFactory(name="Кубок Казани", slug="kazan", city="Казань", organizer=organizer,
                              start_date=date(2026, 12, 20), venue="Дворец спорта")
    moscow = TournamentFactory(name="Турнир Москвы", slug="moscow", city="Москва",
                               organizer=organizer, status=Tournament.Status.RUNNING,
                               format=Tournament.Format.INDIVIDUAL)
    old = TournamentFactory(name="Осенний кубок", slug="old", city="Казань", organizer=organizer,
                            status=Tournament.Status.FINISHED, start_date=date(2026, 9, 1))
    hidden = TournamentFactory(name="Закрытый турнир", slug="hidden", city="Казань",
                               organizer=organizer, public=False)
    RoundFactory(tournament=moscow, number=1)
    season = Season.objects.create(name="Сезон 2026", slug="s26")
    season.tournaments.add(kazan, hidden)
    return {"kazan": kazan, "moscow": moscow, "old": old, "hidden": hidden}


def _names(html: str, section: str) -> list[str]:
    part = html.split(f'id="calendar-{section}"', 1)[1].split("</section>", 1)[0]
    return [name for name in ("Кубок Казани", "Турнир Москвы", "Осенний кубок",
                              "Закрытый турнир") if name in part]


def test_the_calendar_lists_public_tournaments_by_section_never_a_private_one(client, events,
                                                                           organizer):
    client.force_login(organizer)  # even its organizer does not see it here: the calendar is public
    html = client.get(reverse("tournaments:calendar")).content.decode()
    assert _names(html, "upcoming") == ["Кубок Казани"]
    assert _names(html, "running") == ["Турнир Москвы"]
    assert _names(html, "finished") == ["Осенний кубок"]
    assert "Закрытый турнир" not in html
    assert events["kazan"].get_absolute_url() in html
    assert "1 round" in html  # Moscow's round counted


def test_the_calendar_filters_by_city_game_format_season_and_when(client, events):
    url = reverse("tournaments:calendar")

    def listed(**query):
        html = client.get(url, query).content.decode()
        return sorted(n for s in ("upcoming", "running", "finished") if f"calendar-{s}" in html
                      for n in _names(html, s))

    assert listed(city="Казань") == ["Кубок Казани", "Осенний кубок"]
    assert listed(city="Казань", when="finished") == ["Осенний кубок"]
    assert listed(format="individual") == ["Турнир Москвы"]
    assert listed(season="s26") == ["Кубок Казани"]  # the private one of the season stays out
    assert listed(rule_set="sport") == ["Кубок Казани", "Осенний кубок", "Турнир Москвы"]
    assert listed(city="Атлантида") == ["Кубок Казани", "Осенний кубок", "Турнир Москвы"]


def test_the_city_filter_offers_only_public_tournaments_cities(client, events):
    events["hidden"].city = "Тайный город"
    events["hidden"].save()
    html = client.get(reverse("tournaments:calendar")).content.decode()
    assert '<option value="Казань">' in html and "Тайный город" not in html


def test_the_calendar_is_linked_from_the_home_page_and_the_navigation(client, events):
    html = client.get(reverse("tournaments:list")).content.decode()
    assert html.count(f'href="{reverse("tournaments:calendar")}"') >= 2


def test_the_calendar_feed_parses_with_one_event_per_tournament(client, events):
    body = client.get(reverse("tournaments:calendar_ics"), {"city": "Казань"})
    assert body["Content-Type"].startswith("text/calendar")
    feed = Calendar.from_ical(body.content)
    found = {str(e["summary"]): e for e in feed.walk("VEVENT")}
    assert set(found) == {"Кубок Казани", "Осенний кубок"}
    kazan = found["Кубок Казани"]
    assert kazan.decoded("dtstart") == date(2026, 12, 20)
    assert kazan.decoded("dtend") == date(2026, 12, 21)
    assert str(kazan["location"]) == "Дворец спорта, Казань"
    assert str(kazan["url"]).endswith("/t/kazan/")


def test_the_calendar_api_lists_the_same_with_the_same_filters(events):
    api = APIClient()
    answer = api.get("/api/v1/calendar/", {"city": "Казань", "when": "upcoming"})
    assert answer.status_code == 200, answer.data
    assert [row["slug"] for row in answer.data["results"]] == ["kazan"]
    assert answer.data["results"][0]["url"] == "/t/kazan/"
    every = api.get("/api/v1/calendar/", {"format": "individual"}).data["results"]
    assert [row["slug"] for row in every] == ["moscow"] and every[0]["rounds"] == 1
    refused = api.get("/api/v1/calendar/", {"when": "someday"})
    assert refused.status_code == 400 and "when" in refused.data
    assert api.get("/api/v1/calendar/", {"town": "x"}).status_code == 400


def test_the_calendar_page_reads_as_many_queries_for_many_tournaments_as_for_few(client, events,
                                                                              organizer):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries() -> int:
        with CaptureQueriesContext(connection) as seen:
            assert client.get(reverse("tournaments:calendar")).status_code == 200
        return len(seen)

    few = queries()
    for k in range(12):
        moscow = TournamentFactory(name=f"Вечер {k}", slug=f"evening-{k}", city="Москва",
                                   organizer=organizer)
        RoundFactory(tournament=moscow, number=1)
    # cities, seasons, the tournaments with their rounds counted, their entry settings
    assert queries() == few == 4
