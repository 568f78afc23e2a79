"""Every way a party ends emits ``party.finished`` once; a changed finished party the standings."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from referee import services as desk
from scoring.models import Party, Penalty, WebhookDelivery
from scoring.party.deals import annul_deal, correct_deal, record_deal
from tests.tournaments.play import DOMINO, play
from tests.webhooks.conftest import send_due

pytestmark = pytest.mark.django_db(transaction=True)


def received(receiver, count: int) -> list[dict]:
    """The ``count`` deliveries the receiver got (the outbox sent now), checking that no other
    one follows."""
    send_due()
    got = receiver.wait_for(count)
    assert len(receiver.wait_for(count + 1, timeout=0.3)) == count
    return [request.json for request in got]


def emitted() -> Counter:
    """How many deliveries of each event were written (one subscription: one per emit)."""
    return Counter(WebhookDelivery.objects.values_list("event", flat=True))


def deal_won_by_b(party):
    """One deal won by pair B, so a ruling's end differs from the deals' score."""
    record_deal(party.pk, outcome="domino", **DOMINO["b"])


def no_show_ruling(party, referee_user, client, organizer):
    Party.objects.filter(pk=party.pk).update(started_at=timezone.now() - timedelta(minutes=10))
    desk.check_in(party.pk, side="a", actor=referee_user)
    desk.rule_no_show(party.pk, absent_side="b", actor=referee_user)


def organizer_forfeit_page(party, referee_user, client, organizer):
    client.force_login(organizer)
    answer = client.post(reverse("tournaments:party_forfeit", args=[party.pk]),
                         {"absent_side": "b", "reason": "Не пришли"})
    assert answer.status_code == 302


def disqualified_from_party(party, referee_user, client, organizer):
    deal_won_by_b(party)
    desk.disqualify(party.pk, side="b", scope="party", reason="Подсказки", actor=referee_user)


def disqualified_from_tournament(party, referee_user, client, organizer):
    deal_won_by_b(party)
    desk.disqualify(party.pk, side="b", scope="tournament", reason="Грубость",
                    actor=referee_user)


ENDINGS = {
    "no_show_ruling": (no_show_ruling, "forfeit"),
    "organizer_forfeit_page": (organizer_forfeit_page, "forfeit"),
    "disqualified_from_party": (disqualified_from_party, "disqualification"),
    "disqualified_from_tournament": (disqualified_from_tournament, "disqualification"),
}


def test_a_party_played_to_its_end_emits_party_finished_once(subscription, receiver, party):
    play(party.pk, "a")
    (finished,) = received(receiver, 1)
    assert finished["event"] == "party.finished"
    assert finished["data"]["party"]["end_reason"] == "target"
    assert emitted() == {"party.finished": 1}


@pytest.mark.parametrize("ending", list(ENDINGS))
def test_a_party_ended_by_a_ruling_emits_party_finished_once_like_a_played_one(
    subscription, receiver, party, referee_user, client, organizer, ending
):
    end, reason = ENDINGS[ending]
    end(party, referee_user, client, organizer)
    party.refresh_from_db()
    assert (party.status, party.winner, party.end_reason) == ("finished", "a", reason)
    (finished,) = received(receiver, 1)
    assert finished["event"] == "party.finished"
    data = finished["data"]
    assert set(data) == {"tournament", "party", "totals"}
    assert data["party"]["id"] == party.pk and data["party"]["status"] == "finished"
    assert (data["party"]["winner"]["side"], data["party"]["end_reason"]) == ("a", reason)
    assert data["party"]["finished_at"] == party.finished_at.isoformat()
    # the regulations' forfeit score, as the standings count it (not the deals played)
    assert data["totals"]["points"] == {"a": 200, "b": 0}
    assert emitted() == {"party.finished": 1}
    assert party.events.filter(kind__in=("forfeit", "party_finished")).count() == 1


def test_disqualifying_a_pair_after_its_party_ended_emits_nothing_more(
    subscription, receiver, party, referee_user
):
    play(party.pk, "a")
    desk.disqualify(party.pk, side="b", scope="tournament", reason="Грубость после партии",
                    actor=referee_user)
    assert [d["event"] for d in received(receiver, 1)] == ["party.finished"]
    assert emitted() == {"party.finished": 1}


def test_changes_of_a_finished_party_each_emit_standings_changed_once(
    subscription, receiver, party, referee_user
):
    fine = desk.give_fine(party.pk, side="b", category="signs", actor=referee_user).record
    play(party.pk, "a")
    deals = list(party.deals.order_by("number"))
    desk.cancel_penalty(fine.pk, reason="Штраф по ошибке", actor=referee_user)
    correct_deal(deals[1].pk, reason="Ошибка записи", outcome="domino", went_out="a1",
                 pips={"a1": 0, "a2": 10, "b1": 20, "b2": 20}, actor=referee_user)
    annul_deal(deals[0].pk, reason="Пересдача", actor=referee_user)
    party.refresh_from_db()
    assert (party.status, party.winner) == ("finished", "a")  # the result stands
    got = received(receiver, 4)
    assert [d["event"] for d in got] == ["party.finished"] + ["standings.changed"] * 3
    for delivery in got[1:]:
        assert delivery["data"]["reason"] == "party.changed"
        assert (delivery["data"]["party"], delivery["data"]["round_number"]) == (party.pk, 1)
    assert emitted() == {"party.finished": 1, "standings.changed": 3}


def test_a_change_that_turns_the_result_emits_both_events_once(
    subscription, receiver, party, referee_user
):
    play(party.pk, "a", loser_deals=3)  # 240 : 180
    last = party.deals.order_by("number").last()
    correct_deal(last.pk, reason="Вышла пара B", outcome="domino", actor=referee_user,
                 **DOMINO["b"])  # 180 : 240
    party.refresh_from_db()
    assert (party.status, party.winner) == ("finished", "b")
    got = received(receiver, 3)
    assert [d["event"] for d in got] == ["party.finished", "standings.changed",
                                         "party.finished"]
    assert got[2]["data"]["party"]["winner"]["side"] == "b"


def test_changes_of_a_party_in_play_do_not_touch_the_standings(
    subscription, receiver, party, referee_user
):
    fine = desk.give_fine(party.pk, side="b", category="signs", actor=referee_user).record
    desk.cancel_penalty(fine.pk, reason="Штраф по ошибке", actor=referee_user)
    assert Penalty.objects.get(pk=fine.pk).cancelled
    assert receiver.wait_for(1, timeout=0.3) == []
    assert emitted() == {}
