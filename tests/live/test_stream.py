"""The live stream (/live/): who may hear which channel, the event on it, the fallback to
polling, and the fetch an event makes (its token passes the ETag remembered before)."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import async_to_sync
from django.test import AsyncClient, Client

from scoring import live, live_fanout
from scoring.models import Party, Tournament
from scoring.party.deals import record_deal
from tests.factories import PlayerFactory, TournamentRoleFactory
from tests.tournaments.play import DOMINO
from tests.tournaments.test_public_pages import played  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "stranger", "player", "referee", "organizer")


@pytest.fixture
def users(tournament, organizer, make_user):
    """A user of each role in the conftest tournament (None: anonymous)."""
    referee, player, stranger = make_user("ref"), make_user("pl"), make_user("other")
    TournamentRoleFactory(tournament=tournament, user=referee, role="referee")
    PlayerFactory(tournament=tournament, name="Игрок", user=player)
    return {"anonymous": None, "stranger": stranger, "player": player, "referee": referee,
            "organizer": organizer}


def _status(user, channels: list[str]) -> int:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client.get("/live/", {"channel": channels}).status_code


@pytest.mark.parametrize("public", [True, False], ids=["public", "private"])
def test_who_may_open_a_tournament_and_a_party_channel(tournament, make_party, users, public):
    """A public tournament's channels: everyone; a private one's: the people in it only (403).
    Under WSGI an allowed stream answers 204: the page keeps polling."""
    Tournament.objects.filter(pk=tournament.pk).update(public=public)
    party = make_party()
    allowed = {"anonymous": public, "stranger": public, "player": True, "referee": True,
               "organizer": True}
    for channel in (live.tournament_channel(tournament.pk), live.party_channel(party.pk)):
        got = {role: _status(users[role], [channel]) for role in ROLES}
        assert got == {role: 204 if allowed[role] else 403 for role in ROLES}, channel


def test_odd_channels_are_refused(tournament, users):
    ours = live.tournament_channel(tournament.pk)
    assert _status(None, []) == 400
    assert _status(None, [ours] * 9) == 400  # more than the page ever asks
    assert _status(None, ["tournament-999999"]) == 403  # none such
    assert _status(None, ["everything"]) == 403
    assert _status(None, [ours, "party-999999"]) == 403  # one refused: the stream is refused
    assert Client().post("/live/", {"channel": ours}).status_code == 405


def test_under_asgi_the_stream_opens_and_carries_an_event(tournament):
    """The stream's first words (stream-open), then an event sent to its channel from another
    thread (handed to the stream's event loop: ``config.live_stream.LoopListenerManager``)."""
    channel = live.tournament_channel(tournament.pk)

    async def hear() -> tuple[int, str, str, bytes]:
        response = await AsyncClient().get("/live/", {"channel": channel})
        chunks = response.streaming_content  # type: ignore[attr-defined]  # a stream
        first = await anext(chunks)
        subscriber = live_fanout.ensure_subscriber()  # with a Redis: listening before the send
        assert subscriber is None or subscriber.subscribed.wait(5)
        sender = threading.Thread(target=live.send, args=([channel], {
            "kind": "deal_recorded", "party": 7, "token": "p7.2"}))  # as a request's commit
        asyncio.get_running_loop().call_later(0.1, sender.start)  # while the stream waits
        second = await asyncio.wait_for(anext(chunks), 5)
        await chunks.aclose()
        return response.status_code, response["Content-Type"], first, second

    status, kind, first, second = async_to_sync(hear)()
    assert status == 200 and kind == "text/event-stream"
    assert b"event: stream-open" in first
    assert b'"party": 7' in second and b'"token": "p7.2"' in second
    assert f'"channel": "{channel}"'.encode() in second


def test_under_asgi_a_private_channel_is_refused_to_an_anonymous_visitor(tournament):
    Tournament.objects.filter(pk=tournament.pk).update(public=False)
    channel = live.tournament_channel(tournament.pk)
    response = async_to_sync(AsyncClient().get)("/live/", {"channel": channel})
    assert response.status_code == 403


def test_a_live_page_keeps_its_poll_and_names_its_channel(client, played, settings):  # noqa: F811
    """The fallback: the standings, draw and hall still poll (htmx "every"); live.js stops
    that only while the stream is open. Served under WSGI a page does not open the stream
    (``LIVE_UPDATES`` "auto"), under ASGI or with "1" it does."""
    channel = f'data-live="tournament-{played.pk}"'
    for page in ("standings", "draw", "hall"):
        html = client.get(f"/t/{played.slug}/{page}/").content.decode()
        assert channel in html and 'hx-trigger="every ' in html, page
        assert "js/live.js" not in html
    under_asgi = async_to_sync(AsyncClient().get)(f"/t/{played.slug}/standings/")
    assert "js/live.js" in under_asgi.content.decode()
    settings.LIVE_UPDATES = "1"
    assert "js/live.js" in client.get(f"/t/{played.slug}/standings/").content.decode()


def test_a_fetch_after_an_event_is_not_answered_from_the_etag_before_it(
        client, played, settings):  # noqa: F811
    """Within the ETag's cache time a poll may still get the 304 of before the change; the
    fetch an event makes (its token as Live-Version) gets the change."""
    settings.PUBLIC_ETAG_VERSION_SECONDS = 30
    url = f"/t/{played.slug}/standings/"
    etag = client.get(url, HTTP_HX_REQUEST="true")["ETag"]
    assert client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag).status_code == 304
    party = Party.objects.filter(round__tournament=played, round__number=2).first()
    record_deal(party.pk, outcome="domino", **DOMINO["b"])
    polled = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert polled.status_code == 304  # the remembered ETag, as before live updates
    token = f"p{party.pk}.{Party.objects.get(pk=party.pk).version}"
    fetched = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag,
                         HTTP_LIVE_VERSION=token)
    assert fetched.status_code == 200 and fetched["ETag"] != etag
    again = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=fetched["ETag"],
                       HTTP_LIVE_VERSION=token)
    assert again.status_code == 304  # the next viewers with this token: from the cache
