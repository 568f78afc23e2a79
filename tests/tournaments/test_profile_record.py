"""A player's record across tournaments: the profile page, its figures, places and queries."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Deal, Pair, Party, Player, Profile, RatingEntry, RatingList
from scoring.ranking.results import standings_table
from tests.factories import PenaltyFactory, TournamentFactory
from tests.tournaments.play import play_round
from tournaments.rounds import draw_services
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db


def _play_round_one(tournament):
    """Round 1 drawn, published, played (A sides win 240 : 60) and closed."""
    rnd = rounds.create_round(tournament.pk)
    draw_services.generate_draw(rnd.pk)
    rounds.publish_round(rnd.pk)
    rounds.start_round(rnd.pk)
    play_round(rnd.pk, winner="a")
    rounds.close_round(rnd.pk)
    return rnd


@pytest.fixture
def ivan(tournament):
    """Иван Петров's profile linked to his entry in the conftest tournament, round 1 played."""
    profile = Profile.objects.create(
        name="Иван Петров", club="Динамо", city="Москва", birth_year=1971
    )
    Player.objects.filter(tournament=tournament, name="Иван Петров").update(profile=profile)
    _play_round_one(tournament)
    return profile


def _page(client, profile):
    response = client.get(reverse("tournaments:profile", args=[profile.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _ivans_party(tournament):
    player = Player.objects.get(tournament=tournament, name="Иван Петров")
    pair = Pair.objects.get(player1=player)
    return player, pair, Party.objects.get(Q(pair_a=pair) | Q(pair_b=pair))


def test_the_page_shows_name_club_city_never_the_birth_year(client, ivan, tournament):
    html = _page(client, ivan)
    assert "Иван Петров" in html and "Динамо" in html and "Москва" in html
    assert "1971" not in html
    assert tournament.name in html


def test_the_place_is_the_one_the_standings_show(client, ivan, tournament):
    _player, pair, _party = _ivans_party(tournament)
    table = standings_table(tournament)
    row = next(r for r in table.rows if r.entrant == pair.pk)
    html = _page(client, ivan)
    place = f"{row.rank}{'=' if row.shared else ''}"
    assert f'/t/{tournament.slug}/standings/">{place}</a>' in html
    assert "of 8" in html


def test_parties_name_the_partner_opponents_result_and_points(client, ivan, tournament):
    _player, pair, party = _ivans_party(tournament)
    html = _page(client, ivan)
    assert "Сергей Смирнов" in html  # his partner
    other = party.pair_b if party.pair_a_id == pair.pk else party.pair_a
    assert other.player1.name in html and other.player2.name in html
    mine = "a" if party.pair_a_id == pair.pk else "b"
    score = "240 : 60" if mine == "a" else "60 : 240"
    assert score in html


def test_figures_count_dominoes_he_made_and_his_pairs_deal_points(client, ivan, tournament):
    from scoring.people.career_figures import summary
    from scoring.people.careers import load_career

    player, pair, party = _ivans_party(tournament)
    seat = "a1" if party.pair_a_id == pair.pk else "b1"
    deals = list(Deal.objects.filter(party=party))
    made = sum(1 for d in deals if d.went_out == seat)
    side = seat[0]
    points = [d.points_a if side == "a" else d.points_b for d in deals]
    figures = summary(load_career(ivan))
    assert figures["dominoes_made"] == made > 0
    assert figures["deals"] == len(deals)
    assert figures["average_points_per_deal"] == round(sum(points) / len(points), 1)
    assert figures["parties"] == 1
    assert figures["win_rate"] == (100 if side == "a" else 0)


def test_fines_received_count_his_own_and_his_pairs(client, ivan, tournament):
    from scoring.people.career_figures import summary
    from scoring.people.careers import load_career

    player, pair, party = _ivans_party(tournament)
    side = "a" if party.pair_a_id == pair.pk else "b"
    other = "b" if side == "a" else "a"
    PenaltyFactory(party=party, side=f"{side}1", player=player, points=25)
    PenaltyFactory(party=party, side=side, player=None, points=10)
    PenaltyFactory(party=party, side=other, player=None, points=50)  # the opponents'
    PenaltyFactory(party=party, side=side, player=player, points=99, cancelled=True)
    figures = summary(load_career(ivan))
    assert (figures["fines"], figures["fine_points"]) == (2, 35)


def test_a_merged_profile_redirects_to_the_one_that_holds_the_results(client, ivan):
    old = Profile.objects.create(name="И. Петров", merged_into=ivan)
    response = client.get(reverse("tournaments:profile", args=[old.pk]))
    assert response.status_code == 302
    assert response["Location"] == ivan.get_absolute_url()
    assert client.get(reverse("tournaments:profile", args=[9999])).status_code == 404


def test_hidden_tournaments_places_and_results_stay_hidden(client, ivan, tournament):
    tournament.public_standings = False
    tournament.save()
    html = _page(client, ivan)
    assert f"/t/{tournament.slug}/standings/" not in html
    assert "240 : 60" in html or "60 : 240" in html
    tournament.public_results = False
    tournament.save()
    html = _page(client, ivan)
    assert "240 : 60" not in html and "60 : 240" not in html
    tournament.public = False
    tournament.save()  # his only tournament hidden: the person is not shown at all
    response = client.get(reverse("tournaments:profile", args=[ivan.pk]))
    assert response.status_code == 404 and tournament.name not in response.content.decode()


def test_the_rating_plot_draws_each_list_with_its_deviation_band(client, ivan, organizer):
    elo = RatingList.objects.create(name="Рейтинг клуба", slug="club", system="elo")
    glicko = RatingList.objects.create(name="Федерация", slug="fed")
    for sequence, (rating, rd) in enumerate([(1500, 350), (1580, 200), (1620, 120)], start=1):
        rated = TournamentFactory(
            name=f"Этап {sequence}", organizer=organizer,
            start_date=datetime.date(2026, sequence, 1),
        )
        RatingEntry.objects.create(
            rating_list=glicko, subject=str(ivan.pk), profile=ivan, tournament=rated,
            sequence=sequence, rating=rating, deviation=rd,
        )
        if sequence < 3:
            RatingEntry.objects.create(
                rating_list=elo, subject=str(ivan.pk), profile=ivan, tournament=rated,
                sequence=sequence, rating=1400 + 32 * sequence,
            )
    html = _page(client, ivan)
    assert html.count('class="plot-line') == 2
    assert html.count('class="plot-band') == 1  # Elo keeps no deviation
    assert "Рейтинг клуба" in html and "Федерация" in html
    assert "<td>1432</td>" in html and "<td>350</td>" in html  # the numbers as a table
    assert '<title id="rating-plot-title">' in html and "Федерация" in html.split("<desc")[1]


def test_a_hidden_rating_list_is_not_shown(client, ivan, tournament):
    hidden = RatingList.objects.create(name="Закрытый", slug="closed", public=False)
    RatingEntry.objects.create(
        rating_list=hidden, subject=str(ivan.pk), profile=ivan, tournament=tournament,
        sequence=1, rating=1999,
    )
    html = _page(client, ivan)
    assert "Закрытый" not in html and "1999" not in html


def test_the_points_plot_bins_his_deal_points(client, ivan, tournament):
    html = _page(client, ivan)
    assert html.count('class="plot-bar"') >= 1
    assert '<title id="points-plot-title">' in html


def _linked_fields(make_field, profile, count):
    """``count`` tournaments of 4 pairs, two rounds played, with Игрок 000 linked to ``profile``."""
    for _ in range(count):
        field = make_field(4)
        Player.objects.filter(tournament=field, name="Игрок 000").update(profile=profile)


def _count(client, profile):
    url = reverse("tournaments:profile", args=[profile.pk])
    client.get(url)  # stored totals are written on the first read
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries), response.content.decode()


def test_queries_do_not_grow_with_tournaments_and_parties(client, make_field):
    one = Profile.objects.create(name="Игрок Один")
    many = Profile.objects.create(name="Игрок Много")
    _linked_fields(make_field, one, 1)
    _linked_fields(make_field, many, 4)
    few, _html = _count(client, one)
    more, html = _count(client, many)
    assert more == few, (few, more)
    assert few <= 12, few
    assert html.count('<tr class="r-') == 8  # 4 tournaments × 2 finished parties


def test_win_rate_by_partner_and_counts_of_opponents(client, make_field):
    from scoring.people.career_figures import opponents, partners
    from scoring.people.careers import load_career

    profile = Profile.objects.create(name="Игрок Ноль")
    _linked_fields(make_field, profile, 2)
    mate = Profile.objects.create(name="Игрок Один")
    Player.objects.filter(name="Игрок 001").update(profile=mate)
    record = load_career(profile)
    together = partners(record.parties)
    assert [(t.person.name, t.parties) for t in together] == [("Игрок 001", 4)]
    assert together[0].person.profile_id == mate.pk
    won = sum(p.won for p in record.parties)
    assert together[0].win_rate == round(100 * won / 4)
    met = opponents(record.parties)
    assert sum(t.parties for t in met) == 8  # two opponents a party
    html = _page(client, profile)
    assert f'href="{mate.get_absolute_url()}">Игрок 001</a>' in html


def test_standings_and_entrants_link_players_to_their_records(client, ivan, tournament):
    standings = client.get(reverse("tournaments:standings", args=[tournament.slug])).content
    link = f'<a href="{ivan.get_absolute_url()}">Иван Петров</a>'
    assert link in standings.decode()
    assert client.get(
        reverse("tournaments:standings", args=[tournament.slug]) + "?by=player"
    ).content.decode().count(f'href="{ivan.get_absolute_url()}"') == 1
    assert link in client.get(tournament.get_absolute_url()).content.decode()
    player = Player.objects.get(tournament=tournament, name="Иван Петров")
    page = client.get(reverse("tournaments:player", args=[tournament.slug, player.pk]))
    assert f'href="{ivan.get_absolute_url()}"' in page.content.decode()


def test_standings_links_cost_no_query_per_row(client, tournament):
    url = reverse("tournaments:standings", args=[tournament.slug])
    client.get(url)
    with CaptureQueriesContext(connection) as before:
        client.get(url)
    for player in Player.objects.filter(tournament=tournament):
        player.profile = Profile.objects.create(name=player.name)
        player.save()
    client.get(url)
    with CaptureQueriesContext(connection) as after:
        html = client.get(url).content.decode()
    assert html.count('href="/players/') == 16
    assert len(after) == len(before)


def test_a_logged_in_player_finds_his_record_from_his_area(client, ivan, tournament, make_user):
    user = make_user("ivan")
    Player.objects.filter(tournament=tournament, name="Иван Петров").update(user=user)
    client.force_login(user)
    link = f'href="{ivan.get_absolute_url()}"'
    assert link in client.get(reverse("tournaments:my_area")).content.decode()
    area = client.get(reverse("tournaments:player_area", args=[tournament.slug]))
    assert link in area.content.decode()


def test_the_api_gives_the_record_figures_places_and_rating_history(client, ivan, tournament):
    from rest_framework.test import APIClient

    from scoring.people.career_figures import summary
    from scoring.people.careers import load_career

    rated = RatingList.objects.create(name="Федерация", slug="fed")
    RatingEntry.objects.create(
        rating_list=rated, subject=str(ivan.pk), profile=ivan, tournament=tournament,
        sequence=1, rating=1562.5, deviation=180.0,
    )
    old = Profile.objects.create(name="И. Петров", merged_into=ivan)
    api = APIClient()
    body = api.get(f"/api/v1/profiles/{old.pk}/record/").json()
    assert body["profile"] == ivan.pk and body["name"] == "Иван Петров"
    assert "birth_year" not in body and "user" not in body
    assert body["figures"] == summary(load_career(ivan))
    _player, pair, _party = _ivans_party(tournament)
    rank = next(r.rank for r in standings_table(tournament).rows if r.entrant == pair.pk)
    assert [(t["slug"], t["place"], t["field_size"]) for t in body["tournaments"]] == [
        (tournament.slug, rank, 8)
    ]
    assert body["partners"][0]["name"] == "Сергей Смирнов"
    assert body["ratings"] == [{
        "rating_list": rated.pk, "list_name": "Федерация", "subject": str(ivan.pk),
        "partner": "", "sequence": 1, "tournament": tournament.name,
        "date": tournament.start_date.isoformat(), "rating": 1562.5, "deviation": 180.0,
    }]
    assert api.get("/api/v1/profiles/99999/record/").status_code == 404
