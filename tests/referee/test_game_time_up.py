"""The referee declares the game in play out of time (a match of timed games: UDL singles).

Through the service, the API (with Idempotency-Key) and the referee screen: the game's expiry
is recorded, the rule set decides what follows (the leader wins the game after the last deal,
a level score goes to overtime), a second declaration changes nothing, and a party without a
game clock or not in play is refused with the field named.
"""

from __future__ import annotations

import pytest

from referee import services
from scoring.core.errors import ServiceError
from scoring.models import Party

pytestmark = pytest.mark.django_db


def _events(party_id, kind="game_time_expired"):
    return list(Party.objects.get(pk=party_id).events.filter(kind=kind))


def test_service_records_the_expiry_and_the_leader_wins_the_game_after_the_last_deal(desk):
    udl = desk("udl")
    udl.deal(outcome="stopped", plays=[["a1", 10]])
    before = udl.party.version

    party = services.mark_game_time_expired(
        udl.party_id, actor=udl.referee, expected_version=before
    ).record
    assert party.game_expired_at is not None and party.version == before + 1
    fresh = udl.party
    assert fresh.game_expired_at is not None and fresh.game == 1
    assert fresh.time_expired_at is None  # the match's own clock is not touched
    [event] = _events(udl.party_id)
    assert event.data["game"] == 1 and event.actor_id == udl.referee.pk
    state = udl.state()
    assert state["phase"] == "last_deal"
    assert state["match"]["clock"]["time_expired_at"] is not None

    # A second declaration changes nothing: no event, no new version.
    again = services.mark_game_time_expired(udl.party_id, actor=udl.referee).record
    assert again.version == before + 1 and again.game_expired_at == fresh.game_expired_at
    assert len(_events(udl.party_id)) == 1

    # The deal in play was the last one of the game: A leads 10 : 5 and wins it.
    udl.deal(outcome="stopped", plays=[["b1", 5]])
    party = udl.party
    assert party.game == 2 and party.game_expired_at is None
    assert party.status == Party.Status.IN_PROGRESS
    state = udl.state()
    assert state["match"]["games"][0]["winner"] == {"side": "a", "seat": ""}
    assert state["match"]["game_wins"] == {"a": 1, "b": 0}

    # Game 2 has a clock of its own again: it can be declared out of time in turn.
    services.mark_game_time_expired(udl.party_id, actor=udl.referee)
    assert [e.data["game"] for e in _events(udl.party_id)] == [1, 2]


def test_level_game_declared_out_of_time_goes_to_overtime(desk):
    udl = desk("udl")
    udl.deal(outcome="stopped", plays=[["a1", 10], ["b1", 10]])
    services.mark_game_time_expired(udl.party_id, actor=udl.referee)
    udl.deal(outcome="stopped", plays=[["a1", 5], ["b1", 5]])
    state = udl.state()
    assert state["phase"] == "overtime" and udl.party.game == 1


def test_refused_for_a_sport_domino_party_and_for_a_finished_or_unstarted_party(desk):
    sport = desk("sport")
    with pytest.raises(ServiceError) as refused:
        services.mark_game_time_expired(sport.party_id, actor=sport.referee)
    assert refused.value.field == "game"

    udl = desk("udl")
    Party.objects.filter(pk=udl.party_id).update(status=Party.Status.SCHEDULED)
    with pytest.raises(ServiceError) as refused:
        services.mark_game_time_expired(udl.party_id, actor=udl.referee)
    assert refused.value.field == "party"

    services.forfeit_party(udl.party_id, absent_side="b", actor=udl.referee)
    with pytest.raises(ServiceError) as refused:
        services.mark_game_time_expired(udl.party_id, actor=udl.referee)
    assert refused.value.field == "party"
    assert not _events(udl.party_id) and udl.party.game_expired_at is None


def test_api_declares_the_game_out_of_time_once(desk):
    udl = desk("udl")
    udl.deal(outcome="stopped", plays=[["a1", 10]])
    version = udl.party.version
    url = udl.url("game-time-up")
    answers = [
        udl.api.post(url, {"version": version}, format="json", HTTP_IDEMPOTENCY_KEY="gt-1")
        for _ in range(2)
    ]
    assert [a.status_code for a in answers] == [200, 200], answers[0].json()
    assert answers[0].json() == answers[1].json()
    assert answers[1]["Idempotent-Replayed"] == "true"
    body = answers[0].json()
    assert body["party"]["version"] == version + 1 and body["party"]["phase"] == "last_deal"
    assert len(_events(udl.party_id)) == 1

    # Without a key, a second declaration with the current version changes nothing.
    response = udl.post("game-time-up", {"version": version + 1})
    assert response.status_code == 200 and response.json()["party"]["version"] == version + 1
    assert len(_events(udl.party_id)) == 1

    # A stale version is refused.
    assert udl.post("game-time-up", {"version": version}).status_code == 409


def test_api_refusals_name_the_field(desk):
    sport = desk("sport")
    response = sport.post("game-time-up", {})
    assert response.status_code == 400 and "game" in response.json()
    udl = desk("udl")
    services.forfeit_party(udl.party_id, absent_side="a", actor=udl.referee)
    response = udl.post("game-time-up", {})
    assert response.status_code == 400 and "party" in response.json()
    assert not _events(udl.party_id)


def test_referee_screen_button_goes_through_the_same_service(client, desk):
    udl = desk("udl")
    client.force_login(udl.referee)
    screen = f"/referee/party/{udl.party_id}/"
    html = client.get(screen).content.decode()
    assert 'id="btn-game-time-up"' in html and "Game 1: time is up" in html
    assert html.index('id="btn-pause"') < html.index('id="game-clock-controls"')

    response = client.post(
        f"{screen}game-time-up/", {"version": udl.party.version, "confirmed": "1"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "time is up, the deal in play is the last one of the game" in html
    assert 'id="btn-game-time-up"' not in html  # declared: the button is gone
    assert udl.party.game_expired_at is not None and len(_events(udl.party_id)) == 1

    sport = desk("sport")
    client.force_login(sport.referee)
    html = client.get(f"/referee/party/{sport.party_id}/").content.decode()
    assert 'id="btn-game-time-up"' not in html
    response = client.post(f"/referee/party/{sport.party_id}/game-time-up/", {})
    assert response.status_code == 400
    assert "no clock of their own" in response.content.decode()
    assert not _events(sport.party_id)
