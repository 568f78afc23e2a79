"""The rule sets of RULES.md sections 2 and 3 in the registry, their settings and presets."""

from dataclasses import asdict

import pytest

import scoring.rules as rules
from scoring.rules import DealFacts, DealScore, FineFact, RuleError, RulesConfig, get_rule_set

CODES = ("udl", "allfives", "draw", "block", "classic", "latin", "kozel")


@pytest.mark.parametrize("code", CODES)
def test_every_rule_set_registered_with_a_preset(code):
    rule_set = get_rule_set(code)
    assert rule_set.code == code
    assert (code, rule_set.name) in rules.rule_set_choices()
    cfg = rule_set.config()
    assert isinstance(cfg, RulesConfig)
    assert asdict(cfg).items() >= dict(rule_set.preset).items()
    assert rule_set.config(target=350).target == 350  # every value stays editable


def test_sport_keeps_its_sides_and_defaults():
    sport = get_rule_set("sport")
    assert sport.sides_for(RulesConfig()) == ("a", "b")
    assert sport.config() == RulesConfig()
    assert sport.hand_size(RulesConfig()) == 7


def test_new_settings_default_values():
    cfg = RulesConfig()
    assert (cfg.players, cfg.tiles_per_hand, cfg.game_minutes, cfg.games_to_win) == (4, 0, 15, 1)
    assert (cfg.udl_slow_play_points, cfg.fish_variant) == (20, "for_all")
    assert (cfg.zero_zero_value, cfg.six_six_value) == (10, 12)
    assert (cfg.goat_at, cfg.memorize_limit, cfg.kozel_pairs) == (101, 12, False)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("players", 1),
        ("players", 5),
        ("tiles_per_hand", 10),
        ("tiles_per_hand", -1),
        ("game_minutes", 0),
        ("games_to_win", 0),
        ("udl_slow_play_points", -20),
        ("fish_variant", "for_some"),
        ("zero_zero_value", -10),
        ("six_six_value", "50"),
        ("goat_at", 0),
        ("memorize_limit", -1),
        ("kozel_pairs", 1),
    ],
)
def test_new_settings_refuse_bad_values(field, value):
    with pytest.raises(RuleError) as info:
        RulesConfig(**{field: value})
    assert info.value.field == field


def test_tiles_per_hand_must_fit_the_set():
    assert RulesConfig(players=4, tiles_per_hand=7).tiles_per_hand == 7
    with pytest.raises(RuleError) as info:
        RulesConfig(players=4, tiles_per_hand=8)
    assert info.value.field == "tiles_per_hand"


def test_from_mapping_takes_the_new_settings():
    cfg = RulesConfig.from_mapping({"fish_variant": "for_one", "goat_at": 150, "other": 1})
    assert (cfg.fish_variant, cfg.goat_at) == ("for_one", 150)


def test_new_fields_default_so_old_callers_work():
    assert DealFacts("domino").led is None
    assert DealFacts("domino").plays is None
    assert DealFacts("domino").tiles is None
    assert DealFacts("domino").game == 1
    assert DealScore("domino", "a", {"a": 1, "b": 0}).game == 1
    assert DealScore("domino", "a", {"a": 1, "b": 0}).play_points is None
    assert FineFact("a", 25).game == 1
    assert rules.PartyDecision("finished", "a").loser is None


@pytest.mark.parametrize("code", CODES)
def test_annulled_deal_scores_nothing(code):
    rule_set = get_rule_set(code)
    cfg = rule_set.config()
    result = rule_set.score_deal(DealFacts("annulled"), cfg)
    assert result.outcome == "annulled"
    assert set(result.points.values()) == {0}
    assert tuple(result.points) == rule_set.sides_for(cfg)


@pytest.mark.parametrize("code", CODES)
def test_unknown_outcome_refused(code):
    rule_set = get_rule_set(code)
    with pytest.raises(RuleError) as info:
        rule_set.score_deal(DealFacts("resigned"), rule_set.config())
    assert info.value.field == "outcome"


@pytest.mark.parametrize("code", CODES)
def test_referee_gives_the_points(code):
    rule_set = get_rule_set(code)
    cfg = rule_set.config()
    side = rule_set.sides_for(cfg)[0]
    result = rule_set.score_deal(DealFacts("referee", points={side: 10}), cfg)
    assert result.outcome == "referee"
    assert result.points[side] == 10
