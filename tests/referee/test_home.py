"""A home for every role: where login leads, the referee's My tables, the styled 403 and 404."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from referee.services import pause_clock, start_party
from scoring.models import Party, Round, TournamentRole
from tests.factories import PlayerFactory, TournamentFactory, TournamentRoleFactory
from tests.referee.test_rule_sets_desk import make_desk
from tournaments.public.home import home_for

pytestmark = pytest.mark.django_db

MY_TABLES = "/referee/tables/"
RU = {"HTTP_ACCEPT_LANGUAGE": "ru"}


@pytest.fixture
def live_round(tournament, make_party, referee_user):
    """Round 1 in play: table 1 started (one deal), table 2 waiting; the other pairs sit out."""
    pairs = list(tournament.pairs.order_by("id"))
    first = make_party(pairs[0], pairs[1], table_number=1, round_number=1)
    second = make_party(pairs[2], pairs[3], table_number=2, round_number=1)
    Round.objects.filter(pk=first.round_id).update(status=Round.Status.IN_PROGRESS)
    start_party(first.pk, actor=referee_user)
    from scoring.party.deals import record_deal

    record_deal(first.pk, actor=referee_user, outcome="domino", winner="a", points={"a": 25})
    return first, second


def lands(client, user) -> str:
    """Where the user lands after logging in through the form (the dispatcher followed)."""
    user.set_password("pw")
    user.save()
    response = client.post(reverse("login"), {"username": user.username, "password": "pw"})
    assert response.status_code == 302 and response["Location"] == reverse("tournaments:home")
    home = client.get(response["Location"])
    assert home.status_code == 302
    return home["Location"]


# -- the dispatcher --------------------------------------------------------------------------


def test_the_organizer_lands_on_his_tournaments(client, organizer, tournament, make_user):
    other = TournamentFactory(name="Чужой турнир", slug="foreign", organizer=make_user())
    assert lands(client, organizer) == "/?mine=1"
    html = client.get("/?mine=1").content.decode()
    assert tournament.name in html and other.name not in html
    assert "My tournaments" in html and 'href="/">All tournaments' in html


def test_a_superuser_lands_on_the_tournaments_he_runs(client, make_user):
    admin = make_user("root", is_superuser=True, is_staff=True)
    assert lands(client, admin) == "/?mine=1"


def test_a_referee_with_a_live_round_lands_on_my_tables(client, referee_user, live_round):
    assert lands(client, referee_user) == MY_TABLES


def test_a_referee_without_a_live_round_lands_on_the_list_not_on_my_games(
    client, referee_user, tournament
):
    Round.objects.create(tournament=tournament, number=1, status=Round.Status.DRAFT)
    assert lands(client, referee_user) == "/"
    html = client.get("/").content.decode()
    assert 'href="/referee/tables/">My tables' in html
    assert "My games" not in html  # a referee who plays nowhere is not sent to "My games"


def test_a_player_lands_on_his_next_table(client, make_user, live_round, tournament):
    _first, second = live_round
    user = make_user("gamer")
    player = second.pair_b.player2
    player.user = user
    player.save()
    assert lands(client, user) == f"/t/{tournament.slug}/me/#next"
    html = client.get(f"/t/{tournament.slug}/me/").content.decode()
    assert "Table 2" in html and second.pair_a.player1.name in html


def test_a_player_with_no_table_ahead_lands_on_my_games(client, make_user, tournament):
    user = make_user("resting")
    PlayerFactory(tournament=tournament, user=user)
    assert lands(client, user) == reverse("tournaments:my_area")


def test_anyone_else_lands_on_the_tournament_list(client, make_user):
    assert lands(client, make_user("nobody")) == "/"
    client.logout()
    assert client.get(reverse("tournaments:home"))["Location"] == "/"


def test_the_organizer_comes_first_for_someone_of_many_roles(make_user, live_round, tournament):
    user = make_user("many")
    TournamentRoleFactory(tournament=tournament, user=user, role="referee")
    assert home_for(user)[0] == MY_TABLES
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    user = type(user).objects.get(pk=user.pk)  # permissions are cached per instance
    assert home_for(user)[0] == "/?mine=1"


def test_logging_in_from_the_front_page_lets_the_dispatcher_decide(client):
    html = client.get("/").content.decode()
    assert 'href="/accounts/login/">Log in' in html
    html = client.get("/t/x/standings/").content.decode()
    assert "/accounts/login/?next=/t/x/standings/" in html


# -- My tables -------------------------------------------------------------------------------


def test_my_tables_names_the_sides_with_state_score_clock_and_alerts(
    client, referee_user, live_round
):
    first, second = live_round
    client.force_login(referee_user)
    response = client.get(MY_TABLES)
    html = response.content.decode()
    assert response.status_code == 200
    assert response["Content-Security-Policy"] and " style=" not in html and "<script>" not in html
    for party in (first, second):
        assert f'href="/referee/party/{party.pk}/"' in html
        assert party.pair_a.display_name in html and party.pair_b.display_name in html
    assert "Table 1" in html and "Table 2" in html
    assert "Pair A" not in html and "Pair B" not in html
    assert "In progress" in html and "Not started" in html
    assert 'class="mt-points">25<' in html  # pair A's deal
    assert "data-seconds-left=" in html  # the started party's clock, ticking in static/js
    assert "The party has not started." in html  # the waiting table's alert
    assert "Кубок Москвы" in html and "Round 1" in html


def test_a_paused_clock_stands_still(client, referee_user, live_round):
    first, _second = live_round
    pause_clock(first.pk, reason="a break", actor=referee_user)
    client.force_login(referee_user)
    html = client.get(MY_TABLES).content.decode()
    assert 'data-paused="1"' in html and "The clock is paused." in html


def test_a_referee_of_one_table_sees_only_his_party(client, table_referee, live_round):
    first, second = live_round
    client.force_login(table_referee)
    html = client.get(MY_TABLES).content.decode()
    assert f"/referee/party/{second.pk}/" in html
    assert f"/referee/party/{first.pk}/" not in html
    assert first.pair_a.display_name not in html
    assert "1 table of yours" in html


def test_the_chief_sees_every_table(client, chief_user, live_round):
    client.force_login(chief_user)
    html = client.get(MY_TABLES).content.decode()
    for party in live_round:
        assert f"/referee/party/{party.pk}/" in html
    assert "every table" in html


def test_only_the_tournaments_he_referees_and_only_live_rounds(
    client, referee_user, live_round, make_user, tournament
):
    other = make_desk(make_user, "sport")  # a started party of someone else's tournament
    client.force_login(referee_user)
    html = client.get(MY_TABLES).content.decode()
    assert f"/referee/party/{other.party_id}/" not in html
    Round.objects.filter(tournament=tournament).update(status=Round.Status.FINISHED)
    html = client.get(MY_TABLES).content.decode()
    assert "/referee/party/" not in html and "No live round" in html


def test_players_who_keep_their_own_score_are_named_each(client, make_user):
    desk = make_desk(make_user, "kozel", players=4)
    client.force_login(desk.referee)
    html = client.get(MY_TABLES).content.decode()
    for player in desk.party.seat_players().values():
        assert player.name in html
    shown = re.sub(r"<[^>]+>", " ", html)  # the text, not a token's random letters
    assert "Pair A" not in shown and not re.search(r"\bA1\b", shown)


def test_my_tables_refreshes_as_a_fragment(client, referee_user, live_round):
    client.force_login(referee_user)
    response = client.get(MY_TABLES, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.startswith('<div id="my-tables"') and "<html" not in html
    assert "HX-Request" in response["Vary"]


def test_my_tables_needs_a_login(client):
    response = client.get(MY_TABLES)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_my_tables_in_russian(client, referee_user, live_round):
    client.force_login(referee_user)
    html = client.get(MY_TABLES, **RU).content.decode()
    assert "Мои столы" in html and "Стол 1" in html and "Партия не начата." in html


def test_a_referee_who_plays_nowhere_is_pointed_to_my_tables(client, referee_user):
    client.force_login(referee_user)
    html = client.get(reverse("tournaments:my_area")).content.decode()
    assert "plays in no tournament" not in html
    assert 'href="/referee/tables/"' in html


def test_the_header_links_each_role_to_its_home(client, referee_user, organizer, tournament,
                                                make_user):
    client.force_login(referee_user)
    html = client.get("/").content.decode()
    assert ">My tables</a>" in html and ">My games</a>" not in html
    client.force_login(organizer)
    html = client.get("/").content.decode()
    assert ">My tournaments</a>" in html and ">My tables</a>" not in html
    player = make_user("p1")
    PlayerFactory(tournament=tournament, user=player)
    client.force_login(player)
    html = client.get("/").content.decode()
    assert ">My games</a>" in html and ">My tables</a>" not in html


# -- the 403 and 404 pages -------------------------------------------------------------------


def test_a_party_not_his_answers_the_styled_403(client, table_referee, live_round, settings):
    settings.DEBUG = False
    first, _second = live_round
    client.force_login(table_referee)
    response = client.get(f"/referee/party/{first.pk}/",
                          HTTP_REFERER="http://testserver/referee/tables/")
    html = response.content.decode()
    assert response.status_code == 403
    assert '<header class="top">' in html and "css/app.css" in html  # the site's layout
    assert "Access denied" in html and "not open to your account" in html
    assert 'href="/referee/tables/" data-home>My tables</a>' in html
    assert 'href="http://testserver/referee/tables/" data-back>' in html
    assert response["Content-Security-Policy"] and " style=" not in html


def test_the_403_in_russian_by_accept_language_and_by_cookie(
    client, table_referee, live_round, settings
):
    settings.DEBUG = False
    first, _second = live_round
    client.force_login(table_referee)
    html = client.get(f"/referee/party/{first.pk}/", **RU).content.decode()
    assert "Доступ запрещён" in html and "Мои столы" in html and 'lang="ru"' in html
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    html = client.get(f"/referee/party/{first.pk}/status/").content.decode()
    assert "Доступ запрещён" in html and "Эта страница закрыта для вашей учётной записи." in html


def test_an_action_on_a_party_not_his_is_refused_with_the_403(
    client, table_referee, live_round, settings
):
    settings.DEBUG = False
    first, _second = live_round
    client.force_login(table_referee)
    response = client.post(f"/referee/party/{first.pk}/pause/", {"reason": ""})
    assert response.status_code == 403 and b"Access denied" in response.content
    assert Party.objects.get(pk=first.pk).paused_at is None


def test_the_styled_404_offers_the_way_back(client, settings, referee_user, live_round):
    settings.DEBUG = False
    response = client.get("/no/such/page/", HTTP_REFERER="https://elsewhere.example/")
    html = response.content.decode()
    assert response.status_code == 404
    assert '<header class="top">' in html and "Page not found" in html
    assert 'href="/" data-home>Tournaments</a>' in html
    assert "elsewhere.example" not in html  # another site is not "the previous page"
    assert "data-history-back" in html  # the browser's history instead (static/js/app.js)
    client.force_login(referee_user)
    html = client.get("/t/no-such-cup/", **RU).content.decode()
    assert "Страница не найдена" in html and 'href="/referee/tables/" data-home>Мои столы' in html


def test_a_hidden_tournament_is_the_styled_404(client, tournament, settings):
    settings.DEBUG = False
    type(tournament).objects.filter(pk=tournament.pk).update(public=False)
    response = client.get(f"/t/{tournament.slug}/")
    assert response.status_code == 404 and b"Page not found" in response.content
    assert tournament.name.encode() not in response.content


def test_the_api_keeps_answering_json(client, table_referee, live_round, settings):
    settings.DEBUG = False
    first, _second = live_round
    response = client.get("/api/v1/no-such-thing/")
    assert response.status_code == 404 and response.json() == {"detail": "Not found."}
    client.force_login(table_referee)
    response = client.post(
        f"/api/v1/parties/{first.pk}/pause/", {}, content_type="application/json"
    )
    assert response.status_code == 403 and set(response.json()) == {"detail"}
    response = client.get("/api/v1/parties/999999/")
    assert response.status_code == 404 and response.json() == {"detail": "Not found."}


def test_the_api_403_handler_answers_json(rf):
    from config.error_pages import permission_denied

    response = permission_denied(rf.get("/api/v1/anything/"))
    assert response.status_code == 403 and response["Content-Type"] == "application/json"


def test_referee_roles_helper_counts_the_chief(make_user, tournament):
    from scoring.access.permissions import refereed_tournaments

    chief = make_user("c2")
    TournamentRoleFactory(tournament=tournament, user=chief, role=TournamentRole.Role.CHIEF)
    organizer_only = tournament.roles.get(role="organizer").user
    assert list(refereed_tournaments(chief)) == [tournament]
    assert not refereed_tournaments(organizer_only).exists()


def test_a_form_with_a_stale_security_token_answers_the_styled_page(
    referee_user, live_round
):
    """An old page's form (its CSRF token out of date): styled, in Russian, nothing saved."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(referee_user)
    party, _second = live_round
    response = client.post(f"/referee/party/{party.pk}/pause/", {"version": party.version},
                           **RU)
    assert response.status_code == 403
    text = response.content.decode()
    assert "Не сохранено: страница устарела" in text and 'class="error-page"' in text
    assert "/referee/tables/" in text  # the way back: his home
    party.refresh_from_db()
    assert party.paused_at is None


def test_the_desk_queue_gets_the_token_failure_as_its_reason(referee_user, live_round):
    """The offline queue shows why an action was refused, not an unreadable page."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(referee_user)
    party, _second = live_round
    response = client.post(f"/referee/party/{party.pk}/pause/", {"version": party.version},
                           HTTP_ACCEPT="application/json")
    data = response.json()
    assert response.status_code == 403 and data["ok"] is False
    assert "nothing was saved" in data["error"] and data["conflict"] is False
