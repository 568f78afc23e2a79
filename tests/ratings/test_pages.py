"""Rating list pages, CSV and API; seeding a tournament's entrants from a list."""

from __future__ import annotations

from datetime import date

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring.models import Pair, Player, Profile, RatingEntry, RatingList
from scoring.ranking.rating_runs import recompute_rating_list

from .test_service import linked_field

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(make_field, organizer):
    """Eight people (one with a formula-like name) over two tournaments, a Glicko-2 list."""
    names = ["=HYPERLINK(1)", "Иван Петров", "Ёлкин Щукин", "Anna Müller",
             "Сергей Смирнов", "Ольга Морозова", "Мария Волкова", "Эдуард Юдин"]
    profiles = [Profile.objects.create(name=name, club="Клуб «Дубль»") for name in names]
    early = linked_field(make_field, profiles, "winter", date(2026, 2, 1))
    late = linked_field(make_field, profiles, "spring", date(2026, 5, 1))
    rating_list = RatingList.objects.create(name="Рейтинг клуба", slug="club", created_by=organizer)
    rating_list.tournaments.set([early, late])
    recompute_rating_list(rating_list.pk)
    return rating_list, early, late, profiles


def test_public_page_ranks_every_player_with_rating_and_rd(rated, client):
    rating_list = rated[0]
    page = client.get("/ratings/club/")
    assert page.status_code == 200
    text = page.content.decode()
    ranked = list(RatingEntry.objects.filter(rating_list=rating_list, current=True).order_by(
        "-rating").select_related("profile"))
    best, worst = ranked[0], ranked[-1]
    assert text.index(f">{best.profile.name}<") < text.index(f">{worst.profile.name}<")
    for name in ("Ёлкин Щукин", "Иван Петров", "Клуб «Дубль»"):
        assert name in text
    assert ">RD<" in text and str(round(best.rating)) in text
    assert client.get("/ratings/").content.decode().count("Рейтинг клуба") == 1


def test_page_in_russian(rated, client):
    client.cookies["django_language"] = "ru"
    text = client.get("/ratings/club/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Рейтинг" in text and "Партии" in text and "Скачать CSV" in text


def test_csv_download_is_spreadsheet_safe(rated, client):
    response = client.get("/ratings/club/ratings.csv")
    assert response["Content-Type"].startswith("text/csv")
    body = response.content.decode("utf-8-sig")
    lines = body.splitlines()
    assert lines[0].startswith("Rank,Name,Partner,Club,Rating,RD,Parties")
    assert len(lines) == 9
    assert "'=HYPERLINK(1)" in body and ",=HYPERLINK" not in body


def test_private_list_is_hidden_from_others(rated, client, make_user):
    rating_list = rated[0]
    rating_list.public = False
    rating_list.save()
    assert client.get("/ratings/club/").status_code == 404
    assert client.get("/ratings/club/ratings.csv").status_code == 404
    client.force_login(rating_list.created_by)
    assert client.get("/ratings/club/").status_code == 200


def test_organizer_creates_a_list_and_only_he_edits_it(rated, make_user):
    _list, early, late, _profiles = rated
    owner = make_user("owner", organizer=True)
    early.public = late.public = True
    early.save()
    late.save()
    client = Client()
    client.force_login(owner)
    response = client.post("/ratings/new/", {
        "name": "Эло", "slug": "elo", "system": "elo", "subject": "players",
        "parameters": '{"k": 16}', "public": "on", "tournaments": [early.pk, late.pk],
    })
    assert response.status_code == 302 and response["Location"] == "/ratings/elo/"
    created = RatingList.objects.get(slug="elo")
    assert created.created_by == owner and created.parameters == {"k": 16}
    assert RatingEntry.objects.filter(rating_list=created, current=True).count() == 8
    bad = client.post("/ratings/elo/edit/", {
        "name": "Эло", "slug": "elo", "system": "elo", "subject": "players",
        "parameters": '{"kk": 16}', "tournaments": [early.pk]})
    assert bad.status_code == 200 and "kk" in bad.content.decode()
    other = Client()
    other.force_login(make_user("rival", organizer=True))
    assert other.get("/ratings/elo/edit/").status_code == 403
    assert other.post("/ratings/elo/edit/", {"name": "Чужой"}).status_code == 403
    assert RatingList.objects.get(slug="elo").name == "Эло"


def test_a_private_tournament_of_another_organizer_cannot_be_rated(rated, make_user):
    _list, early, _late, _profiles = rated
    early.public = False
    early.save()
    client = Client()
    client.force_login(make_user("rival", organizer=True))
    response = client.post("/ratings/new/", {
        "name": "Чужой", "slug": "alien", "system": "elo", "subject": "players",
        "parameters": "{}", "tournaments": [early.pk]})
    assert response.status_code == 200 and not RatingList.objects.filter(slug="alien").exists()


def test_take_ratings_seeds_players_and_pairs(rated, make_field, organizer):
    rating_list, _early, _late, profiles = rated
    nxt = linked_field(make_field, profiles, "next", date(2026, 9, 1))
    stranger = Player.objects.create(tournament=nxt, name="Новичок", rating=1234)
    client = Client()
    client.force_login(organizer)
    page = client.get(f"/t/{nxt.slug}/take-ratings/")
    assert page.status_code == 200 and "Рейтинг клуба" in page.content.decode()
    response = client.post(f"/t/{nxt.slug}/take-ratings/", {"rating_list": rating_list.pk})
    assert response.status_code == 302
    current = {e.profile_id: e.rating for e in
               RatingEntry.objects.filter(rating_list=rating_list, current=True)}
    for player in Player.objects.filter(tournament=nxt, profile__isnull=False):
        assert player.rating == round(current[player.profile_id])
    stranger.refresh_from_db()
    assert stranger.rating == 1234
    for pair in Pair.objects.filter(tournament=nxt).select_related("player1", "player2"):
        assert pair.rating == (pair.player1.rating + pair.player2.rating) // 2


def test_take_ratings_refuses_a_pairs_list(rated, organizer):
    _list, early, late, _profiles = rated
    pairs = RatingList.objects.create(name="Пары", slug="pairs", subject="pairs",
                                      created_by=organizer)
    client = Client()
    client.force_login(organizer)
    response = client.post(f"/t/{late.slug}/take-ratings/", {"rating_list": pairs.pk})
    assert response.status_code == 200
    assert not Player.objects.filter(tournament=late).exclude(rating=0).exists()


def test_api_reads_for_everyone_and_writes_for_the_creator(rated, make_user):
    rating_list, early, late, _profiles = rated
    api = APIClient()
    lists = api.get("/api/v1/rating-lists/").json()
    assert [item["slug"] for item in lists["results"]] == ["club"]
    paged = api.get(f"/api/v1/rating-lists/{rating_list.pk}/ratings/").json()
    lines = paged["results"]
    assert paged["count"] == len(lines) == 8 and lines[0]["rank"] == 1
    assert lines[0]["rating"] >= lines[-1]["rating"] and lines[0]["deviation"] < 350
    history = api.get(f"/api/v1/rating-lists/{rating_list.pk}/history/",
                      {"profile": lines[0]["profile"]}).json()["results"]
    assert [row["sequence"] for row in history] == [1, 2]
    csv = api.get(f"/api/v1/rating-lists/{rating_list.pk}/csv/")
    assert csv.status_code == 200 and "'=HYPERLINK(1)" in csv.content.decode("utf-8-sig")
    assert api.patch(f"/api/v1/rating-lists/{rating_list.pk}/", {"name": "X"},
                     format="json").status_code in (401, 403)
    api.force_authenticate(make_user("rival", organizer=True))
    assert api.patch(f"/api/v1/rating-lists/{rating_list.pk}/", {"name": "X"},
                     format="json").status_code == 403
    api.force_authenticate(rating_list.created_by)
    changed = api.patch(f"/api/v1/rating-lists/{rating_list.pk}/",
                        {"system": "elo", "tournaments": [early.pk]}, format="json")
    assert changed.status_code == 200, changed.content
    assert RatingEntry.objects.filter(rating_list=rating_list, deviation__isnull=True,
                                      sequence=1).count() == 8
    refused = api.patch(f"/api/v1/rating-lists/{rating_list.pk}/", {"parameters": {"k": -1}},
                        format="json")
    assert refused.status_code == 400 and "parameters" in refused.json()
    for not_an_object in (7.0, [["k", 16]], "k=16"):  # found by schemathesis: was a 500
        refused = api.post("/api/v1/rating-lists/", {
            "name": "Рейтинг Москвы", "slug": "moscow", "system": "glicko2", "subject": "pairs",
            "parameters": not_an_object, "tournaments": [early.pk]}, format="json")
        assert refused.status_code == 400, refused.content
        assert "object" in str(refused.json()["parameters"])
    assert not RatingList.objects.filter(slug="moscow").exists()


def test_api_takes_ratings_for_the_organizer_only(rated, make_field, organizer, make_user):
    rating_list, _early, _late, profiles = rated
    nxt = linked_field(make_field, profiles, "api-next", date(2026, 9, 1))
    Player.objects.create(tournament=nxt, name="Новичок", rating=1234)
    url = f"/api/v1/tournaments/{nxt.pk}/take-ratings/"
    rival = APIClient()
    rival.force_authenticate(make_user("rival", organizer=True))
    assert rival.post(url, {"rating_list": rating_list.pk}, format="json").status_code == 403
    assert not Player.objects.filter(tournament=nxt, profile__isnull=False).exclude(
        rating=0).exists()
    api = APIClient()
    api.force_authenticate(organizer)
    response = api.post(url, {"rating_list": rating_list.pk}, format="json")
    assert response.status_code == 200, response.content
    linked = Player.objects.filter(tournament=nxt, profile__isnull=False)
    assert response.json() == {"players": linked.count()} and linked.count() > 0
    current = {e.profile_id: e.rating for e in
               RatingEntry.objects.filter(rating_list=rating_list, current=True)}
    assert all(p.rating == round(current[p.profile_id]) for p in linked)
    pairs = RatingList.objects.create(name="Пары", slug="pairs", subject="pairs",
                                      created_by=organizer)
    response = api.post(url, {"rating_list": pairs.pk}, format="json")
    assert response.status_code == 400 and list(response.json()) == ["rating_list"]
