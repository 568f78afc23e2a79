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


def time_ran_out(party: Party) -> Party:
    """The party's 40 minutes are over: the referee declares the time up."""
    Party.objects.filter(pk=party.pk).update(started_at=timezone.now() - timedelta(minutes=41))
    mark_time_expired(party.pk)
    party.refresh_from_db()
    assert party.time_expired_at is not None and party.status == Party.Status.IN_PROGRESS
    return party


def test_time_running_out_while_a_deal_is_counted_plays_one_more_deal(party):
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
