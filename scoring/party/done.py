"""What a service did to a party, handed to the answer of its view or API (``Done``).

A desk action's answer shows the party as the action left it; what the service already read
and made of the party under its lock travels with its result, so the answer does not read or
add it up again, and nothing is kept on the model instance.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from scoring.models import Deal, Party
from scoring.totals.compute import Evaluated

R = TypeVar("R")


@dataclass(frozen=True)
class Done(Generic[R]):
    """A service's result: the record it made or changed (the party itself for the clock),
    the party as it saved it, and what it read of that party while it still describes it."""

    record: R
    party: Party
    evaluated: Evaluated | None = None
    """The deal and fine rows with the totals made of them (None: read them again)."""
    deals: list[Deal] | None = None
    """The party's deals in order, as a deal entry read them, with the one it added."""
    locked: bool | None = None
    """Whether the party's protocol is signed, when the service asked (None: not asked)."""


def done_of(result: Any) -> Done[Any]:
    """Any service's result as a ``Done``: a ``Done`` itself, a party (the clock's services),
    or a record of a party (a deal, penalty, ruling, the desk notes)."""
    if isinstance(result, Done):
        return result
    if isinstance(result, Party):
        return Done(result, result)
    return Done(result, result.party)
