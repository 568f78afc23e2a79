"""Registering in one step what an organizer enters on one page: a pair with its two players,
or a run of numbered tables. Each goes through ``tournaments.registration.services``."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from scoring.core.errors import ServiceError
from scoring.models import Pair, Player, Table, Tournament
from tournaments.registration.services import add_table, register_pair, register_player

logger = logging.getLogger(__name__)

#: The most tables one request adds.
MOST_TABLES_AT_ONCE = 100


def next_table_number(tournament: Tournament) -> int:
    """The number after the tournament's highest table (1 for the first)."""
    highest = Table.objects.filter(tournament=tournament).aggregate(n=Max("number"))["n"]
    return (highest or 0) + 1


@transaction.atomic
def add_tables(tournament: Tournament, start: int, count: int, label: str = "") -> list[Table]:
    """Number ``count`` tables from ``start`` on; refuse (nothing added) if any number is taken."""
    if not 1 <= count <= MOST_TABLES_AT_ONCE:
        raise ServiceError("count", _("Add from 1 to %(most)s tables at once.")
                           % {"most": MOST_TABLES_AT_ONCE})
    if start < 1:
        raise ServiceError("start", _("Table numbers start at 1."))
    numbers = range(start, start + count)
    taken = list(Table.objects.filter(tournament=tournament, number__in=numbers)
                 .order_by("number").values_list("number", flat=True))
    if taken:
        raise ServiceError("start", _("These tables already exist: %(numbers)s.")
                           % {"numbers": ", ".join(map(str, taken))})
    return [add_table(tournament, number, label) for number in numbers]


@transaction.atomic
def register_pair_with_players(
    tournament: Tournament,
    players: tuple[Player | dict[str, Any], Player | dict[str, Any]],
    *,
    name: str = "",
    fixed_table: Table | None = None,
) -> Pair:
    """Register a pair and, in the same step, those of its players given as their fields.

    Each of ``players`` is a registered player or the fields of a new one; the pair is seeded
    by its players' ratings exactly as the roster import seeds it (``Pair.seeding_rating``).
    A refusal names the field of its player (``player1_name``, ``player2_rating`` …).
    """
    chosen = []
    for number, player in enumerate(players, start=1):
        if isinstance(player, Player):
            chosen.append(player)
            continue
        try:
            chosen.append(register_player(tournament, **player))
        except ServiceError as err:
            raise ServiceError(f"player{number}_{err.field}", err.message) from err
    return register_pair(tournament, chosen[0], chosen[1], name=name, fixed_table=fixed_table)
