"""Pages: the demo shows, organizers register through the UI, bad input gets a form error."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Deal, Pair, Player, Table, Tournament
from scoring.party.deals import record_deal

pytestmark = pytest.mark.django_db


def test_home_lists_public_tournaments(client, tournament):
    response = client.get("/")
    assert response.status_code == 200
    assert "Кубок Москвы" in response.content.decode()


def test_hidden_tournament_is_404_for_strangers(client, tournament, make_user):
    tournament.public = False
    tournament.save()
    assert client.get(tournament.get_absolute_url()).status_code == 404
    client.force_login(make_user())
    assert client.get(tournament.get_absolute_url()).status_code == 404
    assert "Кубок Москвы" not in client.get("/").content.decode()


def test_party_page_shows_names_and_running_totals(client, party):
    record_deal(party.pk, outcome="fish", pips={"a1": 5, "a2": 6, "b1": 10, "b2": 3})
    record_deal(
        party.pk, outcome="domino", went_out="b2", pips={"a1": 7, "a2": 8, "b1": 9, "b2": 0}
    )
    html = client.get(party.get_absolute_url()).content.decode()
    assert "Иван Петров" in html and "Мария Волкова" in html
    # deal 1: A 24; deal 2: B 24 → running 24:0 then 24:24
    assert "<td>24</td><td>0</td>" in html
    assert "<td>24</td><td>24</td>" in html


def test_referee_records_deal_on_party_page(client, party, referee_user):
    client.force_login(referee_user)
    response = client.post(
        party.get_absolute_url(),
        {"outcome": "domino", "went_out": "a1", "pips_a1": 0, "pips_a2": 10, "pips_b1": 20,
         "pips_b2": 30, "number": 1, "version": party.version},
    )
    assert response.status_code == 302
    deal = Deal.objects.get(party=party)
    assert (deal.points_a, deal.points_b) == (60, 0)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"outcome": "fish", "pips_a1": 50, "pips_a2": 50, "pips_b1": 40, "pips_b2": 40}, "168"),
        ({"outcome": "fish", "pips_a1": -3, "pips_a2": 5, "pips_b1": 4, "pips_b2": 6}, "0"),
        ({"outcome": "domino", "winner": "a", "points_a": 200, "points_b": 0}, "168"),
    ],
)
def test_bad_deal_through_ui_is_a_form_error(client, party, referee_user, data, message):
    client.force_login(referee_user)
    response = client.post(party.get_absolute_url(), {**data, "number": 1})
    assert response.status_code == 400
    assert "errorlist" in response.content.decode()
    assert message in response.content.decode()
    assert not Deal.objects.filter(party=party).exists()


def test_duplicate_deal_number_through_ui(client, party, referee_user):
    record_deal(party.pk, outcome="fish", pips={"a1": 5, "a2": 6, "b1": 10, "b2": 3})
    client.force_login(referee_user)
    response = client.post(
        party.get_absolute_url(),
        {"outcome": "fish", "pips_a1": 1, "pips_a2": 1, "pips_b1": 2, "pips_b2": 2, "number": 1},
    )
    assert response.status_code == 400
    assert "already recorded" in response.content.decode()
    assert Deal.objects.filter(party=party).count() == 1


def test_anonymous_cannot_record_deals(client, party):
    response = client.post(party.get_absolute_url(), {"outcome": "fish"})
    assert response.status_code == 403
    assert not Deal.objects.filter(party=party).exists()


def test_organizer_creates_tournament_players_pair_and_table(client, organizer):
    client.force_login(organizer)
    response = client.post(
        reverse("tournaments:create"),
        {"name": "Открытый кубок", "slug": "open-cup", "format": "pairs", "rule_set": "sport",
         "status": "registration", "start_date": "2026-12-01", "time_zone": "Europe/Moscow",
         "language": "ru", "public": "on"},
    )
    assert response.status_code == 302
    t = Tournament.objects.get(slug="open-cup")
    assert t.regulations.target == 200
    for name in ("Анна Каренина", "Лев Толстой"):
        r = client.post(reverse("tournaments:player_create", args=[t.slug]), {"name": name,
                        "rating": 0})
        assert r.status_code == 302
    p1, p2 = Player.objects.filter(tournament=t).order_by("id")
    r = client.post(reverse("tournaments:pair_create", args=[t.slug]),
                    {"player1": p1.pk, "player2": p2.pk, "rating": 0})
    assert r.status_code == 302
    assert Pair.objects.filter(tournament=t).count() == 1
    r = client.post(reverse("tournaments:table_create", args=[t.slug]), {"start": 1, "count": 1})
    assert r.status_code == 302 and Table.objects.filter(tournament=t, number=1).exists()
    page = client.get(t.get_absolute_url()).content.decode()
    assert "Анна Каренина / Лев Толстой" in page


def test_pair_with_same_player_twice_through_ui(client, tournament, organizer):
    client.force_login(organizer)
    player = Player.objects.create(tournament=tournament, name="Solo")
    count = Pair.objects.count()
    response = client.post(
        reverse("tournaments:pair_create", args=[tournament.slug]),
        {"player1": player.pk, "player2": player.pk, "rating": 0},
    )
    assert response.status_code == 200
    assert "two different players" in response.content.decode()
    assert Pair.objects.count() == count


def test_duplicate_table_number_through_ui(client, tournament, organizer):
    client.force_login(organizer)
    response = client.post(reverse("tournaments:table_create", args=[tournament.slug]),
                           {"start": 1, "count": 1})
    assert "already exist: 1." in response.content.decode()
    assert Table.objects.filter(tournament=tournament, number=1).count() == 1


def test_other_users_cannot_edit_tournament(client, tournament, make_user):
    client.force_login(make_user())
    assert client.get(reverse("tournaments:edit", args=[tournament.slug])).status_code == 403
    response = client.post(reverse("tournaments:player_create", args=[tournament.slug]),
                           {"name": "Intruder", "rating": 0})
    assert response.status_code == 403
    assert not Player.objects.filter(name="Intruder").exists()


def test_russian_interface(client, party):
    client.post(reverse("set_language"), {"language": "ru", "next": "/"})
    html = client.get(party.get_absolute_url()).content.decode()
    assert "Партия" in html or "Кон" in html or "Стол" in html
    assert 'lang="ru"' in html


def test_tournament_page_leads_to_the_referee_pages_and_signing_pins(
    client, tournament, organizer, referee_user
):
    """The organizer reaches the referees page, the overview and each player's signing PIN
    from the tournament page; a referee reaches his overview; a spectator none of them."""
    from scoring.models import Player

    player = Player.objects.create(tournament=tournament, name="Пётр Сидоров")
    url = f"/t/{tournament.slug}/"
    overview = f"/referee/t/{tournament.slug}/"
    client.force_login(organizer)
    page = client.get(url).content.decode()
    assert f'href="/referee/t/{tournament.slug}/referees/"' in page
    assert f'href="{overview}"' in page
    assert f'href="/players/{player.pk}/signing-pin/"' in page
    client.force_login(referee_user)
    page = client.get(url).content.decode()
    assert f'href="{overview}"' in page and "signing-pin" not in page
    client.logout()
    page = client.get(url).content.decode()
    assert "/referee/" not in page and "signing-pin" not in page
