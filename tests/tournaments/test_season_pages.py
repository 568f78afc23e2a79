"""Season pages: an organizer creates a season of his tournaments, the public reads its table."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.models import Profile, Season, TournamentPlacing
from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db


def form(**extra):
    """A valid season form's data."""
    data = {"name": "Зимний сезон", "slug": "zima", "scoring": "best_n", "best_n": "2",
            "place_points": "", "public": "on", "tie_break_1": "wins", "tie_break_2": "best",
            "tie_break_3": ""}
    data.update(extra)
    return data


@pytest.fixture
def three(organizer):
    """Three tournaments of the organizer, two people placed in each."""
    events = [TournamentFactory(organizer=organizer, name=f"Вечер {n}", slug=f"vecher-{n}",
                                start_date=f"2026-0{n}-01") for n in (1, 2, 3)]
    anna = Profile.objects.create(name="Анна Иванова", club="Динамо")
    boris = Profile.objects.create(name="Борис <b>Сидоров</b>", club="Спартак")
    for event, (a, b) in zip(events, [(6, 4), (5, 8), (3, 2)], strict=True):
        TournamentPlacing.objects.create(tournament=event, profile=anna, place=1 if a > b else 2,
                                         score=a)
        TournamentPlacing.objects.create(tournament=event, profile=boris,
                                         place=1 if b > a else 2, score=b)
    return events


def test_an_organizer_creates_a_season_of_his_tournaments_and_the_public_reads_it(
    client, organizer, three
):
    client.force_login(organizer)
    mine = client.get(reverse("tournaments:list") + "?mine=1")
    assert reverse("tournaments:seasons").encode() in mine.content
    page = client.get(reverse("tournaments:season_create"))
    assert page.status_code == 200 and "Вечер 2" in page.content.decode()
    response = client.post(reverse("tournaments:season_create"),
                           form(tournaments=[t.pk for t in three]))
    assert response.status_code == 302, response.content.decode()[:3000]
    season = Season.objects.get(slug="zima")
    assert (season.scoring, season.best_n, season.tie_breaks) == ("best_n", 2, ["wins", "best"])
    assert season.created_by == organizer and season.tournaments.count() == 3
    client.logout()
    html = client.get(season.get_absolute_url()).content.decode()
    # Anna 6 + 5 (3 dropped) = 11; Boris 8 + 4 (2 dropped) = 12: Boris first
    body = html[html.index("<tbody>"):html.index("</tbody>")]
    assert body.index("Сидоров") < body.index("Анна Иванова")
    assert "Борис &lt;b&gt;Сидоров&lt;/b&gt;" in body  # names are escaped
    assert '<td class="total">12</td>' in body and '<td class="total">11</td>' in body
    assert body.count('<td class="d">') == 2  # the dropped results: Anna's 3, Boris's 2
    assert "Динамо" in body and "Спартак" in body


def test_a_season_refuses_a_tournament_of_another_organizer(client, organizer, make_user,
                                                            three):
    other = TournamentFactory(organizer=make_user(organizer=True), slug="chuzhoi")
    client.force_login(organizer)
    response = client.post(reverse("tournaments:season_create"),
                           form(tournaments=[three[0].pk, other.pk]))
    assert response.status_code == 200 and not Season.objects.exists()
    assert "tournaments" in response.context["form"].errors


def test_points_by_place_need_points_and_a_tie_break_is_chosen_once(client, organizer, three):
    client.force_login(organizer)
    response = client.post(reverse("tournaments:season_create"),
                           form(scoring="place_points", tournaments=[three[0].pk]))
    assert "place_points" in response.context["form"].errors
    response = client.post(reverse("tournaments:season_create"),
                           form(tie_break_2="wins", tournaments=[three[0].pk]))
    assert "tie_break_1" in response.context["form"].errors
    response = client.post(reverse("tournaments:season_create"),
                           form(scoring="place_points", place_points="10, 6, x"))
    assert "place_points" in response.context["form"].errors
    assert not Season.objects.exists()


def test_only_the_seasons_organizer_edits_it(client, organizer, make_user, three):
    season = Season.objects.create(name="С", slug="s", created_by=organizer,
                                   place_points=[10, 6])
    season.tournaments.set(three)
    client.force_login(make_user(organizer=True))
    assert client.get(reverse("tournaments:season_edit", args=["s"])).status_code == 403
    client.force_login(organizer)
    page = client.get(reverse("tournaments:season_edit", args=["s"]))
    assert page.status_code == 200 and 'value="10, 6"' in page.content.decode()
    response = client.post(reverse("tournaments:season_edit", args=["s"]),
                           form(slug="s", scoring="place_points", place_points="10, 6",
                                best_n="", tournaments=[three[0].pk]))
    assert response.status_code == 302
    season.refresh_from_db()
    assert list(season.tournaments.all()) == [three[0]] and season.best_n is None


def test_a_private_season_and_a_hidden_tournament_are_not_shown(client, organizer, three):
    season = Season.objects.create(name="С", slug="s", created_by=organizer, public=False,
                                   place_points=[10, 6])
    season.tournaments.set(three)
    assert client.get(season.get_absolute_url()).status_code == 404
    season.public = True
    season.save()
    three[1].public_standings = False
    three[1].save()
    html = client.get(season.get_absolute_url()).content.decode()
    assert "Вечер 1" in html and "Вечер 2" not in html
    client.force_login(organizer)
    assert "Вечер 2" in client.get(season.get_absolute_url()).content.decode()


def test_the_season_table_answers_304_until_a_placing_changes(client, organizer, three):
    season = Season.objects.create(name="С", slug="s", created_by=organizer,
                                   place_points=[10, 6])
    season.tournaments.set(three)
    first = client.get(season.get_absolute_url())
    etag = first["ETag"]
    assert client.get(season.get_absolute_url(), HTTP_IF_NONE_MATCH=etag).status_code == 304
    placing = TournamentPlacing.objects.filter(tournament=three[0]).first()
    placing.delete()  # a refresh writes the tournament's placings again
    placing.pk, placing.place = None, 3
    placing.save()
    again = client.get(season.get_absolute_url(), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200 and again["ETag"] != etag


def test_the_season_page_in_russian(client, organizer, three):
    season = Season.objects.create(name="С", slug="s", created_by=organizer, best_n=2,
                                   scoring="best_n")
    season.tournaments.set(three)
    with translation.override("ru"):
        html = client.get(season.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Сумма N лучших результатов" in html and "Итого" in html and "Клуб" in html


def test_the_api_lists_seasons_and_gives_a_table(client, organizer, three):
    season = Season.objects.create(name="С", slug="s", created_by=organizer, best_n=2,
                                   scoring="best_n", tie_breaks=["wins", "best"])
    season.tournaments.set(three)
    Season.objects.create(name="Скрытый", slug="hidden", created_by=organizer, public=False)
    listed = client.get("/api/v1/seasons/").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert [row["slug"] for row in rows] == ["s"]
    data = client.get("/api/v1/seasons/s/").json()
    assert [t["name"] for t in data["tournaments"]] == ["Вечер 1", "Вечер 2", "Вечер 3"]
    top = data["lines"][0]
    assert (top["rank"], top["name"], top["total"], top["wins"], top["best"]) == (
        1, "Борис <b>Сидоров</b>", 12, 1, 8)
    assert sorted((r["points"], r["counted"]) for r in top["results"]) == [
        (2, False), (4, True), (8, True)]
    assert client.get("/api/v1/seasons/hidden/").status_code == 404
    client.force_login(organizer)
    assert client.get("/api/v1/seasons/hidden/").status_code == 200
