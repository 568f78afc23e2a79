"""The game settings of the regulations (RULES.md sections 2 and 3): declared here, grouped by
the rule set that owns each one; a rule set lists those an organizer sees (``RuleSet.settings``).

A declaration says what a setting holds (a whole number within bounds, yes or no, or one of
some choices), its default, and its label and help text: English, marked with :func:`_` for
the Django layer to translate. :func:`validate_game_settings` checks the stored values of a
tournament's game settings against the declarations; every value is also a field of
:class:`~scoring.rules.config.RulesConfig`, the engine's input.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, cast

from scoring.rules.config import (
    FISH_FOR_ALL,
    FISH_FOR_ONE,
    MATCH_BEST_OF_THREE,
    MATCH_TO_WINS,
)
from scoring.rules.errors import RuleError, _

T = TypeVar("T", int, bool, str)

INT = "int"
BOOL = "bool"
CHOICE = "choice"
KINDS = (INT, BOOL, CHOICE)


@dataclass(frozen=True)
class GameSetting(Generic[T]):
    """One game setting: its name (a ``RulesConfig`` field), kind, default and limits."""

    name: str
    kind: str
    default: T
    label: str
    """English, marked for translation: what the regulations' form calls it."""
    help_text: str = ""
    """English, marked for translation; empty: none."""
    minimum: int = 0
    maximum: int | None = None
    choices: tuple[tuple[str, str], ...] = ()
    """(value, English label marked for translation) of a choice setting."""

    def check(self, value: object) -> T:
        """The value if this setting may hold it, else RuleError naming the setting."""
        if self.kind == BOOL:
            if not isinstance(value, bool):
                raise RuleError(self.name, _("This setting must be yes or no."))
        elif self.kind == CHOICE:
            if value not in self.values:
                raise RuleError(self.name, _("Choose one of: %(choices)s."),
                                choices=", ".join(self.values))
        elif not isinstance(value, int) or isinstance(value, bool) or value < self.minimum:
            raise RuleError(self.name,
                            _("This setting must be a whole number of at least %(minimum)s."),
                            minimum=self.minimum)
        elif self.maximum is not None and value > self.maximum:
            raise RuleError(self.name,
                            _("This setting must be a whole number of at most %(maximum)s."),
                            maximum=self.maximum)
        return cast(T, value)

    @property
    def values(self) -> tuple[str, ...]:
        """The values a choice setting takes (empty for the others)."""
        return tuple(value for value, _label in self.choices)

    def choice_label(self, value: object) -> str:
        """The English label (marked for translation) of a choice, or the value as text."""
        return dict(self.choices).get(str(value), str(value))


def _int(name: str, default: int, label: str, help_text: str = "", *, minimum: int = 0,
         maximum: int) -> GameSetting[int]:
    """A whole-number setting."""
    return GameSetting(name, INT, default, label, help_text, minimum, maximum)


def _flag(name: str, label: str, help_text: str = "") -> GameSetting[bool]:
    """A yes-or-no setting, off by default."""
    return GameSetting(name, BOOL, False, label, help_text)


# -- the Draw game (and every game of 2-4 players that deals its own hands) ---------------
PLAYERS = _int(
    "players", 4, _("players at a table"),
    _("From 2 to 4. Two players are two sides of one player (the pairs format); three or "
      "four, each for himself, need the individual format."),
    minimum=2, maximum=4,
)
TILES_PER_HAND = _int(
    "tiles_per_hand", 0, _("tiles dealt to each player"), _("0: the rule set's own number."),
    maximum=9,
)
# -- All Fives: a match of timed games ----------------------------------------------------
GAME_MINUTES = _int(
    "game_minutes", 15, _("time limit of a game (minutes)"),
    _("Matches of several games (UDL, All Fives)."), minimum=1, maximum=180,
)
GAMES_TO_WIN = _int(
    "games_to_win", 1, _("game wins to win a match"),
    _("A match is won by the first player to win this many games."), minimum=1, maximum=9,
)
# -- UDL singles ----------------------------------------------------------------------------
MATCH_FORMAT: GameSetting[str] = GameSetting(
    "match_format", CHOICE, MATCH_TO_WINS, _("match format"),
    _("UDL: a match to the game wins set above (the seed's \"to three wins\"), or best of "
      "three (the first to two wins; 45 minutes for 15-minute games)."),
    choices=(
        (MATCH_TO_WINS, _("To the game wins set (UDL: to three wins)")),
        (MATCH_BEST_OF_THREE, _("Best of three: the first to two wins, at most three games")),
    ),
)
UDL_SLOW_PLAY_POINTS = _int(
    "udl_slow_play_points", 20, _("slow play: points paid to the opponent"),
    _("A repeated slow play costs the player these points, paid to the opponent."),
    maximum=1000,
)
# -- Kozel ----------------------------------------------------------------------------------
FISH_VARIANT: GameSetting[str] = GameSetting(
    "fish_variant", CHOICE, FISH_FOR_ALL, _("Kozel: fish"), _("How a blocked deal is scored."),
    choices=(
        (FISH_FOR_ALL, _("Fish for all: each scores his own hand")),
        (FISH_FOR_ONE, _("Fish for one: the highest hand takes all")),
    ),
)
ZERO_ZERO_VALUE = _int(
    "zero_zero_value", 10, _("Kozel: a lone 0-0 counts"),
    _("What a lone 0-0 left in hand counts: 10, or 25 or 50 by agreement."), maximum=1000,
)
SIX_SIX_VALUE = _int(
    "six_six_value", 12, _("Kozel: a lone 6-6 counts"),
    _("What a lone 6-6 left in hand counts: its 12 pips, or 50 or 100 by agreement."),
    maximum=1000,
)
GOAT_AT = _int(
    "goat_at", 101, _("Kozel: the Goat at"),
    _("Whoever first reaches this many points is the Goat and loses."),
    minimum=1, maximum=10000,
)
MEMORIZE_LIMIT = _int(
    "memorize_limit", 12, _("Kozel: deal totals memorized up to"),
    _("A deal total up to this is memorized until the player's account is open."),
    maximum=1000,
)
KOZEL_PAIRS = _flag(
    "kozel_pairs", _("Kozel: four play as two pairs"),
    _("Four players as two pairs of partners whose points are added up; needs four players "
      "at a table."),
)
# -- the Classic game -----------------------------------------------------------------------
LONE_ZERO_ZERO_IN_FISH = _flag(
    "lone_zero_zero_in_fish", _("Classic: a lone 0-0 counts 25 in a fish"),
    _("A lone 0-0 counts 25 after a domino; in a fish it counts its 0 pips (the lowest "
      "hand) unless this is on."),
)
# -- the Latin game -------------------------------------------------------------------------
LATIN_INDIVIDUAL = _flag(
    "latin_individual", _("Latin: four play each for himself"),
    _("Four players each for himself instead of two pairs; two or three players always "
      "play alone, each for himself."),
)

DECLARATIONS: tuple[GameSetting[Any], ...] = (
    PLAYERS, TILES_PER_HAND, GAME_MINUTES, GAMES_TO_WIN, MATCH_FORMAT, UDL_SLOW_PLAY_POINTS,
    FISH_VARIANT, ZERO_ZERO_VALUE, SIX_SIX_VALUE, GOAT_AT, MEMORIZE_LIMIT, KOZEL_PAIRS,
    LONE_ZERO_ZERO_IN_FISH, LATIN_INDIVIDUAL,
)
"""Every game setting, in the order of ``RulesConfig``'s fields (forms, API and files)."""
SETTING_NAMES = tuple(setting.name for setting in DECLARATIONS)
"""The names of the game settings, in that order."""
BY_NAME: Mapping[str, GameSetting[Any]] = {setting.name: setting for setting in DECLARATIONS}
"""Every game setting by its name."""


def default_game_settings() -> dict[str, Any]:
    """Every game setting at its default, in order."""
    return {setting.name: setting.default for setting in DECLARATIONS}


class DeclaresSettings(Protocol):
    """What validation reads of a rule set: the game settings it declares (``RuleSet``)."""

    @property
    def settings(self) -> tuple[GameSetting[Any], ...]:
        """The settings an organizer sees for the game."""
        ...


def validate_game_settings(rule_set: DeclaresSettings | None, data: object) -> dict[str, Any]:
    """The game settings ``data`` holds, checked, with every one missing at its default.

    A setting of ``rule_set`` is checked against its declaration there, another game's (whose
    value the rule set's preset may fix) against its own. RuleError names the setting at
    fault, or ``game_settings`` when ``data`` is not a mapping of settings.
    """
    if not isinstance(data, Mapping):
        raise RuleError("game_settings", _("The game settings must be a mapping by name."))
    own = {setting.name: setting for setting in rule_set.settings} if rule_set else {}
    for name in data:
        if name not in BY_NAME:
            raise RuleError(str(name), _("Not a game setting: %(name)s."), name=name)
    return {
        setting.name: own.get(setting.name, setting).check(data[setting.name])
        if setting.name in data else setting.default
        for setting in DECLARATIONS
    }
