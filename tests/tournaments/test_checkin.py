"""Check-in at the hall (#37): the three ways in (phone, QR, organizer), forged and expired
codes, a triple tap recorded once, the draw of round 1 seating only the checked-in pairs with
a note naming the others, and the webhook when a window closes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.models import (
    CheckIn,
    CheckInWindow,
    Pair,
    Party,
    Player,
    Table,
    Tournament,
    WebhookDelivery,
    WebhookSubscription,
)
from tests.factories import TournamentFactory
from tournaments.checkin import services
from tournaments.checkin.tasks import close_windows as close_checkin_windows
from tournaments.checkin.tokens import SALT, door_token, entrant_token
from tournaments.rounds import draw_services
from tournaments.rounds import services as rounds
from tournaments.setup.services import create_tournament

pytestmark = pytest.mark.django_db


def _window(tournament, *, minutes: int = 30) -> CheckInWindow:
    return services.open_window(tournament, closes_at=timezone.now() + timedelta(minutes=minutes))


def _pairs(tournament):
    return list(tournament.pairs.order_by("pk"))


def _player_client(make_user, player, name: str) -> Client:
    player.user = make_user(name)
    player.save()
    client = Client()
    client.force_login(player.user)
    return client


def test_a_player_checks_in_on_his_phone_and_sees_it(tournament, make_user):
    window = _window(tournament)
    pair = _pairs(tournament)[0]
    client = _player_client(make_user, pair.player2, "olga")
    area = client.get(f"/t/{tournament.slug}/me/")
    assert "I&#x27;m here" in area.content.decode() or "I'm here" in area.content.decode()
    response = client.post(f"/t/{tournament.slug}/me/checkin/", follow=True)
    found = CheckIn.objects.get(window=window)
    assert (found.pair, found.how, found.by) == (pair, CheckIn.How.PHONE, pair.player2.user)
    assert "You are checked in" in response.content.decode()


def test_the_personal_link_checks_in_without_a_login(tournament):
    window = _window(tournament)
    pair = _pairs(tournament)[1]
    Client().post(f"/p/{pair.player1.access_token}/checkin/")
    assert CheckIn.objects.get(window=window).pair == pair


def test_a_triple_tap_records_once(tournament, make_user):
    window = _window(tournament)
    pair = _pairs(tournament)[0]
    client = _player_client(make_user, pair.player1, "ivan")
    for _tap in range(3):
        client.post(f"/t/{tournament.slug}/me/checkin/")
    assert CheckIn.objects.filter(window=window).count() == 1
    again = services.check_in(window.pk, pair, how=CheckIn.How.QR)
    assert not again.created and again.checkin.how == CheckIn.How.PHONE


def test_the_door_qr_checks_in_the_logged_in_player(tournament, make_user):
    window = _window(tournament)
    pair = _pairs(tournament)[2]
    url = reverse("tournaments:checkin_scan", args=[tournament.slug, door_token(window)])
    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    client = _player_client(make_user, pair.player1, "jose")
    assert pair.display_name in client.get(url).content.decode()
    client.post(url)
    found = CheckIn.objects.get(window=window)
    assert (found.pair, found.how) == (pair, CheckIn.How.QR)
    stranger = Client()
    stranger.force_login(make_user("nobody"))
    refused = stranger.post(url)
    assert refused.status_code == 400 and CheckIn.objects.count() == 1


def test_an_entrant_card_checks_that_entrant_in(tournament):
    window = _window(tournament)
    pair = _pairs(tournament)[3]
    url = reverse("tournaments:checkin_scan",
                  args=[tournament.slug, entrant_token(window, pair.pk)])
    Client().post(url)
    assert CheckIn.objects.get(window=window).pair == pair


@pytest.mark.parametrize("case", ["forged", "expired", "other_tournament"])
def test_a_bad_qr_gets_an_error_page_and_records_nothing(case, tournament, organizer,
                                                         make_user, settings):
    window = _window(tournament)
    pair = _pairs(tournament)[0]
    client = _player_client(make_user, pair.player1, "ivan")
    good = entrant_token(window, pair.pk)
    if case == "forged":
        token = signing.dumps({"t": tournament.pk, "w": window.pk, "e": pair.pk},
                              salt=SALT, key="not-the-site-key")
        expected = "not valid"
    elif case == "expired":
        settings.CHECKIN_QR_MAX_AGE_HOURS = 0
        token, expected = good, "expired"
    else:
        other = TournamentFactory(slug="other-cup", organizer=organizer)
        token = signing.dumps({"t": other.pk, "w": window.pk, "e": pair.pk}, salt=SALT)
        expected = "another tournament"
    url = reverse("tournaments:checkin_scan", args=[tournament.slug, token])
    for response in (client.get(url), client.post(url), Client().post(url)):
        assert response.status_code == 400
        assert expected in response.content.decode()
    assert not CheckIn.objects.exists()


def test_the_organizer_ticks_entrants_off_with_a_name_filter(tournament, organizer):
    window = _window(tournament)
    client = Client()
    client.force_login(organizer)
    page = client.get(f"/t/{tournament.slug}/checkin/?window={window.pk}&q=ёлкин")
    body = page.content.decode()
    assert "Ёлкин Щукин" in body and "Иван Петров" not in body
    pair = next(p for p in _pairs(tournament) if p.player1.name == "Ёлкин Щукин")
    client.post(f"/t/{tournament.slug}/checkin/{window.pk}/tick/", {"entrant": pair.pk})
    found = CheckIn.objects.get(window=window)
    assert (found.pair, found.how, found.by) == (pair, CheckIn.How.ORGANIZER, organizer)
    client.post(f"/t/{tournament.slug}/checkin/{window.pk}/tick/", {"undo": found.pk})
    assert not CheckIn.objects.exists()


def test_check_in_is_refused_once_the_window_is_closed(tournament):
    window = _window(tournament)
    services.close_window(window.pk)
    with pytest.raises(services.ServiceError, match="closed"):
        services.check_in(window.pk, _pairs(tournament)[0], how=CheckIn.How.PHONE)


def test_the_draw_of_round_1_seats_only_the_checked_in_pairs(tournament, organizer):
    window = _window(tournament)
    pairs = _pairs(tournament)
    for pair in pairs[:6]:
        services.check_in(window.pk, pair, how=CheckIn.How.ORGANIZER, by=organizer)
    services.close_window(window.pk)
    rnd = rounds.create_round(tournament.pk)
    rnd = draw_services.generate_draw(rnd.pk)
    seated = {pk for pair in Party.objects.filter(round=rnd).values_list("pair_a", "pair_b")
              for pk in pair}
    assert seated == {p.pk for p in pairs[:6]}
    note = next(w for w in rnd.draw_warnings if "left out" in w["message"])
    assert set(note["params"]["entrants"].split(", ")) == {pairs[6].display_name,
                                                           pairs[7].display_name}
    left = pairs[6]
    left.refresh_from_db()
    assert left.available  # withdrawn from that round only


def test_drawing_while_the_window_is_open_says_so(tournament, organizer):
    window = _window(tournament)
    for pair in _pairs(tournament)[:4]:
        services.check_in(window.pk, pair, how=CheckIn.How.ORGANIZER, by=organizer)
    rnd = draw_services.generate_draw(rounds.create_round(tournament.pk).pk)
    assert Party.objects.filter(round=rnd).count() == 2
    assert any("still open" in w["message"] for w in rnd.draw_warnings)


def test_closing_sends_checkin_closed_with_the_counts(tournament, organizer):
    WebhookSubscription.objects.create(tournament=tournament, url="http://93.184.215.14/hook",
                                       events=["checkin.closed"], created_by=organizer)
    window = _window(tournament)
    pairs = _pairs(tournament)
    services.check_in(window.pk, pairs[0], how=CheckIn.How.PHONE)
    services.check_in(window.pk, pairs[1], how=CheckIn.How.ORGANIZER, by=organizer)
    services.close_window(window.pk)
    services.close_window(window.pk)  # closed already: nothing sent again
    delivery = WebhookDelivery.objects.get()
    assert delivery.event == "checkin.closed"
    counts = delivery.payload["counts"]
    assert (counts["entrants"], counts["checked_in"], counts["missing"]) == (8, 2, 6)
    assert counts["by"] == {"phone": 1, "qr": 0, "organizer": 1}
    assert delivery.payload["window"]["round_number"] == 1


def test_the_sweep_closes_windows_past_their_end(tournament):
    window = _window(tournament)
    CheckInWindow.objects.filter(pk=window.pk).update(
        opens_at=timezone.now() - timedelta(hours=1), closes_at=timezone.now())
    assert close_checkin_windows() == 1
    window.refresh_from_db()
    assert window.closed and window.closed_at is not None
    assert close_checkin_windows() == 0


def test_an_individual_draw_seats_only_the_checked_in_players(organizer):
    t = create_tournament(name="Личный турнир", slug="solo-checkin", organizer=organizer,
                          format=Tournament.Format.INDIVIDUAL)
    players = [Player.objects.create(tournament=t, name=f"Игрок {k}", rating=2000 - 10 * k)
               for k in range(9)]
    for n in (1, 2):
        Table.objects.create(tournament=t, number=n)
    window = _window(t)
    for player in players[:8]:
        services.check_in(window.pk, player, how=CheckIn.How.ORGANIZER, by=organizer)
    with pytest.raises(services.ServiceError, match="entrant"):  # a pair is not its entrant
        services.check_in(window.pk, Pair(tournament=t, player1=players[8]), how="phone")
    rnd = draw_services.generate_draw(rounds.create_round(t.pk).pk)
    seated = {pk for a1, a2, b1, b2 in Party.objects.filter(round=rnd).values_list(
        "pair_a__player1", "pair_a__player2", "pair_b__player1", "pair_b__player2")
        for pk in (a1, a2, b1, b2)}
    assert seated == {p.pk for p in players[:8]}
    note = next(w for w in rnd.draw_warnings if "left out" in w["message"])
    assert note["params"]["entrants"] == "Игрок 8"


def test_a_team_event_has_no_check_in(organizer):
    t = create_tournament(name="Кубок клубов", slug="clubs-checkin", organizer=organizer,
                          format=Tournament.Format.TEAMS)
    with pytest.raises(services.ServiceError, match="team"):
        _window(t)


def test_one_window_per_round(tournament):
    _window(tournament)
    with pytest.raises(services.ServiceError, match="already"):
        _window(tournament)
