"""The small arithmetic and entry checks the games of RULES.md sections 2 and 3 share.

Rounding, the lowest and highest hands, the seat nearest after the one who led, and the
checks of whole numbers entered per player or side (:class:`~scoring.rules.hands.HandGame`
and the games read their entries with them).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from scoring.rules.config import DealFacts, is_count
from scoring.rules.errors import RuleError, _


def round_half_up(numerator: int, denominator: int) -> int:
    """``numerator / denominator`` to the nearest whole number, halves away from zero."""
    if denominator <= 0:
        raise ValueError("denominator must be positive")
    magnitude = (2 * abs(numerator) + denominator) // (2 * denominator)
    return -magnitude if numerator < 0 else magnitude


def round_to_five(value: int) -> int:
    """``value`` rounded to the nearest multiple of five (12 → 10, 13 → 15)."""
    return 5 * round_half_up(value, 5)


def lowest(values: Mapping[str, int]) -> list[str]:
    """The keys sharing the smallest value, in the mapping's order."""
    least = min(values.values())
    return [key for key, value in values.items() if value == least]


def highest(values: Mapping[str, int]) -> list[str]:
    """The keys sharing the largest value, in the mapping's order."""
    most = max(values.values())
    return [key for key, value in values.items() if value == most]


def nearest_after(
    led: str, candidates: Collection[str], seats: Sequence[str], side_of: Callable[[str], str]
) -> str:
    """The candidate side met first going round ``seats`` from ``led`` (his own side first)."""
    start = seats.index(led)
    for step in range(len(seats)):
        side = side_of(seats[(start + step) % len(seats)])
        if side in candidates:
            return side
    raise RuleError("led", _("Nobody at the table belongs to the tied sides."))


def read_counts(
    values: object,
    names: Sequence[str],
    field: str,
    *,
    optional: Collection[str] = (),
    limit: int | None = None,
) -> dict[str, int]:
    """Whole numbers of at least 0 keyed by ``names``, checked; ``optional`` ones default to 0."""
    if not isinstance(values, Mapping):
        raise RuleError(field, _("Enter a whole number per player or side."))
    unknown = sorted(str(key) for key in values if key not in names)
    if unknown:
        raise RuleError(field, _("Unknown player or side: %(key)s."), key=", ".join(unknown))
    missing = [name for name in names if name not in values and name not in optional]
    if missing:
        raise RuleError(field, _("Missing for: %(keys)s."), keys=", ".join(missing))
    result = {name: values.get(name, 0) for name in names}
    for name, value in result.items():
        if not is_count(value):
            raise RuleError(
                field,
                _("Enter a whole number of at least 0 for %(key)s, not %(value)s."),
                key=name,
                value=value,
            )
    if limit is not None:
        check_total(result, limit, field)
    return result


def check_total(values: Mapping[str, int], limit: int, field: str) -> None:
    """Refuse values adding up to more than ``limit``, what a deal can be worth."""
    total = sum(values.values())
    if total > limit:
        raise RuleError(
            field,
            _("These add up to %(total)s, more than the %(max)s a deal can be worth."),
            total=total,
            max=limit,
        )


def refuse_given(facts: DealFacts, names: Sequence[str], message: str) -> None:
    """Raise RuleError naming the first of ``names`` entered for a deal that cannot take it."""
    for name in names:
        if getattr(facts, name) is not None:
            raise RuleError(name, message)


def check_game(game: object) -> int:
    """A game's number, checked: games are numbered from 1."""
    if not is_count(game) or game < 1:  # type: ignore[operator]
        raise RuleError("game", _("Games are numbered from 1."))
    return game  # type: ignore[return-value]
