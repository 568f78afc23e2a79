"""The game settings the rule sets declare, and their one validation (plain Python)."""

from __future__ import annotations

from dataclasses import fields

import pytest

from scoring.rules import RULE_SETS, RuleError, RulesConfig, get_rule_set
from scoring.rules.game_settings import (
    BOOL,
    CHOICE,
    DECLARATIONS,
    KINDS,
    SETTING_NAMES,
    default_game_settings,
    validate_game_settings,
)


def test_every_setting_a_rule_set_declares_is_one_of_the_catalogue():
    declared = {setting for rule_set in RULE_SETS.values() for setting in rule_set.settings}
    assert declared == set(DECLARATIONS)  # each one some game's, none left over


def test_the_settings_are_the_rule_engines_input_in_its_order_and_defaults():
    config = {f.name: f.default for f in fields(RulesConfig)}
    assert list(SETTING_NAMES) == [name for name in config if name in SETTING_NAMES]
    assert default_game_settings() == {name: config[name] for name in SETTING_NAMES}


@pytest.mark.parametrize("setting", DECLARATIONS, ids=SETTING_NAMES)
def test_a_declaration_is_complete(setting):
    assert setting.kind in KINDS
    assert setting.label and setting.label == setting.label.strip()
    assert setting.check(setting.default) == setting.default
    if setting.kind == CHOICE:
        assert setting.default in setting.values and len(setting.values) >= 2
    elif setting.kind == BOOL:
        assert setting.default is False
    else:
        assert setting.maximum is not None and setting.minimum <= setting.default


def test_each_rule_set_names_its_settings_in_order():
    assert get_rule_set("sport").setting_names == ()
    assert get_rule_set("kozel").setting_names == (
        "players", "tiles_per_hand", "fish_variant", "zero_zero_value", "six_six_value",
        "goat_at", "memorize_limit", "kozel_pairs")
    assert get_rule_set("udl").setting_names[-2:] == ("match_format", "udl_slow_play_points")


def test_validation_fills_in_the_defaults_in_order():
    cleaned = validate_game_settings(get_rule_set("kozel"), {"goat_at": 51, "kozel_pairs": True})
    assert list(cleaned) == list(SETTING_NAMES)
    assert cleaned == {**default_game_settings(), "goat_at": 51, "kozel_pairs": True}


def test_another_games_setting_keeps_the_value_its_preset_gave():
    udl = get_rule_set("udl")
    assert "players" not in udl.setting_names
    assert validate_game_settings(udl, {"players": 2})["players"] == 2


@pytest.mark.parametrize(("data", "field", "message"), [
    ({"goat_at": 0}, "goat_at", "at least 1"),
    ({"players": 5}, "players", "at most 4"),
    ({"tiles_per_hand": -1}, "tiles_per_hand", "at least 0"),
    ({"games_to_win": True}, "games_to_win", "whole number"),
    ({"game_minutes": "15"}, "game_minutes", "whole number"),
    ({"kozel_pairs": 1}, "kozel_pairs", "yes or no"),
    ({"match_format": "best_of_five"}, "match_format", "to_wins, best_of_three"),
    ({"fish_variant": None}, "fish_variant", "for_all, for_one"),
    ({"slow_play_points": 20}, "slow_play_points", "Not a game setting"),
])
def test_a_bad_value_is_refused_naming_its_setting(data, field, message):
    with pytest.raises(RuleError) as refused:
        validate_game_settings(get_rule_set("kozel"), data)
    assert refused.value.field == field
    assert message in str(refused.value)


def test_settings_that_are_not_a_mapping_are_refused():
    with pytest.raises(RuleError) as refused:
        validate_game_settings(None, [("goat_at", 101)])
    assert refused.value.field == "game_settings"


def test_a_choice_shows_its_label():
    (match_format,) = (s for s in DECLARATIONS if s.name == "match_format")
    assert match_format.choice_label("best_of_three").startswith("Best of three")
