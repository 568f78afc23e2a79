"""Issue #13, item 2: time running out while a deal is counted does not end the party early.

RULES.md (time): if the party's time runs out during a deal, that deal is the last; if it runs
out while the tiles are counted or shuffled, one more deal is played. The referee says which
case it is when he records the deal (``play_ended_before_time_up``, a one-tap box on the desk);
the rule set decides from it.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from referee.services import mark_time_expired
from scoring.models import Deal, Party, PartyEvent, TournamentRole
from scoring.party.deals import record_deal

pytestmark = pytest.mark.django_db

DOMINO_A = {"outcome": "domino", "went_out": "a1", "pips": {"a1": 0, "a2": 10, "b1": 20, "b2": 30}}
DOMINO_B = {"outcome": "domino", "went_out": "b1", "pips": {"a1": 5, "a2": 5, "b1": 0, "b2": 0}}
API_A = {"outcome": "domino", "seat": "a1", "pips": DOMINO_A["pips"]}
API_B = {"outcome": "domino", "seat": "b1", "pips": DOMINO_B["pips"]}


def time_ran_out(party: Party) -> Party:
    """The party's 40 minutes are over: the referee declares the time up."""
    Party.objects.filter(pk=party.pk).update(started_at=timezone.now() - timedelta(minutes=41))
    mark_time_expired(party.pk)
    party.refresh_from_db()
    assert party.time_expired_at is not None and party.status == Party.Status.IN_PROGRESS
    return party


def test_time_running_out_while_a_deal_is_counted_plays_one_more_deal(party):
    """(rules.md S9) The time ran out while deal 1 was counted: one more deal is played."""
    time_ran_out(party)
    # play of deal 1 ended before the time ran out; it was being counted when it did
    counted = record_deal(party.pk, play_ended_before_time_up=True, **DOMINO_A).record
    assert counted.play_ended_before_time_up
    party.refresh_from_db()
    assert party.status == Party.Status.IN_PROGRESS  # deal 1 is not the last one
    record_deal(party.pk, **DOMINO_B)  # deal 2, played after the time ran out, is
    party.refresh_from_db()
    assert (party.status, party.winner, party.end_reason) == ("finished", "a", "time")
    assert party.deals.count() == 2
    logged = PartyEvent.objects.filter(party=party, kind="deal_recorded").first()
    assert logged.data["play_ended_before_time_up"] is True


def test_time_running_out_during_play_still_makes_that_deal_the_last(party):
    """(rules.md S8) The time ran out during play of a deal: that deal is the last one."""
    time_ran_out(party)
    record_deal(party.pk, **DOMINO_A)
    party.refresh_from_db()
    assert (party.status, party.winner, party.end_reason) == ("finished", "a", "time")


def test_the_desk_and_the_api_say_the_time_ran_out_during_counting(party, referee_user, client):
    TournamentRole.objects.get_or_create(
        tournament=party.round.tournament, user=referee_user, defaults={"role": "referee"}
    )
    time_ran_out(party)
    client.force_login(referee_user)
    desk = client.get(reverse("referee:party", args=[party.pk])).content.decode()
    assert 'name="play_ended_before_time_up"' in desk
    assert "Time ran out during counting or shuffling" in desk

    api = APIClient()
    api.force_authenticate(referee_user)
    response = api.post(f"/api/v1/parties/{party.pk}/deal/",
                        {"outcome": "domino", "seat": "a1", "pips": DOMINO_A["pips"],
                         "play_ended_before_time_up": True}, format="json")
    assert response.status_code in (200, 201), response.json()
    assert Deal.objects.get(party=party).play_ended_before_time_up
    party.refresh_from_db()
    assert party.status == Party.Status.IN_PROGRESS

    page = client.post(reverse("referee:action", args=[party.pk, "deal"]), {
        "outcome": "domino", "winner": "b", "points": 10, "number": 2,
        "version": party.version,
    })
    assert page.status_code in (200, 302)
    party.refresh_from_db()
    assert (party.status, party.end_reason) == ("finished", "time")


def _referee_api(party: Party, referee_user) -> APIClient:
    TournamentRole.objects.get_or_create(
        tournament=party.round.tournament, user=referee_user, defaults={"role": "referee"}
    )
    api = APIClient()
    api.force_authenticate(referee_user)
    return api


def test_only_one_deal_is_counted_after_time_up_through_the_api(party, referee_user):
    """(rules.md S9) Seeds 000/001: the time running out while a deal is counted allows
    exactly one more deal. A second and a third deal marked so are refused (400 naming the
    field); the deal after the counted one is the last, and the party ends."""
    api = _referee_api(party, referee_user)
    time_ran_out(party)
    url = f"/api/v1/parties/{party.pk}/deal/"
    first = api.post(url, {**API_A, "play_ended_before_time_up": True}, format="json")
    assert first.status_code == 201, first.json()
    assert first.json()["party"]["status"] == "in_progress"
    for _second_and_third in range(2):
        refused = api.post(url, {**API_B, "play_ended_before_time_up": True}, format="json")
        assert refused.status_code == 400
        message = refused.json()["play_ended_before_time_up"][0]
        assert "Deal 1 is already the deal counted after the time ran out" in message
    assert Deal.objects.filter(party=party).count() == 1
    last = api.post(url, API_B, format="json")
    assert last.status_code == 201, last.json()
    party.refresh_from_db()
    assert (party.status, party.winner, party.end_reason) == ("finished", "a", "time")
    after_end = api.post(url, {**API_B, "play_ended_before_time_up": True}, format="json")
    assert after_end.status_code == 400 and "party" in after_end.json()
    assert Deal.objects.filter(party=party).count() == 2


def test_the_mark_on_a_deal_entered_before_time_up_is_refused_through_the_api(
    party, referee_user
):
    """(rules.md S9) A deal entered before the party's time ran out was played in time: the
    mark "counted after the time ran out" on it is refused (400 naming the field)."""
    api = _referee_api(party, referee_user)
    url = f"/api/v1/parties/{party.pk}/deal/"
    refused = api.post(url, {**API_A, "play_ended_before_time_up": True}, format="json")
    assert refused.status_code == 400
    assert "time had not run out" in refused.json()["play_ended_before_time_up"][0]
    # the time ran out a minute ago; a deal entered two minutes before it is refused too
    time_ran_out(party)
    entered = (party.time_expired_at - timedelta(minutes=2)).isoformat()
    refused = api.post(url, {**API_A, "play_ended_before_time_up": True,
                             "entered_at": entered}, format="json")
    assert refused.status_code == 400 and "play_ended_before_time_up" in refused.json()
    assert not Deal.objects.filter(party=party).exists()
    party.refresh_from_db()
    assert party.status == Party.Status.IN_PROGRESS


def test_the_desk_offers_the_mark_until_one_deal_carries_it(party, referee_user, client):
    """(rules.md S9) The desk's box "time ran out during counting" is gone once a deal of the
    party carries it; the provisional scoreboard knows it too."""
    TournamentRole.objects.get_or_create(
        tournament=party.round.tournament, user=referee_user, defaults={"role": "referee"}
    )
    time_ran_out(party)
    client.force_login(referee_user)
    desk = reverse("referee:party", args=[party.pk])
    assert 'name="play_ended_before_time_up"' in client.get(desk).content.decode()
    record_deal(party.pk, play_ended_before_time_up=True, **DOMINO_A)
    page = client.get(desk)
    assert 'name="play_ended_before_time_up"' not in page.content.decode()
    assert page.context["s"]["board"]["confirmed"]["counted_after_time_up"] is True


def test_deals_marked_by_mistake_before_the_check_no_longer_keep_a_party_from_ending():
    """(rules.md S9) Of several deals marked "counted after the time ran out" (recorded
    before the check existed) only the first is not counted: the second one ends the party."""
    from scoring.totals.compute import DealRow, deals_after

    expiry = timezone.now() - timedelta(minutes=5)
    rows = [DealRow(n, "domino", "a", 10, 0, recorded_at=expiry + timedelta(minutes=n),
                    play_ended_before_time_up=True) for n in (1, 2, 3)]
    assert deals_after(rows, expiry) == 2
