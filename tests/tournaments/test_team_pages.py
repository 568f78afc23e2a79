"""A team event's public pages (#36): the team standings (the right teams in the right order
with the right figures; 304 while nothing changes, 200 once a party ends), a team's page (its
matches board by board, its pairs' records), the draw by team match and table, the hall
screen's panels, the player's "your team match" line; a pairs tournament unchanged.

Round 1 of four teams, two halves (tables 1–2: T1–T2, tables 3–4: T3–T4), played so that:

    T1–T2: T1 wins three parties 240:60, T2 one 240:60   → T1 2 MP, PW 3, 780:420 (+360)
    T3–T4: T3 wins two 240:120, T4 two 240:60            → level, 1 MP each
           T3 600:720 (−120), T4 720:600 (+120)
    order: T1 2 MP; T4 1 MP, PW 2, +120; T3 1 MP, PW 2, −120; T2 0 MP, PW 1, −360
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from referee.services.clock import start_party
from scoring.party.deals import record_deal
from tests.tournaments.play import DOMINO, play
from tests.tournaments.team_event import (
    TEAM_NAMES,
    draw_round,
    pairs_of,
    party_at,
    team_event,
    teams_of,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_version_cache(settings):
    settings.PUBLIC_ETAG_VERSION_SECONDS = 0  # each request reads the results version


def _url(t, name, *args):
    return reverse(f"tournaments:{name}", args=[t.slug, *args])


def _finish(rnd, table, half, winner, loser_deals=1):
    party = party_at(rnd, table, half)
    start_party(party.pk)
    return play(party, winner, loser_deals)


@pytest.fixture
def event(organizer):
    """The team event of the module's docstring, round 1 drawn and published."""
    t = team_event(organizer, slug="teams-cup")
    t1, t2, t3, t4 = teams_of(t)
    rnd = draw_round(t, 1, [(t1, t2), (t3, t4)])
    return t, rnd


def _play_round(rnd):
    for table, half, winner, loser_deals in [
        (1, 1, "a", 1), (2, 1, "a", 1), (1, 2, "a", 1), (2, 2, "b", 1),
        (3, 1, "a", 2), (4, 1, "a", 2), (3, 2, "b", 1), (4, 2, "b", 1),
    ]:
        _finish(rnd, table, half, winner, loser_deals)


def _rows(html):
    """The team standings' rows: (team id, [cell texts])."""
    body = html.split('<table class="grid standings-table team-standings">')[1]
    rows = re.findall(r'<tr[^>]*data-team="(\d+)">(.*?)</tr>', body, re.S)
    out = []
    for pk, cells in rows:
        texts = [re.sub(r"<[^>]+>", " ", c).split() for c in re.findall(r"<td[^>]*>(.*?)</td>",
                                                                         cells, re.S)]
        out.append((int(pk), [texts[0][0], *[" ".join(t) for t in texts[2:]]]))
    return out


def test_team_standings_order_the_teams_with_their_figures(client, event):
    t, rnd = event
    t1, t2, t3, t4 = teams_of(t)
    _play_round(rnd)
    html = client.get(_url(t, "team_standings")).content.decode()
    # rank, MP, matches played, W–D–L, parties won, point difference
    assert _rows(html) == [
        (t1.pk, ["1", "2", "1", "1–0–0", "3", "+360"]),
        (t4.pk, ["2", "1", "1", "0–1–0", "2", "+120"]),
        (t3.pk, ["3", "1", "1", "0–1–0", "2", "-120"]),
        (t2.pk, ["4", "0", "1", "0–0–1", "1", "-360"]),
    ]
    # every team's name whole, a link to its page, its pairs beneath
    for team in (t1, t2, t3, t4):
        assert f'<a href="/t/{t.slug}/team/{team.pk}/">{team.name}</a>' in html.replace(
            "&laquo;", "«").replace("&raquo;", "»")
    assert pairs_of(t4)[1].display_name in html
    assert "match points → parties won → point difference → head-to-head → Buchholz" in html


def test_team_standings_answer_304_until_a_party_ends(client, event):
    t, rnd = event
    t1, t2, *_ = teams_of(t)
    url = _url(t, "team_standings")
    first = client.get(url)
    etag = first["ETag"]
    assert first.status_code == 200
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    # a party of board 2 ends: the page changes, its team match shows the party won
    party = party_at(rnd, 2, 1)
    start_party(party.pk)
    started = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert started.status_code == 200
    etag = started["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    record_deal(party.pk, outcome="domino", **DOMINO["b"])
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200
    play(party, "a")
    after = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert after.status_code == 200
    live = after.content.decode().split('id="team-matches-live"')[1].split("</ul>")[0]
    assert "1 : 0 in parties · 1 party finished" in live
    assert _rows(after.content.decode())[0][1][1] == "0"  # undecided: no match points yet
    # the rest of the match: decided, the table moves
    for table, half in ((1, 1), (1, 2), (2, 2)):
        _finish(rnd, table, half, "a")
    rows = _rows(client.get(url).content.decode())
    assert rows[0] == (t1.pk, ["1", "2", "1", "1–0–0", "4", "+660"])  # 960 : 300
    assert rows[-1][0] == t2.pk


def test_a_new_team_changes_the_team_standings_etag(client, event,
                                                    django_capture_on_commit_callbacks):
    t, _rnd = event
    url = _url(t, "team_standings")
    etag = client.get(url)["ETag"]
    team = teams_of(t)[0]
    team.name = "Сборная Москвы"
    with django_capture_on_commit_callbacks(execute=True):  # the change commits
        team.save()
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and "Сборная Москвы" in changed.content.decode()


def test_a_teams_page_shows_its_matches_board_by_board_and_its_pairs_records(client, event):
    t, rnd = event
    t1, t2, *_ = teams_of(t)
    _play_round(rnd)
    html = client.get(_url(t, "team", t1.pk)).content.decode()
    assert f"<h1>{t1.name}</h1>" in html
    match = html.split('id="team-matches"')[1]
    assert f'<a href="/t/{t.slug}/team/{t2.pk}/">{t2.name}</a>' in match
    assert "<strong>3 : 1</strong> in parties" in match
    assert "<strong>2 : 0</strong> match points" in match
    assert "First half" in match and "Second half" in match
    boards = re.findall(
        r'<li class="r-(\w+)"><a href="/party/\d+/">(Board \d · Table \d)</a>', match)
    assert boards == [("won", "Board 1 · Table 1"), ("won", "Board 2 · Table 2"),
                      ("won", "Board 1 · Table 1"), ("lost", "Board 2 · Table 2")]
    assert match.count("<strong>240 : 60</strong>") == 3 and "<strong>60 : 240</strong>" in match
    # its pairs, each linked to its own page with its record among the pairs
    members = html.split('id="members"')[1].split("</section>")[0]
    for pair in pairs_of(t1):
        assert f'<a href="/t/{t.slug}/pair/{pair.pk}/">{pair.display_name}</a>' in members
    standing = html.split('id="team-standing"')[1].split("</section>")[0]
    assert '<span class="big-number">1</span> place of 4' in standing
    # another tournament's team, or a pairs tournament: not found
    assert client.get(_url(t, "team", 99999)).status_code == 404


def test_the_draw_shows_each_team_match_with_its_boards_and_halves_in_russian(client, event):
    t, rnd = event
    t1, t2, t3, t4 = teams_of(t)
    _finish(rnd, 2, 1, "b")
    html = client.get(_url(t, "current_draw"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    first = html.split('id="team-match-')[1]
    second = html.split('id="team-match-')[2]
    assert t1.name in first and t2.name in first and t3.name in second
    assert "<strong class=\"big-score\">0 : 1</strong>" in first
    assert "столы 1–2" in first and "столы 3–4" in second
    heads = re.findall(r'class="tcard-no" href="/party/\d+/">([^<]+)</a>', first)
    assert heads == ["Доска 1 · Стол 1", "Доска 2 · Стол 2"] * 2
    assert "Первая половина" in first and "Вторая половина" in first
    # each board's pairs: the second half swaps the opponents
    a1, a2 = pairs_of(t1)
    b1, b2 = pairs_of(t2)
    halves = first.split("Вторая половина")
    assert halves[0].index(a1.display_name) < halves[0].index(b1.display_name) < halves[0].index(
        a2.display_name) < halves[0].index(b2.display_name)
    assert halves[1].index(a1.display_name) < halves[1].index(b2.display_name) < halves[1].index(
        a2.display_name) < halves[1].index(b1.display_name)
    # the poll brings the boards' scores and the team matches' scores
    state = re.search(r'\?seen=([^"]+)"', html).group(1)
    poll = client.get(f"{_url(t, 'current_draw')}?seen={state}", HTTP_HX_REQUEST="true")
    body = poll.content.decode()
    assert 'id="tm-score-' in body and body.count('hx-swap-oob="true"') == 8 + 2


def test_a_tables_code_opens_the_half_in_play(client, event):
    t, rnd = event
    first, second = party_at(rnd, 1, 1), party_at(rnd, 1, 2)
    assert client.get(_url(t, "table", 1)).url == first.get_absolute_url()
    _finish(rnd, 1, 1, "a")
    assert client.get(_url(t, "table", 1)).url == second.get_absolute_url()


def test_the_hall_shows_team_matches_and_team_standings(client, event):
    t, rnd = event
    t1, t2, t3, t4 = teams_of(t)
    _play_round(rnd)
    first = client.get(_url(t, "hall")).content.decode()
    assert "hall-matches" in first and "Team matches · Round 1" in first  # the first panel
    assert "?panel=teams-1" in first
    rows = [[re.sub(r"<[^>]+>", " ", cell).split() for cell in re.findall(
        r"<td[^>]*>(.*?)</td>", row, re.S)] for row in re.findall(
        r"<tr>(.*?)</tr>", first.split("<tbody>")[1], re.S)]
    assert [" ".join(cell) for cell in rows[0]] == ["1–2", t1.name, "3 : 1 2 : 0 MP", t2.name]
    assert [" ".join(cell) for cell in rows[1]] == ["3–4", t3.name, "2 : 2 1 : 1 MP", t4.name]
    teams = client.get(_url(t, "hall") + "?panel=teams-1").content.decode()
    order = [name for name in re.findall(r"<td>([^<]+)</td>", teams) if name in TEAM_NAMES]
    assert order == [t1.name, t4.name, t3.name, t2.name]
    assert "<th>MP</th>" in teams


def test_the_player_sees_his_board_and_the_other_team(client, event):
    t, rnd = event
    t1, t2, *_ = teams_of(t)
    a2 = pairs_of(t1)[1]
    b1, b2 = pairs_of(t2)
    me = a2.player1
    url = reverse("tournaments:personal_area", args=[me.access_token])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    line = html.split('class="next-team-match"')[1].split("</p>")[0]
    assert f"Ваш командный матч: стол 2 (доска 2) против команды {t2.name}" in line.replace(
        "&laquo;", "«").replace("&raquo;", "»")
    assert "Первая половина" in line and f"за команду {t1.name}" in line
    assert b2.players_label in html.split('id="next"')[1].split("</section>")[0]
    # his first half over: the second, against the other pair of that team
    _finish(rnd, 2, 1, "a")
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    nxt = html.split('id="next"')[1].split("</section>")[0]
    assert "Вторая половина" in nxt and b1.players_label in nxt
    assert b2.players_label not in nxt
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Your team match: table 2 (board 2) against" in english


def test_a_pairs_tournament_has_no_team_pages(client, tournament):
    for name in ("current_draw", "standings", "hall"):
        html = client.get(_url(tournament, name)).content.decode()
        assert "/team-standings/" not in html and "team-match" not in html
    assert client.get(_url(tournament, "team_standings")).status_code == 404
    assert client.get(_url(tournament, "team", 1)).status_code == 404
