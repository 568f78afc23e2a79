"""Public pages of a tournament: the table map, the standings, the results of every round, a
pair's or player's history with its standing round by round, the hall screen for a projector,
and a player's record across tournaments (his profile's page).

No login is needed; the organizer switches each page off per tournament (404 then; the
people who run the tournament still see it). Pages refresh parts of themselves with htmx
while a round is played, carry no inline script or style (a strict CSP holds), and use a
number of queries that does not grow with the number of pairs.
"""

from __future__ import annotations

from tournaments.public.hall import hall
from tournaments.public.history import (
    HistoryRow,
    RankChart,
    pair_page,
    player_history,
    player_page,
)
from tournaments.public.profile import profile_page
from tournaments.public.results import results
from tournaments.public.table_map import absolute, draw_map, map_tables, qr_svgs, table_party

__all__ = [
    "HistoryRow", "RankChart", "absolute", "draw_map", "hall", "map_tables", "pair_page",
    "player_history", "player_page", "profile_page", "qr_svgs", "results", "table_party",
]
