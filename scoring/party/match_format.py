"""How a match of games is won, in words (UDL's ``match_format``, All Fives' ``games_to_win``).

The one place that says it: the referee desk, the public party page, the protocol and the
rule-set guide all call :func:`match_format_text`.
"""

from __future__ import annotations

from django.utils.translation import gettext, ngettext

from scoring.rules import MATCH_BEST_OF_THREE, RulesConfig


def match_format_text(cfg: RulesConfig) -> str:
    """The match format in the active language: best of three, or the first to N game wins."""
    if cfg.match_format == MATCH_BEST_OF_THREE:
        return gettext("best of three games (the first to two wins)")
    wins = cfg.games_to_win
    return ngettext(
        "the first to %(wins)s game win", "the first to %(wins)s game wins", wins
    ) % {"wins": wins}
