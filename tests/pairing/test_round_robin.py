"""Round robin by Berger tables."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tournaments.pairing import Bye, DrawUserError, Pairing, round_robin_round, round_robin_schedule


@pytest.mark.parametrize("n", range(4, 17))
def test_everyone_meets_everyone_exactly_once(n):
    ids = [100 + 7 * i for i in range(n)]
    schedule = round_robin_schedule(ids)
    assert len(schedule) == n - 1 + n % 2
    met = Counter()
    bye_count = Counter()
    for rnd in schedule:
        seen = []
        for item in rnd:
            if isinstance(item, Bye):
                bye_count[item.entrant] += 1
                seen.append(item.entrant)
            else:
                assert ids.index(item.a) < ids.index(item.b)  # earlier in the start list first
                met[frozenset((item.a, item.b))] += 1
                seen += [item.a, item.b]
        assert sorted(seen) == sorted(ids)
    assert set(met) == {frozenset(p) for p in combinations(ids, 2)}
    assert set(met.values()) == {1}
    if n % 2:
        assert bye_count == Counter(dict.fromkeys(ids, 1))
    else:
        assert not bye_count


def test_fide_berger_table_for_six():
    schedule = round_robin_schedule([1, 2, 3, 4, 5, 6])
    as_text = [[(p.a, p.b) for p in rnd] for rnd in schedule]
    assert as_text == [
        [(1, 6), (2, 5), (3, 4)],
        [(4, 6), (3, 5), (1, 2)],
        [(2, 6), (1, 3), (4, 5)],
        [(5, 6), (1, 4), (2, 3)],
        [(3, 6), (2, 4), (1, 5)],
    ]


def test_round_from_the_fixed_schedule_and_withdrawals():
    ids = [1, 2, 3, 4, 5]
    draw = round_robin_round(ids, 2)
    assert draw.parties == [Pairing(3, 5), Pairing(1, 2)] and draw.byes == [4]
    # 5 withdrew: its opponent gets a bye; the rest of the schedule does not change
    draw = round_robin_round(ids, 2, absent={5})
    assert draw.parties == [Pairing(1, 2)] and sorted(draw.byes) == [3, 4]


def test_double_round_robin_and_limits():
    assert len(round_robin_schedule([1, 2, 3, 4], cycles=2)) == 6
    with pytest.raises(DrawUserError) as err:
        round_robin_round([1, 2, 3, 4], 4)
    assert err.value.params == {"rounds": 3, "round": 4}
    with pytest.raises(DrawUserError):
        round_robin_schedule([1])
    with pytest.raises(ValueError):
        round_robin_schedule([1, 1, 2])
