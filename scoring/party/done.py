"""What a service did to a party, handed to the answer of its view or API (``Done``).

A desk action's answer shows the party as the action left it; what the service already read
and made of the party under its lock travels with its result, so the answer does not read or
add it up again, and nothing is kept on the model instance.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Generic, TypeVar

from scoring.models import Deal, Party
from scoring.totals.compute import Evaluated, RecordedDeal, recorded_deals

R = TypeVar("R")


@dataclass(frozen=True)
class Done(Generic[R]):
    """A service's result: the record it made or changed (the party itself for the clock),
    the party as it saved it, and what it read of that party while it still describes it."""

    record: R
    party: Party
    evaluated: Evaluated | None = None
    """The deal and fine rows with the totals made of them (None: read them again)."""
    recorded: list[RecordedDeal] | None = None
    """The deals a deal entry read under its lock, last first (the record is the one added)."""
    locked: bool | None = None
    """Whether the party's protocol is signed, when the service asked (None: not asked)."""

    @cached_property
    def deals(self) -> list[Deal] | None:
        """The party's deals in order as a deal entry read them, with the one it added, as
        model instances (made once, when a page shows them); None for other actions."""
        if self.recorded is None or not isinstance(self.record, Deal):
            return None
        return recorded_deals(self.party, self.recorded, self.record)


def done_of(result: Any) -> Done[Any]:
    """Any service's result as a ``Done``: a ``Done`` itself, a party (the clock's services),
    or a record of a party (a deal, penalty, ruling, the desk notes)."""
    if isinstance(result, Done):
        return result
    if isinstance(result, Party):
        return Done(result, result)
    return Done(result, result.party)
