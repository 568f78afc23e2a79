"""Club and country standings of a played round: the page (304 while nothing it shows changes),
the API, the setting, and a player's country wherever his club is entered or carried."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.models import Party, Player, Regulations, Tournament
from scoring.ranking.clubs import club_standings_table
from tests.tournaments.play import play
from tests.tournaments.test_standings_order_form import _form_data
from tournaments.registration.services import add_table, register_player, update_member
from tournaments.rounds import draw_services
from tournaments.rounds import services as rounds
from tournaments.setup.services import create_tournament
from tournaments.transfer.archive import export_tournament, import_tournament
from tournaments.transfer.roster import import_roster

pytestmark = pytest.mark.django_db


def _round(tournament: Tournament, loser_deals=(0, 1, 2, 3)) -> list[Party]:
    """Round 1 played: at table n side a wins 240 : 60 × loser_deals[n − 1]."""
    rnd = rounds.create_round(tournament.pk)
    draw_services.generate_draw(rnd.pk)
    rounds.publish_round(rnd.pk)
    rounds.start_round(rnd.pk)
    parties = list(Party.objects.filter(round=rnd).select_related(
        "pair_a__player1", "pair_a__player2", "pair_b__player1", "pair_b__player2",
    ).order_by("table__number"))
    for party, deals in zip(parties, loser_deals, strict=True):
        play(party, "a", deals)
    rounds.close_round(rnd.pk)
    return parties


def _clubs(pair, first: str, second: str | None = None) -> None:
    Player.objects.filter(pk=pair.player1_id).update(club=first)
    Player.objects.filter(pk=pair.player2_id).update(club=first if second is None else second)


@pytest.fixture
def ranked(tournament):
    """The conftest's 8 pairs after round 1: winners W1–W4 (+240, +180, +120, +60), losers
    L4–L1 (−60 … −240), ranked 1 to 8 in that order; the clubs of the expected table."""
    parties = _round(tournament)
    (w1, w2, w3, w4), (l1, l2, l3, l4) = ([p.pair_a for p in parties],
                                          [p.pair_b for p in parties])
    _clubs(w1, "")  # no club: left out
    _clubs(w2, "Рыба")
    _clubs(l3, "Рыба")
    _clubs(w3, "Азов")
    _clubs(l4, "Азов", "Дубль-шесть")  # two clubs: counts for both
    _clubs(l1, "Дубль-шесть")
    _clubs(w4, "Камень")
    _clubs(l2, "Камень")
    tournament.pairs_by_name = {name: pair for name, pair in (
        ("W2", w2), ("W3", w3), ("W4", w4), ("L1", l1), ("L2", l2), ("L3", l3), ("L4", l4))}
    return tournament


EXPECTED = [
    # rank, club, match points, point difference, best place, counted (place: pair)
    (1, "Рыба", 2, 60, 2, ["W2", "L3"]),  # 2 + 0; 180 − 120 = 60
    (2, "Азов", 2, 60, 3, ["W3", "L4"]),  # 2 + 0; 120 − 60 = 60: equal, the better place is Рыба's
    (3, "Камень", 2, -120, 4, ["W4", "L2"]),  # 2 + 0; 60 − 180 = −120: the second sum decides
    (4, "Дубль-шесть", 0, -300, 5, ["L4", "L1"]),  # 0 + 0; −60 − 240; L4 counts for Азов too
]


def test_mixed_pair_counts_for_both_clubs_and_ties_go_to_the_second_sum(ranked):
    """(rules.md S35) A played round's clubs: the mixed pair for both of its clubs, the pair
    without a club for none, equal match points broken by the point differences, then the
    best place."""
    table = club_standings_table(ranked)
    names = {pair.pk: name for name, pair in ranked.pairs_by_name.items()}
    assert [(r.rank, r.name, r.total, r.tie_break, r.best_rank,
             [names[line.entrant] for line in r.counted]) for r in table.rows] == EXPECTED
    assert not table.rows[0].shared and [m.key for m in table.criteria] == [
        "match_points", "point_difference"]


def test_the_page_answers_304_until_a_result_or_a_club_changes(
        client, ranked, organizer, settings, django_capture_on_commit_callbacks):
    settings.PUBLIC_ETAG_VERSION_SECONDS = 0
    url = reverse("tournaments:club_standings", args=[ranked.slug])
    first = client.get(url)
    assert first.status_code == 200 and "Рыба" in first.content.decode()
    etag = first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    # the countries' tab is offered only once a player has a country
    assert f'href="/t/{ranked.slug}/standings/countries/"' not in first.content.decode()
    w2 = ranked.pairs_by_name["W2"]
    client.force_login(organizer)
    with django_capture_on_commit_callbacks(execute=True):  # the edits commit
        edit = client.post(
            reverse("tournaments:player_edit", args=[ranked.slug, w2.player1_id]),
            {"name": w2.player1.name, "club": "Рыба", "city": "", "country": "Чили",
             "rating": 0, "player_profile": "new"})
        assert edit.status_code == 302, edit.content.decode()[:2000]
        assert Player.objects.get(pk=w2.player1_id).country == "Чили"
        client.logout()
        # W2 now counts for Азов too
        update_member(Player.objects.get(pk=w2.player2_id), club="Азов")
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200 and again["ETag"] != etag
    assert 'standings/countries/"' in again.content.decode()
    countries = client.get(reverse("tournaments:country_standings", args=[ranked.slug]))
    assert "Чили" in countries.content.decode()


def test_hidden_standings_hide_the_clubs_too(client, ranked):
    Tournament.objects.filter(pk=ranked.pk).update(public_standings=False)
    assert client.get(reverse("tournaments:club_standings", args=[ranked.slug])
                      ).status_code == 404
    assert client.get(reverse("tournaments:country_standings", args=[ranked.slug])
                      ).status_code == 404
    api = APIClient().get(reverse("v1:tournament-club-standings", args=[ranked.pk]))
    assert api.status_code == 404


def test_the_api_names_the_clubs_counted_entrants_and_refuses_unknown_groupings(ranked):
    api = APIClient()
    url = reverse("v1:tournament-club-standings", args=[ranked.pk])
    data = api.get(url).json()
    pairs = ranked.pairs_by_name
    assert data["by"] == "club" and data["best"] == 2 and not data["per_player"]
    first = data["lines"][0]
    assert (first["name"], first["total"], first["tie_break"], first["best_rank"]) == (
        "Рыба", 2, 60, 2)
    assert [e["entrant"] for e in first["entrants"]] == [pairs["W2"].pk, pairs["L3"].pk]
    assert first["entrants"][0]["metrics"] == {"match_points": 2, "point_difference": 180}
    assert api.get(url, {"by": "country"}).json()["lines"] == []
    refused = api.get(url, {"by": "nation"})
    assert refused.status_code == 400 and "by" in refused.json()
    assert api.get(url, {"after_round": "x"}).status_code == 400


def test_individual_tournaments_count_each_player(organizer):
    """(rules.md S35) In an individual tournament the entrants are the players."""
    t = create_tournament(name="Личный", slug="solo-clubs", organizer=organizer,
                          format=Tournament.Format.INDIVIDUAL)
    for n in (1, 2):
        add_table(t, n)
    for i in range(8):
        register_player(t, name=f"Игрок {i + 1}", rating=1600 - i)
    table_1, table_2 = _round(t, loser_deals=(1, 2))
    winners_1, winners_2 = table_1.pair_a.players, table_2.pair_a.players
    losers_2 = table_2.pair_b.players
    Player.objects.filter(pk__in=[p.pk for p in winners_1]).update(club="Азов")
    Player.objects.filter(pk__in=[winners_2[0].pk, losers_2[0].pk]).update(club="Рыба")
    rows = club_standings_table(t).rows
    # Азов: both winners of table 1 (240 : 60): 2 + 2 = 4, 180 + 180 = 360; Рыба: a winner
    # and a loser of table 2 (240 : 120): 2 + 0 = 2, 120 − 120 = 0
    assert [(r.name, r.total, r.tie_break, len(r.counted)) for r in rows] == [
        ("Азов", 4, 360, 2), ("Рыба", 2, 0, 2)]
    assert {line.entrant for line in rows[0].counted} == {p.pk for p in winners_1}


# -- the setting -------------------------------------------------------------------------------


def test_the_organizer_sets_the_results_counted_per_club(client, tournament, organizer):
    regulations = tournament.regulations
    assert regulations.club_best_results == 2
    client.force_login(organizer)
    url = reverse("tournaments:regulations", args=[tournament.slug])
    assert 'name="club_best_results"' in client.get(url).content.decode()
    refused = client.post(url, {**_form_data(regulations), "club_best_results": 0})
    assert refused.status_code == 200
    assert client.post(url, {**_form_data(regulations), "club_best_results": 3}
                       ).status_code == 302
    regulations.refresh_from_db()
    assert regulations.club_best_results == 3
    api = APIClient()
    api.force_authenticate(organizer)
    regs = reverse("v1:tournament-regulations", args=[tournament.pk])
    assert api.get(regs).json()["club_best_results"] == 3
    bad = api.patch(regs, {"club_best_results": 0}, format="json")
    assert bad.status_code == 400 and "club_best_results" in bad.json()
    assert api.patch(regs, {"club_best_results": 1}, format="json").json()[
        "club_best_results"] == 1


# -- the player's country, wherever his club goes ------------------------------------------------


def test_a_country_is_entered_with_the_pair_form_the_api_and_the_roster(client, organizer):
    cup = create_tournament(name="Страны", slug="countries", organizer=organizer)
    client.force_login(organizer)
    data = {"name": ""}
    for number, name, country in ((1, "Анна", "Латвия"), (2, "Борис", "")):
        data.update({f"player{number}_name": name, f"player{number}_rating": 0,
                     f"player{number}_country": country})
    assert client.post(reverse("tournaments:pair_create", args=[cup.slug]), data
                       ).status_code == 302
    assert Player.objects.get(tournament=cup, name="Анна").country == "Латвия"
    api = APIClient()
    api.force_authenticate(organizer)
    made = api.post(reverse("v1:player-list"),
                    {"tournament": cup.pk, "name": "Вера", "country": "Чили"}, format="json")
    assert made.status_code == 201 and made.json()["country"] == "Чили"
    report = import_roster(cup, "r.csv", "имя,клуб,страна\nГеоргий,Рыба, Литва \n".encode(),
                           viewer=None)
    assert report.ok, report.as_dict()
    assert Player.objects.get(tournament=cup, name="Георгий").country == "Литва"


def test_the_tournament_file_carries_countries_and_the_setting(tournament):
    Player.objects.filter(tournament=tournament, name="José García").update(country="Испания")
    Regulations.objects.filter(tournament=tournament).update(club_best_results=4)
    doc = export_tournament(tournament)
    copy = import_tournament(json.loads(json.dumps(doc)), slug="copy-of-cup")
    assert Player.objects.get(tournament=copy, name="José García").country == "Испания"
    assert copy.regulations.club_best_results == 4
    del doc["regulations"][0]["club_best_results"]
    for record in doc["players"]:
        del record["country"]
    older = import_tournament(doc, slug="older-file")
    assert older.regulations.club_best_results == 2  # a file from before: the default
    assert not Player.objects.filter(tournament=older).exclude(country="").exists()
