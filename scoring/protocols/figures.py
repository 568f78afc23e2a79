"""How a party's figures are written wherever they are shown: pages and the protocol PDF."""

from __future__ import annotations

MINUS = "\u2212"


def signed_points(value: int) -> str:
    """Points a side's fines gave (``+20``, a fine paid to it) or took (``−10``); ``0`` alone."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"{MINUS}{-value}"
    return "0"
