"""The organizer's one-step forms: a pair with its two players, seeded as the roster import
seeds it; and "add N tables" numbered from the next free number."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Pair, Player, Table
from tournaments.registration.services import add_table, register_player
from tournaments.setup.services import create_tournament
from tournaments.transfer.roster import import_roster

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(organizer):
    return create_tournament(name="Кубок форм", slug="forms-cup", organizer=organizer)


def _pair_url(tournament):
    return reverse("tournaments:pair_create", args=[tournament.slug])


def _new_pair(first, second, **extra):
    data = {"name": extra.pop("name", "")}
    for number, (name, rating) in ((1, first), (2, second)):
        data.update({f"player{number}_name": name, f"player{number}_rating": rating,
                     f"player{number}_club": "Рыба", f"player{number}_city": "Тверь"})
    return {**data, **extra}


@pytest.mark.parametrize("ratings", [(1500, 1480), (1501, 1400), (0, 7), (1411, 1410)])
def test_the_pair_form_seeds_exactly_as_the_roster_import(client, organizer, cup, ratings):
    """One page registers both players and the pair, rated as the import rates the same pair."""
    imported = create_tournament(name="Импорт", slug="imported", organizer=organizer)
    first, second = ratings
    roster = f"name,rating,partner\nАнна,{first},Борис\nБорис,{second},\n"
    assert import_roster(imported, "r.csv", roster.encode(), viewer=None).ok
    client.force_login(organizer)
    response = client.post(_pair_url(cup), _new_pair(("Анна", first), ("Борис", second)))
    assert response.status_code == 302
    pair = Pair.objects.get(tournament=cup)
    assert pair.rating == Pair.objects.get(tournament=imported).rating
    assert pair.rating == (first + second) // 2
    assert {p.name: p.rating for p in pair.players} == {"Анна": first, "Борис": second}
    assert Player.objects.get(tournament=cup, name="Анна").club == "Рыба"


def test_a_registered_player_without_a_pair_can_be_chosen(client, organizer, cup):
    known = register_player(cup, name="Уже Есть", rating=1600)
    client.force_login(organizer)
    page = client.get(_pair_url(cup)).content.decode()
    assert "Уже Есть" in page and "<fieldset class=\"form-part\">" in page
    data = _new_pair(("", ""), ("Новый", 1400))
    data["player1"] = known.pk
    assert client.post(_pair_url(cup), data).status_code == 302
    pair = Pair.objects.get(tournament=cup)
    assert (pair.player1, pair.player2.name, pair.rating) == (known, "Новый", 1500)


def test_a_refused_pair_writes_nothing(client, organizer, cup):
    """A missing name, a player chosen twice, or a player already in a pair: no row written."""
    client.force_login(organizer)
    response = client.post(_pair_url(cup), _new_pair(("Анна", 1500), ("", "")))
    assert response.status_code == 200
    assert "Enter the player&#x27;s name" in response.content.decode()
    assert not Player.objects.filter(tournament=cup).exists()
    bad_rating = _new_pair(("Анна", 1500), ("Борис", "много"))
    assert client.post(_pair_url(cup), bad_rating).status_code == 200
    assert not Player.objects.filter(tournament=cup).exists()
    assert not Pair.objects.exists()


def test_add_n_tables_numbered_from_the_next_free_number(client, organizer, cup):
    add_table(cup, 1)
    add_table(cup, 2)
    client.force_login(organizer)
    url = reverse("tournaments:table_create", args=[cup.slug])
    page = client.get(url).content.decode()
    assert 'name="start" value="3"' in page and 'name="count" value="1"' in page
    response = client.post(url, {"start": 3, "count": 4, "add_another": "1"})
    assert response.status_code == 302 and response["Location"] == url
    assert list(cup.tables.values_list("number", flat=True)) == [1, 2, 3, 4, 5, 6]
    # "Save and add another" comes back with the next number prefilled
    page = client.get(url).content.decode()
    assert 'name="start" value="7"' in page
    assert "Tables 3–6 added." in page


def test_taken_table_numbers_add_nothing(client, organizer, cup):
    add_table(cup, 5)
    client.force_login(organizer)
    url = reverse("tournaments:table_create", args=[cup.slug])
    response = client.post(url, {"start": 3, "count": 4})
    assert response.status_code == 200
    assert "These tables already exist: 5." in response.content.decode()
    assert list(cup.tables.values_list("number", flat=True)) == [5]
    response = client.post(url, {"start": 6, "count": 0})
    assert response.status_code == 200
    assert Table.objects.filter(tournament=cup).count() == 1
