"""The knockout draw and the groups' draw: seeding, byes, cross-over, snake groups, errors."""

from __future__ import annotations

import pytest

from tournaments.pairing.errors import FieldError
from tournaments.pairing.groups import GroupEntrant, group_names, hand_groups, snake_groups
from tournaments.pairing.knockout import cross_over, seed_bracket, seed_order


def _pairs(openings):
    return [
        (o.a.seed if o.a else None, o.b.seed if o.b else None) for o in openings
    ]


def test_eight_seeds_play_one_v_eight_and_the_top_two_meet_only_in_the_final() -> None:
    openings = seed_bracket([101, 102, 103, 104, 105, 106, 107, 108])
    assert _pairs(openings) == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert openings[0].a.entrant == 101 and openings[0].b.entrant == 108
    # seeds 1 and 2 sit in different halves
    assert seed_order(16)[:8].count(2) == 0 and 1 in seed_order(16)[:8]


def test_six_qualifiers_give_seeds_one_and_two_byes() -> None:
    openings = seed_bracket([1, 2, 3, 4, 5, 6])
    assert _pairs(openings) == [(1, None), (4, 5), (2, None), (3, 6)]
    assert [o.bye for o in openings] == [True, False, True, False]


def test_a_field_of_one_or_a_repeated_entrant_is_refused_on_its_field() -> None:
    with pytest.raises(FieldError) as err:
        seed_bracket([7])
    assert err.value.field == "bracket_size"
    with pytest.raises(FieldError) as err:
        seed_bracket([7, 8, 7])
    assert err.value.field == "qualifiers"


def test_a_bracket_larger_than_the_qualified_field_is_refused() -> None:
    from tournaments.pairing.knockout import check_field

    with pytest.raises(FieldError) as err:
        check_field(8, 6)
    assert err.value.field == "bracket_size"
    assert "larger than the qualified field of 6" in str(err.value)


def test_two_from_four_groups_cross_over() -> None:
    groups = [[11, 12], [21, 22], [31, 32], [41, 42]]  # A, B, C, D best first
    openings = cross_over(groups, 2)
    assert [(o.a.entrant, o.b.entrant) for o in openings] == [
        (11, 22), (31, 42), (21, 12), (41, 32),
    ]
    # A's two are in different halves: they can meet only in the final
    top = {e for o in openings[:2] for e in (o.a.entrant, o.b.entrant)}
    assert 11 in top and 12 not in top


def test_group_winners_alone_are_seeded_in_the_standard_order() -> None:
    openings = cross_over([[1], [2], [3], [4]], 1)
    assert [(o.a.entrant, o.b.entrant) for o in openings] == [(1, 4), (2, 3)]


def test_snake_seeding_into_four_groups() -> None:
    field = [GroupEntrant(i) for i in range(1, 17)]
    groups = snake_groups(field, 4)
    assert groups == [[1, 8, 9, 16], [2, 7, 10, 15], [3, 6, 11, 14], [4, 5, 12, 13]]
    assert group_names(4) == ["A", "B", "C", "D"]


def test_snake_seeding_keeps_two_of_a_club_apart_when_a_swap_can() -> None:
    clubs = ["X", "Y", "Z", "W", "X", "Q", "R", "S"]  # seeds 1 and 5 of club X
    field = [GroupEntrant(i, club) for i, club in enumerate(clubs, start=1)]
    plain = snake_groups(field, 4)
    assert 1 in plain[0] and 8 in plain[0]
    apart = snake_groups(field, 4, avoid_same_club=True)
    for group in apart:
        named = [clubs[i - 1] for i in group]
        assert len(named) == len(set(named))
    assert sorted(i for g in apart for i in g) == list(range(1, 9))


def test_a_group_count_leaving_a_group_of_one_is_refused() -> None:
    with pytest.raises(FieldError) as err:
        snake_groups([GroupEntrant(i) for i in range(7)], 4)
    assert err.value.field == "group_count"
    assert "fewer than two" in str(err.value)


def test_a_split_by_hand_is_kept_and_its_faults_name_the_entrants() -> None:
    names = {1: "Ann / Bob", 2: "Cid / Dan", 3: "Eve / Fay", 4: "Gus / Hal", 5: "Ivy / Jon"}
    field = [1, 2, 3, 4, 5]
    assert hand_groups([[3, 1], [2, 5, 4]], field, names=names) == [[3, 1], [2, 5, 4]]
    faults = {
        "Listed more than once: Eve / Fay.": [[3, 1, 3], [2, 5, 4]],
        "Not in the field that may still play: #9.": [[3, 1], [2, 5, 4, 9]],
        "In no group: Gus / Hal, Ivy / Jon.": [[3, 1], [2]],
        "Each group needs at least two pairs: too few in A, D.": [[1], [2, 3], [4, 5], []],
    }
    for message, split in faults.items():
        with pytest.raises(FieldError) as refused:
            hand_groups(split, field, names=names)
        assert (refused.value.field, str(refused.value)) == ("groups", message)
    with pytest.raises(FieldError) as refused:
        hand_groups([[1, 2], [3, 4, 5]], field, count=3)
    assert str(refused.value) == "2 groups given, but the group count is 3."

