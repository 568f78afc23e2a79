"""The draw's notes: warnings about fixed tables and the engine's warnings as the round's JSON."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tournaments.pairing import DrawUserError, DrawWarning, _, fixed_tables
from tournaments.rounds.draws import DrawField, Seating

_NAMED_PARAMS = ("a", "b", "entrant")


def fixed_table_warnings(seating: Seating, draw_field: DrawField) -> list[DrawWarning]:
    """Warn about entrants seated away from their fixed table (after a manual edit or swap)."""
    fixed = fixed_tables(draw_field.entrants)
    out = []
    for table, party in seating:
        for entrant in party.entrants:
            if entrant in fixed and fixed[entrant] != table:
                out.append(
                    DrawWarning(
                        _("%(entrant)s has fixed table %(table)s but sits at table %(other)s."),
                        entrant=entrant,
                        table=fixed[entrant],
                        other=table,
                    )
                )
    return out


def checkin_notes(draw_field: DrawField) -> list[DrawWarning]:
    """The draw's notes on check-in: who was left out of this round, and a window still open."""
    notes = []
    if draw_field.left_out:
        notes.append(DrawWarning(
            _("Not checked in, left out of this round: %(entrants)s."),
            entrants=", ".join(str(pk) for pk in draw_field.left_out)))
    if draw_field.checkin_open:
        notes.append(DrawWarning(_(
            "Check-in was still open when the round was drawn: draw again to seat a late "
            "arrival.")))
    return notes


def warnings_data(warnings: Sequence[str | DrawUserError], names: dict[int, str]
                  ) -> list[dict[str, Any]]:
    """The engine's warnings (or error) as JSON for the round, entrant ids replaced by names."""
    out = []
    for warning in warnings:
        message = getattr(warning, "message", str(warning))
        params = dict(getattr(warning, "params", {}) or {})
        for key in _NAMED_PARAMS:
            if isinstance(params.get(key), int) and params[key] in names:
                params[key] = names[params[key]]
        if isinstance(params.get("entrants"), str):  # ids joined by the engine
            params["entrants"] = ", ".join(
                names.get(int(x), x) if x.strip().isdigit() else x
                for x in params["entrants"].split(", ")
            )
        out.append({"message": message, "params": params})
    return out
