"""The rule set's own score sheet as the party pages show it, from the protocol's own lines."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from scoring.models import Deal, Party, Penalty
from scoring.rules import Totals
from scoring.signoff.lines import (
    _play_totals,
    deal_lines,
    layout_of,
    party_games,
    seat_lines,
    side_name,
)


def party_sheet(party: Party, deals: Sequence[Deal], penalties: Sequence[Penalty],
                totals: Totals) -> dict[str, Any]:
    """What the party pages show of the rule set's own score sheet, as the protocol does.

    ``deals`` in order and the party's ``totals`` (from ``scoring.totals.compute``). Gives the
    layout, whether a side is one player, each deal's row (``line``: the protocol's line;
    ``cells``: per player, where every player scores for himself), the games of a match with
    their rows, scores, winners and the games won, and the players' lines (Kozel: memorized
    points, open accounts, the Goat, ratings).
    """
    layout = layout_of(party)
    seats = seat_lines(party, totals, layout) if layout.per_seat else []
    rows = []
    for deal, line in zip(deals, deal_lines(party, deals, penalties), strict=True):
        row: dict[str, Any] = {"deal": deal, "line": line}
        if seats:
            row["cells"] = [{
                "points": (line.seat_points or {}).get(seat.seat),
                "running": (line.seat_running or {}).get(seat.seat),
                "memorized": (line.memorized or {}).get(seat.seat),
                "closed": line.opened is not None and not line.opened.get(seat.seat, True),
            } for seat in seats]
        rows.append(row)
    games = []
    wins = {"a": 0, "b": 0}
    if layout.games:
        played = _play_totals(party, deals, penalties, result=True)
        for number, points, winner in party_games(party, played):
            if winner in wins:
                wins[winner] += 1
            games.append({
                "number": number, "a": points.get("a", 0), "b": points.get("b", 0),
                "winner": winner or "", "winner_name": side_name(party, winner or ""),
                "rows": [row for row in rows if row["deal"].game == number],
            })
    finished = party.status == Party.Status.FINISHED
    tournament = party.round.tournament
    engine, cfg = tournament.engine, tournament.regulations.rules_config()
    return {
        "layout": layout.key,
        "layout_dir": layout.template_dir(),
        "side_kind": engine.side_kind_for(cfg),
        "side_labels": tournament.side_labels,
        "sides_label": _(engine.sides_label(cfg)),
        "singles": tournament.singles,
        "rows": rows,
        "games": games,
        "game_wins": wins,
        "seats": seats,
        "goat": side_name(party, party.loser) if finished and layout.accounts else "",
        "winner_name": side_name(party, party.winner) if finished else "",
    }
