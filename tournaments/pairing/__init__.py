"""The draw engine: plain Python, no ORM. Takes ranked entrants and history, returns parties.

Systems: Swiss for pairs (:func:`swiss_draw`), round robin by Berger tables
(:func:`round_robin_schedule`, :func:`round_robin_round`), individual events with new pairs
every round (:func:`individual_draw`), tables of players who each play for himself
(:func:`free_for_all_draw`) and hand-made draws (:func:`validate_manual`).
:func:`assign_tables` seats the parties. :func:`get_generator` is the factory the Django
layer uses. Errors the organizer can fix are :class:`DrawUserError`; anything else is a bug.
"""

from .errors import DrawUserError, DrawWarning, _
from .free_for_all import free_for_all_draw
from .generators import (
    GENERATORS,
    DrawGenerator,
    FreeForAllDrawGenerator,
    IndividualDrawGenerator,
    ManualDrawGenerator,
    RoundRobinDrawGenerator,
    SwissDrawGenerator,
    get_generator,
)
from .individual import individual_draw
from .manual import validate_manual, validate_manual_individual
from .round_robin import round_robin_round, round_robin_schedule
from .swiss import swiss_draw
from .tables import assign_tables, fixed_tables, swap_tables
from .types import (
    Bye,
    Draw,
    Entrant,
    IndividualDraw,
    IndividualTable,
    Pairing,
    PlayerEntrant,
)

__all__ = [
    "GENERATORS",
    "Bye",
    "Draw",
    "DrawGenerator",
    "DrawUserError",
    "DrawWarning",
    "Entrant",
    "FreeForAllDrawGenerator",
    "IndividualDraw",
    "IndividualDrawGenerator",
    "IndividualTable",
    "ManualDrawGenerator",
    "Pairing",
    "PlayerEntrant",
    "RoundRobinDrawGenerator",
    "SwissDrawGenerator",
    "_",
    "assign_tables",
    "fixed_tables",
    "free_for_all_draw",
    "get_generator",
    "individual_draw",
    "round_robin_round",
    "round_robin_schedule",
    "swap_tables",
    "swiss_draw",
    "validate_manual",
    "validate_manual_individual",
]
