"""The rule engine: plain Python (no Django), one rule set per game.

``get_rule_set(code)`` gives the rule set a tournament's regulations name; every total shown
anywhere comes from ``RuleSet.party_totals``.
"""

from __future__ import annotations

from scoring.rules.allfives import AllFives
from scoring.rules.base import (
    ANNULLED,
    CONTINUE,
    DOMINO,
    DRAWN_FISH,
    EXTRA_DEAL,
    FINE_AWARD,
    FINE_DEDUCT,
    FINISHED,
    FISH,
    FISH_FOR_ALL,
    FISH_FOR_ONE,
    LAST_DEAL,
    LAYOUT_GAMES,
    LAYOUT_KOZEL,
    LAYOUT_SEATS,
    LAYOUT_SIDES,
    LAYOUTS,
    MATCH_BEST_OF_THREE,
    MATCH_FORMATS,
    MATCH_TO_WINS,
    NEXT_GAME,
    OVERTIME,
    REASON_TARGET,
    REFEREE,
    SEATS,
    SIDE_PAIR,
    SIDE_PLAYER,
    SIDES,
    STOPPED,
    DealFacts,
    DealScore,
    FineFact,
    PartyDecision,
    RulesConfig,
    RuleSet,
    Totals,
    by_party_side,
    party_side,
    wins_needed,
)
from scoring.rules.block import BlockGame
from scoring.rules.classic import ClassicGame
from scoring.rules.draw import DrawGame
from scoring.rules.errors import RuleError, _
from scoring.rules.fives import EndsCount, count_open_ends
from scoring.rules.kozel import Kozel, KozelTotals
from scoring.rules.latin import LatinGame
from scoring.rules.latin_alone import LatinAlone
from scoring.rules.layouts import (
    DEAL_FORM_ACCOUNTS,
    DEAL_FORM_MATCH,
    DEAL_FORM_PAIRS,
    DEAL_FORM_SEATS,
    GAMES_LAYOUT,
    KOZEL_LAYOUT,
    SEATS_LAYOUT,
    SIDES_LAYOUT,
    Layout,
)
from scoring.rules.matches import GameScore, GamesRuleSet, MatchTotals, plays_games
from scoring.rules.moves import MoveAdvice, MoveHelper, Tile, advise, is_fish, move_advice
from scoring.rules.sport import SportDomino
from scoring.rules.udl import Consequence, UdlSingles, penalty_for

RULE_SETS: dict[str, RuleSet] = {}
"""The rule sets by code."""


def register(rule_set: RuleSet) -> RuleSet:
    """Add a rule set to the registry under its code and return it."""
    RULE_SETS[rule_set.code] = rule_set
    return rule_set


register(SportDomino())
register(UdlSingles())
register(AllFives())
register(DrawGame())
register(BlockGame())
register(ClassicGame())
register(LatinGame())
register(Kozel())

ALL_REDEAL_REASONS: dict[str, str] = {
    code: label
    for rule_set in RULE_SETS.values()
    for code, label in rule_set.redeal_reasons.items()
}
"""Every rule set's reasons to deal a hand again: code → English label (for translation)."""


def get_rule_set(code: str) -> RuleSet:
    """The rule set with this code; RuleError naming ``rule_set`` if there is none."""
    try:
        return RULE_SETS[code]
    except (KeyError, TypeError):
        raise RuleError("rule_set", _("Unknown rule set: %(code)s."), code=code) from None


def rule_set_choices() -> list[tuple[str, str]]:
    """(code, name) of every rule set, for a choice field (names untranslated)."""
    return [(code, rule_set.name) for code, rule_set in RULE_SETS.items()]


__all__ = [
    "ALL_REDEAL_REASONS",
    "ANNULLED",
    "CONTINUE",
    "DOMINO",
    "DRAWN_FISH",
    "EXTRA_DEAL",
    "FINE_AWARD",
    "FINE_DEDUCT",
    "FINISHED",
    "FISH",
    "FISH_FOR_ALL",
    "FISH_FOR_ONE",
    "LAST_DEAL",
    "DEAL_FORM_ACCOUNTS",
    "DEAL_FORM_MATCH",
    "DEAL_FORM_PAIRS",
    "DEAL_FORM_SEATS",
    "GAMES_LAYOUT",
    "KOZEL_LAYOUT",
    "LAYOUTS",
    "SEATS_LAYOUT",
    "SIDES_LAYOUT",
    "MATCH_BEST_OF_THREE",
    "MATCH_FORMATS",
    "MATCH_TO_WINS",
    "LAYOUT_GAMES",
    "LAYOUT_KOZEL",
    "LAYOUT_SEATS",
    "LAYOUT_SIDES",
    "NEXT_GAME",
    "OVERTIME",
    "REASON_TARGET",
    "REFEREE",
    "RULE_SETS",
    "SEATS",
    "SIDES",
    "SIDE_PAIR",
    "SIDE_PLAYER",
    "STOPPED",
    "AllFives",
    "BlockGame",
    "ClassicGame",
    "Consequence",
    "DealFacts",
    "DealScore",
    "DrawGame",
    "EndsCount",
    "FineFact",
    "GameScore",
    "GamesRuleSet",
    "Kozel",
    "KozelTotals",
    "LatinAlone",
    "LatinGame",
    "Layout",
    "MatchTotals",
    "MoveAdvice",
    "MoveHelper",
    "PartyDecision",
    "RuleError",
    "RuleSet",
    "RulesConfig",
    "SportDomino",
    "Tile",
    "Totals",
    "UdlSingles",
    "by_party_side",
    "count_open_ends",
    "get_rule_set",
    "is_fish",
    "advise",
    "move_advice",
    "party_side",
    "plays_games",
    "wins_needed",
    "penalty_for",
    "register",
    "rule_set_choices",
]
