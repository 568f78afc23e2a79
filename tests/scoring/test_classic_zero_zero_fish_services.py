"""Issue #13 item 5: a Classic fish and the lone 0-0, through the services on a real party.

The seeds give a lone 0-0 its 25 for the loser after a domino; in a fish it counts its 0 pips
(the lowest hand wins) unless the regulations' ``lone_zero_zero_in_fish`` says otherwise.
"""

from __future__ import annotations

import pytest

from scoring.rules import get_rule_set
from tests.scoring.test_worked_examples_services import deal, fresh, singles_parties, totals
from tournaments.setup.forms import RegulationsForm

pytestmark = pytest.mark.django_db


def test_classic_fish_lone_zero_zero_wins_by_default(organizer):
    """(rules.md G7) Classic fish lone zero zero wins by default."""
    (party,) = singles_parties(organizer, "classic")
    regulations = fresh(party).round.tournament.regulations
    assert regulations.lone_zero_zero_in_fish is False  # the preset's default
    recorded = deal(party, outcome="fish", tiles={"a1": [[0, 0]], "b1": [[2, 6], [1, 3]]})
    assert (recorded.winner, recorded.scores) == ("a1", {"a1": 12, "b1": 0})
    assert totals(party).points == {"a1": 12, "b1": 0}


def test_classic_fish_lone_zero_zero_counts_25_when_set(organizer):
    (party,) = singles_parties(organizer, "classic", lone_zero_zero_in_fish=True)
    recorded = deal(party, outcome="fish", pips={"a1": 0, "b1": 12})
    assert (recorded.winner, recorded.scores) == ("b1", {"a1": 0, "b1": 13})
    assert totals(party).points == {"a1": 0, "b1": 13}


def test_classic_domino_still_gives_the_lone_zero_zero_25(organizer):
    (party,) = singles_parties(organizer, "classic")
    recorded = deal(party, outcome="domino", went_out="b1", tiles={"a1": [[0, 0]]})
    assert recorded.scores == {"a1": 0, "b1": 25}


def test_the_setting_is_a_classic_regulations_field_only(organizer):
    (party,) = singles_parties(organizer, "classic")
    form = RegulationsForm(instance=fresh(party).round.tournament.regulations)
    assert "lone_zero_zero_in_fish" in form.fields
    assert get_rule_set("classic").preset["lone_zero_zero_in_fish"] is False
    assert "lone_zero_zero_in_fish" not in get_rule_set("kozel").setting_names
