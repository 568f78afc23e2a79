"""One figure, one answer: what a deal counted and what the fines did, on every screen.

UDL's end count taken with nothing on the board is scored but not collected: the desk, the
public party page and the protocol show it struck through (or named, in the PDF) beside the 0
that counted, so a row never says 25 where the running total added nothing. A fine's points
are written with their sign (``+20`` paid to a player, ``−10`` taken) by one function
(``scoring.protocols.figures.signed_points``) on the desk's scoreboard and deals table, the
public party page and the protocol.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring.protocols import render_protocol
from scoring.protocols.figures import signed_points
from scoring.rules import DealFacts, get_rule_set
from scoring.signoff.content import build_protocol_data
from tests.protocols.conftest import pdf_text

UDL = get_rule_set("udl")


def _page(user, name: str, party_id: int, language: str = "en") -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        client.force_login(user)
    response = client.get(reverse(name, args=[party_id]))
    assert response.status_code == 200
    return " ".join(response.content.decode().split())


def test_signed_points_writes_given_and_taken_points():
    assert [signed_points(v) for v in (20, -10, 0)] == ["+20", "\u221210", "0"]


def test_the_engine_names_what_a_hand_scored_but_did_not_collect():
    cfg = UDL.config()
    bare = UDL.score_deal(DealFacts(outcome="domino", went_out="a1", pips={"b1": 23}), cfg)
    played = UDL.score_deal(DealFacts(outcome="domino", went_out="a1", pips={"b1": 23},
                                      plays=[("a", 10)]), cfg)
    totals = UDL.party_totals([bare, played], [], cfg)
    assert bare.points == {"a": 25, "b": 0}
    assert totals.running == [{"a": 0, "b": 0}, {"a": 35, "b": 0}]
    assert totals.uncollected == [{"a": 25}, {}]  # one entry per hand, beside running


@pytest.mark.django_db
def test_an_uncollected_count_is_struck_through_on_desk_page_and_protocol(desk, tmp_path):
    udl = desk("udl")
    udl.deal(outcome="domino", went_out="a1", pips={"b1": 23})  # nothing on the board yet
    udl.deal(outcome="domino", went_out="b1", pips={"a1": 12}, plays=[["b1", 10]])

    board = _page(udl.referee, "referee:party", udl.party_id)
    assert re.search(r'<s class="uncollected" title="[^"]+">25</s>&nbsp;0</td>', board)
    assert board.count('class="uncollected"') == 1  # b's second hand counted in full
    assert "Struck through: points not collected" in board
    page = _page(None, "tournaments:party", udl.party_id)
    assert re.search(r'<s class="uncollected" title="[^"]+">25</s>&nbsp;0</td>', page)
    assert "Struck through: points not collected" in page

    logged = udl.party.events.filter(kind="deal_recorded").order_by("seq")
    assert [event.data.get("uncollected") for event in logged] == [{"a": 25}, None]
    # the log (and the flash after the entry, its newest line) says so, by name
    assert "Иван Петров won, 25 : 0 · Иван Петров: 25 not collected, no points on the board" \
        in board

    text = " ".join(pdf_text(render_protocol(build_protocol_data(udl.party)), tmp_path).split())
    assert "A: 25 не засчитано, нет очков на доске" in text, text  # the tournament speaks Russian


@pytest.mark.django_db
def test_a_russian_desk_explains_the_struck_count(desk):
    udl = desk("udl")
    udl.deal(outcome="domino", went_out="a1", pips={"b1": 23})
    board = _page(udl.referee, "referee:party", udl.party_id, "ru")
    assert "Зачёркнуто" in board and "не засчитан" in board


@pytest.mark.django_db
def test_a_deducted_fine_is_written_minus_once(desk):
    party = desk("sport")  # sport domino: a fine takes the points from the pair
    party.deal(outcome="domino", winner="a", points={"a": 30, "b": 0})
    answer = party.post("fine", {"category": "signs", "side": "a", "points": 10})
    assert answer.status_code in (200, 201), answer.json()
    board = _page(party.referee, "referee:party", party.party_id)
    totals_row = board[board.index('id="deals-total"'):]
    totals_row = totals_row[:totals_row.index("</tr>")]
    assert "<td>\u221210</td>" in totals_row and "\u2212-" not in board and "−-" not in board
    assert "fines \u221210" in board  # the scoreboard, by the same function
    page = _page(None, "tournaments:party", party.party_id)
    assert "<td>\u221210</td>" in page


@pytest.mark.django_db
def test_a_fine_paid_to_the_opponent_is_written_plus(desk):
    udl = desk("udl")
    udl.deal(outcome="stopped", plays=[["a1", 10]])
    answer = udl.post("fine", {"category": "conduct", "side": "b", "points": 20})
    assert answer.status_code in (200, 201), answer.json()
    board = _page(udl.referee, "referee:party", udl.party_id)
    totals_row = board[board.index('id="deals-total"'):]
    totals_row = totals_row[:totals_row.index("</tr>")]
    assert "<td>+20</td><td>0</td>" in totals_row and "\u221220" not in totals_row
    assert "fines +20" in board
