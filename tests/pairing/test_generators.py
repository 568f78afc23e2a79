"""The generator factory: systems, option merging and unknown options."""

from __future__ import annotations

import pytest

from tournaments.pairing import (
    DrawUserError,
    Entrant,
    IndividualDraw,
    Pairing,
    PlayerEntrant,
    get_generator,
    swiss_draw,
)


def field(n):
    return [Entrant(i, i - 1, 0, rating=100 - i) for i in range(1, n + 1)]


def test_swiss_generator_merges_options_with_defaults():
    gen = get_generator("swiss", pairing="fold")
    assert gen.options == {
        "avoid_same_club": False,
        "first_round": "seeding",
        "pairing": "fold",
        "rounds_planned": None,
    }
    draw = gen.generate(field(4), round_number=1)
    assert draw == swiss_draw(field(4), round_number=1, pairing="fold")
    assert draw.parties == [Pairing(1, 4), Pairing(2, 3)]


def test_unknown_system_option_or_value_is_a_bug():
    with pytest.raises(ValueError):
        get_generator("knockout")
    with pytest.raises(ValueError):
        get_generator("swiss", colours=True)
    with pytest.raises(ValueError):
        get_generator("swiss", first_round="alphabet")


def test_round_robin_generator_uses_the_start_list():
    gen = get_generator("round_robin", absent=(4,))
    draw = gen.generate(field(4), round_number=1)
    assert draw.parties == [Pairing(2, 3)] and draw.byes == [1]


def test_individual_generator():
    players = [PlayerEntrant(i, i - 1, 0) for i in range(1, 10)]
    draw = get_generator("individual", first_round="lot").generate(players, round_number=1, seed=5)
    assert isinstance(draw, IndividualDraw) and draw.seed == 5 and len(draw.byes) == 1


def test_manual_generator_validates():
    entrants = [Entrant(1, 1, 0), Entrant(2, 0, 0, opponents=frozenset({1}))]
    draw = get_generator("manual", parties=[(1, 2)]).generate(entrants, round_number=2)
    assert draw.parties == [Pairing(2, 1)]  # the higher-ranked first
    assert len(draw.warnings) == 1
    assert get_generator("manual").generate(entrants, round_number=2).parties == []
    with pytest.raises(DrawUserError):
        get_generator("manual", parties=[(1, 2)], byes=[1]).generate(entrants, round_number=2)
    players = [PlayerEntrant(i, i, 0) for i in range(1, 5)]
    ind = get_generator("manual", individual=True, parties=[((1, 2), (3, 4))])
    assert ind.generate(players, round_number=1).tables[0].pair_a == (1, 2)
