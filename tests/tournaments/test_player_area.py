"""The player area: by login or personal link, next table, results, signing, penalties."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Penalty, Player, Signature, Tournament, TournamentRole
from tests.tournaments.play import play

pytestmark = pytest.mark.django_db


def _area(tournament):
    return reverse("tournaments:player_area", args=[tournament.slug])


def _link(player):
    return reverse("tournaments:personal_area", args=[player.access_token])


@pytest.fixture
def seated(party, make_user):
    """The started party at table 1; each of its four players has an account."""
    for seat, player in enumerate([*party.pair_a.players, *party.pair_b.players]):
        player.user = make_user(f"seat{seat}")
        player.save(update_fields=["user"])
    return party


@pytest.fixture
def finished(seated):
    """The party at table 1 played to its end (pair A wins 240 : 60)."""
    return play(seated, "a")


def test_a_logged_in_player_sees_his_next_table_and_opponents(client, seated):
    me = seated.pair_a.player1
    client.force_login(me.user)
    response = client.get(_area(seated.round.tournament))
    html = response.content.decode()
    assert response.status_code == 200
    assert "My next table" in html and "Table 1" in html
    assert seated.pair_a.player2.name in html  # the partner
    assert f"{seated.pair_b.player1.name} / {seated.pair_b.player2.name}" in html
    assert seated.get_absolute_url() in html
    assert "My personal link" in html and me.access_token in html


def test_the_personal_link_opens_the_same_area_without_login(client, seated):
    me = seated.pair_b.player2
    response = client.get(_link(me))
    html = response.content.decode()
    assert response.status_code == 200
    assert me.name in html and "Table 1" in html and seated.pair_a.player1.name in html
    assert response["Cache-Control"] == "private, no-store"
    assert response["Referrer-Policy"] == "no-referrer"
    assert "noindex" in response["X-Robots-Tag"]
    assert "My personal link" not in html  # shown only to the logged-in owner


def test_unknown_short_or_renewed_links_are_not_found(client, tournament, organizer):
    player = tournament.players.first()
    assert client.get(reverse("tournaments:personal_area", args=["x" * 32])).status_code == 404
    assert client.get(reverse("tournaments:personal_area", args=["short"])).status_code == 404
    old = _link(player)
    client.force_login(organizer)
    response = client.post(
        reverse("tournaments:personal_links", args=[tournament.slug]), {"player": player.pk}
    )
    assert response.status_code == 302
    client.logout()
    assert client.get(old).status_code == 404
    player.refresh_from_db()
    assert client.get(_link(player)).status_code == 200


def test_every_player_has_his_own_unguessable_key(tournament):
    keys = list(tournament.players.values_list("access_token", flat=True))
    assert len(set(keys)) == len(keys) == 16
    assert all(len(key) >= 32 for key in keys)


def test_the_area_is_nobody_elses(client, seated, make_user, make_field):
    tournament = seated.round.tournament
    assert client.get(_area(tournament)).status_code == 302  # anonymous: log in first
    client.force_login(make_user())  # a stranger
    assert client.get(_area(tournament)).status_code == 404
    # a player of another tournament has no area here
    other = make_field(4)
    elsewhere = other.players.first()
    elsewhere.user = make_user()
    elsewhere.save(update_fields=["user"])
    client.force_login(elsewhere.user)
    assert client.get(_area(tournament)).status_code == 404
    assert client.get(_area(other)).status_code == 200


def test_protocols_waiting_for_my_signature_and_signing_from_the_area(client, finished):
    me = finished.pair_b.player1
    client.force_login(me.user)
    html = client.get(_area(finished.round.tournament)).content.decode()
    assert "Protocols waiting for my signature" in html
    assert "I confirm the protocol" in html and "60 : 240" in html
    sign = reverse("scoring:protocol_sign", args=[finished.pk])
    assert f'hx-post="{sign}"' in html
    response = client.post(sign, {"player": me.pk}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Signed." in response.content.decode()
    assert Signature.objects.filter(player=me, protocol__party=finished).exists()
    html = client.get(_area(finished.round.tournament)).content.decode()
    assert "Protocols waiting for my signature" not in html
    # the partner still has to sign: his area still asks him
    client.force_login(finished.pair_b.player2.user)
    html = client.get(_area(finished.round.tournament)).content.decode()
    assert "Protocols waiting for my signature" in html


def test_the_area_offers_no_one_elses_protocol(client, finished, make_party, make_user):
    from scoring.models import Pair

    pairs = list(Pair.objects.filter(tournament=finished.round.tournament).order_by("id"))
    from referee.services import start_party

    other = make_party(pairs[2], pairs[3], table_number=2, round_number=finished.round.number)
    referee = TournamentRole.objects.filter(role="referee").first().user
    start_party(other.pk, actor=referee)
    play(other, "b")
    me = finished.pair_a.player1
    client.force_login(me.user)
    html = client.get(_area(finished.round.tournament)).content.decode()
    assert other.pair_a.display_name not in html and other.pair_b.display_name not in html
    assert reverse("scoring:protocol_sign", args=[other.pk]) not in html
    # nor can he sign the other party's protocol for one of its players
    response = client.post(
        reverse("scoring:protocol_sign", args=[other.pk]), {"player": other.pair_a.player1_id}
    )
    assert not Signature.objects.filter(protocol__party=other).exists()
    assert response.status_code == 403


def test_a_personal_link_shows_what_to_sign_but_cannot_sign(client, finished):
    me = finished.pair_a.player2
    html = client.get(_link(me)).content.decode()
    assert "Protocols waiting for my signature" in html
    assert "I confirm the protocol" not in html
    assert "this link alone cannot sign" in html
    response = client.post(reverse("scoring:protocol_sign", args=[finished.pk]), {"player": me.pk})
    assert response.status_code == 302 and "/accounts/login/" in response.url
    assert not Signature.objects.filter(player=me).exists()


def test_a_player_without_an_account_is_told_to_sign_at_the_table(client, finished):
    me = finished.pair_a.player2
    Player.objects.filter(pk=me.pk).update(user=None)
    html = client.get(_link(me)).content.decode()
    assert "Sign at the table on the referee's device with your PIN" in html


def test_my_warnings_and_fines_and_not_the_others(client, seated, referee_user):
    me, partner = seated.pair_a.player1, seated.pair_a.player2
    opponent = seated.pair_b.player1
    Penalty.objects.create(party=seated, kind="warning", category="talking", side="a",
                           player=me, reason="Разговор")
    Penalty.objects.create(party=seated, kind="fine", category="signs", side="a",
                           points=25, reason="Знаки паре")
    Penalty.objects.create(party=seated, kind="fine", category="conduct", side="a",
                           player=partner, points=25, reason="Партнёр ел")
    Penalty.objects.create(party=seated, kind="fine", category="talking", side="b",
                           player=opponent, points=25, reason="Соперник говорил")
    Penalty.objects.create(party=seated, kind="warning", category="signs", side="a",
                           player=me, cancelled=True, reason="Отменено")
    html = client.get(_link(me)).content.decode()
    section = html[html.index('id="penalties"'):]
    assert "Разговор" in section and "Знаки паре" in section and "given to the pair" in section
    assert "Отменено" in section and "cancelled" in section
    assert "Партнёр ел" not in section and "Соперник говорил" not in section


def test_hidden_tournament_area_for_its_players_only(client, seated, make_user):
    tournament = seated.round.tournament
    Tournament.objects.filter(pk=tournament.pk).update(public=False)
    me = seated.pair_a.player1
    client.force_login(me.user)
    assert client.get(_area(tournament)).status_code == 200
    client.logout()
    assert client.get(_link(me)).status_code == 200
    client.force_login(make_user())
    assert client.get(_area(tournament)).status_code == 404
    assert client.get(reverse("tournaments:my_area")).status_code == 200


def test_my_tournaments_lists_where_i_play(client, seated, make_field):
    me = seated.pair_a.player1
    other = make_field(4)
    Player.objects.filter(pk=other.players.first().pk).update(user=me.user)
    client.force_login(me.user)
    html = client.get(reverse("tournaments:my_area")).content.decode()
    assert _area(seated.round.tournament) in html and _area(other) in html


@pytest.mark.parametrize("role", [None, "referee", "chief", "player"])
def test_only_organizers_see_and_renew_personal_links(client, tournament, make_user, role):
    url = reverse("tournaments:personal_links", args=[tournament.slug])
    player = tournament.players.first()
    user = make_user()
    if role == "player":
        Player.objects.filter(pk=player.pk).update(user=user)
    elif role:
        TournamentRole.objects.create(tournament=tournament, user=user, role=role)
    client.force_login(user)
    assert client.get(url).status_code == 403
    assert client.post(url, {"player": player.pk}).status_code == 403
    assert Player.objects.get(pk=player.pk).access_token == player.access_token


def test_the_organizer_prints_every_link_with_a_qr_code(client, tournament, organizer,
                                                         make_field):
    client.force_login(organizer)
    url = reverse("tournaments:personal_links", args=[tournament.slug])
    html = client.get(url).content.decode()
    for player in tournament.players.all():
        assert player.access_token in html
    assert html.count('class="qr"') == 16
    # a player of another tournament cannot be renewed from here
    stranger = make_field(4).players.first()
    assert client.post(url, {"player": stranger.pk}).status_code == 404
    assert Player.objects.get(pk=stranger.pk).access_token == stranger.access_token


def test_the_area_uses_as_many_queries_for_40_pairs_as_for_4(client, make_field):
    counts = []
    for size in (4, 40):
        tournament = make_field(size)
        player = tournament.players.order_by("id").first()
        with CaptureQueriesContext(connection) as queries:
            response = client.get(_link(player))
        assert response.status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
    assert counts[0] <= 25, counts


def test_renewing_a_link_with_nonsense_is_not_found(client, tournament, organizer):
    client.force_login(organizer)
    url = reverse("tournaments:personal_links", args=[tournament.slug])
    for value in ("abc", "", "-1", "99999999"):
        assert client.post(url, {"player": value}).status_code == 404
