"""Whom a record concerns, in the API's one vocabulary: a side ("a", "b") and a seat."""

from __future__ import annotations

from typing import Any

from .deals import Deal

SIDES = ("a", "b")


def side_and_seat(record: Any) -> tuple[str, str]:
    """The table side and the player's seat a deal, penalty or ruling concerns ("" if none).

    A deal: the side that won it and the seat that went out (or, where every player keeps his
    own score, the seat that won). A penalty or ruling: the side at fault and, when a player is
    named (or the fine hits a player's own account), his seat.
    """
    if isinstance(record, Deal):
        seat = record.went_out or ("" if record.winner in ("", *SIDES) else record.winner)
        side = record.winner if record.winner in SIDES else seat[:1]
        return side, seat
    seat = getattr(record, "seat", "") or ("" if record.side in SIDES else record.side)
    if not seat and record.player_id is not None:
        seat = next(
            (s for s, p in record.party.seat_players().items() if p.pk == record.player_id), ""
        )
    return (record.side if record.side in SIDES else record.side[:1]), seat


def who(value: str) -> dict[str, str]:
    """A side-or-seat value (a party's winner, the Goat) as ``{"side": …, "seat": …}``."""
    if value in SIDES or not value:
        return {"side": value or "", "seat": ""}
    return {"side": value[:1], "seat": value}
