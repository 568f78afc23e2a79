"""Live updates: an event per change, sent after commit and never on a rollback (scoring.live)."""

from __future__ import annotations

import socket

import pytest
from django.db import transaction

from scoring import live
from scoring.models import Party, Round
from scoring.party.deals import record_deal
from tournaments.rounds.draw_services import generate_draw
from tournaments.rounds.services import create_round, publish_round

pytestmark = pytest.mark.django_db

DOMINO_A = {"outcome": "domino", "went_out": "a1", "pips": {"a1": 0, "a2": 10, "b1": 20, "b2": 30}}


@pytest.fixture
def sent(monkeypatch):
    """What ``scoring.live`` sends: (channel, data) in order. Asked after the fixtures that
    change records: their changes count as committed (in a test everything runs in one
    transaction that never commits, so their batch would otherwise stay open)."""
    live.forget_batch()
    out: list[tuple[str, dict]] = []
    monkeypatch.setattr(live, "send", lambda channels, data: out.extend(
        (channel, data) for channel in channels))
    return out


def test_a_deal_is_sent_after_commit_to_the_tournament_and_the_party(
        party, sent, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        record_deal(party.pk, **DOMINO_A)
        assert sent == []  # nothing while the transaction is open
    for callback in callbacks:
        callback()
    version = Party.objects.get(pk=party.pk).version
    tournament_id = party.round.tournament_id
    assert [channel for channel, _data in sent] == [
        f"tournament-{tournament_id}", f"party-{party.pk}"]
    data = sent[0][1]
    assert data["party"] == party.pk and data["version"] == version
    assert data["tournament"] == tournament_id and data["token"] == f"p{party.pk}.{version}"
    assert data["changes"] == 1


def test_a_rolled_back_deal_sends_nothing(party, sent, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(RuntimeError), transaction.atomic():
            record_deal(party.pk, **DOMINO_A)
            raise RuntimeError("the request fails after the deal")
    assert callbacks == [] and sent == []
    with django_capture_on_commit_callbacks(execute=True):
        record_deal(party.pk, **DOMINO_A)  # the next transaction's own event, nothing older
    assert [data["version"] for _channel, data in sent] == [Party.objects.get(
        pk=party.pk).version] * 2


def test_changes_of_one_transaction_are_one_event_per_channel(
        party, sent, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with transaction.atomic():
            record_deal(party.pk, **DOMINO_A)
            record_deal(party.pk, **DOMINO_A)
    assert len(callbacks) == 1
    assert [(channel, data["changes"]) for channel, data in sent] == [
        (f"tournament-{party.round.tournament_id}", 2), (f"party-{party.pk}", 2)]
    assert sent[0][1]["version"] == Party.objects.get(pk=party.pk).version  # the last one


def test_a_published_round_is_sent_to_its_tournament(make_party, sent,
                                                     django_capture_on_commit_callbacks):
    party = make_party()
    Round.objects.filter(pk=party.round_id).update(status=Round.Status.DRAFT)
    with django_capture_on_commit_callbacks(execute=True):
        rnd = publish_round(party.round_id)
    [(channel, data)] = sent
    token = data.pop("token")
    assert channel == f"tournament-{rnd.tournament_id}" and data == {
        "kind": "round.published", "tournament": rnd.tournament_id, "round": rnd.pk,
        "number": rnd.number, "status": "published", "changes": 1}
    assert token.startswith(f"r{rnd.pk}.published.")  # a new one each time: its own ETag key


def test_a_drawn_round_is_sent_to_its_tournament(tournament, sent,
                                                 django_capture_on_commit_callbacks):
    rnd = create_round(tournament.pk)
    with django_capture_on_commit_callbacks(execute=True):
        generate_draw(rnd.pk)
    assert [(channel, data["kind"], data["status"]) for channel, data in sent] == [
        (f"tournament-{tournament.pk}", "round.drawn", "draft")]


def test_channels_and_tokens_are_read_strictly():
    assert live.parse_channel("tournament-12") == ("tournament", 12)
    assert live.parse_channel("party-5") == ("party", 5)
    assert live.parse_channel("tournament-1 ") is None and live.parse_channel("x-1") is None
    assert live.request_token({"Live-Version": "p18.6"}) == "p18.6"
    assert live.request_token({"Live-Version": "a b"}) == ""
    assert live.request_token({"Live-Version": "x" * 65}) == ""


def test_with_redis_down_an_event_reaches_this_process_without_waiting_again(
        settings, monkeypatch):
    """A publish that fails (nothing listens at the Redis address) is delivered to this
    process's streams; the next ones, for a moment, do not wait for Redis again."""
    from scoring import live_fanout

    held = socket.socket()  # bound, never listening: connecting is refused
    held.bind(("127.0.0.1", 0))
    settings.LIVE_REDIS = {"host": "127.0.0.1", "port": held.getsockname()[1], "db": 0,
                           "socket_connect_timeout": 0.3}
    monkeypatch.setattr(live_fanout, "_down_until", 0.0)
    delivered: list[str] = []
    monkeypatch.setattr(live_fanout, "deliver", lambda channel, kind, data: delivered.append(
        channel))
    tried: list[dict] = []
    real = live_fanout.publisher
    monkeypatch.setattr(live_fanout, "publisher", lambda options: tried.append(options) or real(
        options))
    live.send(["tournament-1", "party-2"], {"kind": "deal", "token": "p2.1"})
    assert delivered == ["tournament-1", "party-2"]
    assert len(tried) == 1  # the second channel did not try Redis again
    held.close()
