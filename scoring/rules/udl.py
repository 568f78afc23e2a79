"""UDL singles (RULES.md section 2): the Universal Domino League's All Fives tournaments.

All Fives scoring (see :mod:`scoring.rules.allfives`) with the league's rules on top: a match
is won by the first to three game wins (or, by the ``match_format`` setting, best of three:
the first to two, at most three games), each game lasting 15 minutes (the higher score wins
at time, a tie goes to overtime until one player scores); a player with no points on the board
cannot collect the opponent's pips after a domino; both players blocked with equal pips score
nothing. Slow play is warned once, then every further one pays 20 points to the opponent; the
other violations (:func:`penalty_for`) disqualify or remove the player.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from scoring.rules.allfives import AllFives
from scoring.rules.base import (
    DOMINO,
    DRAWN_FISH_NOBODY,
    FINE_AWARD,
    MATCH_TO_WINS,
    DealScore,
    FineFact,
    RulesConfig,
    is_count,
)
from scoring.rules.errors import RuleError, _
from scoring.rules.game_settings import (
    GAME_MINUTES,
    GAMES_TO_WIN,
    MATCH_FORMAT,
    TILES_PER_HAND,
    UDL_SLOW_PLAY_POINTS,
)
from scoring.rules.moves import UDL_HELPER

# Violations the referee desk reports ...
SLOW_PLAY = "slow_play"
OUT_OF_TURN = "out_of_turn"
SLAMMING = "slamming"
BROKEN_EQUIPMENT = "broken_equipment"
HIDING_TILES = "hiding_tiles"
MISCONDUCT = "misconduct"
LEAVING = "leaving"
# ... and what they cost.
WARNING = "warning"
POINTS_TO_OPPONENT = "points_to_opponent"
EXPOSED_TILE = "exposed_tile"
DISQUALIFIED_FROM_MATCH = "disqualified_from_match"
DISQUALIFIED_FROM_TOURNAMENT = "disqualified_from_tournament"
REMOVED_FROM_TOURNAMENT = "removed_from_tournament"

UDL_PENALTIES: Mapping[str, tuple[str, ...]] = {
    SLOW_PLAY: (WARNING, POINTS_TO_OPPONENT),
    OUT_OF_TURN: (EXPOSED_TILE,),
    SLAMMING: (DISQUALIFIED_FROM_TOURNAMENT,),
    BROKEN_EQUIPMENT: (DISQUALIFIED_FROM_TOURNAMENT,),
    HIDING_TILES: (DISQUALIFIED_FROM_MATCH,),
    MISCONDUCT: (REMOVED_FROM_TOURNAMENT,),
    LEAVING: (DISQUALIFIED_FROM_TOURNAMENT,),
}
"""Each violation's consequences: the first time, then (if there are two) every later time."""

_ENDS_MATCH = (DISQUALIFIED_FROM_MATCH, DISQUALIFIED_FROM_TOURNAMENT, REMOVED_FROM_TOURNAMENT)
_ENDS_TOURNAMENT = (DISQUALIFIED_FROM_TOURNAMENT, REMOVED_FROM_TOURNAMENT)
LIFETIME_BAN = frozenset({BROKEN_EQUIPMENT})
"""Violations that ban the player from UDL tournaments for life (he pays for the damage)."""


@dataclass(frozen=True)
class Consequence:
    """What a violation costs the player under the UDL rules.

    ``points`` are paid to the opponent (a fine in ``"award"`` mode); ``ends_match`` means the
    player loses the match by disqualification, ``ends_tournament`` that he is out of it;
    ``lifetime_ban`` that he is banned from UDL tournaments for life and pays for the damage.
    """

    violation: str
    kind: str
    points: int = 0
    ends_match: bool = False
    ends_tournament: bool = False
    lifetime_ban: bool = False


class UdlSingles(AllFives):
    """UDL singles: All Fives matches of timed games, first to three game wins."""

    code = "udl"
    standings_order = ("match_points", "game_wins", "points_for")
    name = _("UDL singles (All Fives)")
    description = _(
        "Two players, each a side. All Fives scoring: points during play whenever the open "
        "ends add up to a multiple of five; a match of timed games, won by three game wins."
    )
    settings = (
        TILES_PER_HAND,
        GAME_MINUTES,
        GAMES_TO_WIN,
        MATCH_FORMAT,
        UDL_SLOW_PLAY_POINTS,
    )
    move_helper = UDL_HELPER
    no_breaks_last_minutes = 15
    """No break without an official's permission, and none in a round's last 15 minutes."""
    violations = {
        SLOW_PLAY: _("Slow play"),
        OUT_OF_TURN: _("Out-of-turn play"),
        SLAMMING: _("Slamming dominoes"),
        BROKEN_EQUIPMENT: _("Equipment broken by slamming"),
        HIDING_TILES: _("Hiding dominoes"),
        MISCONDUCT: _("Misconduct"),
        LEAVING: _("Leaving the table"),
    }
    consequences = {
        SLOW_PLAY: _(
            "Slow play: a warning the first time, then %(points)s points paid to the opponent "
            "each time."
        ),
        OUT_OF_TURN: _(
            "Out-of-turn play: the tile is exposed and must be played at the first opportunity."
        ),
        SLAMMING: _(
            "Slamming dominoes: disqualification from the tournament; breaking equipment also "
            "means a lifetime ban."
        ),
        BROKEN_EQUIPMENT: _(
            "Equipment broken by slamming: disqualification from the tournament, a lifetime ban "
            "from UDL tournaments, and the player pays for the damage."
        ),
        HIDING_TILES: _("Hiding dominoes: disqualification from the match, without warning."),
        MISCONDUCT: _("Misconduct: removal from the tournament, without warning."),
        LEAVING: _("Leaving the table: disqualification from the tournament, no substitutions."),
    }
    preset = {
        "target": 150,
        "players": 2,
        "tiles_per_hand": 7,
        "games_to_win": 3,
        "match_format": MATCH_TO_WINS,
        "game_minutes": 15,
        "party_minutes": 45,
        "udl_slow_play_points": 20,
        "fine_points": 20,
        "fine_mode": FINE_AWARD,
        "warnings_before_fine": 1,
        "drawn_fish": DRAWN_FISH_NOBODY,
    }

    def hand_gain(self, hand: DealScore, before: Mapping[str, int]) -> dict[str, int]:
        """A domino's end count is not collected by a player with no points on the board.

        "On the board" means points in this game before the end count: earlier hands' and
        this hand's plays (fines are not points on the board).
        """
        gain = dict(hand.points)
        if hand.outcome == DOMINO and hand.winner is not None:
            made = (hand.play_points or {}).get(hand.winner, 0)
            if before.get(hand.winner, 0) + made == 0:
                gain[hand.winner] = made
        return gain

    def slow_play_fine(self, side: str, cfg: RulesConfig, game: int = 1) -> FineFact:
        """The fine of a repeated slow play: ``udl_slow_play_points`` paid to the opponent."""
        self.check_side(side, "side", self.sides_for(cfg))
        return FineFact(side, cfg.udl_slow_play_points, FINE_AWARD, game)

    def penalty_for(
        self, violation: str, earlier: int = 0, cfg: RulesConfig | None = None
    ) -> Consequence:
        """What ``violation`` costs, given the player's ``earlier`` ones of the same kind."""
        return penalty_for(violation, earlier, cfg)


def penalty_for(violation: str, earlier: int = 0, cfg: RulesConfig | None = None) -> Consequence:
    """What a violation costs under the UDL rules (the referee desk's plain lookup).

    Slow play: a warning while ``earlier`` is below ``warnings_before_fine`` (one by default),
    then ``udl_slow_play_points`` (20) paid to the opponent each time. Out of turn: the tile is
    exposed and must be played at the first opportunity. Slamming and leaving: disqualified
    from the tournament; hiding tiles: from the match; misconduct: removed from the tournament;
    equipment broken by slamming: disqualified, banned for life and liable for the damage.
    """
    steps = UDL_PENALTIES.get(violation)
    if steps is None:
        raise RuleError("violation", _("Unknown violation: %(violation)s."), violation=violation)
    if not is_count(earlier):
        raise RuleError("warnings", _("The number of warnings must be a whole number."))
    udl = UdlSingles()
    cfg = udl.config() if cfg is None else cfg
    repeated = len(steps) > 1 and udl.fine_for_warning(earlier, cfg)
    kind = steps[-1] if repeated else steps[0]
    return Consequence(
        violation=violation,
        kind=kind,
        points=cfg.udl_slow_play_points if kind == POINTS_TO_OPPONENT else 0,
        ends_match=kind in _ENDS_MATCH,
        ends_tournament=kind in _ENDS_TOURNAMENT,
        lifetime_ban=violation in LIFETIME_BAN,
    )
