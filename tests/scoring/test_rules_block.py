"""The Block game, RULES.md section 3: the Draw game without the boneyard."""

import pytest

from scoring.rules import BlockGame, DealFacts, DrawGame, RuleError, get_rule_set

BLOCK = get_rule_set("block")
CFG = BLOCK.config()


def hand(cfg=CFG, **facts):
    return BLOCK.score_deal(DealFacts(**facts), cfg)


def test_block_registered_as_a_draw_game_variant():
    assert isinstance(BLOCK, BlockGame)
    assert isinstance(BLOCK, DrawGame)
    assert BLOCK.name == "Block game"
    assert CFG.players == 2


def test_going_out_scores_the_opponents_pips():
    assert hand(outcome="domino", went_out="a1", pips={"b1": 31}).points == {"a1": 31, "b1": 0}


def test_blocked_lowest_total_wins_them():
    assert hand(outcome="fish", pips={"a1": 12, "b1": 5}).points == {"a1": 0, "b1": 12}
    assert hand(outcome="fish", pips={"a1": 5, "b1": 5}).outcome == "drawn_fish"


def test_nobody_draws_so_a_hand_never_grows():
    """(rules.md G2) Nobody draws so a hand never grows."""
    eight = [(0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (1, 2), (1, 3)]
    with pytest.raises(RuleError) as info:
        hand(outcome="domino", went_out="a1", tiles={"b1": eight})
    assert info.value.field == "tiles"
    draw = get_rule_set("draw")
    result = draw.score_deal(DealFacts("domino", went_out="a1", tiles={"b1": eight}), CFG)
    assert result.points == {"a1": 28, "b1": 0}
