"""A tournament's regulations give the rule engine one frozen snapshot per set of values: the
snapshot follows every change of the regulations, and a bad value is refused every time."""

from dataclasses import fields

import pytest

from scoring.models import Regulations
from scoring.models.regulations import RULES_CONFIG_FIELDS
from scoring.rules import RuleError, RulesConfig


def test_the_snapshot_follows_the_regulations_and_is_shared_while_they_agree():
    regulations = Regulations(target=101, fine_points=25)
    first = regulations.rules_config()
    assert regulations.rules_config() is first  # made once, for every service that asks
    assert Regulations(target=101, fine_points=25).rules_config() is first
    regulations.target = 151  # a change on the instance, saved or not, is seen at once
    changed = regulations.rules_config()
    assert changed.target == 151 and first.target == 101
    assert changed.fine_points == 25


def test_a_bad_value_is_refused_each_time_and_true_is_not_one():
    regulations = Regulations(target=101)
    regulations.rules_config()
    regulations.target = 0
    for _attempt in range(2):
        with pytest.raises(RuleError) as refused:
            regulations.rules_config()
        assert refused.value.field == "target"
    regulations.target = True  # equal to 1 and hashed like it, but not a number of points
    with pytest.raises(RuleError):
        regulations.rules_config()


def test_the_snapshot_takes_every_setting_the_regulations_hold():
    taken = {f.name for f in fields(RulesConfig)}
    assert set(RULES_CONFIG_FIELDS) <= taken
    regulations = Regulations(target=101, kozel_pairs=True, zero_zero_value=25)
    config = regulations.rules_config()
    for name in RULES_CONFIG_FIELDS:
        assert getattr(config, name) == getattr(regulations, name), name
