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


# -- a refused desk action in words: the form's field, its label, the players' names ---------

DESK_JSON = {"HTTP_ACCEPT": "application/json", "HTTP_ACCEPT_LANGUAGE": "ru"}


def _refused(client, party, body: dict) -> dict:
    """A deal the desk's queue sends (in Russian), refused: its JSON answer."""
    body = {"version": party.version, "number": 1, "client_id": "refused", **body}
    response = client.post(f"/referee/party/{party.pk}/deal/", body, **DESK_JSON)
    assert response.status_code == 400, response.content
    return response.json()


def test_a_refusal_names_the_player_and_the_forms_field(client, referee_user, party):
    client.force_login(referee_user)
    data = _refused(client, party, {"outcome": "domino", "went_out": "a2", "pips_a2": "10",
                                    "pips_a1": "5", "pips_b1": "7", "pips_b2": "3"})
    rows = data["by_field"]
    assert [row["fields"] for row in rows] == [["pips_a2"]]
    assert rows[0]["label"] == "Сергей Смирнов (A2)"
    assert "Игрок Сергей Смирнов (A2) закончил кон" in rows[0]["text"]
    assert "a2" not in data["error"] and "pips" not in data["error"]
    assert data["errors"] == {"pips": {"a2": [rows[0]["message"]]}}  # nested as the API's


def test_a_refused_pairs_points_name_the_pair_by_its_field(client, referee_user, party):
    client.force_login(referee_user)
    data = _refused(client, party, {"outcome": "domino", "winner": "a", "points": "900"})
    (row,) = data["by_field"]
    assert row["fields"] == ["points_a", "points"]  # the quick form has "points" alone
    assert row["text"].startswith("Иван Петров / Сергей Смирнов (A): ")
    assert "900" in row["text"]


def test_a_missing_winner_is_said_by_the_forms_label(client, referee_user, party):
    client.force_login(referee_user)
    data = _refused(client, party, {"outcome": "domino"})
    (row,) = data["by_field"]
    assert row["fields"][0] == "winner" and row["label"] == "Игрок"
    assert row["text"].startswith("Игрок: ") and data["conflict"] is False


def test_the_pages_refusal_is_in_words_too(client, referee_user, party):
    client.force_login(referee_user)
    body = {"outcome": "domino", "went_out": "a2", "pips_a2": "10", "pips_a1": "5",
            "pips_b1": "7", "pips_b2": "3", "version": party.version, "number": 1}
    response = client.post(f"/referee/party/{party.pk}/deal/", body, HTTP_HX_REQUEST="true",
                           HTTP_ACCEPT_LANGUAGE="ru")
    html = response.content.decode()
    assert response.status_code == 400 and "Игрок Сергей Смирнов (A2) закончил кон" in html
