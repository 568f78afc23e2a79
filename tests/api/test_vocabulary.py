"""One vocabulary across the party's actions: ``side`` and ``seat``, checked against the game.

Every action that concerns someone names him the same way; the old per-action names are
refused rather than silently dropped; seat games report seats, never sums of accounts.
"""

from __future__ import annotations

import pytest

from tests.referee.test_rule_sets_desk import make_desk

pytestmark = pytest.mark.django_db


@pytest.fixture
def pairs_desk(make_user):
    return make_desk(make_user, "sport")


@pytest.fixture
def kozel_desk(make_user):
    return make_desk(make_user, "kozel")


@pytest.fixture
def singles_desk(make_user):
    return make_desk(make_user, "udl")


@pytest.mark.parametrize("old", [
    ("no-show", {"absent_side": "a"}, "absent_side"),
    ("deal", {"outcome": "domino", "went_out": "a1", "points": {"a": 10, "b": 0}}, "went_out"),
    ("deal", {"outcome": "fish", "winner": "a", "points": {"a": 10, "b": 0}}, "winner"),
])
def test_old_names_are_refused_naming_the_field(pairs_desk, old):
    name, body, field = old
    response = pairs_desk.post(name, body)
    assert response.status_code == 400
    assert "this action takes" in response.json()[field][0]


@pytest.mark.parametrize("name, body", [
    ("warning", {"category": "talking"}),
    ("fine", {"category": "signs"}),
    ("check-in", {}),
    ("no-show", {}),
])
def test_an_action_about_someone_needs_a_side_or_a_seat(pairs_desk, name, body):
    response = pairs_desk.post(name, body)
    assert response.status_code == 400 and "side" in response.json()


@pytest.mark.parametrize("name, body", [
    ("out-of-turn", {"choice": "continue"}),
    ("false-pass", {}),
    ("touched-tile", {"fits": True}),
    ("out-of-turn", {"side": "a", "choice": "continue"}),
])
def test_a_ruling_about_a_player_needs_his_seat(pairs_desk, name, body):
    response = pairs_desk.post(name, body)
    assert response.status_code == 400
    assert response.json() == {"seat": ["Name the player's seat."]}


def test_a_seat_names_its_side_and_a_contradiction_is_refused(pairs_desk):
    response = pairs_desk.post("warning", {"seat": "b2", "category": "talking"})
    assert response.status_code == 201, response.json()
    assert (response.json()["record"]["side"], response.json()["record"]["seat"]) == ("b", "b2")
    response = pairs_desk.post("fine", {"side": "a", "seat": "b1", "category": "signs"})
    assert response.status_code == 400
    assert response.json() == {"seat": ["Seat b1 is not on side a."]}


def test_seats_are_the_games_own(singles_desk):
    response = singles_desk.post("warning", {"seat": "a2", "category": "talking"})
    assert response.status_code == 400
    assert "a1, b1" in response.json()["seat"][0]


def test_a_domino_by_seat_names_the_winning_side(pairs_desk):
    response = pairs_desk.post("deal", {"outcome": "domino", "seat": "b2",
                                        "pips": {"a1": 10, "a2": 5, "b1": 7, "b2": 0}})
    assert response.status_code == 201, response.json()
    record = response.json()["record"]
    assert (record["side"], record["seat"], record["points"]) == ("b", "b2", {"a": 0, "b": 22})
    deals = pairs_desk.api.get(pairs_desk.url("deals")).json()
    assert deals == [{k: v for k, v in record.items() if k != "type"}]


def test_a_seat_game_reports_seats_never_sums(kozel_desk):
    response = kozel_desk.post("deal", {"outcome": "domino", "seat": "b1",
                                        "points": {"a1": 30, "a2": 13, "b2": 20}})
    assert response.status_code == 201, response.json()
    state = kozel_desk.state()
    assert state["scored_by"] == "seat"
    assert set(state["totals"]["points"]) == {"a1", "b1", "a2", "b2"}
    assert state["deals"][0]["seat"] == "b1" and set(state["deals"][0]["points"]) == {
        "a1", "b1", "a2", "b2"}
    listed = kozel_desk.api.get("/api/v1/parties/", {"round": state["round"]}).json()
    row = next(p for p in listed["results"] if p["id"] == state["id"])
    assert row["totals"]["points"] == state["totals"]["points"]
    assert row["pairs"] == state["pairs"]
    seats = [p["seat"] for side in row["pairs"].values() for p in side["players"]]
    assert sorted(seats) == ["a1", "a2", "b1", "b2"]
