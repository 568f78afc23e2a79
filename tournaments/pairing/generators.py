"""Draw generators behind one factory, like Tabbycat's ``DrawGenerator``.

``get_generator(system, **options)`` picks the class for the tournament's system; options are
merged with the class defaults and an unknown option is a ``ValueError`` (a bug, not a user
error). Every generator has ``generate(entrants, *, round_number, seed=None)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from .common import FIRST_ROUND_MODES
from .free_for_all import TABLE_SIZES, free_for_all_draw
from .individual import individual_draw
from .manual import validate_manual, validate_manual_individual
from .round_robin import round_robin_round
from .swiss import PAIRING_METHODS, swiss_draw
from .types import Draw, Entrant, IndividualDraw, IndividualTable, Pairing, PlayerEntrant


class DrawGenerator:
    """Base class: holds the merged options; subclasses implement :meth:`generate`."""

    DEFAULT_OPTIONS: ClassVar[dict[str, Any]] = {}
    CHOICES: ClassVar[dict[str, tuple[object, ...]]] = {}

    def __init__(self, **options: object) -> None:
        unknown = set(options) - set(self.DEFAULT_OPTIONS)
        if unknown:
            raise ValueError(f"unknown draw options for {type(self).__name__}: {sorted(unknown)}")
        self.options = {**self.DEFAULT_OPTIONS, **options}
        for key, allowed in self.CHOICES.items():
            if self.options[key] not in allowed:
                raise ValueError(f"option {key} must be one of {allowed}")

    def generate(
        self, entrants: Sequence[Any], *, round_number: int, seed: int | None = None
    ) -> Draw | IndividualDraw:
        """Return the draw of round ``round_number`` for ``entrants``."""
        raise NotImplementedError


class SwissDrawGenerator(DrawGenerator):
    """Swiss for pairs (:func:`swiss_draw`); ``rounds_planned`` turns on the endgame check."""

    DEFAULT_OPTIONS: ClassVar[dict[str, Any]] = {
        "avoid_same_club": False,
        "first_round": "seeding",
        "pairing": "slide",
        "rounds_planned": None,
    }
    CHOICES: ClassVar[dict[str, tuple[object, ...]]] = {
        "first_round": FIRST_ROUND_MODES,
        "pairing": PAIRING_METHODS,
        "avoid_same_club": (True, False),
    }

    def generate(
        self, entrants: Sequence[Entrant], *, round_number: int, seed: int | None = None
    ) -> Draw:
        """Draw a Swiss round."""
        return swiss_draw(entrants, round_number=round_number, seed=seed, **self.options)


class RoundRobinDrawGenerator(DrawGenerator):
    """Round robin by Berger tables (:func:`round_robin_round`).

    ``entrants`` must be the whole start list in its fixed order, every round; the ids in the
    ``absent`` option (withdrawn entrants) are left out and their opponents get a bye.
    """

    DEFAULT_OPTIONS: ClassVar[dict[str, Any]] = {"cycles": 1, "absent": ()}

    def generate(
        self, entrants: Sequence[Entrant | int], *, round_number: int, seed: int | None = None
    ) -> Draw:
        """Return the round from the fixed schedule."""
        ids = [e if isinstance(e, int) else e.id for e in entrants]
        return round_robin_round(
            ids, round_number, cycles=self.options["cycles"], absent=self.options["absent"]
        )


class IndividualDrawGenerator(DrawGenerator):
    """Individual event: new pairs every round, two pairs per table (:func:`individual_draw`)."""

    DEFAULT_OPTIONS: ClassVar[dict[str, Any]] = {
        "first_round": "seeding",
        "allow_repeat_partners": False,
    }
    CHOICES: ClassVar[dict[str, tuple[object, ...]]] = {
        "first_round": FIRST_ROUND_MODES,
        "allow_repeat_partners": (True, False),
    }

    def generate(
        self, entrants: Sequence[PlayerEntrant], *, round_number: int, seed: int | None = None
    ) -> IndividualDraw:
        """Draw a round of an individual event."""
        return individual_draw(entrants, round_number=round_number, seed=seed, **self.options)


class FreeForAllDrawGenerator(DrawGenerator):
    """Every player for himself: tables of three or four players (:func:`free_for_all_draw`)."""

    DEFAULT_OPTIONS: ClassVar[dict[str, Any]] = {"first_round": "seeding", "table_size": 4}
    CHOICES: ClassVar[dict[str, tuple[object, ...]]] = {
        "first_round": FIRST_ROUND_MODES,
        "table_size": TABLE_SIZES,
    }

    def generate(
        self, entrants: Sequence[PlayerEntrant], *, round_number: int, seed: int | None = None
    ) -> IndividualDraw:
        """Draw a round of tables of players who each play for himself."""
        return free_for_all_draw(entrants, round_number=round_number, seed=seed, **self.options)


class ManualDrawGenerator(DrawGenerator):
    """A draw made by hand: ``generate`` validates the given parties and returns them.

    Options: ``parties`` (pairs of ids, or for ``individual`` pairs of player pairs), ``byes``,
    ``individual`` and ``avoid_same_club``. Without parties it returns an empty draw for the
    organizer to fill in (every entrant unseated).
    """

    DEFAULT_OPTIONS: ClassVar[dict[str, Any]] = {
        "parties": (),
        "byes": (),
        "individual": False,
        "avoid_same_club": False,
    }

    def generate(
        self, entrants: Sequence[Any], *, round_number: int, seed: int | None = None
    ) -> Draw | IndividualDraw:
        """Validate the hand-made draw; raise :class:`DrawUserError` if it cannot be played."""
        parties, byes = list(self.options["parties"]), list(self.options["byes"])
        if not parties and not byes:
            if self.options["individual"]:
                return IndividualDraw(tables=[], byes=[], seed=None, warnings=[])
            return Draw(parties=[], byes=[], seed=None, warnings=[])
        if self.options["individual"]:
            warnings = validate_manual_individual(parties, byes, entrants)
            tables = [IndividualTable(tuple(pa), tuple(pb)) for pa, pb in parties]
            return IndividualDraw(tables=tables, byes=byes, seed=None, warnings=warnings)
        warnings = validate_manual(
            parties, byes, entrants, avoid_same_club=self.options["avoid_same_club"]
        )
        rank = {e.id: e.rank for e in entrants}
        out = [Pairing(a, b) if rank[a] <= rank[b] else Pairing(b, a) for a, b in parties]
        return Draw(parties=out, byes=byes, seed=None, warnings=warnings)


GENERATORS: dict[str, type[DrawGenerator]] = {
    "swiss": SwissDrawGenerator,
    "round_robin": RoundRobinDrawGenerator,
    "individual": IndividualDrawGenerator,
    "free_for_all": FreeForAllDrawGenerator,
    "manual": ManualDrawGenerator,
}


def get_generator(system: str, **options: object) -> DrawGenerator:
    """Return the generator for ``system`` with ``options`` merged into its defaults.

    Raises ``ValueError`` for an unknown system or option.
    """
    try:
        cls = GENERATORS[system]
    except KeyError:
        raise ValueError(f"unknown draw system {system!r}; one of {sorted(GENERATORS)}") from None
    return cls(**options)
