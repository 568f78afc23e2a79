"""Public pages: table map with QR codes, results, pair and player pages, hall screen, home."""

from __future__ import annotations

import io
import re

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Pair, Party, Player, Round, Tournament
from tests.tournaments.play import play_round
from tournaments.public import RankChart
from tournaments.rounds import draw_services
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db


def _url(tournament, name, *args):
    return reverse(f"tournaments:{name}", args=[tournament.slug, *args])


def _started_round(tournament):
    """Round 1 drawn, published and started through the round-flow services."""
    rnd = rounds.create_round(tournament.pk)
    draw_services.generate_draw(rnd.pk)
    rounds.publish_round(rnd.pk)
    rounds.start_round(rnd.pk)
    return rnd


@pytest.fixture
def played(tournament):
    """The conftest tournament after round 1 (A sides win 240 : 60) and round 2 in play."""
    rnd = _started_round(tournament)
    play_round(rnd.pk, winner="a")
    rounds.close_round(rnd.pk)
    second = rounds.create_round(tournament.pk)
    draw_services.generate_draw(second.pk)
    rounds.publish_round(second.pk)
    rounds.start_round(second.pk)
    return tournament


def test_table_map_shows_every_table_with_its_pairs_score_and_qr(client, played):
    html = client.get(_url(played, "current_draw")).content.decode()
    rnd = Round.objects.get(tournament=played, number=2)
    for party in Party.objects.filter(round=rnd).select_related("table", "pair_a", "pair_b"):
        assert f'id="table-{party.table.number}"' in html
        assert party.pair_a.display_name in html and party.pair_b.display_name in html
        # the QR code leads to the table's stable address, not to this round's party
        # SITE_URL unset: the address the request reached
        assert f'href="http://testserver/t/{played.slug}/table/{party.table.number}/"' in html
    assert html.count('<svg viewBox=') == 4 and 'class="qr"' in html
    assert "Round 2" in html and "every 10s" in html
    assert "style=" not in html and "<script>" not in html.replace("<script src", "")


def test_a_tables_code_opens_its_party_of_the_current_round(client, played):
    party = Party.objects.get(round__tournament=played, round__number=2, table__number=3)
    response = client.get(_url(played, "table", 3))
    assert response.status_code == 302 and response.url == party.get_absolute_url()
    # a table without a party in the current round leads back to the map
    assert client.get(_url(played, "table", 99)).url == _url(played, "current_draw")


def test_table_map_polls_only_scores_and_reloads_for_a_new_round(client, played):
    page = client.get(_url(played, "current_draw"))
    state = re.search(r'\?seen=([^"]+)"', page.content.decode()).group(1)
    poll = client.get(f"{_url(played, 'current_draw')}?seen={state}", HTTP_HX_REQUEST="true")
    body = poll.content.decode()
    assert poll.status_code == 200 and "hx-swap-oob" in body
    assert "<svg" not in body and "<html" not in body  # no QR codes, no page
    assert body.count('id="live-') == 4
    stale = client.get(f"{_url(played, 'current_draw')}?seen=old", HTTP_HX_REQUEST="true")
    assert stale.status_code == 204 and stale["HX-Refresh"] == "true"


def test_table_map_before_any_draw(client, tournament):
    rounds.create_round(tournament.pk)  # a draft is nobody's business yet
    html = client.get(_url(tournament, "current_draw")).content.decode()
    assert "No draw is published yet." in html
    assert "Иван Петров" not in html


def test_results_show_every_round_in_standings_order(client, played):
    html = client.get(_url(played, "results")).content.decode()
    winners = Party.objects.filter(round__tournament=played, round__number=1)
    for party in winners:
        assert party.pair_a.display_name in html
    assert html.count("240:60") == 4 and html.count("60:240") == 4
    assert f'href="/t/{played.slug}/rounds/1/"' in html
    # per player
    html = client.get(_url(played, "results") + "?by=player").content.decode()
    assert html.count("240:60") == 8
    assert "/player/" in html


def test_results_cells_keep_their_markup(client, played):
    """The cells (printed by the template) read as they did when built in Python."""
    html = client.get(_url(played, "results")).content.decode()
    small = ' <small class="muted">#'
    assert f'<td class="cell r-won"><span class="sr-only">won</span>240:60{small}' in html
    assert f'<td class="cell r-lost"><span class="sr-only">lost</span>60:240{small}' in html
    assert '<td class="cell"><span class="muted">·</span></td>' in html


def test_pair_page_history_and_chart(client, played):
    party = Party.objects.get(round__tournament=played, round__number=1, table__number=1)
    pair = party.pair_a
    html = client.get(_url(played, "pair", pair.pk)).content.decode()
    assert pair.display_name in html
    assert party.pair_b.display_name in html  # the opponent of round 1
    assert "240 : 60" in html and "won" in html and "playing" in html
    assert '<svg viewBox="0 0 420 220"' in html and 'class="chart-line"' in html
    assert "place of 8" in html


def test_player_page_names_the_partner_of_each_round(client, played):
    party = Party.objects.get(round__tournament=played, round__number=1, table__number=2)
    player, partner = party.pair_b.player1, party.pair_b.player2
    html = client.get(_url(played, "player", player.pk)).content.decode()
    assert player.name in html and f"with {partner.name}" in html
    assert "60 : 240" in html and "lost" in html


def test_entrant_pages_of_another_tournament_are_not_found(client, played, make_field):
    other = make_field(4)
    stranger_pair = other.pairs.first()
    stranger = other.players.first()
    assert client.get(_url(played, "pair", stranger_pair.pk)).status_code == 404
    assert client.get(_url(played, "player", stranger.pk)).status_code == 404


def test_rank_chart_puts_first_place_on_top():
    chart = RankChart([1, 2, 3], [5, 2, 1], field_size=8)
    ys = [p["y"] for p in chart.points]
    assert ys[0] > ys[1] > ys[2]  # a better place is drawn higher
    assert chart.points[0]["x"] < chart.points[-1]["x"]
    big = RankChart([1, 2], [240, 250], field_size=500)
    assert {t["rank"] for t in big.ticks} >= {237, 253}  # zoomed in around the pair's places
    assert RankChart([], [], field_size=4).points == []


def test_hall_screen_cycles_through_draw_running_parties_and_standings(client, played):
    url = _url(played, "hall")
    html = client.get(url).content.decode()
    assert 'class="hall"' in html and '<header class="top">' not in html
    seen = []
    next_url = url
    for _ in range(5):
        panel = client.get(next_url, HTTP_HX_REQUEST="true").content.decode()
        assert panel.lstrip().startswith('<section id="hall-panel"')
        seen.append(re.search(r'class="hall-panel hall-(\w+)"', panel).group(1))
        next_url = re.search(r'hx-get="([^"]+)"', panel).group(1).replace("&amp;", "&")
    assert seen[:3] == ["draw", "running", "standings"] and seen[3] == "draw"
    running = client.get(url + "?panel=running-1").content.decode()
    assert running.count("data-seconds-left=") == 4
    assert "seconds=15" in running
    slow = client.get(url + "?panel=standings-1&seconds=60").content.decode()
    assert 'hx-trigger="every 60s"' in slow


def test_hall_screen_without_a_round_welcomes(client, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(public_standings=False)
    html = client.get(_url(tournament, "hall")).content.decode()
    assert "hall-welcome" in html


def test_public_pages_carry_a_strict_csp(client, played):
    pair = Pair.objects.filter(tournament=played).first()
    for name, args in [("current_draw", []), ("results", []), ("pair", [pair.pk]),
                       ("hall", [])]:
        response = client.get(_url(played, name, *args))
        assert response["Content-Security-Policy"] == settings.CONTENT_SECURITY_POLICY, name


def test_home_links_the_public_pages(client, played):
    html = client.get(_url(played, "detail")).content.decode()
    for name in ("current_draw", "standings", "results", "hall"):
        assert f'href="{_url(played, name)}"' in html


# -- switches ----------------------------------------------------------------------------

PAGES = {
    "draw": [("current_draw", []), ("table", [1])],
    "standings": [("standings", [])],
    "results": [("results", []), ("rounds", []), ("round", [1])],
    "entrants": [("pair", ["pair"]), ("player", ["player"])],
    "hall": [("hall", [])],
}
SWITCH = {"draw": "public_draw", "standings": "public_standings", "results": "public_results",
          "entrants": "public_entrants", "hall": "hall_screen"}


def _args(tournament, args):
    ids = {"pair": tournament.pairs.first().pk, "player": tournament.players.first().pk}
    return [ids.get(a, a) for a in args]


def _assert_open(client, tournament, name, args):
    """The page answers 200; a table's code redirects to its party, whose page answers 200."""
    url = _url(tournament, name, *_args(tournament, args))
    if name != "table":
        response = client.get(url)
        assert response.status_code == 200, url
        return
    party = Party.objects.select_related("pair_a", "pair_b").get(
        round__tournament=tournament, round__number=2, table__number=args[0]
    )
    response = client.get(url, follow=True)
    assert response.redirect_chain == [(party.get_absolute_url(), 302)], url
    assert response.status_code == 200, url
    html = response.content.decode()
    assert f"<h1>Table {args[0]}</h1>" in html
    for pair in (party.pair_a, party.pair_b):
        assert f"{pair.player1.name}<br>{pair.player2.name}" in html


@pytest.mark.parametrize("page", sorted(PAGES))
def test_each_page_can_be_switched_off(client, played, make_user, page):
    for name, args in PAGES[page]:
        _assert_open(client, played, name, args)
    Tournament.objects.filter(pk=played.pk).update(**{SWITCH[page]: False})
    for name, args in PAGES[page]:
        url = _url(played, name, *_args(played, args))
        assert client.get(url).status_code == 404, url
        client.force_login(make_user())  # a logged-in stranger (or a player) neither
        assert client.get(url).status_code == 404, url
        client.logout()
    # the other pages stay open
    for other in set(PAGES) - {page}:
        name, args = PAGES[other][0]
        _assert_open(client, played, name, args)


@pytest.mark.parametrize("role", ["organizer", "referee", "chief"])
def test_the_people_running_the_tournament_see_switched_off_pages(
    client, played, organizer, make_user, role
):
    from scoring.models import TournamentRole

    Tournament.objects.filter(pk=played.pk).update(**{field: False for field in SWITCH.values()})
    user = organizer
    if role != "organizer":
        user = make_user()
        TournamentRole.objects.create(tournament=played, user=user, role=role)
    client.force_login(user)
    for page in PAGES.values():
        for name, args in page:
            _assert_open(client, played, name, args)


def test_switched_off_pages_leave_the_home_page_quiet(client, played):
    Tournament.objects.filter(pk=played.pk).update(public_draw=False, public_results=False)
    html = client.get(_url(played, "detail")).content.decode()
    assert _url(played, "current_draw") not in html
    assert _url(played, "results") not in html and _url(played, "round", 1) not in html
    party = Party.objects.filter(round__tournament=played, round__number=2).first()
    assert party.get_absolute_url() not in html  # the draw of round 2 does not leak


def test_standings_link_entrant_pages_only_when_they_are_public(client, played):
    pair = played.pairs.first()
    assert _url(played, "pair", pair.pk) in client.get(_url(played, "standings")).content.decode()
    Tournament.objects.filter(pk=played.pk).update(public_entrants=False)
    assert "/pair/" not in client.get(_url(played, "standings")).content.decode()


def test_hidden_tournament_pages_are_not_found_with_data_present(client, played, make_user):
    Tournament.objects.filter(pk=played.pk).update(public=False)
    stranger = make_user()
    pair = played.pairs.first()
    player = played.players.first()
    urls = [_url(played, name, *args) for name, args in [
        ("current_draw", []), ("table", [1]), ("standings", []), ("results", []),
        ("pair", [pair.pk]), ("player", [player.pk]), ("hall", []), ("rounds", []),
    ]]
    for user in (None, stranger):
        if user:
            client.force_login(user)
        for url in urls:
            response = client.get(url)
            assert response.status_code == 404, url
            assert pair.display_name not in response.content.decode()


# -- queries do not grow with the number of pairs ---------------------------------------


def _queries(client, url, **headers):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, **headers)
    assert response.status_code == 200, url
    return len(queries), response.content.decode()


@pytest.mark.parametrize(
    ("name", "args", "headers", "most"),
    [
        ("current_draw", [], {}, 6),
        ("standings", [], {}, 9),
        ("results", [], {}, 11),
        ("pair", ["pair"], {}, 14),
        ("player", ["player"], {}, 14),
        ("hall", [], {}, 13),  # 13: the timetable's items (the countdown to the next start)
        ("hall", [], {"HTTP_HX_REQUEST": "true"}, 13),
    ],
)
def test_public_pages_use_as_many_queries_for_40_pairs_as_for_4(
    client, make_field, name, args, headers, most
):
    small, big = make_field(4), make_field(40)
    few, _html = _queries(client, _url(small, name, *_args(small, args)), **headers)
    many, html = _queries(client, _url(big, name, *_args(big, args)), **headers)
    assert many == few, (name, few, many)
    # the conditional pages (draw, standings, hall) load the tournament, its rounds and the
    # results version once, for the ETag and the page together
    assert few <= most, few
    if name in ("standings", "results", "current_draw"):
        assert "Игрок 079" in html  # every pair is on the page


def test_hall_panels_use_as_many_queries_for_40_pairs_as_for_4(client, make_field):
    small, big = make_field(4), make_field(40)
    for panel in ("draw-1", "running-1", "standings-1"):
        few, _ = _queries(client, _url(small, "hall") + f"?panel={panel}")
        many, _ = _queries(client, _url(big, "hall") + f"?panel={panel}")
        assert many == few, panel


def test_individual_tournament_pages(client, organizer):
    from tournaments.setup.services import create_tournament

    t = create_tournament(name="Личный", slug="solo", organizer=organizer, format="individual")
    for k in range(8):
        Player.objects.create(tournament=t, name=f"Участник {k}")
    from scoring.models import Table

    for n in (1, 2):
        Table.objects.create(tournament=t, number=n)
    rnd = _started_round(t)
    play_round(rnd.pk)
    rounds.close_round(rnd.pk)
    player = t.players.first()
    html = client.get(_url(t, "results")).content.decode()
    assert html.count("240:60") == 4 and "Участник" in html
    html = client.get(_url(t, "player", player.pk)).content.decode()
    assert player.name in html and "with " in html
    formed = Pair.objects.filter(tournament=t).first()
    assert client.get(_url(t, "pair", formed.pk)).status_code == 404  # pairs of a round only
    assert client.get(_url(t, "current_draw")).status_code == 200


@pytest.mark.django_db
def test_kozel_results_name_the_goat_and_no_joint_leader_lost(client):
    """Every player keeps his own account: his points, the Goat marked, nobody 'lost'."""
    from django.core.management import call_command

    call_command("seed_demo", stdout=io.StringIO())
    page = client.get("/t/kozel-evening/results/")
    assert page.status_code == 200
    table = page.content.decode()
    table = table[table.index("<table"):table.index("</table>")]
    cells = re.findall(r'class="cell r-(\w+)"', table)
    assert "lost" not in cells and "won" not in cells[:2]  # the joint leaders
    assert cells.count("goat") == 2  # one Goat at each of the two tables
    assert ">RP<" in table  # ranked by rating points, not match points
