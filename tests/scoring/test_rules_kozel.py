"""Kozel (the Goat), RULES.md section 3: memorized points, both fish variants, the Goat, ratings.

The worked examples of the seeds run with Masha, Alex, Olya and Serg at seats a1, b1, a2, b2.
"""

import pytest

from scoring.rules import (
    DealFacts,
    DealScore,
    FineFact,
    Kozel,
    KozelTotals,
    RuleError,
    RulesConfig,
    Totals,
    get_rule_set,
    rule_set_choices,
)
from scoring.rules.kozel_deal import first_lead, rating, ratings, redeal_reasons

KOZEL = get_rule_set("kozel")
MASHA, ALEX, OLYA, SERG = "a1", "b1", "a2", "b2"
CFG = KOZEL.config()
FOR_ONE = KOZEL.config(fish_variant="for_one")


def deal(cfg=CFG, **facts):
    return KOZEL.score_deal(DealFacts(**facts), cfg)


def refused(field, cfg=CFG, **facts):
    with pytest.raises(RuleError) as info:
        deal(cfg, **facts)
    assert info.value.field == field, str(info.value)
    return info.value


def before_example(cfg=CFG):
    """Two deals Alex wins: Masha +19 memorized, Alex 0, Olya +7, Serg +4, no account open."""
    return [
        deal(cfg, outcome="domino", went_out=ALEX, pips={MASHA: 12, OLYA: 3, SERG: 2}),
        deal(cfg, outcome="domino", went_out=ALEX, pips={MASHA: 7, OLYA: 4, SERG: 2}),
    ]


def test_kozel_registered_with_per_player_sides():
    """(rules.md K1) Kozel registered with per player sides."""
    assert isinstance(KOZEL, Kozel)
    assert ("kozel", "Kozel (Goat)") in rule_set_choices()
    assert KOZEL.sides_for(CFG) == ("a1", "b1", "a2", "b2")
    assert KOZEL.sides_for(KOZEL.config(players=3)) == ("a1", "b1", "a2")
    assert KOZEL.sides_for(KOZEL.config(players=2)) == ("a1", "b1")
    assert KOZEL.opponents(MASHA, CFG) == (ALEX, OLYA, SERG)
    assert KOZEL.hand_size(CFG) == 7


def test_worked_example_memorized_points():
    """(rules.md K6) Worked example memorized points."""
    totals = KOZEL.party_totals(before_example(), [], CFG)
    assert totals.memorized == {MASHA: 19, ALEX: 0, OLYA: 7, SERG: 4}
    assert totals.points == {MASHA: 0, ALEX: 0, OLYA: 0, SERG: 0}

    example = deal(outcome="domino", went_out=MASHA, pips={ALEX: 3, OLYA: 13, SERG: 5})
    assert example.points == {MASHA: 0, ALEX: 3, OLYA: 13, SERG: 5}
    totals = KOZEL.party_totals([*before_example(), example], [], CFG)
    assert isinstance(totals, KozelTotals)
    # Masha goes out holding +19 memorized -> 0.
    assert totals.memorized[MASHA] == 0
    assert totals.points[MASHA] == 0
    # Alex, 0 before, scores 3 -> +3 memorized.
    assert totals.memorized[ALEX] == 3
    assert totals.open[ALEX] is False
    # Olya, +7 memorized, scores 13 -> her account opens at 20.
    assert totals.points[OLYA] == 20
    assert totals.open[OLYA] is True
    assert totals.memorized[OLYA] == 0
    # Serg, +4 memorized, scores 5 -> +9 memorized.
    assert totals.memorized[SERG] == 9
    assert totals.points[SERG] == 0
    assert totals.running_memorized[-1] == {MASHA: 0, ALEX: 3, OLYA: 0, SERG: 9}


def test_open_account_counts_every_deal():
    """(rules.md K6) Open account counts every deal."""
    deals = [
        deal(outcome="domino", went_out=MASHA, pips={ALEX: 3, OLYA: 13, SERG: 5}),
        deal(outcome="domino", went_out=MASHA, pips={ALEX: 2, OLYA: 2, SERG: 2}),
    ]
    totals = KOZEL.party_totals(deals, [], CFG)
    assert totals.points[OLYA] == 15  # open: even 2 counts
    assert totals.memorized == {MASHA: 0, ALEX: 5, OLYA: 0, SERG: 7}


def test_memorize_limit_is_a_setting():
    """(rules.md K6) Memorize limit is a setting."""
    cfg = KOZEL.config(memorize_limit=5)
    deals = [deal(cfg, outcome="domino", went_out=MASHA, pips={ALEX: 6, OLYA: 5, SERG: 1})]
    totals = KOZEL.party_totals(deals, [], cfg)
    assert totals.points == {MASHA: 0, ALEX: 6, OLYA: 0, SERG: 0}
    assert totals.memorized == {MASHA: 0, ALEX: 0, OLYA: 5, SERG: 1}


def test_worked_example_fish_for_one():
    """(rules.md K7, K15) Worked example fish for one."""
    deals = [deal(FOR_ONE, outcome="domino", went_out=ALEX, pips={MASHA: 12, OLYA: 7, SERG: 4})]
    fish = deal(FOR_ONE, outcome="fish", pips={MASHA: 2, ALEX: 3, OLYA: 13, SERG: 5})
    assert fish == DealScore("fish", OLYA, {MASHA: 0, ALEX: 0, OLYA: 23, SERG: 0})
    totals = KOZEL.party_totals([*deals, fish], [], FOR_ONE)
    # Olya takes 23 + her 7 memorized = 30; the others' memorized points are reset.
    assert totals.points[OLYA] == 30
    assert totals.memorized == {MASHA: 0, ALEX: 0, OLYA: 0, SERG: 0}


def test_fish_for_all_each_scores_his_own_hand():
    """(rules.md K7) Fish for all each scores his own hand."""
    fish = deal(outcome="fish", pips={MASHA: 2, ALEX: 3, OLYA: 13, SERG: 5})
    assert fish == DealScore("fish", None, {MASHA: 2, ALEX: 3, OLYA: 13, SERG: 5})
    totals = KOZEL.party_totals([*before_example(), fish], [], CFG)
    assert totals.points == {MASHA: 0, ALEX: 0, OLYA: 20, SERG: 0}
    assert totals.memorized == {MASHA: 21, ALEX: 3, OLYA: 0, SERG: 9}


def test_worked_example_fish_for_one_tie_carries_over():
    """(rules.md K7) Worked example fish for one tie carries over."""
    drawn = deal(FOR_ONE, outcome="fish", pips={MASHA: 3, ALEX: 14, OLYA: 14, SERG: 4})
    assert drawn.outcome == "drawn_fish"
    assert drawn.winner is None
    assert drawn.carry == 35
    totals = KOZEL.party_totals([drawn], [], FOR_ONE)
    assert totals.carry == 35
    assert totals.points == {MASHA: 0, ALEX: 0, OLYA: 0, SERG: 0}
    assert totals.memorized == {MASHA: 0, ALEX: 0, OLYA: 0, SERG: 0}

    # The next deal's highest scorer takes the 35 besides his own total, whatever the outcome.
    after = deal(FOR_ONE, outcome="domino", went_out=MASHA, pips={ALEX: 5, OLYA: 8, SERG: 2})
    totals = KOZEL.party_totals([drawn, after], [], FOR_ONE)
    assert totals.carry == 0
    assert totals.points == {MASHA: 0, ALEX: 0, OLYA: 43, SERG: 0}
    assert totals.memorized == {MASHA: 0, ALEX: 5, OLYA: 0, SERG: 2}


def test_fish_for_one_repeated_ties_accumulate():
    """(rules.md K14) Fish for one repeated ties accumulate."""
    first = deal(FOR_ONE, outcome="fish", pips={MASHA: 3, ALEX: 14, OLYA: 14, SERG: 4})
    second = deal(FOR_ONE, outcome="fish", pips={MASHA: 10, ALEX: 2, OLYA: 1, SERG: 10})
    level = deal(FOR_ONE, outcome="domino", went_out=ALEX, pips={MASHA: 6, OLYA: 6, SERG: 1})
    totals = KOZEL.party_totals([first, second, level], [], FOR_ONE)
    assert totals.carry == 35 + 23  # the domino's top was shared: still waiting
    won = deal(FOR_ONE, outcome="domino", went_out=ALEX, pips={MASHA: 1, OLYA: 9, SERG: 1})
    totals = KOZEL.party_totals([first, second, level, won], [], FOR_ONE)
    assert totals.carry == 0
    assert totals.points[OLYA] == 6 + 9 + 58


def test_lone_zero_zero_counts_10_by_default():
    # 0 pips in a hand that still holds tiles is a lone 0-0.
    """(rules.md K4) Lone zero zero counts 10 by default."""
    result = deal(outcome="domino", went_out=MASHA, pips={ALEX: 0, OLYA: 13, SERG: 5})
    assert result.points[ALEX] == 10
    fish = deal(
        outcome="fish", tiles={MASHA: [(0, 0)], ALEX: [(1, 2)], OLYA: [(3, 3)]}, pips={SERG: 4}
    )
    assert fish.points == {MASHA: 10, ALEX: 3, OLYA: 6, SERG: 4}


@pytest.mark.parametrize("value", [25, 50])
def test_lone_zero_zero_value_is_a_setting(value):
    cfg = KOZEL.config(zero_zero_value=value)
    result = deal(cfg, outcome="domino", went_out=MASHA, pips={ALEX: 0, OLYA: 13, SERG: 5})
    assert result.points[ALEX] == value


@pytest.mark.parametrize("value", [50, 100])
def test_lone_six_six_value_is_a_setting(value):
    """(rules.md K4) Lone six six value is a setting."""
    cfg = KOZEL.config(six_six_value=value)
    result = deal(
        cfg,
        outcome="domino",
        went_out=MASHA,
        tiles={ALEX: [(6, 6)], OLYA: [(5, 6), (0, 1)]},
        pips={SERG: 12},
    )
    assert result.points == {MASHA: 0, ALEX: value, OLYA: 12, SERG: 12}


def test_lone_six_six_counts_its_pips_by_default():
    result = deal(outcome="domino", went_out=MASHA, tiles={ALEX: [(6, 6)]}, pips={OLYA: 1, SERG: 2})
    assert result.points[ALEX] == 12


def test_twelve_pips_without_tiles_is_ambiguous_when_6_6_counts_apart():
    cfg = KOZEL.config(six_six_value=50)
    error = refused(
        "tiles", cfg, outcome="domino", went_out=MASHA, pips={ALEX: 12, OLYA: 1, SERG: 2}
    )
    assert error.params["seat"] == ALEX


def test_went_out_holds_nothing():
    """(rules.md K16) Went out holds nothing."""
    refused("pips", outcome="domino", went_out=MASHA, pips={MASHA: 4, ALEX: 1, OLYA: 1, SERG: 2})
    refused("went_out", outcome="domino", pips={ALEX: 1, OLYA: 1, SERG: 2})
    refused("went_out", outcome="fish", went_out=MASHA, pips={ALEX: 1, OLYA: 1, SERG: 2})


def test_three_players_have_three_accounts():
    cfg = KOZEL.config(players=3)
    result = deal(cfg, outcome="domino", went_out="a2", pips={MASHA: 20, ALEX: 4})
    assert result.points == {MASHA: 20, ALEX: 4, "a2": 0}
    refused("pips", cfg, outcome="domino", went_out="a2", pips={MASHA: 20, ALEX: 4, SERG: 1})
    refused("went_out", cfg, outcome="domino", went_out=SERG, pips={MASHA: 20, ALEX: 4})


def test_quick_points_are_each_players_deal_total():
    """(rules.md K16) Quick points are each player's deal total."""
    result = deal(outcome="domino", went_out=MASHA, points={ALEX: 3, OLYA: 13, SERG: 5})
    assert result.points == {MASHA: 0, ALEX: 3, OLYA: 13, SERG: 5}
    fish = deal(FOR_ONE, outcome="fish", points={MASHA: 2, ALEX: 3, OLYA: 13, SERG: 5})
    assert fish.points == {MASHA: 0, ALEX: 0, OLYA: 23, SERG: 0}
    refused("points", outcome="domino", went_out=MASHA, points={ALEX: 3, OLYA: 13})
    refused(
        f"points_{MASHA}",
        outcome="domino",
        went_out=MASHA,
        points={MASHA: 2, ALEX: 3, OLYA: 1, SERG: 1},
    )


def test_goat_at_101_loses():
    """(rules.md K8) Goat at 101 loses."""
    heavy = [deal(outcome="fish", pips={MASHA: 60, ALEX: 1, OLYA: 20, SERG: 2})] * 2
    totals = KOZEL.party_totals(heavy, [], CFG)
    assert totals.points == {MASHA: 120, ALEX: 0, OLYA: 40, SERG: 0}
    decision = KOZEL.decide(totals, CFG, time_expired=False, deals_after_expiry=0)
    assert decision.finished
    assert decision.loser == MASHA
    assert decision.reason == "target"
    assert decision.winner is None  # Alex and Serg share the fewest points
    under = KOZEL.party_totals(heavy[:1], [], CFG)
    assert KOZEL.decide(under, CFG, time_expired=False, deals_after_expiry=0).state == "continue"


def test_goat_at_is_a_setting_and_highest_over_it_is_the_goat():
    """(rules.md K17) Goat at is a setting and highest over it is the goat."""
    cfg = KOZEL.config(goat_at=50)
    totals = Totals(
        points={MASHA: 55, ALEX: 70, OLYA: 3, SERG: 9},
        deal_points={MASHA: 55, ALEX: 70, OLYA: 3, SERG: 9},
        fine_points={MASHA: 0, ALEX: 0, OLYA: 0, SERG: 0},
    )
    decision = KOZEL.decide(totals, cfg, time_expired=False, deals_after_expiry=0)
    assert (decision.state, decision.loser, decision.winner) == ("finished", ALEX, OLYA)


def test_two_goats_level_play_one_more_deal():
    """(rules.md K17) Two goats level play one more deal."""
    points = {MASHA: 101, ALEX: 101, OLYA: 3, SERG: 9}
    totals = Totals(points=points, deal_points=points, fine_points=dict.fromkeys(points, 0))
    assert KOZEL.decide(totals, CFG, time_expired=False, deals_after_expiry=0).state == "extra_deal"


def test_time_out_of_the_party_finishes_the_deal_then_most_points_is_the_goat():
    points = {MASHA: 40, ALEX: 10, OLYA: 3, SERG: 9}
    totals = Totals(points=points, deal_points=points, fine_points=dict.fromkeys(points, 0))
    assert KOZEL.decide(totals, CFG, time_expired=True, deals_after_expiry=0).state == "last_deal"
    decision = KOZEL.decide(totals, CFG, time_expired=True, deals_after_expiry=1)
    assert (decision.state, decision.loser, decision.winner, decision.reason) == (
        "finished",
        MASHA,
        OLYA,
        "time",
    )


def test_two_pairs_share_the_goat():
    """(rules.md K1) Two pairs share the goat."""
    cfg = KOZEL.config(kozel_pairs=True)
    deals = [deal(cfg, outcome="fish", pips={MASHA: 30, ALEX: 1, OLYA: 30, SERG: 2})] * 2
    totals = KOZEL.party_totals(deals, [], cfg)
    assert totals.pair_points == {"a": 120, "b": 0}
    decision = KOZEL.decide(totals, cfg, time_expired=False, deals_after_expiry=0)
    assert (decision.loser, decision.winner) == ("a", "b")
    with pytest.raises(RuleError) as info:
        RulesConfig(kozel_pairs=True, players=3)
    assert info.value.field == "kozel_pairs"


def test_fine_adds_to_the_offenders_points():
    """(rules.md K18) Fine adds to the offender's points."""
    totals = KOZEL.party_totals([], [FineFact(ALEX, 25, "award"), FineFact(ALEX, 5)], CFG)
    assert totals.points == {MASHA: 0, ALEX: 30, OLYA: 0, SERG: 0}
    assert totals.fine_points[ALEX] == 30


def test_forfeit_gives_every_other_player_the_goat_points():
    """(rules.md K19) Forfeit gives every other player the goat points."""
    assert KOZEL.forfeit(OLYA, CFG) == {MASHA: 101, ALEX: 101, OLYA: 0, SERG: 101}
    cfg = KOZEL.config(kozel_pairs=True)
    assert KOZEL.forfeit("b", cfg) == {MASHA: 101, ALEX: 0, OLYA: 101, SERG: 0}
    with pytest.raises(RuleError):
        KOZEL.forfeit("c1", CFG)


def test_worked_example_rating_after_a_game():
    """(rules.md K9) Worked example rating after a game."""
    assert rating(25) == 8  # (100 - 25) / 10 = 7.5 -> 8
    assert rating(30) == 7
    assert rating(105) == -1  # -0.5, half away from zero
    assert ratings({MASHA: 25, ALEX: 101, OLYA: 0, SERG: 64}) == {
        MASHA: 8,
        ALEX: 0,
        OLYA: 10,
        SERG: 4,
    }
    assert KOZEL.ratings({MASHA: 25}) == {MASHA: 8}


def test_worked_example_rating_after_a_timeout():
    """(rules.md K10) Worked example rating after a timeout."""
    result = ratings({ALEX: 32, MASHA: 30, OLYA: 13}, timed_out=ALEX)
    assert result == {ALEX: 0, MASHA: 1, OLYA: 2}  # 0.2 -> 0 -> at least 1; 1.9 -> 2
    assert ratings({ALEX: 32, MASHA: 40}, timed_out=ALEX) == {ALEX: 0, MASHA: 1}
    with pytest.raises(RuleError) as info:
        ratings({ALEX: 32}, timed_out=SERG)
    assert info.value.field == "timed_out"


def test_redeal_with_five_doubles_or_six_of_a_number():
    """(rules.md K2) The hands seed 000 deals again; a double counts once for its number."""
    doubles = [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (1, 5), (2, 6)]
    assert redeal_reasons(doubles) == ("five_doubles",)
    assert redeal_reasons([(3, 0), (3, 1), (3, 2), (3, 3), (3, 4), (3, 5), (1, 6)]) == (
        "six_of_a_number",
    )
    assert redeal_reasons([(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (0, 6)]) == (
        "five_doubles",
    )
    assert redeal_reasons([(0, 0), (1, 1), (2, 2), (3, 3), (3, 4), (1, 5), (2, 6)]) == ()
    assert redeal_reasons([(3, 0), (3, 1), (3, 2), (3, 3), (3, 4), (1, 6), (2, 6)]) == ()


def test_first_deal_opened_by_the_lowest_double_from_1_1():
    """(rules.md K3) First deal opened by the lowest double from 1-1."""
    hands = {MASHA: [(2, 2), (0, 5)], ALEX: [(1, 1)], OLYA: [(0, 0)], SERG: [(5, 6)]}
    assert first_lead(hands) == (ALEX, (1, 1))
    assert first_lead({MASHA: [(0, 0)], ALEX: [(6, 6)]}) == (ALEX, (6, 6))
    assert first_lead({MASHA: [(0, 0)], ALEX: [(5, 6)]}) == (MASHA, (0, 0))
    assert first_lead({MASHA: [(4, 6)], ALEX: [(5, 6)]}) == (ALEX, (5, 6))


def test_no_points_during_play():
    refused("plays", outcome="domino", went_out=MASHA, pips={ALEX: 3, OLYA: 13, SERG: 5}, plays=[])
