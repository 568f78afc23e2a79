"""Manual draws (validated, flagged) and seating at tables."""

from __future__ import annotations

import pickle

import pytest

from tournaments.pairing import (
    DrawUserError,
    DrawWarning,
    Entrant,
    IndividualTable,
    Pairing,
    PlayerEntrant,
    assign_tables,
    fixed_tables,
    swap_tables,
    validate_manual,
    validate_manual_individual,
)

FIELD = [
    Entrant(1, 0, 4, club="Azov", opponents=frozenset({2})),
    Entrant(2, 1, 2, club="Azov", opponents=frozenset({1})),
    Entrant(3, 2, 2, had_bye=1),
    Entrant(4, 3, 0),
    Entrant(5, 4, 0),
]


def test_manual_draw_flags_but_accepts_a_rematch_and_a_second_bye():
    warnings = validate_manual([(1, 2), (4, 5)], [3], FIELD, avoid_same_club=True)
    assert [w.message for w in warnings] == [
        "Rematch: %(a)s against %(b)s.",
        "%(a)s and %(b)s are of the same club (%(club)s).",
        "%(entrant)s gets another bye while others have had fewer.",
    ]
    assert warnings[0] == "Rematch: 1 against 2."


def test_clean_manual_draw_has_no_warnings():
    assert validate_manual([(1, 3), (2, 4)], [5], FIELD) == []


@pytest.mark.parametrize(
    ("parties", "byes", "fragment"),
    [
        ([(1, 3), (3, 4)], [5, 2], "appears twice"),
        ([(1, 3), (2, 4)], [], "missing"),
        ([(1, 3), (2, 4)], [9, 5], "not in this round"),
        ([(1, 1), (2, 4)], [3, 5], "cannot play itself"),
    ],
)
def test_unplayable_manual_draws_are_refused(parties, byes, fragment):
    with pytest.raises(DrawUserError) as err:
        validate_manual(parties, byes, FIELD)
    assert fragment in str(err.value)


def test_a_table_twice_is_refused():
    with pytest.raises(DrawUserError, match="Table 3 is used twice"):
        validate_manual([(1, 3), (2, 4)], [5], FIELD, tables=[3, 3])


def test_manual_individual_flags_repeat_partners_and_opponents():
    """(rules.md S31) Manual individual flags repeat partners and opponents."""
    players = [
        PlayerEntrant(1, 0, 0, partners=frozenset({2}), opponents=frozenset({3})),
        PlayerEntrant(2, 1, 0, partners=frozenset({1})),
        PlayerEntrant(3, 2, 0, opponents=frozenset({1})),
        PlayerEntrant(4, 3, 0),
        PlayerEntrant(5, 4, 0),
    ]
    warnings = validate_manual_individual([((1, 2), (3, 4))], [5], players)
    assert [str(w) for w in warnings] == [
        "Repeat partners: 1 and 2.",
        "Repeat opponents: 1 against 3.",
    ]
    with pytest.raises(DrawUserError):
        validate_manual_individual([((1, 2), (3, 1))], [5, 4], players)


def test_tables_in_standings_order_unless_fixed():
    parties = [Pairing(1, 2), Pairing(3, 4), Pairing(5, 6)]
    assert assign_tables(parties, [1, 2, 3]) == [(1, parties[0]), (2, parties[1]), (3, parties[2])]
    # pair 6 needs table 1 (accessibility): the others move down in order
    seating = assign_tables(parties, [1, 2, 3], {6: 1})
    assert seating == [(1, parties[2]), (2, parties[0]), (3, parties[1])]
    swapped = swap_tables(seating, 2, 3)
    assert swapped == [(1, parties[2]), (2, parties[1]), (3, parties[0])]


def test_tables_for_individual_events_and_fixed_table_lookup():
    tables = [IndividualTable((1, 4), (2, 3)), IndividualTable((5, 8), (6, 7))]
    players = [PlayerEntrant(7, 6, 0, fixed_table=11)]
    assert fixed_tables(players) == {7: 11}
    assert assign_tables(tables, [10, 11], fixed_tables(players)) == [
        (10, tables[0]),
        (11, tables[1]),
    ]


def test_table_errors_are_user_errors():
    parties = [Pairing(1, 2), Pairing(3, 4)]
    with pytest.raises(DrawUserError):
        assign_tables(parties, [1])
    with pytest.raises(DrawUserError):
        assign_tables(parties, [1, 2], {1: 2, 3: 2})
    with pytest.raises(DrawUserError):
        assign_tables(parties, [1, 2], {1: 7})
    with pytest.raises(DrawUserError):
        swap_tables(assign_tables(parties, [1, 2]), 1, 5)


def test_error_and_warning_keep_their_templates():
    err = DrawUserError("Table %(table)s is used twice.", table=4)
    assert (err.message, err.params, str(err)) == (
        "Table %(table)s is used twice.",
        {"table": 4},
        "Table 4 is used twice.",
    )
    warning = DrawWarning("Rematch: %(a)s against %(b)s.", a=1, b=2)
    assert isinstance(warning, str) and warning == "Rematch: 1 against 2."
    copy = pickle.loads(pickle.dumps(warning))
    assert copy.message == warning.message and copy.params == {"a": 1, "b": 2}
    assert str(DrawUserError("No percent here")) == "No percent here"
