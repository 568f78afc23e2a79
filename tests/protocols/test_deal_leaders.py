"""Issue #13, item 10: who leads each deal.

Every deal may record its first mover (``Deal.led``). Kozel's next deal is led by whoever
went out or made the fish, the Latin game's by the player after the last deal's leader (seed
004, "Следующие раунды"): the services default to him and refuse another, the desk preselects
him. Sport domino's start-of-party draw for the first move leads deal 1 and is
printed on the protocol.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from referee.services import record_first_mover
from scoring.core.errors import ServiceError
from scoring.models import PartyEvent, TournamentRole
from scoring.party.deals import record_deal
from scoring.protocols import render_protocol
from scoring.signoff.content import build_protocol_data
from tests.referee.test_rule_sets_desk import make_desk
from tests.scoring.test_worked_examples_services import ALEX, MASHA, OLYA, SERG, kozel_party

from .conftest import pdf_text, play_out

pytestmark = pytest.mark.django_db

FISH = {"outcome": "fish", "pips": {MASHA: 3, ALEX: 30, OLYA: 25, SERG: 10}}


def test_kozel_next_deal_is_led_by_who_went_out_or_made_the_fish(organizer):
    """(rules.md K3) Kozel next deal is led by who went out or made the fish."""
    party = kozel_party(organizer)
    first = record_deal(party.pk, actor=organizer, outcome="domino", went_out=SERG,
                        pips={MASHA: 5, ALEX: 20, OLYA: 12}, led=MASHA).record
    assert first.led == MASHA
    # Serg went out: he opens deal 2, whether the referee names him or not
    fish = record_deal(party.pk, actor=organizer, fish_by=OLYA, **FISH).record
    assert (fish.led, fish.fish_by) == (SERG, OLYA)
    # Olya made the fish: deal 3 is hers; another leader is refused and nothing is recorded
    with pytest.raises(ServiceError) as refused:
        record_deal(party.pk, actor=organizer, outcome="domino", went_out=ALEX,
                    pips={MASHA: 1, OLYA: 2, SERG: 3}, led=ALEX)
    assert refused.value.field == "led" and "A2 leads this deal" in str(refused.value.message)
    assert party.deals.count() == 2
    third = record_deal(party.pk, actor=organizer, outcome="domino", went_out=ALEX,
                        pips={MASHA: 1, OLYA: 2, SERG: 3}, led=OLYA).record
    assert third.led == OLYA
    logged = PartyEvent.objects.filter(party=party, kind="deal_recorded").order_by("id")
    assert [e.data.get("led") for e in logged] == [MASHA, SERG, OLYA]


def test_the_kozel_desk_preselects_the_next_leader_and_asks_who_made_the_fish(client,
                                                                              organizer):
    party = kozel_party(organizer)
    TournamentRole.objects.create(tournament=party.round.tournament, user=organizer,
                                  role="referee")
    record_deal(party.pk, actor=organizer, outcome="domino", went_out=SERG,
                pips={MASHA: 5, ALEX: 20, OLYA: 12})
    client.force_login(organizer)
    desk = client.get(reverse("referee:party", args=[party.pk])).content.decode()
    select = re.search(r'<select name="led"[^>]*>(.*?)</select>', desk, re.S).group(1)
    assert re.search(r'<option value="b2" selected>[^<]*Серж Serg', select)
    assert 'name="fish_by"' in desk


def test_latin_later_deals_are_led_by_the_player_after_the_last_leader(make_user):
    """(rules.md L3) Latin later deals are led by the player after the last leader."""
    latin = make_desk(make_user, "latin")  # four in two pairs, seats a1 b1 a2 b2 in turn
    pips = {"a1": 0, "a2": 10, "b1": 20, "b2": 30}
    assert latin.deal(outcome="domino", went_out="a1", pips=pips, led="b2").led == "b2"
    # deal 2: b2 led deal 1, the lead passes on to a1 without being entered
    assert latin.deal(outcome="domino", went_out="b1", pips=pips | {"b1": 0}).led == "a1"
    # deal 3 is b1's: another leader is refused, naming the field, and nothing is written
    refused = latin.post("deal", {"outcome": "domino", "seat": "a1", "pips": pips,
                                  "led": "a2"})
    assert refused.status_code == 400 and "led" in refused.json(), refused.json()
    assert latin.party.deals.count() == 2
    # deal 3, a fish with equal totals: la mano is b1 by the rules, so his pair wins it
    tied = latin.post("deal", {"outcome": "fish", "pips": {"a1": 5, "a2": 5, "b1": 4, "b2": 6}})
    assert tied.status_code == 201, tied.json()
    third = latin.party.deals.get(number=3)
    assert (third.led, third.winner) == ("b1", "b")
    # the desk preselects deal 4's leader, a2
    client = Client()
    client.force_login(latin.referee)
    desk = client.get(reverse("referee:party", args=[latin.party_id])).content.decode()
    select = re.search(r'<select name="led"[^>]*>(.*?)</select>', desk, re.S).group(1)
    assert re.search(r'<option value="a2" selected>', select), select


def test_sport_draw_for_the_first_move_leads_deal_one_and_is_on_the_protocol(
    party, referee_user, protocol_env, tmp_path
):
    """(rules.md S21) Sport draw for the first move leads deal one and is on the protocol."""
    api = APIClient()
    api.force_authenticate(referee_user)
    response = api.post(f"/api/v1/parties/{party.pk}/first-mover/", {"seat": "b1"},
                        format="json")
    assert response.status_code == 200, response.json()
    party.refresh_from_db()
    assert party.first_mover == "b1"
    name = party.seat_players()["b1"].name
    assert PartyEvent.objects.filter(party=party, kind="first_mover").exists()

    finished = play_out(party, referee_user)
    assert finished.deals.get(number=1).led == "b1"
    with pytest.raises(ServiceError):
        record_first_mover(party.pk, seat="a1", actor=referee_user)
    data = build_protocol_data(finished)
    assert data.first_move == f"B1 · {name}"
    text = " ".join(pdf_text(render_protocol(data), tmp_path).split())
    assert f"{data.label('first_move')} B1 · {name}" in text  # the tournament's language


def test_deal_ones_leader_is_the_draws_winner_when_none_was_recorded(party, referee_user):
    # the desk's one select: deal 1's first mover is the start-of-party draw's winner
    """(rules.md S21) Deal one's leader is the draw's winner when none was recorded."""
    record_deal(party.pk, actor=referee_user, outcome="domino", went_out="a1",
                pips={"a1": 0, "a2": 10, "b1": 20, "b2": 30}, led="a2")
    party.refresh_from_db()
    assert party.first_mover == "a2"
    with pytest.raises(ServiceError) as refused:
        record_first_mover(party.pk, seat="b1", actor=referee_user)
    assert refused.value.field == "seat"
    with pytest.raises(ServiceError) as unknown:
        record_deal(party.pk, actor=referee_user, outcome="domino", went_out="a1",
                    pips={"a1": 0, "a2": 10, "b1": 20, "b2": 30}, led="c1")
    assert unknown.value.field == "led"
