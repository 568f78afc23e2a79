"""Round robin by Berger tables, fixed at the start of the event.

With ``n`` entrants (one "nobody" added when ``n`` is odd; whoever meets nobody has the bye)
there are ``n - 1`` rounds. The last entrant of the start list is the fixed one; in round
``r`` (0-based) the pivot ``p = r * n/2 mod (n - 1)`` meets the fixed entrant and the others
meet ``p + i`` against ``p - i`` (mod ``n - 1``), which reproduces the FIDE Berger tables
(6 entrants: 1–6 2–5 3–4 / 6–4 5–3 1–2 / 2–6 3–1 4–5 / ...). Parties are listed in the table
order of the Berger tables; in a ``Pairing`` the entrant earlier in the start list is ``a``.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .errors import DrawUserError, _
from .types import Bye, Draw, Pairing


def round_robin_schedule(entrant_ids: Sequence[int], cycles: int = 1) -> list[list[Pairing | Bye]]:
    """Return every round of the event: a list of parties (and a ``Bye`` when odd) per round.

    ``entrant_ids`` is the start list (its order fixes the schedule, so pass the same order
    every round). ``cycles=2`` plays the whole round robin twice.
    """
    ids = list(entrant_ids)
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate entrant ids passed to the draw engine")
    if len(ids) < 2:
        raise DrawUserError(
            _("At least %(needed)d entrants are needed for a draw; %(count)d are available."),
            needed=2,
            count=len(ids),
        )
    if cycles < 1:
        raise ValueError("cycles must be at least 1")
    slots: list[int | None] = [*ids, None] if len(ids) % 2 else list(ids)
    n = len(slots)
    m = n - 1
    index = {e: i for i, e in enumerate(ids)}
    rounds: list[list[Pairing | Bye]] = []
    for r in range(m):
        pivot = (r * (n // 2)) % m
        games = [(slots[pivot], slots[m])]
        games += [(slots[(pivot + i) % m], slots[(pivot - i) % m]) for i in range(1, n // 2)]
        out: list[Pairing | Bye] = []
        byes: list[Bye] = []
        for x, y in games:
            if x is None or y is None:
                byes.extend(Bye(e) for e in (x, y) if e is not None)
            elif index[x] < index[y]:
                out.append(Pairing(x, y))
            else:
                out.append(Pairing(y, x))
        rounds.append([*out, *byes])
    return [list(rnd) for _cycle in range(cycles) for rnd in rounds]


def round_robin_round(
    entrant_ids: Sequence[int],
    round_number: int,
    *,
    cycles: int = 1,
    absent: Collection[int] = (),
) -> Draw:
    """Return round ``round_number`` (1-based) of the Berger schedule as a :class:`Draw`.

    ``entrant_ids`` is the full start list, withdrawn entrants included, so the schedule never
    changes; entrants in ``absent`` (withdrawn) are left out of the round and their opponent
    has a bye instead. Raises :class:`DrawUserError` past the last round.
    """
    schedule = round_robin_schedule(entrant_ids, cycles)
    if not 1 <= round_number <= len(schedule):
        raise DrawUserError(
            _("The round robin has %(rounds)d rounds; there is no round %(round)d."),
            rounds=len(schedule),
            round=round_number,
        )
    absent_set = set(absent)
    parties: list[Pairing] = []
    byes: list[int] = []
    for item in schedule[round_number - 1]:
        if isinstance(item, Bye):
            if item.entrant not in absent_set:
                byes.append(item.entrant)
        elif item.a in absent_set or item.b in absent_set:
            byes.extend(e for e in (item.a, item.b) if e not in absent_set)
        else:
            parties.append(item)
    return Draw(parties=parties, byes=byes, seed=None, warnings=[])
