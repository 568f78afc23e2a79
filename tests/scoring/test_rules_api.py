"""The rule engine's public surface: registry, errors, regulations snapshot, no Django."""

import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest

import scoring.rules as rules
from scoring.rules import RULE_SETS, RuleError, RulesConfig, RuleSet, SportDomino, get_rule_set
from scoring.rules.errors import _

ROOT = Path(__file__).resolve().parents[2]


def test_sport_rule_set_registered():
    rule_set = get_rule_set("sport")
    assert isinstance(rule_set, SportDomino)
    assert isinstance(rule_set, RuleSet)
    assert RULE_SETS["sport"] is rule_set
    assert rule_set.sides == ("a", "b")
    assert rule_set.seats == ("a1", "b1", "a2", "b2")
    assert ("sport", "Sport domino") in rules.rule_set_choices()


def test_unknown_rule_set_refused():
    with pytest.raises(RuleError) as info:
        get_rule_set("mahjong")
    assert info.value.field == "rule_set"
    assert info.value.params == {"code": "mahjong"}


def test_seat_sides_and_partners():
    sport = get_rule_set("sport")
    assert [sport.side_of(seat) for seat in sport.seats] == ["a", "b", "a", "b"]
    assert sport.opponents("a") == ("b",)


def test_rule_error_carries_field_template_and_params():
    err = RuleError("pips", "The pips add up to %(total)s.", total=170)
    assert isinstance(err, ValueError)
    assert err.field == "pips"
    assert err.message == "The pips add up to %(total)s."
    assert err.params == {"total": 170}
    assert str(err) == "The pips add up to 170."
    copy = pickle.loads(pickle.dumps(err))
    assert (copy.field, copy.message, copy.params) == ("pips", err.message, {"total": 170})


def test_translation_marker_is_identity():
    assert _("Sport domino") == "Sport domino"


def test_rules_config_defaults_follow_the_rules():
    cfg = RulesConfig()
    assert (cfg.target, cfg.fine_points, cfg.fine_mode, cfg.drawn_fish) == (
        200,
        25,
        "deduct",
        "nobody",
    )
    assert cfg.domino_counts_partner is True
    assert cfg.max_deal_points == 168
    assert cfg.false_pass_points("a") == 0


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("target", 0),
        ("fine_points", -1),
        ("drawn_fish", "sometimes"),
        ("fine_mode", "shame"),
        ("allow_negative", "yes"),
        ("warnings_before_fine", 1.5),
        ("false_pass_points_a", 169),
    ],
)
def test_rules_config_refuses_bad_settings(field, value):
    with pytest.raises(RuleError) as info:
        RulesConfig(**{field: value})
    assert info.value.field == field


def test_rules_config_from_mapping_ignores_other_settings():
    cfg = RulesConfig.from_mapping({"target": 150, "pairing_system": "swiss"})
    assert cfg == RulesConfig(target=150)


def test_rule_engine_imports_no_django():
    code = (
        "import sys, scoring.rules, scoring.rules.moves;"
        "bad = [m for m in sys.modules if m.split('.')[0] == 'django'];"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
    for path in (ROOT / "scoring" / "rules").glob("*.py"):
        assert not re.search(r"^\s*(from|import)\s+django", path.read_text(), re.M), path
