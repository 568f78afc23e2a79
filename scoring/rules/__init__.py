"""The rule engine: plain Python (no Django), one rule set per game.

``get_rule_set(code)`` gives the rule set a tournament's regulations name; every total shown
anywhere comes from ``RuleSet.party_totals``.
"""

from __future__ import annotations

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
    LAST_DEAL,
    REFEREE,
    SEATS,
    SIDES,
    DealFacts,
    DealScore,
    FineFact,
    PartyDecision,
    RulesConfig,
    RuleSet,
    Totals,
)
from scoring.rules.errors import RuleError, _
from scoring.rules.moves import MoveAdvice, Tile, move_advice
from scoring.rules.sport import SportDomino

RULE_SETS: dict[str, RuleSet] = {}
"""The rule sets by code."""


def register(rule_set: RuleSet) -> RuleSet:
    """Add a rule set to the registry under its code and return it."""
    RULE_SETS[rule_set.code] = rule_set
    return rule_set


register(SportDomino())


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
    "ANNULLED",
    "CONTINUE",
    "DOMINO",
    "DRAWN_FISH",
    "EXTRA_DEAL",
    "FINE_AWARD",
    "FINE_DEDUCT",
    "FINISHED",
    "FISH",
    "LAST_DEAL",
    "REFEREE",
    "RULE_SETS",
    "SEATS",
    "SIDES",
    "DealFacts",
    "DealScore",
    "FineFact",
    "MoveAdvice",
    "PartyDecision",
    "RuleError",
    "RuleSet",
    "RulesConfig",
    "SportDomino",
    "Tile",
    "Totals",
    "get_rule_set",
    "move_advice",
    "register",
    "rule_set_choices",
]
