"""Page geometry, type sizes, text fitting, the page painter and the block paginator, and the
table cells, headers and rows every protocol table is made of.

The layout is a list of blocks (each with a fixed height and a draw function), paginated
before drawing. Text goes into one text object per page and lines, shading and QR modules
into one path each; only the embedded DejaVu Sans is used, never a PDF base font.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from .fonts import BOLD, REGULAR

PAGE_W, PAGE_H = A4
MARGIN = 36.0
CONTENT_W = PAGE_W - 2 * MARGIN
TOP = PAGE_H - 30.0
TOP_CONTINUED = TOP - 22.0
BOTTOM = 42.0

SECTION_GAP = 7.0
TITLE_H = 13.0
ROW_H = 10.0
ROW_FONT = 8.0
HEAD_FONT = 7.5
MAX_WRAP_LINES = 4
ELLIPSIS = "…"


# --------------------------------------------------------------------------- text


@functools.lru_cache(maxsize=8192)
def text_width(text: str, font: str, size: float) -> float:
    """Return the width of ``text`` set in ``font`` at ``size`` (cached)."""
    return stringWidth(text, font, size)


def fit(text: str, font: str, size: float, width: float) -> str:
    """Shorten ``text`` with an ellipsis so that it fits ``width``."""
    if text_width(text, font, size) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + ELLIPSIS, font, size) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS


def split_word(word: str, font: str, size: float, width: float) -> list[str]:
    """A word wider than ``width`` in pieces that fit (none lost)."""
    pieces = []
    while text_width(word, font, size) > width and len(word) > 1:
        cut = len(word) - 1
        while cut > 1 and text_width(word[:cut], font, size) > width:
            cut -= 1
        pieces.append(word[:cut])
        word = word[cut:]
    return [*pieces, word]


def breaks(text: str, font: str, size: float, width: float, hyphens: bool = True) -> list[str]:
    """``text`` in lines no wider than ``width``, broken at spaces (and after hyphens and
    slashes when ``hyphens``), and inside a word only when the word alone is wider; every
    character is kept."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        for index, part in enumerate(re.split(r"(?<=[-/])(?=.)", word) if hyphens else [word]):
            joined = current + (" " if current and index == 0 else "") + part
            if text_width(joined, font, size) <= width:
                current = joined
                continue
            if current:
                lines.append(current)
            *full, current = split_word(part, font, size, width)
            lines.extend(full)
    if current:
        lines.append(current)
    return lines or [""]


def wrap(text: str, font: str, size: float, width: float,
         max_lines: int = MAX_WRAP_LINES) -> list[str]:
    """Break ``text`` at spaces into lines no wider than ``width`` (at most ``max_lines``, the
    last one cut with an ellipsis)."""
    text = " ".join(text.split())
    if not text or text_width(text, font, size) <= width:
        return [text]
    lines = breaks(text, font, size, width, hyphens=False)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = fit(lines[-1] + ELLIPSIS, font, size, width)
    return lines


# --------------------------------------------------------------------------- page and blocks


class Page:
    """Collects one page's text, lines, shading and QR modules and draws them in one go."""

    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas
        self.text = canvas.beginText()
        self.lines = canvas.beginPath()
        self.shade = canvas.beginPath()
        self.light = canvas.beginPath()
        self.solid = canvas.beginPath()
        self._font: tuple[str, float] | None = None
        self._gray = 0.0
        self._has = {"lines": False, "shade": False, "light": False, "solid": False}

    def write(self, x: float, y: float, text: str, font: str = REGULAR,
              size: float = ROW_FONT, align: str = "left", gray: float = 0.0) -> None:
        """Write ``text`` with its baseline at ``y``; ``align`` is left, right or centre."""
        if not text:
            return
        if align != "left":
            w = text_width(text, font, size)
            x = x - w if align == "right" else x - w / 2
        if self._font != (font, size):
            self.text.setFont(font, size)
            self._font = (font, size)
        if gray != self._gray:
            self.text.setFillGray(gray)
            self._gray = gray
        self.text.setTextOrigin(x, y)
        # textLine, unlike textOut, does not measure the string; the origin is set per call.
        self.text.textLine(text)

    def hline(self, x1: float, x2: float, y: float) -> None:
        """Add a horizontal rule."""
        self.lines.moveTo(x1, y)
        self.lines.lineTo(x2, y)
        self._has["lines"] = True

    def vline(self, x: float, y1: float, y2: float) -> None:
        """Add a vertical rule."""
        self.lines.moveTo(x, y1)
        self.lines.lineTo(x, y2)
        self._has["lines"] = True

    def box(self, x: float, y: float, w: float, h: float) -> None:
        """Add a rectangle outline."""
        self.lines.rect(x, y, w, h)
        self._has["lines"] = True

    def shaded(self, x: float, y: float, w: float, h: float) -> None:
        """Add a light grey background rectangle."""
        self.shade.rect(x, y, w, h)
        self._has["shade"] = True

    def zebra(self, x: float, y: float, w: float, h: float) -> None:
        """Add a very light background rectangle (alternate table rows)."""
        self.light.rect(x, y, w, h)
        self._has["light"] = True

    def filled(self, x: float, y: float, w: float, h: float) -> None:
        """Add a solid black rectangle (used for QR modules)."""
        self.solid.rect(x, y, w, h)
        self._has["solid"] = True

    def finish(self) -> None:
        """Draw everything collected, background first, and end the page."""
        c = self.canvas
        if self._has["light"]:
            c.setFillGray(0.955)
            c.drawPath(self.light, stroke=0, fill=1)
        if self._has["shade"]:
            c.setFillGray(0.88)
            c.drawPath(self.shade, stroke=0, fill=1)
        if self._has["light"] or self._has["shade"]:
            c.setFillGray(0)
        if self._has["solid"]:
            c.drawPath(self.solid, stroke=0, fill=1)
        if self._has["lines"]:
            c.setLineWidth(0.5)
            c.drawPath(self.lines, stroke=1, fill=0)
        c.drawText(self.text)
        c.showPage()


@dataclass
class Block:
    """A horizontal strip of the page: its height and how to draw it from a top edge."""

    height: float
    draw: Callable[[Page, float], None]
    keep_with_next: bool = False
    repeat: list[Block] | None = None  # drawn again at the top of a continuation page
    is_gap: bool = False  # dropped when it would open a page


def gap(height: float = SECTION_GAP) -> Block:
    """Return an empty strip between sections (dropped at the top of a page)."""
    return Block(height, lambda page, top: None, is_gap=True)


def paginate(blocks: list[Block]) -> list[list[Block]]:
    """Split ``blocks`` into pages: keep-with-next runs together, headers repeated."""
    pages: list[list[Block]] = [[]]
    y = TOP
    i = 0
    while i < len(blocks):
        block = blocks[i]
        need = block.height
        j = i
        while blocks[j].keep_with_next and j + 1 < len(blocks):
            j += 1
            need += blocks[j].height
        if y - need < BOTTOM and pages[-1]:
            pages.append([])
            y = TOP_CONTINUED
            if block.is_gap:
                i += 1  # no gap at the top of a page
                continue
            for repeated in block.repeat or ():
                pages[-1].append(repeated)
                y -= repeated.height
        pages[-1].append(block)
        y -= block.height
        i += 1
    return pages


# --------------------------------------------------------------------------- table parts


def table_header(columns: list[tuple[str, float, str]], size: float = HEAD_FONT,
                 height: float = ROW_H + 1) -> Block:
    """Return a shaded row of column captions (caption, width, alignment)."""
    def draw(page: Page, top: float) -> None:
        page.shaded(MARGIN, top - height, CONTENT_W, height)
        x = MARGIN
        base = top - height + 3
        for caption, width, align in columns:
            cell(page, caption, x, width, base, BOLD, size, align)
            x += width

    return Block(height, draw, keep_with_next=True)


def cell(page: Page, text: str, x: float, width: float, base: float, font: str,
         size: float, align: str) -> None:
    """Write ``text`` into a table cell, shortened to fit and aligned in it."""
    pad = 3.0
    text = fit(text, font, size, width - 2 * pad)
    if align == "right":
        page.write(x + width - pad, base, text, font, size, "right")
    elif align == "centre":
        page.write(x + width / 2, base, text, font, size, "centre")
    else:
        page.write(x + pad, base, text, font, size)


def section_title(text: str) -> Block:
    """Return a bold section title, kept with the block after it."""
    def draw(page: Page, top: float) -> None:
        page.write(MARGIN, top - 10, text, BOLD, 9.5)

    return Block(TITLE_H, draw, keep_with_next=True)


def line_block(text: str, font: str = BOLD, size: float = 8.5, *, rule: bool = False,
               gray: float = 0.0) -> Block:
    """One line of text across the table (a game's title or final score, a legend)."""

    def draw(page: Page, top: float) -> None:
        if rule:
            page.hline(MARGIN, PAGE_W - MARGIN, top - 0.5)
        page.write(MARGIN + 3, top - ROW_H + 1.5, fit(text, font, size, CONTENT_W - 6), font,
                   size, gray=gray)

    return Block(ROW_H + 2, draw)


def text_row(values: list[str], columns: list[tuple[str, float, str]], shade: bool,
             wrapped: dict[int, str], bold: Sequence[int] = ()) -> Block:
    """A table row; the columns in ``wrapped`` (index → text) wrap onto more lines."""
    lines = {index: wrap(text, REGULAR, ROW_FONT, columns[index][1] - 6, max_lines=3)
             if text else [""] for index, text in wrapped.items()}
    height = ROW_H * max([1, *(len(found) for found in lines.values())])

    def draw(page: Page, top: float) -> None:
        if shade:
            page.zebra(MARGIN, top - height, CONTENT_W, height)
        base = top - ROW_H + 2.5
        x = MARGIN
        for index, (_caption, width, align) in enumerate(columns):
            if index in lines:
                for number, line in enumerate(lines[index]):
                    page.write(x + 3, base - number * ROW_H, line, REGULAR, ROW_FONT)
            elif index < len(values):
                font = BOLD if index in bold else REGULAR
                cell(page, values[index], x, width, base, font, ROW_FONT, align)
            x += width

    return Block(height, draw)
