"""The desk's scoreboard data for the provisional board, and a paused clock's words.

The scoreboard carries the rule set's plain rule data (``#desk-board-data``) with the server's
confirmed totals and clock; games counted on the server send no rules (the device then says
the score waits). A paused clock does not read "In play".
"""

from __future__ import annotations

import json
import re
import time

import pytest

from referee import services
from scoring.rules import RULE_SETS, RuleSet
from scoring.totals.compute import party_totals

pytestmark = pytest.mark.django_db


def board_of(html: str) -> dict:
    """The JSON the scoreboard carries for the device."""
    found = re.search(r'<script id="desk-board-data" type="application/json">(.*?)</script>',
                      html, re.S)
    assert found, "no board data in the scoreboard"
    return json.loads(found.group(1))


def phase_of(html: str) -> str:
    return re.search(r'class="ref-phase[^"]*">([^<]*)<', html).group(1)


def test_a_paused_clock_says_paused_not_in_play(client, referee_user, party):
    client.force_login(referee_user)
    assert phase_of(client.get(f"/referee/party/{party.pk}/status/").content.decode()) == "In play"
    services.pause_clock(party.pk, actor=referee_user)
    html = client.get(f"/referee/party/{party.pk}/status/").content.decode()
    assert phase_of(html) == "Paused: the clock is stopped"
    assert board_of(html)["clock"]["paused"] is True
    assert board_of(html)["clock"]["expires_at"] is None


def test_the_board_carries_the_servers_totals_and_the_rule_sets_data(
    client, referee_user, party
):
    client.force_login(referee_user)
    for winner, points in (("a", "30"), ("b", "45")):
        client.post(f"/referee/party/{party.pk}/deal/",
                    {"outcome": "domino", "winner": winner, "points": points})
    data = board_of(client.get(f"/referee/party/{party.pk}/").content.decode())
    party.refresh_from_db()
    totals = party_totals(party)
    assert data["confirmed"]["points"] == totals.points == {"a": 30, "b": 45}
    assert data["confirmed"]["deal_in_play"] == 3
    assert data["deal_url"] == f"/referee/party/{party.pk}/deal/"
    assert data["clock"]["expires_at"] > time.time() * 1000
    rules = data["rules"]
    assert rules["sides"] == ["a", "b"] and rules["target"] == 200
    assert rules["seat_side"] == {"a1": "a", "b1": "b", "a2": "a", "b2": "b"}
    assert rules["pips"] == {"domino": "all", "fish": "all", "tie": "drawn"}
    assert rules["ending"] == "target_time"


@pytest.mark.parametrize("code", sorted(RULE_SETS))
def test_only_games_ended_by_the_common_decision_let_the_device_say_the_end(code):
    rule_set: RuleSet = RULE_SETS[code]
    cfg = rule_set.config()
    rules = rule_set.board_rules(cfg)
    if rules is None:  # counted on the server only (Kozel's accounts, a match's plays)
        assert rule_set.plays_games or rule_set.layout_for(cfg).accounts
        return
    assert rules["ending"] == ("target_time" if type(rule_set).decide is RuleSet.decide else None)
    assert set(rules["seat_side"]) == set(rule_set.seats_for(cfg))
    assert rules["sides"] == list(rule_set.sides_for(cfg))
