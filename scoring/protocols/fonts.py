"""The protocol font: DejaVu Sans, shipped in ``static/fonts`` with its licence.

reportlab's built-in PDF base fonts (Helvetica and friends) have no Cyrillic and silently draw
empty boxes, so protocols use only the embedded DejaVu Sans, registered once per process.
"""

from __future__ import annotations

import threading
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

#: Where the font files live (``<repository>/static/fonts``).
FONT_DIR = Path(__file__).resolve().parents[2] / "static" / "fonts"

REGULAR = "DejaVuSans"
BOLD = "DejaVuSans-Bold"

_FILES = {REGULAR: "DejaVuSans.ttf", BOLD: "DejaVuSans-Bold.ttf"}
_lock = threading.Lock()
_registered = False
_coverage: frozenset[int] = frozenset()


def register_fonts() -> None:
    """Register DejaVu Sans (regular and bold) with reportlab; later calls do nothing."""
    global _registered, _coverage
    if _registered:
        return
    with _lock:
        if _registered:
            return
        fonts = []
        for name, filename in _FILES.items():
            path = FONT_DIR / filename
            if not path.is_file():
                raise FileNotFoundError(f"protocol font missing: {path}")
            font = TTFont(name, str(path))
            pdfmetrics.registerFont(font)
            fonts.append(font)
        pdfmetrics.registerFontFamily(REGULAR, normal=REGULAR, bold=BOLD, italic=REGULAR,
                                      boldItalic=BOLD)
        # A character is printable only if both weights have a glyph for it.
        coverage = set(fonts[0].face.charToGlyph)
        for font in fonts[1:]:
            coverage &= set(font.face.charToGlyph)
        _coverage = frozenset(coverage)
        _registered = True


def missing_glyphs(text: str) -> set[str]:
    """Return the characters of ``text`` that the protocol font cannot draw.

    Whitespace is ignored. An empty set means the text prints correctly; anything else would
    come out as empty boxes, so the caller should warn before a protocol is signed.
    """
    register_fonts()
    return {ch for ch in set(text) if not ch.isspace() and ord(ch) not in _coverage}
