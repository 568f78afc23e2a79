"""No rule-set code literals outside the rule sets: every game's particulars live in its module.

Code outside ``scoring/rules/`` asks the rule set (``RuleSet.layout_for``, ``settings``,
``uses_led``, ``violations`` ...) instead of testing which game it is; templates include the
layout's own partials (``templates/layouts/<layout>/``) instead of testing ``layout ==``.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CODES = "sport|udl|allfives|draw|block|classic|latin|kozel"
CLASSES = "SportDomino|UdlSingles|AllFives|DrawGame|BlockGame|ClassicGame|LatinPairs|Kozel"
GAMES_ONLY = "sport|udl|allfives|latin|kozel"
"""Codes that are no ordinary word ("draw", "block", "classic" are: URL and panel names)."""
PATTERNS = [
    # a comparison with a rule-set code: == "kozel", != 'udl' ...
    re.compile(rf"""(==|!=)\s*["']({GAMES_ONLY})["']"""),
    re.compile(rf"""["']({GAMES_ONLY})["']\s*(==|!=)"""),
    # ... and any code compared with a rule set or its code
    re.compile(rf"""(rule_set|\.code)\s*(==|!=)\s*["']({CODES})["']"""),
    # a rule-set code as the key of a mapping per game
    re.compile(rf"""^\s*["']({GAMES_ONLY})["']\s*:\s*(["(]|_\()"""),
    # asking which rule set it is
    re.compile(rf"""isinstance\([^)]*,\s*\(?\s*({CLASSES})\b\s*[,)]"""),
]
TEMPLATE_PATTERNS = [
    # a template testing the layout instead of including the layout's partial
    re.compile(r"""\blayout\s*(==|!=)"""),
]
SKIPPED_DIRS = ("scoring/rules/", "templates/layouts/", "tests/", ".venv/", "node_modules/")

ALLOWED: set[str] = set()
"""Files allowed to name a game by its code (none)."""


def offenders() -> list[str]:
    """Every line outside the rule sets that tests a rule-set code, as ``path:line: text``."""
    found = []
    for path in sorted([*ROOT.rglob("*.py"), *ROOT.rglob("*.html")]):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith(SKIPPED_DIRS) or "/migrations/" in rel or rel in ALLOWED:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            patterns = PATTERNS + TEMPLATE_PATTERNS if rel.endswith(".html") else PATTERNS
            if any(pattern.search(line) for pattern in patterns):
                found.append(f"{rel}:{number}: {line.strip()[:120]}")
    return found


def test_no_rule_set_literals_outside_the_rule_sets() -> None:
    """Code and templates ask the rule set; none names a game by its code."""
    found = offenders()
    assert not found, "Rule-set code literals outside scoring/rules/:\n" + "\n".join(found)


def test_the_patterns_catch_what_they_should() -> None:
    """The patterns find the usual ways of naming a game, and not URL names like "draw"."""
    hits = [
        'if rule_set.code == "kozel":',
        "{% if layout == 'games' %}",
        '    "udl": ("match_points",),',
        "kozel = isinstance(tournament.engine, Kozel)",
        'if tournament.rule_set == "latin":',
    ]
    misses = [
        'public_tournament(request, slug, "draw")',
        '("draw", "tournaments:current_draw", "draw", _("Draw")),',
        "kozel = isinstance(totals, KozelTotals)",
        '{% if panel.kind == "draw" %}',
        '"kozel": _kozel(party, rule_set, cfg, totals) if kozel else None,',
        '{% include layout_dir|add:"/_party_deals.html" %}',
    ]
    patterns = PATTERNS + TEMPLATE_PATTERNS
    for line in hits:
        assert any(p.search(line) for p in patterns), line
    for line in misses:
        assert not any(p.search(line) for p in patterns), line
