"""Issue #13 item 8: the All Fives open-end count gives a play's score (seed 003's examples)."""

from __future__ import annotations

import pytest

from scoring.rules import RuleError, count_open_ends


def test_seed_example_double_six_on_a_three_six_line_scores_15():
    """(rules.md G3) Seed example double six on a three six line scores 15."""
    count = count_open_ends([3, (6, 6)])  # 3 at one end, the 6-6 across the other
    assert (count.total, count.points) == (15, 15)


def test_seed_example_double_blank_against_a_double_five_scores_10():
    """(rules.md G3) Seed example double blank against a double five scores 10."""
    count = count_open_ends([(5, 5), (0, 0)])
    assert (count.total, count.points) == (10, 10)


def test_the_spinner_gives_four_ends_and_a_sum_off_five_scores_nothing():
    assert count_open_ends([4, 5, 6, 5]).points == 20
    assert count_open_ends([4, 5, 6, 1]).points == 0
    assert count_open_ends([(5, 5)]).points == 10  # a lone first double


@pytest.mark.parametrize("ends", [[], [1, 2, 3, 4, 5], [1, (2, 3)], [7, 1]])
def test_impossible_ends_are_refused(ends):
    with pytest.raises(RuleError) as info:
        count_open_ends(ends)
    assert info.value.field == "ends"
