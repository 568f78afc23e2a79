"""Issue #32, item 1: time as the referee lived it (a deal's ``entered_at``).

RULES.md §1 (time): if the party's time runs out during a deal, that deal is the last; the
pair with more points wins; level scores play one more deal. What matters is when play of a
deal ended, not when its record reached the server: a deal the referee entered before the
time ran out, on a device that was offline, was played in time however late it arrives.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from scoring.core.errors import ServiceError
from scoring.models import Deal, PartyEvent, Protocol
from scoring.party.deals import record_deal
from scoring.party.entry_time import ENTERED_AT_TOLERANCE
from scoring.signoff.content import protocol_content
from tests.factories import clock_started_ago

pytestmark = pytest.mark.django_db


def won(side: str, points: int) -> dict:
    """A deal won by ``side`` with ``points`` (the quick entry)."""
    other = "b" if side == "a" else "a"
    return {"outcome": "domino", "winner": side, "points": {side: points, other: 0}}


@pytest.fixture
def clocked(party):
    """The party of a 1-minute clock, started 2 minutes ago: its time ran out a minute ago,
    and nothing has told the server yet (no deal arrived since)."""
    return clock_started_ago(party, 120)


def state(party):
    party.refresh_from_db()
    return party.status, party.winner, party.end_reason


def test_a_deal_entered_before_time_up_but_arriving_after_was_played_in_time(clocked):
    expiry = clocked.expiry
    record_deal(clocked.pk, **won("a", 25), entered_at=expiry - timedelta(seconds=55))
    # it arrived after the time ran out, yet it is not the deal after it: one more is played
    assert state(clocked) == ("in_progress", "", "")
    clocked.refresh_from_db()
    assert abs(clocked.time_expired_at - expiry) < timedelta(seconds=1)
    # the deal in play at time-up, entered after it, is the last one
    last = record_deal(clocked.pk, **won("b", 20), entered_at=expiry + timedelta(seconds=20))
    assert state(clocked) == ("finished", "a", "time")
    assert last.record.number == 2
    points = list(Deal.objects.filter(party=clocked).values_list("points_a", "points_b"))
    assert points == [(25, 0), (0, 20)]  # the true score 25 : 20
    with pytest.raises(ServiceError) as refused:  # and nothing after the last deal
        record_deal(clocked.pk, **won("b", 30), entered_at=timezone.now())
    assert refused.value.field == "party"


def test_without_entered_at_the_arrival_counts(clocked):
    record_deal(clocked.pk, **won("a", 25))  # arrived after the time ran out: the last deal
    assert state(clocked) == ("finished", "a", "time")
    assert Deal.objects.get(party=clocked).entered_at is None


def test_level_scores_after_the_last_deal_play_one_extra_deal(clocked):
    expiry = clocked.expiry
    record_deal(clocked.pk, **won("a", 20), entered_at=expiry - timedelta(seconds=30))
    record_deal(clocked.pk, **won("b", 20), entered_at=expiry + timedelta(seconds=10))
    assert state(clocked) == ("in_progress", "", "")  # 20 : 20 after the last deal
    record_deal(clocked.pk, **won("b", 5), entered_at=expiry + timedelta(seconds=40))
    assert state(clocked) == ("finished", "b", "time")


def test_the_play_ended_in_time_box_still_makes_one_more_deal(clocked):
    expiry = clocked.expiry
    record_deal(clocked.pk, **won("a", 25), entered_at=expiry + timedelta(seconds=5),
                play_ended_before_time_up=True)
    assert state(clocked) == ("in_progress", "", "")


@pytest.mark.parametrize("shift", [
    ENTERED_AT_TOLERANCE + timedelta(seconds=1),  # the future, beyond the tolerance
    timedelta(minutes=-3),  # before the party started
])
def test_an_impossible_entered_at_is_refused_naming_the_field(clocked, shift):
    version = clocked.version
    with pytest.raises(ServiceError) as refused:
        record_deal(clocked.pk, **won("a", 25), entered_at=timezone.now() + shift)
    assert refused.value.field == "entered_at" and refused.value.status_code == 400
    assert "entered_at" in refused.value.message
    clocked.refresh_from_db()
    assert clocked.version == version and not Deal.objects.filter(party=clocked).exists()


def test_within_the_tolerance_the_moment_is_taken_as_now(clocked):
    ahead = timezone.now() + ENTERED_AT_TOLERANCE - timedelta(seconds=1)
    deal = record_deal(clocked.pk, **won("a", 25), entered_at=ahead).record
    deal.refresh_from_db()
    assert deal.entered_at <= timezone.now()
    logged = PartyEvent.objects.filter(party=clocked, kind="deal_recorded").get()
    assert logged.data["entered_at"] == deal.entered_at.isoformat()


def test_an_in_time_deal_arriving_after_the_party_ended_by_time_is_counted(clocked):
    """Two devices: one recorded the last deal online; the other, offline, had entered a deal
    before the time ran out. Its deal is taken, goes before the last one, and the party is
    decided again with the true score."""
    expiry = clocked.expiry
    record_deal(clocked.pk, **won("a", 25), entered_at=expiry - timedelta(seconds=50))
    record_deal(clocked.pk, **won("b", 20), entered_at=expiry + timedelta(seconds=15))
    assert state(clocked) == ("finished", "a", "time")
    clocked.refresh_from_db()
    late = record_deal(clocked.pk, **won("b", 30), entered_at=expiry - timedelta(seconds=10),
                       number=3, expected_version=clocked.version).record
    assert late.number == 2  # played before the last deal, which moves on to 3
    deals = list(Deal.objects.filter(party=clocked).values_list("number", "points_a", "points_b"))
    assert deals == [(1, 25, 0), (2, 0, 30), (3, 0, 20)]
    assert state(clocked) == ("finished", "b", "time")  # 25 : 50, not 25 : 20
    logged = PartyEvent.objects.filter(party=clocked, kind="deal_recorded").last()
    assert logged.data["deal"] == 2 and logged.data["moved_on"] == [2]
    protocol = protocol_content(clocked)  # the protocol lists the deals in the order played
    assert [(d.number, d.running_a, d.running_b) for d in protocol.deals] == [
        (1, 25, 0), (2, 25, 30), (3, 25, 50)]


def test_a_late_deal_played_after_time_up_is_still_refused_once_the_party_ended(clocked):
    expiry = clocked.expiry
    record_deal(clocked.pk, **won("a", 25), entered_at=expiry + timedelta(seconds=5))
    assert state(clocked) == ("finished", "a", "time")
    with pytest.raises(ServiceError) as refused:
        record_deal(clocked.pk, **won("b", 30), entered_at=expiry + timedelta(seconds=2))
    assert refused.value.field == "party"


def test_a_late_in_time_deal_is_refused_once_the_protocol_is_signed(clocked):
    expiry = clocked.expiry
    record_deal(clocked.pk, **won("a", 25), entered_at=expiry + timedelta(seconds=5))
    Protocol.objects.filter(party=clocked).update(status=Protocol.Status.SIGNED)
    with pytest.raises(ServiceError) as refused:
        record_deal(clocked.pk, **won("b", 30), entered_at=expiry - timedelta(seconds=5))
    assert refused.value.field == "party"
    assert Deal.objects.filter(party=clocked).count() == 1
