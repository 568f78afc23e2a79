"""Team matches at the tables: the plain-Python seating of ``scoring.teams.seats`` (two
adjacent tables per team match, the parties from the two line-ups), for the draw."""

from scoring.teams.seats import BOARDS, TablesError, adjacent_tables, team_seats

__all__ = ["BOARDS", "TablesError", "adjacent_tables", "team_seats"]
