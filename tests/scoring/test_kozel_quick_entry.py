"""Issue #13 item 6: Kozel quick entry refuses 0 points for a player who still holds tiles.

A player who did not go out holds at least one tile: at least 1 pip, or a lone 0-0 that
counts ``zero_zero_value`` (10). Engine first, then the deal service on a real party.
"""

from __future__ import annotations

import pytest
from django.utils import translation

from scoring.core.errors import ServiceError
from scoring.models import Deal
from scoring.rules import DealFacts, RuleError, get_rule_set
from tests.scoring.test_worked_examples_services import ALEX, MASHA, OLYA, SERG, deal, kozel_party

KOZEL = get_rule_set("kozel")
CFG = KOZEL.config()


def engine_refusal(cfg=CFG, **facts) -> RuleError:
    """The engine's refusal of a deal."""
    with pytest.raises(RuleError) as err:
        KOZEL.score_deal(DealFacts(**facts), cfg)
    return err.value


def test_engine_refuses_zero_for_a_holder_after_a_domino():
    """(rules.md K13) Engine refuses zero for a holder after a domino."""
    error = engine_refusal(outcome="domino", went_out=MASHA, points={ALEX: 0, OLYA: 13, SERG: 5})
    assert error.field == f"points_{ALEX}"
    assert error.params == {"seat": ALEX, "value": 10}


def test_engine_refuses_zero_for_a_holder_in_a_fish_of_either_variant():
    """(rules.md K13) Engine refuses zero for a holder in a fish of either variant."""
    points = {MASHA: 2, ALEX: 3, OLYA: 0, SERG: 5}
    assert engine_refusal(outcome="fish", points=points).field == f"points_{OLYA}"
    for_one = KOZEL.config(fish_variant="for_one")
    assert engine_refusal(for_one, outcome="fish", points=points).field == f"points_{OLYA}"


def test_engine_accepts_the_one_who_went_out_at_zero_and_holders_from_one():
    score = KOZEL.score_deal(
        DealFacts(outcome="domino", went_out=MASHA, points={MASHA: 0, ALEX: 1, OLYA: 10, SERG: 5}),
        CFG,
    )
    assert score.points == {MASHA: 0, ALEX: 1, OLYA: 10, SERG: 5}


def test_engine_accepts_zero_where_a_lone_zero_zero_is_agreed_to_count_zero():
    """(rules.md K13) Engine accepts zero where a lone zero zero is agreed to count zero."""
    cfg = KOZEL.config(zero_zero_value=0)
    score = KOZEL.score_deal(
        DealFacts(outcome="domino", went_out=MASHA, points={ALEX: 0, OLYA: 10, SERG: 5}), cfg
    )
    assert score.points[ALEX] == 0


@pytest.mark.django_db
def test_deal_service_refuses_zero_for_a_holder_naming_the_player(organizer):
    """(rules.md K13) Deal service refuses zero for a holder naming the player."""
    party = kozel_party(organizer)
    with pytest.raises(ServiceError) as err:
        deal(party, outcome="domino", went_out=MASHA, points={ALEX: 3, OLYA: 0, SERG: 5})
    assert err.value.field == f"points_{OLYA}"
    assert "a2 still holds tiles" in err.value.message and "counts 10" in err.value.message
    assert not Deal.objects.filter(party=party).exists()
    with translation.override("ru"):
        with pytest.raises(ServiceError) as russian:
            deal(party, outcome="fish", points={MASHA: 2, ALEX: 0, OLYA: 4, SERG: 5})
    assert russian.value.field == f"points_{ALEX}"
    assert "b1" in russian.value.message and "на руках" in russian.value.message
    recorded = deal(party, outcome="domino", went_out=MASHA, points={ALEX: 3, OLYA: 1, SERG: 5})
    assert recorded.scores == {MASHA: 0, ALEX: 3, OLYA: 1, SERG: 5}
