"""Issue #13 item 3, the engine: a forfeit credits the regulations' target by default.

RULES.md 1: the pair present "is credited with the maximum points that the tournament's
regulations provide (a forfeit; default the target, 200 : 0)". A match of games (UDL, All
Fives) is won by ``games_to_win`` games to none.
"""

from __future__ import annotations

import pytest

from scoring.rules import MatchTotals, RuleError, RulesConfig, get_rule_set


@pytest.mark.parametrize(
    ("code", "target"),
    [("sport", 200), ("latin", 200), ("udl", 150), ("allfives", 100), ("draw", 100),
     ("block", 100), ("classic", 100)],
)
def test_default_forfeit_is_each_rule_sets_target(code, target):
    engine = get_rule_set(code)
    cfg = engine.config()
    assert cfg.forfeit_winner_points is None and cfg.target == target
    winner = engine.sides_for(cfg)[0]
    points = engine.forfeit(winner, cfg)
    assert points[winner] == target
    assert sum(points.values()) == target  # every other side 0


def test_forfeit_follows_a_changed_target_and_an_explicit_setting_wins():
    sport = get_rule_set("sport")
    assert sport.forfeit("b", sport.config(target=300)) == {"a": 0, "b": 300}
    explicit = sport.config(target=300, forfeit_winner_points=250, forfeit_loser_points=10)
    assert sport.forfeit("a", explicit) == {"a": 250, "b": 10}
    assert RulesConfig(target=120).forfeit_points() == 120


def test_forfeit_setting_is_checked_when_given():
    with pytest.raises(RuleError) as err:
        RulesConfig(forfeit_winner_points=-1)
    assert err.value.field == "forfeit_winner_points"


def test_udl_forfeit_is_a_match_won_three_games_to_none_at_the_target():
    udl = get_rule_set("udl")
    totals = udl.forfeit_totals("b", udl.config())
    assert isinstance(totals, MatchTotals)
    assert totals.points == {"a": 0, "b": 150}
    assert totals.game_wins == {"a": 0, "b": 3}
    assert [(g.number, g.closed, g.winner) for g in totals.games] == [
        (1, True, "b"), (2, True, "b"), (3, True, "b")]
    assert totals.games[0].points == {"a": 0, "b": 150}
    # the engine's decision agrees: the match is over, won by b
    decision = udl.decide(totals, udl.config(), time_expired=False, deals_after_expiry=0)
    assert (decision.finished, decision.winner) == (True, "b")


def test_all_fives_single_game_forfeit():
    allfives = get_rule_set("allfives")
    totals = allfives.forfeit_totals("a", allfives.config())
    assert (totals.points, totals.game_wins) == ({"a": 100, "b": 0}, {"a": 1, "b": 0})


def test_kozel_forfeit_is_unchanged_goat_at_for_the_absent():
    kozel = get_rule_set("kozel")
    cfg = kozel.config(players=2)
    assert kozel.forfeit_totals("a1", cfg).points == {"a1": 0, "b1": 101}
