"""The one parser of scoring plays typed on a page: "a1:10 b1:15" (All Fives, UDL)."""

from __future__ import annotations

import re
from typing import Any

PLAY_PATTERN = re.compile(r"([abAB][12]?)\s*[:+=]?\s*(\d+)")
PLAY_SEPARATORS = re.compile(r"[\s,;]*")


def parse_plays(text: str) -> list[list[Any]] | None:
    """Scoring plays typed as "a1:10 b1:5" (a side or seat, then points); None if malformed."""
    if PLAY_SEPARATORS.fullmatch(PLAY_PATTERN.sub(" ", text)) is None:
        return None
    return [[who.lower(), int(points)] for who, points in PLAY_PATTERN.findall(text)]
