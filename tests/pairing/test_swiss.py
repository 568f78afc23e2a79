"""Swiss draw for pairs: examples and properties checked against brute force."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.pairing import DrawUserError, Entrant, Pairing, swiss_draw

from .helpers import best_possible, check_draw_shape, simulate_results


def field(scores, **extra):
    """Entrants 1..n ranked in the given order with the given scores."""
    return [
        Entrant(id=i + 1, rank=i, score=s, **{k: v[i] for k, v in extra.items()})
        for i, s in enumerate(scores)
    ]


def pairs_of(draw):
    return {frozenset((p.a, p.b)) for p in draw.parties}


# -- examples -----------------------------------------------------------------------------


def test_first_round_by_seeding_slides_top_half_against_bottom_half():
    entrants = [
        Entrant(id=10 + i, rank=0, score=0, rating=r)
        for i, r in enumerate([1500, 1900, 1700, 1600, 1800, 1400, 1300, 2000])
    ]
    draw = swiss_draw(entrants, round_number=1)
    # by rating: 17(2000) 11(1900) 14(1800) 12(1700) | 13(1600) 10(1500) 15(1400) 16(1300)
    assert draw.parties == [Pairing(17, 13), Pairing(11, 10), Pairing(14, 15), Pairing(12, 16)]
    assert draw.byes == [] and draw.seed is None and draw.warnings == []


def test_fold_and_adjacent_methods():
    entrants = field([0] * 6)
    fold = swiss_draw(entrants, round_number=2, pairing="fold")
    assert fold.parties == [Pairing(1, 6), Pairing(2, 5), Pairing(3, 4)]
    adjacent = swiss_draw(entrants, round_number=2, pairing="adjacent")
    assert adjacent.parties == [Pairing(1, 2), Pairing(3, 4), Pairing(5, 6)]
    with pytest.raises(ValueError):
        swiss_draw(entrants, round_number=2, pairing="random")


def test_score_groups_pair_within_themselves():
    draw = swiss_draw(field([4, 4, 2, 2, 2, 2, 0, 0]), round_number=3)
    assert draw.parties == [Pairing(1, 2), Pairing(3, 5), Pairing(4, 6), Pairing(7, 8)]


def test_odd_group_floats_its_lowest_member_to_the_nearest_group():
    draw = swiss_draw(field([4, 4, 4, 2, 2, 2]), round_number=3)
    # group of 4 points: 1 v 2 (slide of [1, 2]), 3 floats and meets the top of the 2s
    assert draw.parties == [Pairing(1, 2), Pairing(3, 4), Pairing(5, 6)]


def test_rematch_is_avoided_by_the_next_choice_in_the_group():
    opp = [frozenset({3}), frozenset(), frozenset({1}), frozenset()]
    draw = swiss_draw(field([2, 2, 2, 2], opponents=opp), round_number=2)
    assert draw.parties == [Pairing(1, 4), Pairing(2, 3)]


def test_rematch_avoidance_crosses_score_groups_when_needed():
    # 1 and 2 lead alone but already met: each meets the best of the group below
    opp = [frozenset({2}), frozenset({1}), frozenset(), frozenset()]
    draw = swiss_draw(field([4, 4, 2, 2], opponents=opp), round_number=3)
    assert draw.parties == [Pairing(1, 3), Pairing(2, 4)]
    assert draw.warnings == []


def test_exact_fallback_when_the_brackets_get_stuck():
    # the top bracket pairs 1-3 and 2-4 on its own, leaving 5 and 6 who already met:
    # the fallback must re-pair so that 5 and 6 each meet one of the top four
    opp = [frozenset(), frozenset(), frozenset(), frozenset(), frozenset({6}), frozenset({5})]
    draw = swiss_draw(field([2, 2, 2, 2, 0, 0], opponents=opp), round_number=2)
    assert draw.warnings == []
    assert frozenset({5, 6}) not in pairs_of(draw)
    assert sum(1 for p in draw.parties if p.b <= 4) == 1


def test_rematch_only_when_no_other_draw_exists_and_it_is_reported():
    # four entrants who have all met: a rematch is unavoidable
    """(rules.md S32) Rematch only when no other draw exists and it is reported."""
    opp = [frozenset({1, 2, 3, 4} - {i}) for i in range(1, 5)]
    draw = swiss_draw(field([2, 2, 2, 0], opponents=opp), round_number=4)
    assert len(draw.parties) == 2
    assert len(draw.warnings) == 2
    assert all(w.message.startswith("Rematch") for w in draw.warnings)


def test_bye_goes_to_lowest_ranked_without_a_bye():
    draw = swiss_draw(field([4, 2, 2, 0, 0], had_bye=[0, 0, 0, 0, 1]), round_number=3)
    assert draw.byes == [4]
    draw = swiss_draw(field([4, 2, 2, 0, 0], had_bye=[1, 1, 1, 1, 1]), round_number=3)
    assert draw.byes == [5]


def test_bye_moves_up_when_the_lowest_would_force_a_rematch():
    # without 5, entrant 4 (who met 1, 2 and 3) could only get a rematch: 4 sits out instead
    opp = [frozenset({4}), frozenset({4}), frozenset({4}), frozenset({1, 2, 3}), frozenset()]
    draw = swiss_draw(field([2, 2, 2, 2, 0], opponents=opp), round_number=4)
    assert draw.byes == [4]
    assert len(draw.parties) == 2
    assert draw.warnings == []


def test_same_club_kept_apart_within_the_group():
    clubs = ["Azov", "Don", "Azov", "Don"]
    plain = swiss_draw(field([2, 2, 2, 2], club=clubs), round_number=2)
    assert plain.parties == [Pairing(1, 3), Pairing(2, 4)]  # clubs ignored unless asked
    draw = swiss_draw(field([2, 2, 2, 2], club=clubs), round_number=2, avoid_same_club=True)
    assert draw.parties == [Pairing(1, 4), Pairing(2, 3)]
    assert draw.warnings == []


def test_same_club_kept_apart_across_groups():
    draw = swiss_draw(
        field([2, 2, 0, 0], club=["Azov", "Azov", "", ""]), round_number=2, avoid_same_club=True
    )
    assert draw.parties == [Pairing(1, 3), Pairing(2, 4)]


def test_same_club_never_costs_a_rematch():
    opp = [frozenset({2, 4}), frozenset({1}), frozenset(), frozenset({1})]
    entrants = field([2, 2, 2, 2], club=["Azov", "", "Azov", ""], opponents=opp)
    draw = swiss_draw(entrants, round_number=3, avoid_same_club=True)
    assert draw.parties == [Pairing(1, 3), Pairing(2, 4)]
    assert len(draw.warnings) == 1 and "same club" in draw.warnings[0]


def test_lot_is_reproducible_and_recorded():
    entrants = field([0] * 12)
    first = swiss_draw(entrants, round_number=1, first_round="lot")
    assert first.seed is not None
    again = swiss_draw(list(reversed(entrants)), round_number=1, first_round="lot", seed=first.seed)
    assert again == first
    others = {
        tuple(swiss_draw(entrants, round_number=1, first_round="lot", seed=s).parties)
        for s in range(10)
    }
    assert len(others) > 1


def test_too_few_entrants_is_a_user_error():
    with pytest.raises(DrawUserError) as err:
        swiss_draw(field([0]), round_number=1)
    assert err.value.params == {"needed": 2, "count": 1}
    assert str(err.value) == "At least 2 entrants are needed for a draw; 1 are available."


def test_duplicate_ids_are_a_bug():
    with pytest.raises(ValueError):
        swiss_draw([Entrant(1, 0, 0), Entrant(1, 1, 0)], round_number=1)


def test_parties_in_standings_order_with_higher_ranked_first():
    entrants = field([2, 2, 0, 0, 2, 0])  # ranks follow the list, scores do not
    draw = swiss_draw(entrants, round_number=2)
    # order by score then rank: 1 2 5 | 3 4 6 -> slide [1,2,5]: 5 floats
    assert draw.parties == [Pairing(1, 2), Pairing(5, 3), Pairing(4, 6)]


# -- properties -----------------------------------------------------------------------------


@st.composite
def random_situations(draw, max_n=10):
    """A field of up to ``max_n`` entrants with an arbitrary (adversarial) history."""
    n = draw(st.integers(2, max_n))
    ids = draw(st.lists(st.integers(1, 999), min_size=n, max_size=n, unique=True))
    played = draw(st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))))
    opp = {i: set() for i in ids}
    for x, y in played:
        if x != y:
            opp[ids[x]].add(ids[y])
            opp[ids[y]].add(ids[x])
    scores = draw(st.lists(st.sampled_from([0, 2, 4, 6]), min_size=n, max_size=n))
    byes = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    clubs = draw(st.lists(st.sampled_from(["", "A", "B"]), min_size=n, max_size=n))
    order = sorted(range(n), key=lambda i: -scores[i])
    return [
        Entrant(
            ids[i],
            rank=order.index(i),
            score=scores[i],
            had_bye=byes[i],
            club=clubs[i],
            opponents=frozenset(opp[ids[i]]),
        )
        for i in range(n)
    ]


FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(random_situations(), st.sampled_from(["slide", "fold", "adjacent"]))
def test_fewest_rematches_possible_brute_force(entrants, method):
    draw = swiss_draw(entrants, round_number=5, pairing=method)
    check_draw_shape(draw, entrants)
    opp = {e.id: e.opponents for e in entrants}
    rematches = sum(1 for p in draw.parties if p.b in opp[p.a])
    assert rematches == best_possible(entrants, lambda a, b: b in opp[a])
    assert len([w for w in draw.warnings if w.message.startswith("Rematch")]) == rematches


@FAST
@given(random_situations())
def test_clubs_apart_whenever_that_costs_no_rematch_brute_force(entrants):
    draw = swiss_draw(entrants, round_number=5, avoid_same_club=True)
    check_draw_shape(draw, entrants)
    by = {e.id: e for e in entrants}

    def rematch(a, b):
        return b in by[a].opponents

    def conflict(a, b):
        return rematch(a, b) or (by[a].club != "" and by[a].club == by[b].club)

    rematches = sum(1 for p in draw.parties if rematch(p.a, p.b))
    assert rematches == best_possible(entrants, rematch)
    if best_possible(entrants, conflict) == 0:
        assert not any(conflict(p.a, p.b) for p in draw.parties)


@FAST
@given(random_situations(max_n=40), st.integers(0, 2**31))
def test_same_input_same_draw(entrants, seed):
    shuffled = list(entrants)
    random.Random(seed).shuffle(shuffled)
    for rnd in (1, 4):
        one = swiss_draw(entrants, round_number=rnd, first_round="lot", seed=seed)
        two = swiss_draw(shuffled, round_number=rnd, first_round="lot", seed=seed)
        assert one == two
        check_draw_shape(one, entrants)
        rank = {e.id: (-e.score, e.rank) if rnd > 1 else None for e in entrants}
        if rnd > 1:
            assert all(rank[p.a] < rank[p.b] for p in one.parties)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 12), st.integers(0, 2**31), st.booleans())
def test_whole_tournaments_never_rematch_when_avoidable(n, seed, lot):
    """Simulate every round a field of n can play; check each draw against brute force."""
    rng = random.Random(seed)
    strength = {i: rng.gauss(0, 0.5) for i in range(1, n + 1)}
    score = dict.fromkeys(strength, 0)
    opp = {i: set() for i in strength}
    byes = dict.fromkeys(strength, 0)
    for rnd in range(1, n + (n % 2)):
        order = sorted(strength, key=lambda i: (-score[i], -strength[i]))
        entrants = [
            Entrant(
                i,
                rank=k,
                score=score[i],
                rating=strength[i],
                had_bye=byes[i],
                opponents=frozenset(opp[i]),
            )
            for k, i in enumerate(order)
        ]
        draw = swiss_draw(
            entrants, round_number=rnd, first_round="lot" if lot else "seeding", seed=seed
        )
        check_draw_shape(draw, entrants)
        rematches = sum(1 for p in draw.parties if p.b in opp[p.a])
        assert rematches == best_possible(entrants, lambda a, b: b in opp[a])
        for p in draw.parties:
            opp[p.a].add(p.b)
            opp[p.b].add(p.a)
        for b in draw.byes:
            byes[b] += 1
        # the bye never goes twice to the same entrant while another has none
        assert max(byes.values()) - min(byes.values()) <= 1
        for e, pts in simulate_results(draw, strength, rng).items():
            score[e] += pts


def test_large_field_stays_rematch_free():
    """1,000 pairs over 11 rounds, no rematch; the speed is the benchmark's
    (``draw_swiss_1000_engine_s`` in ``bench/bench_engine.py``), not a timed test's."""
    rng = random.Random(7)
    n = 1000
    strength = {i: rng.gauss(0, 1) for i in range(1, n + 1)}
    score = dict.fromkeys(strength, 0)
    opp = {i: set() for i in strength}
    for rnd in range(1, 12):
        order = sorted(strength, key=lambda i: (-score[i], -strength[i]))
        entrants = [
            Entrant(i, k, score[i], rating=strength[i], opponents=frozenset(opp[i]))
            for k, i in enumerate(order)
        ]
        draw = swiss_draw(entrants, round_number=rnd)
        assert not any(p.b in opp[p.a] for p in draw.parties)
        for p in draw.parties:
            opp[p.a].add(p.b)
            opp[p.b].add(p.a)
        for e, pts in simulate_results(draw, strength, rng).items():
            score[e] += pts
