"""Sides of one player: registering them (pages, API, roster import), refusing a second
player, drawing rounds of single players (Swiss, round robin), and Kozel's individual draw
that seats three or four players, each for himself, at every table."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.core.errors import ServiceError
from scoring.models import Pair, Party, Player, Regulations, Round, Table, Tournament
from tournaments.pairing import PlayerEntrant, free_for_all_draw, get_generator
from tournaments.registration.services import register_pair, register_player
from tournaments.rounds import draw_services
from tournaments.rounds import services as rounds
from tournaments.rounds.draws import load_history
from tournaments.setup.services import create_tournament
from tournaments.transfer.roster import import_roster, template_file

pytestmark = pytest.mark.django_db

NAMES = ["Анна Каренина", "Лев Толстой", "José García", "Anna Müller",
         "Ёлкин Щукин", "Эдуард Юдин", "Пётр Первый", "Фёдор Второй", "Юрий Третий"]


def _players(tournament: Tournament, count: int, *, sides: bool = False) -> list[Player]:
    return [
        register_player(tournament, name=NAMES[k], rating=2000 - 10 * k, side=sides)
        for k in range(count)
    ]


def _tables(tournament: Tournament, count: int) -> None:
    for number in range(1, count + 1):
        Table.objects.create(tournament=tournament, number=number)


@pytest.fixture
def udl(organizer):
    """A UDL singles tournament (pairs format: every side is one player)."""
    return create_tournament(name="UDL Open", slug="udl-open", organizer=organizer,
                             rule_set="udl")


@pytest.fixture
def api(organizer):
    client = APIClient()
    client.force_authenticate(organizer)
    return client


def _drawn(tournament: Tournament) -> Round:
    rnd = rounds.create_round(tournament.pk)
    draw_services.generate_draw(rnd.pk, seed=11)
    return rnd


# -- registering sides of one player ---------------------------------------------------------


def test_side_page_registers_one_player(client, organizer, udl):
    player = register_player(udl, name="Анна Каренина")
    client.force_login(organizer)
    url = reverse("tournaments:pair_create", args=[udl.slug])
    page = client.get(url)
    assert "player2" not in page.context["form"].fields
    assert page.context["title"] == "New side"
    response = client.post(url, {"player1": player.pk, "rating": 0})
    assert response.status_code == 302
    side = Pair.objects.get(tournament=udl)
    assert (side.player1_id, side.player2_id, side.display_name) == (
        player.pk, None, "Анна Каренина"
    )


def test_player_page_registers_the_player_as_a_side(client, organizer, udl):
    client.force_login(organizer)
    url = reverse("tournaments:player_create", args=[udl.slug])
    assert "side" in client.get(url).context["form"].fields
    response = client.post(url, {"name": "Лев Толстой", "rating": 1500, "side": "on"})
    assert response.status_code == 302
    side = Pair.objects.get(tournament=udl)
    assert (side.player1.name, side.player2_id, side.rating) == ("Лев Толстой", None, 1500)
    response = client.post(url, {"name": "Anna Müller", "rating": 0})
    assert response.status_code == 302
    assert Pair.objects.filter(tournament=udl).count() == 1  # the box left unticked


def test_player_page_of_a_pairs_tournament_has_no_side_box(client, organizer, tournament):
    client.force_login(organizer)
    page = client.get(reverse("tournaments:player_create", args=[tournament.slug]))
    assert "side" not in page.context["form"].fields


def test_second_player_refused_in_singles(udl):
    first, second = _players(udl, 2)
    with pytest.raises(ServiceError) as err:
        register_pair(udl, first, second)
    assert err.value.field == "player2"
    assert not Pair.objects.filter(tournament=udl).exists()


def test_tournament_page_lists_sides_by_the_single_names(client, organizer, udl):
    _players(udl, 2, sides=True)
    client.force_login(organizer)
    page = client.get(udl.get_absolute_url()).content.decode()
    assert "Sides (2)" in page and "Add side" in page and "Add pair" not in page
    assert "Анна Каренина" in page and "Анна Каренина /" not in page
    assert "Лев Толстой /" not in page


def test_api_registers_a_side_of_one_player(api, udl):
    first, second = _players(udl, 2)
    response = api.post("/api/v1/pairs/", {"tournament": udl.pk, "player1": first.pk,
                                        "player2": None}, format="json")
    assert response.status_code == 201, response.data
    assert (response.data["player2"], response.data["display_name"]) == (None, "Анна Каренина")
    response = api.post("/api/v1/pairs/", {"tournament": udl.pk, "player1": second.pk},
                        format="json")
    assert response.status_code == 201, response.data
    assert api.get(f"/api/v1/tournaments/{udl.pk}/").data["singles"] is True


def test_api_refuses_a_second_player_in_singles(api, udl):
    first, second = _players(udl, 2)
    response = api.post("/api/v1/pairs/", {"tournament": udl.pk, "player1": first.pk,
                                        "player2": second.pk}, format="json")
    assert response.status_code == 400
    assert "player2" in response.data
    assert not Pair.objects.filter(tournament=udl).exists()


def test_api_refuses_a_lone_player_in_a_pairs_rule_set(api, tournament):
    player = Player.objects.create(tournament=tournament, name="Solo")
    response = api.post("/api/v1/pairs/", {"tournament": tournament.pk, "player1": player.pk,
                                        "player2": None}, format="json")
    assert response.status_code == 400
    assert "player2" in response.data


# -- roster import ----------------------------------------------------------------------------


def test_import_of_one_player_rows_registers_players_and_sides(udl):
    content = (
        "name,club,city,rating,pair\n"
        "Анна Каренина,Дубль,Москва,1500,\n"
        "José García,Capicúa,Madrid,1420,Los Dominós\n"
    ).encode()
    report = import_roster(udl, "roster.csv", content, viewer=None)
    assert report.imported and (report.players, report.pairs) == (2, 2)
    sides = sorted(
        (p.player1.name, p.player2_id, p.name, p.rating)
        for p in Pair.objects.filter(tournament=udl).select_related("player1")
    )
    assert sides == sorted([("Анна Каренина", None, "", 1500),
                            ("José García", None, "Los Dominós", 1420)])


def test_import_refuses_a_partner_in_singles(udl):
    content = (
        "name,partner\n"
        "Анна Каренина,José García\n"
        "José García,\n"
    ).encode()
    report = import_roster(udl, "roster.csv", content, viewer=None)
    assert not report.imported
    assert "partner" in report.rows[0].errors
    assert not Player.objects.filter(tournament=udl).exists()


def test_import_page_of_singles(client, organizer, udl):
    client.force_login(organizer)
    csv = "name,rating\nАнна Каренина,1500\nЛев Толстой,1400\n".encode()
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = client.post(reverse("tournaments:import", args=[udl.slug]),
                           {"file": SimpleUploadedFile("r.csv", csv), "action": "import"})
    assert response.status_code == 302
    assert Pair.objects.filter(tournament=udl, player2__isnull=True).count() == 2


def test_singles_template_has_no_partner_column(udl):
    header = template_file(udl, "csv").decode("utf-8-sig").splitlines()[0]
    assert header == "name,club,city,country,rating,birth_year,federation_id"


# -- draws of one-player sides -----------------------------------------------------------------


@pytest.mark.parametrize("system", ["swiss", "round_robin"])
def test_singles_round_is_drawn(udl, system):
    Regulations.objects.filter(tournament=udl).update(pairing_system=system)
    _players(udl, 7, sides=True)
    _tables(udl, 4)
    rnd = _drawn(udl)
    parties = list(Party.objects.filter(round=rnd).select_related("pair_a", "pair_b", "table"))
    played = [p for p in parties if not p.is_bye]
    assert len(played) == 3 and len([p for p in parties if p.is_bye]) == 1
    seated = [pk for p in parties for pk in (p.pair_a_id, p.pair_b_id) if pk]
    assert sorted(seated) == sorted(udl.pairs.values_list("pk", flat=True))
    for party in played:
        assert sorted(party.seat_players()) == ["a1", "b1"]


def test_singles_draw_pages_show_single_names(client, organizer, udl):
    _players(udl, 4, sides=True)
    _tables(udl, 2)
    rnd = _drawn(udl)
    rounds.publish_round(rnd.pk)
    client.force_login(organizer)
    for url in (udl.get_absolute_url(), rnd.get_absolute_url(),
                reverse("tournaments:current_draw", args=[udl.slug])):
        page = client.get(url).content.decode()
        for name in NAMES[:4]:
            assert name in page, url
            assert f"{name} /" not in page and f"/ {name}" not in page, url


@pytest.fixture
def goats(organizer):
    """A Kozel tournament of single players: the individual format."""
    return create_tournament(name="Козёл", slug="goats", organizer=organizer,
                             rule_set="kozel", format="individual")


@pytest.mark.parametrize(("players", "count", "tables", "byes"), [(4, 9, 2, 1), (3, 7, 2, 1)])
def test_kozel_individual_seats_players_alone(goats, players, count, tables, byes):
    regulations = Regulations.objects.get(tournament=goats)
    regulations.players = players
    regulations.save()
    _players(goats, count)
    _tables(goats, 3)
    rnd = _drawn(goats)
    parties = list(Party.objects.filter(round=rnd).select_related("pair_a", "pair_b"))
    played = [p for p in parties if not p.is_bye]
    assert len(played) == tables and len(parties) - len(played) == byes
    seated = Counter(p.pk for party in parties for p in party.seat_players().values())
    assert sorted(seated) == sorted(goats.players.values_list("pk", flat=True))
    assert set(seated.values()) == {1}
    seats = ["a1", "a2", "b1", "b2"][: players] if players == 4 else ["a1", "a2", "b1"]
    for party in played:
        assert sorted(party.seat_players()) == seats
        assert party.pair_a.formed_in_round_id == rnd.pk


def test_kozel_history_counts_everyone_at_a_table_as_an_opponent(goats):
    _players(goats, 8)
    _tables(goats, 2)
    rnd = _drawn(goats)
    history = load_history(goats, rnd.number + 1)
    for party in Party.objects.filter(round=rnd):
        table = [p.pk for p in party.seat_players().values()]
        for pk in table:
            assert history.opponents[pk] == set(table) - {pk}
            assert not history.partners.get(pk)


def _met(tables) -> dict[int, set[int]]:
    met: dict[int, set[int]] = {}
    for table in tables:
        for x, y in combinations(table.entrants, 2):
            met.setdefault(x, set()).add(y)
            met.setdefault(y, set()).add(x)
    return met


@pytest.mark.parametrize(("size", "count"), [(4, 16), (3, 9), (4, 24)])
def test_kozel_next_round_avoids_earlier_opponents(size, count):
    players = [PlayerEntrant(id=k, rank=k, score=0, rating=100 - k) for k in range(count)]
    first = free_for_all_draw(players, round_number=1, table_size=size)
    assert first.tables[0].entrants == ((0, 2, 1, 3) if size == 4 else (0, 2, 1))
    met = _met(first.tables)
    later = [PlayerEntrant(id=k, rank=k, score=0, opponents=frozenset(met[k]))
             for k in range(count)]
    second = get_generator("free_for_all", table_size=size).generate(later, round_number=2)
    assert second.warnings == []
    assert sorted(p for t in second.tables for p in t.entrants) == list(range(count))
    for table in second.tables:
        assert not any(y in met[x] for x, y in combinations(table.entrants, 2))


def test_free_for_all_keeps_repeats_to_the_unavoidable():
    """Eight players after one round of two tables: every table must repeat two meetings."""
    players = [PlayerEntrant(id=k, rank=k, score=0) for k in range(8)]
    met = _met(free_for_all_draw(players, round_number=1).tables)
    later = [PlayerEntrant(id=k, rank=k, score=0, opponents=frozenset(met[k])) for k in range(8)]
    second = free_for_all_draw(later, round_number=2)
    assert second.warnings == ["4 player-opponent meetings repeat an earlier round."]


def test_free_for_all_warns_when_meetings_must_repeat():
    met = {0: {1, 2}, 1: {0, 2}, 2: {0, 1}}
    players = [PlayerEntrant(id=k, rank=k, score=0, opponents=frozenset(met[k]))
               for k in range(3)]
    draw = free_for_all_draw(players, round_number=2, table_size=3)
    assert len(draw.tables) == 1 and draw.tables[0].pair_b == (1,)
    assert draw.warnings and "3 player-opponent meetings" in draw.warnings[0]


def test_kozel_manual_draw_checks_the_table_size(goats):
    players = [p.pk for p in _players(goats, 8)]
    _tables(goats, 2)
    rnd = rounds.create_round(goats.pk)
    with pytest.raises(ServiceError) as err:
        draw_services.edit_draw(rnd.pk, parties=[(1, players[:2], players[2:5])], byes=players[5:])
    assert "seats 4 players" in err.value.message
    draw_services.edit_draw(rnd.pk, parties=[(1, players[:2], players[2:4]),
                                      (2, players[4:6], players[6:8])])
    assert Party.objects.filter(round=rnd).count() == 2


def test_a_format_that_contradicts_the_game_is_refused_at_the_draw(goats):
    """An old tournament saved before the check: the draw names the format, draws nothing."""
    Tournament.objects.filter(pk=goats.pk).update(format="pairs")
    goats.refresh_from_db()
    _players(goats, 4, sides=False)
    _tables(goats, 1)
    rnd = rounds.create_round(goats.pk)
    with pytest.raises(ServiceError) as err:
        draw_services.generate_draw(rnd.pk)
    assert err.value.field == "format"
    assert not Party.objects.filter(round=rnd).exists()
