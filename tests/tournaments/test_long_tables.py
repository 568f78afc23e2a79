"""Long public tables in pages: the standings and a rating list, their search, "my place",
and the rendered table cached under the page's ETag (a new result: a new key)."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Pair, Party, Player, Profile, RatingEntry, RatingList, Tournament
from scoring.ranking.results import standings_table
from tests.tournaments.play import play

pytestmark = pytest.mark.django_db


@pytest.fixture
def small_pages(settings):
    """Pages of four rows, so sixteen pairs make four pages."""
    settings.PUBLIC_TABLE_PAGE_SIZE = 4
    return settings


def _url(tournament: Tournament) -> str:
    return reverse("tournaments:standings", args=[tournament.slug])


def _row_ids(html: str) -> list[str]:
    return re.findall(r'<tr id="([es]-[\d+]+)"', html)


def _section(html: str) -> str:
    return html[html.index('<section id="standings"'):html.index("</section>")]


def _ranked(tournament: Tournament) -> list[int]:
    return [row.entrant for row in standings_table(tournament).rows]


def test_page_three_holds_the_rows_nine_to_twelve(client, make_field, small_pages):
    t = make_field(16)
    order = _ranked(t)
    html = client.get(_url(t), {"page": 3}).content.decode()
    assert _row_ids(html) == [f"e-{pk}" for pk in order[8:12]]
    named = Pair.objects.select_related("player1").get(pk=order[9])
    assert named.player1.name in html
    assert 'aria-current="page">3<' in html
    assert f'href="{_url(t)}?page=4"' in html  # plain links: no JavaScript needed


def test_search_finds_a_named_player_with_his_rank(client, make_field, small_pages):
    t = make_field(16)
    rows = standings_table(t).rows
    row = rows[10]
    pair = Pair.objects.select_related("player2").get(pk=row.entrant)
    html = client.get(_url(t), {"q": pair.player2.name}).content.decode()
    assert _row_ids(html) == [f"e-{pair.pk}"]
    rank = f"{row.rank}=" if row.shared else str(row.rank)
    assert f"<td>{rank}</td>" in html


def test_my_place_leads_to_the_page_holding_my_row(client, make_field, make_user, small_pages):
    t = make_field(16)
    order = _ranked(t)
    mine = Pair.objects.get(pk=order[13])
    user = make_user("player")
    Player.objects.filter(pk=mine.player1_id).update(user=user)
    client.force_login(user)
    html = client.get(_url(t)).content.decode()
    link = re.search(r'class="my-place" href="([^"]+)"', html)
    assert link is not None
    assert link.group(1) == f"{_url(t)}?page=4#e-{mine.pk}"
    landed = client.get(link.group(1).split("#")[0]).content.decode()
    assert f'id="e-{mine.pk}"' in landed


def test_a_changed_result_is_served_after_a_deal(client, make_field, small_pages):
    t = make_field(16)
    with CaptureQueriesContext(connection) as cold:
        first = client.get(_url(t)).content.decode()
    with CaptureQueriesContext(connection) as warm:
        again = client.get(_url(t)).content.decode()
    assert _section(again) == _section(first)
    assert len(warm) < len(cold)  # the table came from the cache
    top = standings_table(t).rows[0]
    party = Party.objects.get(Q(pair_a=top.entrant) | Q(pair_b=top.entrant),
                              round__tournament=t, status="in_progress")
    play(party.pk, winner="a" if party.pair_a_id == top.entrant else "b")
    changed = client.get(_url(t)).content.decode()
    assert _row_ids(changed)[0] == f"e-{top.entrant}"
    points = top.metrics["match_points"]
    row = re.search(rf'<tr id="e-{top.entrant}".*?</tr>', changed, re.S)
    assert row is not None and f"<td>{points + 2}</td>" in row.group(0)  # his third win


def test_a_club_tournament_is_one_table_as_before(client, make_field):
    t = make_field(20)
    html = client.get(_url(t)).content.decode()
    assert len(_row_ids(html)) == 20
    assert "page-links" not in html and 'name="q"' not in html


def test_the_hall_screen_keeps_the_whole_table(client, make_field, small_pages):
    t = make_field(16)
    html = client.get(reverse("tournaments:hall", args=[t.slug])).content.decode()
    names = set(Player.objects.filter(tournament=t).values_list("name", flat=True))
    assert sum(name in html for name in names) == len(names)


@pytest.fixture
def long_list(organizer, make_field):
    """A players' list of 14 profiles (ratings 2000 down to 1870, "Игрок 00".."Игрок 13")."""
    t = make_field(2, finished=1, start_date=date(2026, 1, 1))
    rating_list = RatingList.objects.create(name="Федерация", slug="fed", created_by=organizer)
    rating_list.tournaments.set([t])
    profiles = [Profile.objects.create(name=f"Игрок {k:02d}", club="Клуб") for k in range(14)]
    RatingEntry.objects.bulk_create(
        RatingEntry(rating_list=rating_list, subject=str(p.pk), profile=p, tournament=t,
                    sequence=1, rating=2000 - 10 * k, deviation=80, games=3, current=True)
        for k, p in enumerate(profiles)
    )
    return rating_list, profiles


def test_rating_list_pages_search_and_my_place(client, long_list, make_user, small_pages):
    rating_list, profiles = long_list
    url = reverse("tournaments:rating_list", args=[rating_list.slug])
    html = client.get(url, {"page": 3}).content.decode()
    assert _row_ids(html) == [f"s-{p.pk}" for p in profiles[8:12]]
    assert "Игрок 09" in html and "Игрок 01" not in html
    found = client.get(url, {"q": "Игрок 10"}).content.decode()
    assert _row_ids(found) == [f"s-{profiles[10].pk}"]
    assert "<td>11</td>" in found  # his rank in the whole list
    user = make_user("fed-player")
    Profile.objects.filter(pk=profiles[12].pk).update(user=user)
    client.force_login(user)
    html = client.get(url).content.decode()
    assert f'href="{url}?page=4#s-{profiles[12].pk}"' in html


def test_rating_list_answers_304_until_it_changes(client, long_list):
    rating_list, profiles = long_list
    url = reverse("tournaments:rating_list", args=[rating_list.slug])
    etag = client.get(url)["ETag"]
    assert client.get(url, headers={"if-none-match": etag}).status_code == 304
    RatingEntry.objects.filter(profile=profiles[13]).update(rating=2500)
    changed = client.get(url, headers={"if-none-match": etag})
    assert changed.status_code == 200
    assert _row_ids(changed.content.decode())[0] == f"s-{profiles[13].pk}"
