"""How a game's parties are laid out: one ``Layout`` object per layout, owned by the rule sets.

The referee desk, the party pages, the protocol, the standings and the exports ask the rule
set's layout (``RuleSet.layout_for``) what to show instead of switching on a layout key: a
column per player or per side, a match's games, Kozel's accounts, the templates of the party
page, the protocol's deal table, the deal form of the desk. A new game with its own layout
subclasses ``Layout`` in its own module and puts its partials in ``templates/layouts/<key>/``.
"""

from __future__ import annotations

from typing import ClassVar

from scoring.rules.config import LAYOUT_GAMES, LAYOUT_KOZEL, LAYOUT_SEATS, LAYOUT_SIDES

PROTOCOL_SIDES = LAYOUT_SIDES
"""The protocol's deal table of two sides (``scoring.protocols``: ``ProtocolData.layout``)."""
PROTOCOL_GAMES = LAYOUT_GAMES
"""The protocol's tables of a match of games."""
PROTOCOL_SEATS = LAYOUT_SEATS
"""The protocol's deal table with a column per player."""
PROTOCOL_KOZEL = LAYOUT_KOZEL
"""The protocol's deal table per player with Kozel's accounts and memorized points."""

DEAL_FORM_PAIRS = "pairs"
"""The desk's deal form where a pair wins (points or pips per player)."""
DEAL_FORM_MATCH = "match"
"""The desk's deal form of a match's hand: scoring plays, the end count, a stopped hand."""
DEAL_FORM_SEATS = "seats"
"""The desk's deal form where a player wins."""
DEAL_FORM_ACCOUNTS = "kozel"
"""The desk's deal form of each player's deal total (Kozel's accounts)."""


class Layout:
    """A layout: what the screens, the protocol, the standings and the exports show of a party.

    The base class is two sides, A and B, with a running total each; subclasses say what
    differs. Every answer is a class attribute or a method, so that nothing outside the rule
    sets tests which layout it is.
    """

    key: ClassVar[str] = LAYOUT_SIDES
    """The layout's key (``LAYOUTS`` for the built-in ones; a new game's own key otherwise)."""
    per_seat: ClassVar[bool] = False
    """Whether every player has his own column (each scores for himself, or Kozel)."""
    games: ClassVar[bool] = False
    """Whether a party is a match of games: games won, each hand in one game."""
    accounts: ClassVar[bool] = False
    """Whether every player keeps an account (Kozel): memorized points, open accounts, fines
    booked on the player's account, the Goat and the rating points after the game."""
    protocol_form: ClassVar[str] = PROTOCOL_SIDES
    """The protocol's deal table this layout prints (``ProtocolData.layout``)."""
    outcome_details: ClassVar[bool] = True
    """Whether a deal's outcome names who took a fish and the points a drawn fish carried."""

    def template_dir(self) -> str:
        """The folder of the party page's partials: ``layouts/<key>`` (``sides`` for "")."""
        return f"layouts/{self.key or 'sides'}"

    def deal_form(self, by_seat: bool) -> str:
        """The desk's deal form (``DEAL_FORM_*``); ``by_seat``: a player, not a pair, wins."""
        if self.games:
            return DEAL_FORM_MATCH
        return DEAL_FORM_SEATS if by_seat else DEAL_FORM_PAIRS

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.key!r}>"


class SidesLayout(Layout):
    """Two sides, A and B, a running total each (sport domino, Latin pairs)."""

    outcome_details = False


class GamesLayout(Layout):
    """A match of timed games (UDL, All Fives): each hand in one game, the games won."""

    key = LAYOUT_GAMES
    games = True
    protocol_form = PROTOCOL_GAMES


class SeatsLayout(Layout):
    """A column per player, each scoring for himself (Draw, Block, Classic, Latin alone)."""

    key = LAYOUT_SEATS
    per_seat = True
    protocol_form = PROTOCOL_SEATS


class KozelLayout(Layout):
    """A column per player with memorized points, open accounts and the Goat."""

    key = LAYOUT_KOZEL
    per_seat = True
    accounts = True
    protocol_form = PROTOCOL_KOZEL

    def deal_form(self, by_seat: bool) -> str:
        """Each player's deal total: no winner to choose."""
        return DEAL_FORM_ACCOUNTS


SIDES_LAYOUT = SidesLayout()
GAMES_LAYOUT = GamesLayout()
SEATS_LAYOUT = SeatsLayout()
KOZEL_LAYOUT = KozelLayout()
