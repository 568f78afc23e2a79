"""Live updates in two browsers: the hall screen and the public standings hear of a deal
recorded through the API and show it within 2 s, without polling (the network log shows the
stream and no poll of their fragments), under ASGI (``asgi_server``)."""

from __future__ import annotations

import json
import urllib.request
import uuid

import pytest
from playwright.sync_api import Page, Request, expect
from rest_framework.authtoken.models import Token

from referee.services import start_party
from tests.e2e.asgi_server import asgi_live_server  # noqa: F401 - the fixture
from tests.factories import PartyFactory, RoundFactory
from tournaments.registration.services import update_member

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TARGET = 25


def _watch(page: Page) -> list[Request]:
    """Every request the page makes from now on, in order."""
    requests: list[Request] = []
    page.on("request", lambda request: requests.append(request))
    return requests


def _stream_open(page: Page) -> None:
    """Wait until the page's stream has opened (live.js: ``window.liveUpdates.open``)."""
    for _ in range(100):
        if page.evaluate("Boolean(window.liveUpdates && window.liveUpdates.open)"):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the stream did not open within 10 s")


def _record_deal(base: str, token: str, party_id: int) -> None:
    """A deal through the API, as a table's device sends it: pair A reaches the target."""
    body = {"outcome": "domino", "side": "a", "points": {"a": TARGET + 5, "b": 0}}
    request = urllib.request.Request(
        f"{base}/api/v1/parties/{party_id}/deal/", data=json.dumps(body).encode(),
        method="POST", headers={"Authorization": f"Token {token}",
                                "Content-Type": "application/json",
                                "Idempotency-Key": str(uuid.uuid4())})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 201


def _round_in_play(tournament, referee_user):
    """Round 1 at every table, table 1's party started (the pages are live); its party and the
    pairs in id order."""
    regulations = tournament.regulations
    regulations.target = TARGET
    regulations.save()
    pairs = list(tournament.pairs.order_by("id"))
    rnd = RoundFactory(tournament=tournament, number=1)
    party = PartyFactory(round=rnd, table=tournament.tables.get(number=1), pair_a=pairs[0],
                         pair_b=pairs[1])
    for n, table in enumerate(tournament.tables.exclude(number=1).order_by("number")):
        PartyFactory(round=rnd, table=table, pair_a=pairs[2 + 2 * n], pair_b=pairs[3 + 2 * n])
    start_party(party.pk, actor=referee_user)
    return party, pairs


def test_a_deal_reaches_the_hall_and_the_standings_without_a_poll(
        asgi_live_server, new_page, tournament, referee_user, screenshot):  # noqa: F811
    party, pairs = _round_in_play(tournament, referee_user)
    token = Token.objects.create(user=referee_user).key
    base = asgi_live_server

    hall, standings = new_page(), new_page(phone=True)
    hall_log, standings_log = _watch(hall), _watch(standings)
    # the hall on its table map; 300 s a panel: its next panel is not asked for meanwhile
    hall.goto(f"{base}/t/{tournament.slug}/hall/?panel=draw-1&seconds=300")
    standings.goto(f"{base}/t/{tournament.slug}/standings/")
    for page in (hall, standings):
        _stream_open(page)
    leader = standings.locator("#standings tbody tr").first
    expect(leader).not_to_contain_text(str(TARGET + 5))
    # past the standings' own 10 s poll: while the stream is open it is not sent
    standings.wait_for_timeout(11_000)

    _record_deal(base, token, party.pk)
    score = hall.locator("#hall-panel tbody tr").first
    expect(score).to_contain_text(f"{TARGET + 5}", timeout=2_000)
    expect(leader).to_contain_text(pairs[0].display_name, timeout=2_000)
    expect(leader).to_contain_text(str(TARGET + 5), timeout=2_000)
    screenshot(hall, "live-hall")
    screenshot(standings, "live-standings-phone")

    for page, log, fragment in ((hall, hall_log, "/hall/"), (standings, standings_log,
                                                              "/standings/")):
        streams = [r for r in log if "/live/?channel=tournament-" in r.url]
        fetches = [r for r in log if fragment in r.url and r.headers.get("hx-request")]
        assert len(streams) == 1, [r.url for r in streams]
        assert fetches, "the page fetched nothing after the event"
        # every fragment fetch followed an event (its token); none was a poll
        assert all(r.headers.get("live-version", "").startswith("p") for r in fetches), [
            (r.url, r.headers) for r in fetches]
        assert page.errors == []


def test_a_corrected_name_reaches_the_standings_on_a_phone_without_a_poll(
        asgi_live_server, new_page, tournament, referee_user, screenshot):  # noqa: F811
    _round_in_play(tournament, referee_user)  # the standings are live while a round is
    base = asgi_live_server
    player = tournament.players.get(name="Иван Петров")
    standings = new_page(phone=True)
    log = _watch(standings)
    standings.goto(f"{base}/t/{tournament.slug}/standings/")
    _stream_open(standings)
    table = standings.locator("#standings tbody")
    expect(table).to_contain_text("Иван Петров")
    standings.wait_for_timeout(11_000)  # past the standings' own 10 s poll

    update_member(player, name="Иван Петрович Сидоров-Задунайский")  # commits: the event
    expect(table).to_contain_text("Иван Петрович Сидоров-Задунайский", timeout=2_000)
    screenshot(standings, "live-standings-renamed-phone")
    fetches = [r for r in log if "/standings/" in r.url and r.headers.get("hx-request")]
    assert fetches, "the page fetched nothing after the change"
    # the one fetch followed the entrants event (its token), none was a poll
    assert all(r.headers.get("live-version", "").startswith("e") for r in fetches), [
        (r.url, r.headers) for r in fetches]
    assert standings.errors == []
