"""The finals on the public pages: the Groups and Bracket tabs once the tournament has such a
stage (and the standings are public); the groups' page, each group ranked in the tournament's
columns, live with 304s; the bracket page's and the hall's ETag following a match decided
without any party changing; the hall's bracket panel in its rotation while the finals run."""

from __future__ import annotations

import re

import pytest
from django.db import transaction
from django.test import Client
from django.utils import timezone

from scoring.models import Match, Pair, Party, Round
from scoring.ranking.results import results_version, standings_table
from scoring.stages.common import groups_stage
from scoring.stages.groups import group_standings
from scoring.stages.knockout import decide_match
from tests.tournaments.test_bracket_pages import _bracket_of
from tests.tournaments.test_finals import _field, _play_published, api  # noqa: F401
from tournaments.rounds.finals import start_groups

pytestmark = pytest.mark.django_db


def _tabs(html: str) -> list[str]:
    """The tab bar's labels, in order."""
    nav = html[html.index('<nav class="tabs"'):]
    nav = nav[:nav.index("</nav>")]
    return re.findall(r">([^<>]+)</a>", nav)


def _by_rating(party: Party) -> str:
    """The better rated pair wins."""
    return "a" if party.pair_a.rating > party.pair_b.rating else "b"


def _group_round(api, t) -> None:  # noqa: F811
    """One round of the groups: drawn, published, every party played (the better rated wins),
    closed."""
    rid = api.post("/api/v1/rounds/", {"tournament": t.pk}, format="json").data["id"]
    assert api.post(f"/api/v1/rounds/{rid}/generate/", {}, format="json").status_code == 200
    assert api.post(f"/api/v1/rounds/{rid}/publish/").status_code == 200
    _play_published(api, _by_rating)
    assert api.post(f"/api/v1/rounds/{rid}/close/").status_code == 200


def test_the_groups_and_bracket_tabs_appear_only_with_their_stage(organizer):
    t = _field(organizer, 8, 3, "tabs-plain")
    client = Client()
    plain = client.get(f"/t/{t.slug}/standings/").content.decode()
    assert _tabs(plain) == ["Tournament", "Draw", "Standings", "Results", "Rounds",
                            "Hall screen"]
    assert client.get(f"/t/{t.slug}/groups/").status_code == 404
    start_groups(t.pk, group_count=2)
    for page in ("", "standings/", "results/", "groups/"):
        html = client.get(f"/t/{t.slug}/{page}").content.decode()
        assert "Groups" in _tabs(html) and "Bracket" not in _tabs(html), page
    russian = client.get(f"/t/{t.slug}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Группы" in _tabs(russian)
    finals = _bracket_of(organizer, 4, "tabs-ko")
    html = client.get(f"/t/{finals.slug}/").content.decode()
    assert _tabs(html)[3] == "Bracket" and "Groups" not in _tabs(html)
    current = client.get(f"/t/{finals.slug}/bracket/").content.decode()
    assert 'class="current" aria-current="page">Bracket<' in current
    assert "Сетка" in _tabs(client.get(f"/t/{finals.slug}/",
                                       HTTP_ACCEPT_LANGUAGE="ru").content.decode())
    # the standings switched off: neither tab, neither page, for the public
    for tournament in (t, finals):
        tournament.public_standings = False
        tournament.save(update_fields=["public_standings"])
    assert "Groups" not in _tabs(client.get(f"/t/{t.slug}/").content.decode())
    assert "Bracket" not in _tabs(client.get(f"/t/{finals.slug}/").content.decode())
    assert client.get(f"/t/{t.slug}/groups/").status_code == 404
    assert client.get(f"/t/{finals.slug}/bracket/").status_code == 404
    org = Client()
    org.force_login(organizer)  # the organizer sees every page, switched on or off
    assert "Groups" in _tabs(org.get(f"/t/{t.slug}/").content.decode())
    assert org.get(f"/t/{t.slug}/groups/").status_code == 200


def _groups_on_page(html: str) -> dict[str, list[int]]:
    """Each group's heading with its pairs (their pages' ids) in the order of its table."""
    found = {}
    for section in html.split('<section class="group-standings"')[1:]:
        name = re.search(r"<h2 id=\"group-\d+\">([^<]+)</h2>", section).group(1)
        table = section[section.index("<tbody>"):section.index("</tbody>")]
        found[name] = [int(pk) for pk in re.findall(r'href="/t/[^/]+/pair/(\d+)/"', table)]
    return found


def test_the_groups_page_ranks_each_group_in_the_tournaments_columns(
        api, organizer, settings):  # noqa: F811
    settings.PUBLIC_ETAG_VERSION_SECONDS = 0
    t = _field(organizer, 8, 3, "groups-page")
    start_groups(t.pk, group_count=2)
    client = Client()
    before = client.get(f"/t/{t.slug}/groups/")
    assert before.status_code == 200
    drawn = _groups_on_page(before.content.decode())
    assert list(drawn) == ["Group A", "Group B"] and all(len(g) == 4 for g in drawn.values())
    for _round in range(3):  # every pair meets the three others of its group
        _group_round(api, t)
    page = client.get(f"/t/{t.slug}/groups/")
    html = page.content.decode()
    ranked = _groups_on_page(html)
    rating = dict(Pair.objects.filter(tournament=t).values_list("pk", "rating"))
    for name, pairs in ranked.items():  # the better rated won every party: 3, 2, 1, 0 wins
        assert pairs == sorted(drawn[name], key=lambda pk: -rating[pk]), name
    stage = groups_stage(t)
    stage.tournament = t
    assert [pks for _g, pks in group_standings(stage)] == list(ranked.values())
    # the standings' own columns and figures: the winner of group A has 3 wins of 3
    columns = standings_table(t).columns
    head = html[html.index("<thead>"):html.index("</thead>")]
    assert re.findall(r'<th title="([^"]+)">', head) == [str(m.name) for m in columns]
    first = html[html.index(f'/pair/{ranked["Group A"][0]}/'):]
    first = first[:first.index("</tr>")]
    values = standings_table(t).lines()
    row = next(v for r, _e, v in values if r.entrant == ranked["Group A"][0])
    assert re.findall(r"<td>([^<]*)</td>", first)[:len(row)] == [str(v) for v in row]
    # live with 304s like the standings
    again = client.get(f"/t/{t.slug}/groups/", HTTP_IF_NONE_MATCH=page["ETag"])
    assert again.status_code == 304
    fragment = client.get(f"/t/{t.slug}/groups/", HTTP_HX_REQUEST="true").content.decode()
    assert fragment.startswith("<section") or '<section id="groups"' in fragment
    assert "<html" not in fragment
    russian = client.get(f"/t/{t.slug}/groups/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Группа A" in russian and "Группа B" in russian


def test_a_match_decided_without_a_party_changes_the_bracket_pages_etag(organizer, settings):
    settings.PUBLIC_ETAG_VERSION_SECONDS = 0  # each request reads the versions
    t = _bracket_of(organizer, 4, "ko-etag")
    client = Client()
    urls = (f"/t/{t.slug}/bracket/", f"/t/{t.slug}/hall/?panel=bracket-1")
    etags = {url: client.get(url)["ETag"] for url in urls}
    for url, etag in etags.items():
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304, url
    version = results_version(t)
    match = Match.objects.select_related("stage").filter(
        stage__tournament=t, bracket_round=1).order_by("position").first()
    with transaction.atomic():  # the organizer decides it (a walkover): no party changes
        decide_match(match, match.pair_b_id, timezone.now())
    assert results_version(t) == version
    for url, etag in etags.items():
        answer = client.get(url, HTTP_IF_NONE_MATCH=etag)
        assert answer.status_code == 200 and answer["ETag"] != etag, url
    winner = Pair.objects.get(pk=match.pair_b_id).display_name
    body = client.get(urls[0]).content.decode()
    assert body.count(winner) >= 2  # in its semi-final and on to the final


def _rotation(client: Client, url: str) -> list[str]:
    """The hall's panels (their kinds) in the order it shows them, from its first (the draw):
    each poll brings the panel the previous one named, until the first comes again."""
    kinds: list[str] = []
    seen: set[str] = set()
    next_url = f"{url}?panel=draw-1&seconds=15"
    while next_url not in seen:
        seen.add(next_url)
        html = client.get(next_url, HTTP_HX_REQUEST="true").content.decode()
        kinds.append(re.search(r'class="hall-panel hall-([a-z]+)"', html).group(1))
        next_url = re.search(r'hx-get="([^"]+)"', html).group(1).replace("&amp;", "&")
    return kinds


def test_the_hall_shows_the_bracket_while_the_finals_run(organizer):
    client = Client()
    plain = _field(organizer, 4, 1, "hall-plain")
    assert "bracket" not in _rotation(client, f"/t/{plain.slug}/hall/")
    t = _bracket_of(organizer, 4, "hall-ko")
    assert _rotation(client, f"/t/{t.slug}/hall/") == ["draw", "bracket", "standings"]
    panel = client.get(f"/t/{t.slug}/hall/?panel=bracket-1").content.decode()
    assert "Semi-finals" in panel and "Final" in panel
    names = Pair.objects.filter(tournament=t).first().display_name
    assert names in panel
    assert Round.objects.filter(tournament=t, bracket_round=1).exists()



def test_groups_after_swiss_rank_by_their_own_parties_only(api, organizer):  # noqa: F811
    """A groups stage after a Swiss round ranks each group by the group's parties: the
    qualifying wins count for nothing there (the groups page and the cross-over use this)."""
    from scoring.stages.groups import group_rows
    from tests.tournaments.test_finals import _qualifying_round

    t = _field(organizer, 4, 1, "groups-after-swiss")
    _qualifying_round(api, t)  # side a wins every party: two pairs lead with 2 match points
    assert sorted(row.metrics["match_points"] for row in standings_table(t).rows) == [0, 0, 2, 2]
    stage = start_groups(t.pk, group_count=1)[0].stage
    (_group, rows), = group_rows(stage)
    # no group party yet: all level
    assert [row.metrics["match_points"] for row in rows] == [0, 0, 0, 0]
    _group_round(api, t)  # the better rated pair wins each group party
    won = {p.pair_a_id if p.winner == "a" else p.pair_b_id
           for p in Party.objects.filter(round__stage=stage)}
    (_group, rows), = group_rows(stage)
    assert [row.metrics["match_points"] for row in rows] == [2, 2, 0, 0]
    assert {row.entrant for row in rows[:2]} == won
