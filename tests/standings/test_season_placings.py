"""Stored placings: written when a result is recorded or corrected, rebuilt by the command,
and the season table read from them in a constant number of queries."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from referee.services import start_party
from scoring.models import Deal, Profile, Season, TournamentPlacing
from scoring.party.deals import correct_deal, record_deal
from scoring.ranking.seasons import refresh_placings, season_page
from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db

DOMINO_A = {"outcome": "domino", "went_out": "a1", "pips": {"a1": 0, "a2": 10, "b1": 20, "b2": 30}}


@pytest.fixture
def linked(tournament):
    """The fixture tournament with a profile for every player, in a place-points season."""
    for player in tournament.players.order_by("id"):
        player.profile = Profile.objects.create(name=player.name, club="Клуб")
        player.save(update_fields=["profile"])
    season = Season.objects.create(
        name="Сезон", slug="sezon", scoring="place_points", place_points=[10, 6, 4, 3]
    )
    season.tournaments.add(tournament)
    return tournament, season


def play(party, referee, deals: int = 4):
    """Start a party and record ``deals`` deals of 60 points for pair A (4 finish it)."""
    start_party(party.pk, actor=referee)
    for _ in range(deals):
        record_deal(party.pk, actor=referee, **DOMINO_A)


def season_of(season: Season) -> list[tuple[int, str, float]]:
    """(place, name, total) of each line of the season table."""
    page = season_page(Season.objects.get(pk=season.pk))
    return [(line.rank, page.people[line.profile][0], line.total) for line in page.lines]


def test_a_finished_party_writes_the_placings_and_a_correction_updates_the_season(
    linked, make_party, referee_user, django_capture_on_commit_callbacks
):
    tournament, season = linked
    pairs = list(tournament.pairs.order_by("id"))
    first = make_party(pairs[0], pairs[1], table_number=1, round_number=1)
    second = make_party(pairs[2], pairs[3], table_number=2, round_number=1)
    with django_capture_on_commit_callbacks(execute=True):
        play(first, referee_user)
        play(second, referee_user)
    # both won 240 : 0: pairs 1 and 3 share 1st (10 season points for both players of each)
    table = season_of(season)
    assert sorted(table[:4]) == [(1, "Anna Müller", 10), (1, "José García", 10),
                                 (1, "Иван Петров", 10), (1, "Сергей Смирнов", 10)]
    assert TournamentPlacing.objects.get(
        tournament=tournament, profile__name="Иван Петров").place == 1

    deal = Deal.objects.filter(party=second).order_by("number").first()
    with django_capture_on_commit_callbacks(execute=True):
        correct_deal(deal.pk, actor=referee_user, reason="miscount", outcome="domino",
                     winner="a", points={"a": 100, "b": 0})
    # pair 3 now won 280 : 0 and is alone 1st; pair 1 is 2nd (6 season points)
    table = season_of(season)
    assert sorted(table[:2]) == [(1, "Anna Müller", 10), (1, "José García", 10)]
    assert sorted(table[2:4]) == [(3, "Иван Петров", 6), (3, "Сергей Смирнов", 6)]
    placing = TournamentPlacing.objects.get(tournament=tournament, profile__name="Иван Петров")
    assert (placing.place, placing.shared, placing.score) == (2, False, 2.0)


def test_a_tournament_no_season_counts_is_not_refreshed(
    tournament, make_party, referee_user, django_capture_on_commit_callbacks
):
    for player in tournament.players.all():
        player.profile = Profile.objects.create(name=player.name)
        player.save(update_fields=["profile"])
    with django_capture_on_commit_callbacks(execute=True):
        play(make_party(), referee_user)
    assert not TournamentPlacing.objects.exists()


def test_the_command_rebuilds_the_placings_from_the_standings(linked, make_party,
                                                              referee_user):
    tournament, season = linked
    play(make_party(), referee_user)  # no commit callbacks: nothing stored yet
    assert not TournamentPlacing.objects.exists()
    out = StringIO()
    call_command("rebuild_placings", stdout=out)
    assert f"{tournament.slug}: 16 placings" in out.getvalue()
    # the two players of the winning pair are 1st, with the pair's 2 match points
    first = TournamentPlacing.objects.filter(tournament=tournament, place=1)
    assert sorted(first.values_list("profile__name", flat=True)) == [
        "Иван Петров", "Сергей Смирнов"]
    assert set(first.values_list("score", flat=True)) == {2.0}


def test_players_without_a_profile_and_an_unplayed_tournament_give_no_placings(
    linked, make_party, referee_user
):
    tournament, _season = linked
    assert refresh_placings(tournament) == 0  # no counted party yet
    play(make_party(), referee_user)
    tournament.players.filter(name="Иван Петров").update(profile=None)
    assert refresh_placings(tournament) == 15


def test_the_season_table_reads_in_a_constant_number_of_queries(linked, organizer):
    _tournament, season = linked
    profiles = list(Profile.objects.all())

    def queries_with(events: int) -> int:
        season.tournaments.clear()
        for _k in range(events):
            t = TournamentFactory(organizer=organizer)
            season.tournaments.add(t)
            TournamentPlacing.objects.bulk_create(
                TournamentPlacing(tournament=t, profile=p, place=n + 1, score=16 - n)
                for n, p in enumerate(profiles)
            )
        fresh = Season.objects.get(pk=season.pk)
        with CaptureQueriesContext(connection) as ctx:
            page = season_page(fresh)
        assert len(page.lines) == 16 and len(page.tournaments) == events
        return len(ctx.captured_queries)

    assert queries_with(2) == queries_with(6) == 3  # tournaments, placings, their people


def test_merging_two_profiles_of_one_person_joins_his_season_line(
    linked, make_party, referee_user, django_capture_on_commit_callbacks, organizer
):
    from scoring.people.merges import merge_profiles
    from tests.factories import PartyFactory, RoundFactory
    from tournaments.registration.services import add_table, register_pair, register_player
    from tournaments.setup.services import create_tournament

    tournament, season = linked
    pairs = list(tournament.pairs.order_by("id"))
    first = make_party(pairs[0], pairs[1], table_number=1, round_number=1)
    with django_capture_on_commit_callbacks(execute=True):
        play(first, referee_user)
    # a second evening where Ivan was registered under a new profile of his own
    ivan = tournament.players.get(name="Иван Петров")
    second = create_tournament(name="Вечер 2", slug="vecher-2", organizer=organizer)
    people = [register_player(second, name=name, club="Клуб") for name in
              ("Иван Петров", "Пётр Первый", "Фёдор Второй", "Юрий Третий")]
    duplicate = people[0].profile  # registered anew: a profile of his own
    assert duplicate != ivan.profile
    a, b = register_pair(second, people[0], people[1]), register_pair(second, people[2], people[3])
    add_table(second, 1)
    later = PartyFactory(round=RoundFactory(tournament=second, number=1),
                         table=second.tables.get(number=1), pair_a=a, pair_b=b)
    season.tournaments.add(second)
    with django_capture_on_commit_callbacks(execute=True):
        play(later, referee_user)
    assert [name for _rank, name, _total in season_of(season)].count("Иван Петров") == 2
    with django_capture_on_commit_callbacks(execute=True):
        merge_profiles(ivan.profile, duplicate)
    assert TournamentPlacing.objects.filter(profile=duplicate).count() == 0
    assert set(TournamentPlacing.objects.filter(profile=ivan.profile).values_list(
        "tournament_id", flat=True)) == {tournament.pk, second.pk}
    assert [name for _rank, name, _total in season_of(season)].count("Иван Петров") == 1


def test_after_a_correction_the_next_visitor_finds_the_season_table_made(
    linked, make_party, referee_user, client, django_capture_on_commit_callbacks, monkeypatch
):
    """The refresh task renders the table of every season counting the tournament (in both
    languages) under the placings' new version: the page after a correction renders nothing
    and reads only the season, its tournaments and the version."""
    from tournaments.ranking import season_views

    tournament, season = linked
    Season.objects.filter(pk=season.pk).update(public=True)
    tournament.__class__.objects.filter(pk=tournament.pk).update(public=True,
                                                                 public_standings=True)
    pairs = list(tournament.pairs.order_by("id"))
    first = make_party(pairs[0], pairs[1], table_number=1, round_number=1)
    second = make_party(pairs[2], pairs[3], table_number=2, round_number=1)
    with django_capture_on_commit_callbacks(execute=True):
        play(first, referee_user)
        play(second, referee_user)
    url = season.get_absolute_url()
    assert client.get(url).status_code == 200
    rendered = []
    real = season_views.season_table_html
    monkeypatch.setattr(season_views, "season_table_html",
                        lambda *args: rendered.append(args) or real(*args))
    deal = Deal.objects.filter(party=second).order_by("number").first()
    with django_capture_on_commit_callbacks(execute=True):
        correct_deal(deal.pk, actor=referee_user, reason="miscount", outcome="domino",
                     winner="a", points={"a": 100, "b": 0})
    assert len(rendered) == 2  # the refresh made the table in English and in Russian
    with CaptureQueriesContext(connection) as warm:
        page = client.get(url)
    assert len(rendered) == 2  # the visitor's page rendered no table
    # pair 1 is now 2nd (3rd season place after pair 3's two): 6 points, from the made table
    row = next(line for line in page.content.decode().split("<tr>") if "Иван Петров" in line)
    assert "<td>3</td>" in row.split("</th>")[0] and '<td class="total">6</td>' in row
    with CaptureQueriesContext(connection) as again:
        client.get(url)
    assert len(warm.captured_queries) == len(again.captured_queries)  # the warm count
    with translation.override("ru"):
        client.get(url, HTTP_ACCEPT_LANGUAGE="ru")
    assert len(rendered) == 2
