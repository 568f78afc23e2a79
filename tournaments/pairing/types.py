"""Plain data the draw engine takes and returns (frozen dataclasses, no ORM)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Entrant:
    """One entrant of a pairs event (a pair), as the draw sees it.

    ``rank`` is the position in the current standings (0 = best); ``score`` the match points;
    ``rating`` the seeding strength used by a seeded first round; ``had_bye`` how many byes the
    entrant has had; ``opponents`` the ids of every entrant it has already met.
    """

    id: int
    rank: int
    score: float
    rating: float = 0
    club: str = ""
    had_bye: int = 0
    opponents: frozenset[int] = frozenset()
    fixed_table: int | None = None


@dataclass(frozen=True)
class Pairing:
    """One party of a draw: entrant ``a`` against entrant ``b`` (a generated draw puts the
    higher-ranked on side ``a``; a draw made by hand keeps the sides as sent)."""

    a: int
    b: int

    @property
    def entrants(self) -> tuple[int, int]:
        """Both entrant ids, ``a`` first."""
        return (self.a, self.b)


@dataclass(frozen=True)
class Bye:
    """A bye in a round-robin schedule: ``entrant`` does not play that round."""

    entrant: int


@dataclass(frozen=True)
class Draw:
    """A round's draw for a pairs event.

    ``parties`` are in standings order (the top party first), ``byes`` the entrants without a
    party, ``seed`` the random seed a draw by lot used (``None`` if nothing was random) and
    ``warnings`` what the organizer should look at (``DrawWarning`` strings).
    """

    parties: list[Pairing]
    byes: list[int]
    seed: int | None = None
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class PlayerEntrant:
    """One player of an individual event, as the draw sees it."""

    id: int
    rank: int
    score: float
    rating: float = 0
    club: str = ""
    had_bye: int = 0
    partners: frozenset[int] = frozenset()
    opponents: frozenset[int] = frozenset()
    fixed_table: int | None = None


@dataclass(frozen=True)
class IndividualTable:
    """One table of an individual event: two pairs of players formed for this round.

    ``pair_a`` holds the best-ranked player of the table; inside each pair the better-ranked
    player comes first. Where every player plays for himself the pairs are seat groups
    (a1 + a2 against b1 + b2), and a table of three has one player in ``pair_b``.
    """

    pair_a: tuple[int, ...]
    pair_b: tuple[int, ...]

    @property
    def entrants(self) -> tuple[int, ...]:
        """The player ids, ``pair_a`` first."""
        return (*self.pair_a, *self.pair_b)


@dataclass(frozen=True)
class IndividualDraw:
    """A round's draw for an individual event: tables in standings order, byes, seed, warnings."""

    tables: list[IndividualTable]
    byes: list[int]
    seed: int | None = None
    warnings: list[str] = field(default_factory=list)
