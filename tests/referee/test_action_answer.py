"""An action's answer carries the party as a fresh read shows it, whatever the action did.

The service's own evaluation is reused for the answer (the result's ``Done.evaluated``):
these tests compare the answer with the party's state read afterwards, for a deal, a fine, a
game that closes, a party that finishes and a warning.
"""

from __future__ import annotations

import pytest

from tests.referee.test_rule_sets_desk import make_desk

pytestmark = pytest.mark.django_db

SUMMARY_KEYS = ("version", "status", "phase", "winner", "loser", "totals", "match", "kozel")


def _same(answer: dict, desk) -> None:
    """The answer's party equals the party read again."""
    fresh = desk.state()
    for key in SUMMARY_KEYS:
        assert answer["party"].get(key) == fresh.get(key), key


def test_sport_deal_warning_fine_and_the_finishing_deal(make_user):
    desk = make_desk(make_user, "sport")
    answer = desk.post("deal", {"outcome": "domino", "side": "a", "points": {"a": 40, "b": 0}})
    assert answer.status_code == 201
    _same(answer.json(), desk)
    for _ in range(2):  # the second warning of a kind is a fine: totals change
        answer = desk.post("warning", {"category": "talking", "side": "b"})
        assert answer.status_code == 201
        _same(answer.json(), desk)
    assert answer.json()["party"]["totals"]["fine_points"]["b"] != 0
    answer = desk.post("deal", {"outcome": "domino", "side": "a", "points": {"a": 160, "b": 0}})
    assert answer.status_code == 201, answer.json()
    assert answer.json()["party"]["status"] == "finished"
    _same(answer.json(), desk)


def test_udl_deal_that_closes_a_game_answers_the_next_game(make_user):
    desk = make_desk(make_user, "udl")
    desk.deal(outcome="domino", went_out="a1", pips={"b1": 22}, plays=[["a1", 10], ["b1", 5]])
    body = {"outcome": "domino", "seat": "a1", "pips": {"b1": 100}, "plays": [["a1", 20]]}
    answer = desk.post("deal", body)
    assert answer.status_code == 201, answer.json()
    assert answer.json()["party"]["match"]["game_wins"] == {"a": 1, "b": 0}
    _same(answer.json(), desk)
