"""Deliveries: signed, in sequence order, retried with backoff, and only to organizers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scoring.models import Party, Protocol, Round, TournamentRole, WebhookDelivery
from scoring.party.deals import correct_deal
from scoring.signoff.content import party_players
from scoring.signoff.services import countersign, record_refusal
from tests.tournaments.play import play
from tests.webhooks.conftest import send_due
from tournaments.rounds import draw_services
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db(transaction=True)

DOCS = Path(__file__).resolve().parents[2] / "docs" / "webhooks.md"


def documented_verifier():
    """The verification function of docs/webhooks.md, run exactly as documented."""
    code = re.search(r"```python\n(.*?)```", DOCS.read_text(), re.S).group(1)
    namespace: dict = {}
    exec(code, namespace)  # noqa: S102 - the documented recipe itself
    return namespace["verify_domino_signature"]


@pytest.fixture
def signing(settings, tmp_path):
    settings.PROTOCOL_SIGNING_DIR = tmp_path / "signing"
    settings.PROTOCOL_SIGNING_KEY = ""
    settings.PROTOCOL_SIGNING_CERT = ""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings


def play_a_round(tournament, referee_user, *, sign_table: int = 1) -> Round:
    """Draw, publish and start round 1, play every party, countersign one, close the round."""
    rnd = rounds.create_round(tournament.pk)
    draw_services.generate_draw(rnd.pk, seed=7)
    rounds.publish_round(rnd.pk)
    rounds.start_round(rnd.pk)
    parties = Party.objects.filter(round=rnd).order_by("table__number")
    for party in parties:
        play(party.pk, "a")
    party = parties.get(table__number=sign_table)
    for _seat, player in party_players(party):
        record_refusal(party.pk, player_id=player.pk, reason="Ушёл", actor=referee_user)
    countersign(party.pk, actor=referee_user)
    rounds.close_round(rnd.pk)
    return rnd


def test_a_played_round_reaches_the_receiver_signed_and_in_order(
    subscription, receiver, tournament, referee_user, signing
):
    play_a_round(tournament, referee_user)
    expected = ["round.published"] + ["party.finished"] * 4 + [
        "protocol.signed", "round.closed", "standings.changed"]
    assert receiver.requests == []  # nothing is sent by the actions themselves
    send_due()
    got = receiver.wait_for(len(expected))
    assert [r.json["event"] for r in got] == expected
    assert [r.json["sequence"] for r in got] == list(range(1, len(expected) + 1))
    verify = documented_verifier()
    for request in got:
        headers = request.headers
        assert headers["X-Domino-Event"] == request.json["event"]
        assert headers["X-Domino-Delivery"] == str(request.json["delivery"])
        assert verify(subscription.secret, request.body, headers["X-Domino-Timestamp"],
                      headers["X-Domino-Signature"])
        assert not verify("another secret", request.body, headers["X-Domino-Timestamp"],
                          headers["X-Domino-Signature"])
        assert not verify(subscription.secret, request.body + b" ",
                          headers["X-Domino-Timestamp"], headers["X-Domino-Signature"])
    finished = got[1].json["data"]
    assert finished["tournament"]["slug"] == tournament.slug
    assert finished["party"]["table_number"] == 1
    assert finished["party"]["winner"] == {"side": "a", "seat": ""}
    assert finished["party"]["sides"]["a"]["players"]
    assert finished["totals"]["points"]["a"] >= 240
    signed = got[5].json["data"]
    assert signed["protocol"]["version"] == 1 and len(signed["protocol"]["sha256"]) == 64
    protocol = Protocol.objects.get(pk=signed["protocol"]["id"])
    assert signed["protocol"]["public_id"] == protocol.public_id  # what /v/… and the API take
    assert signed["protocol"]["short_code"] == protocol.short_code
    assert got[6].json["data"]["round"] == {
        "id": got[6].json["data"]["round"]["id"], "number": 1, "status": "finished",
        "parties": 4}
    assert WebhookDelivery.objects.filter(status="delivered").count() == len(expected)
    delivery = WebhookDelivery.objects.get(sequence=1)
    assert delivery.response_code == 200 and delivery.response_body == "ok"
    assert delivery.attempts == 1 and delivery.log[0]["code"] == 200


def test_a_correction_of_a_counted_party_changes_the_standings(
    subscription, receiver, tournament, party, referee_user
):
    play(party.pk, "a")
    deal = party.deals.order_by("number").first()
    correct_deal(deal.pk, reason="Ошибка записи", outcome="domino", went_out="a1",
                 pips={"a1": 0, "a2": 20, "b1": 20, "b2": 20})
    send_due()
    got = receiver.wait_for(2)
    assert [r.json["event"] for r in got] == ["party.finished", "standings.changed"]
    assert got[1].json["data"]["party"] == party.pk


def test_a_failing_receiver_gets_retries_with_backoff(subscription, receiver, tournament,
                                                      settings):
    from scoring.webhooks.services import emit

    settings.WEBHOOK_RETRY_BASE_SECONDS = 0.2
    receiver.codes = [500, 503, 500]
    emit(tournament.pk, "round.published", lambda: {"round": {"number": 1}})
    emit(tournament.pk, "round.closed", lambda: {"round": {"number": 1}})
    send_due()
    got = receiver.wait_for(5)
    # the first delivery is retried (3 failures) before the second is sent at all
    assert [r.json["sequence"] for r in got] == [1, 1, 1, 1, 2]
    assert len({r.headers["X-Domino-Delivery"] for r in got[:4]}) == 1
    first = WebhookDelivery.objects.get(sequence=1)
    assert first.status == "delivered" and first.attempts == 4
    assert [entry["code"] for entry in first.log] == [500, 503, 500, 200]
    delays = [entry["retry_in"] for entry in first.log[:-1]]
    assert delays == [0.2, 0.4, 0.8]
    pauses = [later.arrived - earlier.arrived
              for earlier, later in zip(got, got[1:4], strict=False)]
    # each pause was waited out
    assert all(pause >= delay - 0.01 for pause, delay in zip(pauses, delays, strict=True))
    assert "receiver is down" in first.log[0]["body"] and len(first.log[0]["body"]) == 1000
    assert WebhookDelivery.objects.get(sequence=2).attempts == 1


def test_a_delivery_gives_up_after_the_last_attempt(subscription, receiver, tournament,
                                                    settings):
    from scoring.webhooks.services import emit

    settings.WEBHOOK_MAX_ATTEMPTS = 3
    settings.WEBHOOK_RETRY_BASE_SECONDS = 0.05
    receiver.codes = [500] * 10
    emit(tournament.pk, "round.published", lambda: {"round": {"number": 1}})
    emit(tournament.pk, "round.closed", lambda: {"round": {"number": 1}})
    send_due()
    receiver.wait_for(4)
    first, second = WebhookDelivery.objects.order_by("sequence")
    assert (first.status, first.attempts) == ("failed", 3)
    assert first.log[-1]["retry_in"] is None
    assert second.attempts >= 1  # the queue went on once the first had failed


def test_a_pending_retry_holds_back_later_deliveries(subscription, receiver, tournament):
    from django.utils import timezone

    from scoring.webhooks.outbox import sweep
    from scoring.webhooks.services import emit

    emit(tournament.pk, "round.published", lambda: {"n": 1})
    first = WebhookDelivery.objects.get(sequence=1)
    # the first one waits for its retry, a minute from now; then another is emitted
    WebhookDelivery.objects.filter(pk=first.pk).update(
        next_attempt_at=timezone.now() + timezone.timedelta(seconds=60))
    emit(tournament.pk, "round.closed", lambda: {"n": 2})
    swept = sweep()
    assert swept.attempted == 0 and 59 < swept.next_in <= 60
    assert receiver.wait_for(1, timeout=0.3) == []
    assert WebhookDelivery.objects.get(sequence=2).attempts == 0
    WebhookDelivery.objects.filter(pk=first.pk).update(next_attempt_at=timezone.now())
    assert sweep().attempted == 2  # its time came: the first, then the second
    assert [r.json["sequence"] for r in receiver.wait_for(2)] == [1, 2]


def test_replay_sends_the_payload_again_as_a_new_delivery(subscription, receiver, tournament):
    from scoring.webhooks.services import emit, replay_delivery

    emit(tournament.pk, "round.published", lambda: {"round": {"number": 1}})
    original = WebhookDelivery.objects.get()
    replay = replay_delivery(original)
    send_due()
    got = receiver.wait_for(2)
    assert [r.json["sequence"] for r in got] == [1, 2]
    assert got[1].json["replay_of"] == original.pk
    assert got[1].json["data"] == got[0].json["data"]
    replay.refresh_from_db()
    assert replay.status == "delivered"


def test_a_hidden_tournament_reaches_only_its_organizers(
    subscription, receiver, tournament, make_user, referee_user, allow_loopback
):
    from scoring.models import WEBHOOK_EVENTS
    from scoring.webhooks.services import create_subscription, emit
    from tests.webhooks.conftest import start_receiver
    from tournaments.setup.services import create_tournament

    tournament.public = False
    tournament.save(update_fields=["public"])
    other_org = make_user("other-org", organizer=True)
    other = create_tournament(name="Other", slug="other-cup", organizer=other_org)
    other_receiver, server = start_receiver()
    try:
        everything = [name for name, _ in WEBHOOK_EVENTS]
        create_subscription(other, url=other_receiver.url, events=everything, actor=other_org)
        # a former organizer's subscription on the hidden tournament goes quiet
        former = make_user("former-org", organizer=True)
        role = TournamentRole.objects.create(tournament=tournament, user=former,
                                             role="organizer")
        former_receiver, former_server = start_receiver()
        create_subscription(tournament, url=former_receiver.url, events=everything,
                            actor=former)
        role.delete()
        emit(tournament.pk, "round.published", lambda: {"secret": "hidden"})
        send_due()
        assert len(receiver.wait_for(1)) == 1
        assert other_receiver.wait_for(1, timeout=0.5) == []
        assert former_receiver.wait_for(1, timeout=0.2) == []
        former_server.shutdown()
        former_server.server_close()
    finally:
        server.shutdown()
        server.server_close()


def test_the_delivery_refuses_an_address_no_longer_allowed(subscription, receiver,
                                                           tournament, settings):
    from scoring.webhooks.services import emit

    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = False
    emit(tournament.pk, "round.published", lambda: {"n": 1})
    send_due()
    delivery = WebhookDelivery.objects.get()
    assert delivery.status == "failed" and delivery.attempts == 1
    assert "private" in delivery.error
    assert receiver.wait_for(1, timeout=0.3) == []


@pytest.mark.django_db
def test_a_tournament_without_webhooks_builds_no_payload(tournament, django_assert_num_queries):
    """The payload is made only for a receiver: otherwise one query, and nothing written."""
    from scoring.webhooks.services import emit

    def payload() -> dict:
        raise AssertionError("no receiver: the payload must not be built")

    with django_assert_num_queries(1):
        assert emit(tournament.pk, "round.published", payload) == []
    assert not WebhookDelivery.objects.exists()
