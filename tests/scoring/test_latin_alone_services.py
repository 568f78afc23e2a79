"""Issue #13 item 11: the Latin game alone (seed 004), through the services on real parties.

Three players each for himself at one table (an individual event: the draw's groups a1+a2 and
b1 seat them), four each for himself once the regulations say so, two as a singles match;
the tie of a fish goes to la mano or the player nearest after him.
"""

from __future__ import annotations

import pytest

from scoring.core.errors import ServiceError
from scoring.models import Pair, Party, Table
from tests.referee.test_rule_sets_desk import make_desk
from tests.scoring.test_worked_examples_services import (
    _round,
    _start,
    _tournament,
    deal,
    fresh,
    singles_parties,
    totals,
)
from tournaments.registration.services import register_player
from tournaments.setup.services import update_regulations

pytestmark = pytest.mark.django_db


def latin_three(organizer) -> Party:
    """A started Latin party of Ann (a1), Bob (b1) and Cid (a2), each for himself."""
    tournament = _tournament(organizer, "latin", "individual", players=3)
    ann, bob, cid = (register_player(tournament, name=name) for name in ("Ann", "Bob", "Cid"))
    rnd = _round(tournament)
    table = Table.objects.create(tournament=tournament, number=1)
    pair_a = Pair.objects.create(
        tournament=tournament, player1=ann, player2=cid, formed_in_round=rnd
    )
    pair_b = Pair.objects.create(tournament=tournament, player1=bob, formed_in_round=rnd)
    party = Party.objects.create(round=rnd, table=table, pair_a=pair_a, pair_b=pair_b)
    return _start(party, organizer)


def test_latin_three_players_alone_through_the_services(organizer):
    """(rules.md L3, L5) Latin three players alone through the services."""
    party = latin_three(organizer)
    recorded = deal(party, outcome="domino", went_out="b1", pips={"a1": 9, "a2": 14})
    assert (recorded.winner, recorded.scores) == ("b1", {"a1": 0, "b1": 23, "a2": 0})
    with pytest.raises(ServiceError) as info:  # a tie needs la mano
        deal(party, outcome="fish", pips={"a1": 20, "b1": 6, "a2": 6})
    assert info.value.field == "led"
    tied = deal(party, outcome="fish", pips={"a1": 20, "b1": 6, "a2": 6}, led="a1")
    assert (tied.winner, tied.led, tied.scores) == ("b1", "a1", {"a1": 0, "b1": 26, "a2": 0})
    # deal 3 is led by b1, the player after deal 2's a1: of the tied a1 and a2, a2 sits nearer
    mano = deal(party, outcome="fish", pips={"a1": 6, "b1": 20, "a2": 6})
    assert (mano.led, mano.winner) == ("b1", "a2")
    assert totals(party).points == {"a1": 0, "b1": 49, "a2": 26}


def test_latin_two_players_are_a_singles_match(organizer):
    (party,) = singles_parties(organizer, "latin", players=2)
    recorded = deal(party, outcome="fish", pips={"a1": 7, "b1": 7}, led="b1")
    assert (recorded.winner, recorded.scores) == ("b1", {"a1": 0, "b1": 7})
    assert totals(party).points == {"a1": 0, "b1": 7}


def test_latin_four_alone_on_the_referee_desk(make_user):
    """(rules.md L8) Latin four alone on the referee desk."""
    latin = make_desk(make_user, "latin", players=4, latin_individual=True, seated=1)
    pips = {"a1": 3, "b1": 3, "a2": 8, "b2": 10}
    response = latin.post("deal", {"outcome": "fish", "pips": pips, "led": "b2"})
    assert response.status_code == 201, response.json()
    assert latin.state()["totals"]["points"] == {"a1": 21, "b1": 0, "a2": 0, "b2": 0}
    fine = latin.post("fine", {"side": "a", "seat": "a2", "category": "signs"})
    assert fine.status_code == 201, fine.json()
    assert latin.state()["totals"]["points"]["a2"] == -25


def test_latin_regulations_choose_pairs_or_alone(organizer):
    """(rules.md L1) Latin regulations choose pairs or alone."""
    tournament = _tournament(organizer, "latin", "pairs")
    regulations = tournament.regulations
    assert (regulations.players, regulations.latin_individual) == (4, False)  # the preset
    with pytest.raises(ServiceError) as info:  # four alone need the individual format
        update_regulations(tournament.pk, latin_individual=True)
    assert info.value.field == "latin_individual"
    with pytest.raises(ServiceError) as info:
        update_regulations(tournament.pk, players=3)
    assert info.value.field == "players"
    assert update_regulations(tournament.pk, players=2).players == 2  # a singles match
    assert fresh_rules(tournament).latin_individual is False


def fresh_rules(tournament):
    """The tournament's regulations as stored now."""
    return type(tournament.regulations).objects.get(tournament_id=tournament.pk)


def test_latin_seating_cannot_change_once_a_round_exists(organizer):
    party = latin_three(organizer)
    with pytest.raises(ServiceError) as info:
        update_regulations(fresh(party).round.tournament_id, latin_individual=True)
    assert info.value.field == "latin_individual"
