"""Registering teams of a team tournament: a team with its pairs (registered or new), its
captain and rating; each rule's refusal names its field and writes nothing."""

from __future__ import annotations

import pytest

from scoring.core.errors import ServiceError
from scoring.models import Pair, Player, Team, Tournament
from tournaments.registration.services import register_pair
from tournaments.registration.teams import (
    NewPair,
    register_team,
    remove_team,
    team_rating,
    update_team,
    withdraw_team,
)
from tournaments.setup.services import create_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(organizer):
    """A team tournament of squads up to three pairs, with four registered pairs."""
    cup = create_tournament(name="Командный кубок", slug="team-cup", organizer=organizer,
                            format=Tournament.Format.TEAMS, team_squad_pairs=3)
    for k, rating in enumerate((1600, 1400, 1500, 1300), start=1):
        first = Player.objects.create(tournament=cup, name=f"Игрок {k}А", rating=rating)
        second = Player.objects.create(tournament=cup, name=f"Игрок {k}Б", rating=rating)
        register_pair(cup, first, second)
    return cup


def pairs(cup) -> list[Pair]:
    return list(Pair.objects.filter(tournament=cup).order_by("id"))


def counts(cup) -> tuple[int, int, int]:
    return (Team.objects.filter(tournament=cup).count(), cup.players.count(),
            Pair.objects.filter(tournament=cup, team__isnull=False).count())


def test_a_team_of_registered_pairs_with_its_captain_and_rating(cup):
    first, second, *_rest = pairs(cup)
    done = register_team(cup, name="Дубль-шесть", club="Дубль", country="Россия",
                         pairs=[first, second], captain=second.player1)
    team = done.team
    assert (team.name, team.club, team.country) == ("Дубль-шесть", "Дубль", "Россия")
    assert team.captain == second.player1
    assert team.rating == 1500 == team_rating([first, second])
    assert set(team.pairs.all()) == {first, second}
    assert not done.new_pairs and not done.new_players


def test_new_pairs_are_registered_with_their_players(cup):
    new = [NewPair(({"name": "Анна Белова", "rating": 1500}, {"name": "Вера Котова",
                                                               "rating": 1401}), "Дамы"),
           NewPair(({"name": "José García", "rating": 1200}, {"name": "Ёжик Ли"}))]
    done = register_team(cup, name="Сборная", pairs=new, captain=(2, 1))
    assert [p.rating for p in done.pairs] == [1450, 600]
    assert done.team.rating == 1025
    assert done.team.captain.name == "José García"
    assert len(done.new_players) == 4
    assert done.pairs[0].name == "Дамы" and done.pairs[0].team == done.team
    # the captain may also be named
    other = register_team(cup, name="Ещё", pairs=pairs(cup)[:2], captain="игрок 1а")
    assert other.team.captain.name == "Игрок 1А"


@pytest.mark.parametrize(("kwargs", "field", "message"), [
    ({"name": "  "}, "name", "Enter the team's name."),
    ({"name": "первые"}, "name", "The team первые is already registered"),
    ({"pairs": "one"}, "pairs", "A team needs at least 2 pairs"),
    ({"pairs": "four"}, "pairs", "A team has at most 3 pairs"),
    ({"pairs": "taken"}, "pair1", "already plays for the team Первые"),
    ({"pairs": "twice"}, "pair2", "is given twice"),
    ({"pairs": "player twice"}, "pair2_player1", "already"),
    ({"pairs": "player of another team"}, "pairs", "Игрок 1А already plays for the team "
                                                   "Первые"),
    ({"pairs": "player twice in the team"}, "pairs", "Игрок 3А is in two pairs of the team"),
    ({"pairs": "bad new player"}, "pair2_player1_name", "This field cannot be blank"),
    ({"captain": "Никто"}, "captain", "Никто does not play for the team"),
    ({"captain": (3, 1)}, "captain", "must be one of the team's players"),
])
def test_refusals_name_the_field_and_write_nothing(cup, kwargs, field, message):
    p1, p2, p3, p4 = pairs(cup)
    register_team(cup, name="Первые", pairs=[p1, p2])
    spare_player = Player.objects.create(tournament=cup, name="Запасной")
    # pairs sharing a player, as an older edit could leave them (the ORM skips the checks)
    shared_first = Pair.objects.create(tournament=cup, player1=p1.player1, player2=spare_player)
    shared_third = Pair.objects.create(tournament=cup, player1=p3.player1, player2=spare_player)
    before = counts(cup)
    choice = {
        "one": [p3],
        "four": [p3, p4, NewPair(({"name": "Н1"}, {"name": "Н2"})),
                 NewPair(({"name": "Н3"}, {"name": "Н4"}))],
        "taken": [p1, p3],
        "twice": [p3, p3],
        "player twice": [p3, NewPair((p3.player1, spare_player))],
        "player of another team": [p3, shared_first],
        "player twice in the team": [p3, shared_third],
        "bad new player": [p3, NewPair(({"name": ""}, {"name": "Н2"}))],
    }
    args = {"name": "Вторые", "pairs": [p3, p4], **kwargs}
    args["pairs"] = choice.get(args["pairs"], args["pairs"]) if isinstance(
        args["pairs"], str) else args["pairs"]
    with pytest.raises(ServiceError) as err:
        register_team(cup, **args)
    assert err.value.field == field
    assert message in err.value.message
    assert counts(cup) == before
    assert set(Pair.objects.filter(team__isnull=False)) == {p1, p2}
    assert Pair.objects.filter(tournament=cup).count() == 6


def test_only_a_team_tournament_has_teams(tournament):
    with pytest.raises(ServiceError) as err:
        register_team(tournament, name="Команда", pairs=[])
    assert err.value.field == "tournament"
    assert not Team.objects.exists()


def test_changing_a_team_replaces_its_pairs_and_keeps_the_captain(cup):
    p1, p2, p3, p4 = pairs(cup)
    team = register_team(cup, name="Первые", pairs=[p1, p2], captain=p1.player2).team
    done = update_team(team.pk, name="Первые-2", pairs=[p1, p3, p4])
    assert done.released == [p2]
    assert set(done.team.pairs.all()) == {p1, p3, p4}
    assert done.team.captain == p1.player2 and done.team.rating == 1466
    done = update_team(team.pk, pairs=[p3, p4], captain=p4.player1)
    assert done.released == [p1] and Pair.objects.get(pk=p1.pk).team is None
    assert Team.objects.get(pk=team.pk).captain == p4.player1
    # the captain's pair leaves without a new captain: refused, nothing changes
    with pytest.raises(ServiceError) as err:
        update_team(team.pk, pairs=[p1, p3])
    assert err.value.field == "captain"
    assert set(Team.objects.get(pk=team.pk).pairs.all()) == {p3, p4}
    with pytest.raises(ServiceError) as err:
        update_team(team.pk, colour="red")
    assert err.value.field == "colour"


def test_withdraw_reinstate_and_remove(cup):
    p1, p2, *_ = pairs(cup)
    team = register_team(cup, name="Первые", pairs=[p1, p2]).team
    assert withdraw_team(team.pk).withdrawn is True
    assert not Team.objects.get(pk=team.pk).available
    assert withdraw_team(team.pk, withdrawn=False).withdrawn is False
    remove_team(team.pk)
    assert not Team.objects.exists()
    assert Pair.objects.filter(pk__in=[p1.pk, p2.pk], team__isnull=True).count() == 2


# -- the organizer's pages -------------------------------------------------------------------


def _new_team_form(**more) -> dict:
    return {"name": "Рыба", "club": "Клуб Рыба", "country": "Беларусь",
            "pair1_player1_name": "Пётр Рыбин", "pair1_player1_rating": "1500",
            "pair1_player2_name": "Павел Карпов", "pair1_player2_rating": "1400",
            "pair2_player1_name": "Олег Щукин", "pair2_player2_name": "Иван Окунев",
            "captain": "new:2:1", **more}


def test_the_organizer_registers_a_team_by_form_in_russian(client, cup, organizer):
    client.force_login(organizer)
    client.cookies["django_language"] = "ru"
    url = f"/t/{cup.slug}/teams/new/"
    html = client.get(url).content.decode()
    assert "Название команды" in html and "Капитан" in html
    assert 'name="pair3_player1_name"' in html  # squad of three: three new pairs offered
    response = client.post(url, _new_team_form())
    assert response.status_code == 302
    team = Team.objects.get(tournament=cup, name="Рыба")
    assert (team.club, team.country, team.captain.name) == ("Клуб Рыба", "Беларусь",
                                                            "Олег Щукин")
    assert sorted(p.players_label for p in team.pairs.all()) == [
        "Олег Щукин / Иван Окунев", "Пётр Рыбин / Павел Карпов"]
    assert Player.objects.get(name="Пётр Рыбин").club == "Клуб Рыба"
    assert team.rating == (1450 + 0) // 2
    listing = client.get(f"/t/{cup.slug}/teams/").content.decode()
    assert "Рыба" in listing and "Олег Щукин / Иван Окунев" in listing
    assert "капитан Олег Щукин" in listing


def test_a_refused_form_shows_the_error_on_its_field_and_saves_nothing(client, cup, organizer):
    client.force_login(organizer)
    p1, p2, *_ = pairs(cup)
    register_team(cup, name="Рыба", pairs=[p1, p2])
    before = counts(cup)
    url = f"/t/{cup.slug}/teams/new/"
    response = client.post(url, _new_team_form())  # the name is taken
    assert response.status_code == 200
    assert "The team Рыба is already registered in this tournament." in (
        response.content.decode())
    response = client.post(url, _new_team_form(name="Окунь", pair2_player2_name=""))
    assert "A pair has two players: enter both names." in response.content.decode()
    response = client.post(url, _new_team_form(
        name="Окунь", pair2_player1_name="", pair2_player2_name="", captain=""))
    assert "A team needs at least 2 pairs" in response.content.decode()
    assert counts(cup) == before


def test_editing_adds_a_registered_pair_and_withdrawing_works(client, cup, organizer):
    client.force_login(organizer)
    p1, p2, p3, _p4 = pairs(cup)
    team = register_team(cup, name="Рыба", pairs=[p1, p2], captain=p1.player1).team
    url = f"/t/{cup.slug}/teams/{team.pk}/"
    html = client.get(url).content.decode()
    assert f'value="player:{p1.player1.pk}" selected' in html
    response = client.post(url, {"name": "Рыба", "pairs": [p1.pk, p2.pk, p3.pk],
                                 "captain": f"player:{p3.player2.pk}"})
    assert response.status_code == 302
    team.refresh_from_db()
    assert set(team.pairs.all()) == {p1, p2, p3} and team.captain == p3.player2
    response = client.post(f"/t/{cup.slug}/teams/{team.pk}/withdraw/", {"withdrawn": "1"})
    assert response.status_code == 302
    team.refresh_from_db()
    assert team.withdrawn


def test_team_pages_are_the_organizers_and_a_team_tournaments(client, cup, tournament,
                                                               make_user, organizer):
    client.force_login(make_user("stranger"))
    assert client.get(f"/t/{cup.slug}/teams/new/").status_code in (403, 404)
    client.force_login(organizer)
    assert client.get(f"/t/{tournament.slug}/teams/").status_code == 404
    detail = client.get(f"/t/{cup.slug}/").content.decode()
    assert f"/t/{cup.slug}/teams/new/" in detail  # the next step: register the teams
