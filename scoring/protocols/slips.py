"""Slips to cut out and hand over: a player's signing PIN, a person's invitation link.

Ten slips per A4 page (two columns of five) with cut marks at every corner; text in the
embedded DejaVu Sans (Cyrillic names print), the link as a QR code beside it. Plain Python:
the caller passes translated texts.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from .fonts import BOLD, REGULAR, register_fonts
from .layout import Page, fit, text_width, wrap
from .qr import draw_qr

PAGE_W, PAGE_H = A4
COLUMNS, ROWS = 2, 5
MARGIN_X, MARGIN_Y = 28.0, 36.0
SLIP_W = (PAGE_W - 2 * MARGIN_X) / COLUMNS
SLIP_H = (PAGE_H - 2 * MARGIN_Y) / ROWS
PAD = 12.0
MARK = 7.0
QR_SIZE = 92.0
PER_PAGE = COLUMNS * ROWS


@dataclass
class Slip:
    """One slip: whose it is, the code to keep (a PIN, a login) and what to do with it."""

    heading: str
    name: str
    code_label: str = ""
    code: str = ""
    lines: list[str] = field(default_factory=list)
    qr_url: str = ""


def _cut_marks(page: Page) -> None:
    """Short crosses at every corner of the slip grid, outside the text."""
    for col in range(COLUMNS + 1):
        for row in range(ROWS + 1):
            x = MARGIN_X + col * SLIP_W
            y = MARGIN_Y + row * SLIP_H
            page.hline(x - MARK, x + MARK, y)
            page.vline(x, y - MARK, y + MARK)


def _draw_slip(page: Page, slip: Slip, x: float, y_top: float) -> None:
    """Draw one slip with its top-left corner at (x, y_top)."""
    text_w = SLIP_W - 2 * PAD - (QR_SIZE + PAD if slip.qr_url else 0)
    left = x + PAD
    y = y_top - PAD - 8
    page.write(left, y, fit(slip.heading, REGULAR, 8, SLIP_W - 2 * PAD), REGULAR, 8, gray=0.35)
    y -= 17
    page.write(left, y, fit(slip.name, BOLD, 13, text_w), BOLD, 13)
    if slip.code:
        y -= 15
        page.write(left, y, fit(slip.code_label, REGULAR, 8, text_w), REGULAR, 8)
        size = 22.0  # the code is never cut: smaller type until it fits
        while size > 8 and text_width(slip.code, BOLD, size) > text_w:
            size -= 1
        y -= size + 2
        page.write(left, y, fit(slip.code, BOLD, size, text_w), BOLD, size)
    y -= 6
    for text in slip.lines:
        for line in wrap(text, REGULAR, 7.5, text_w, max_lines=4):
            y -= 9.5
            if y < y_top - SLIP_H + PAD:
                return
            page.write(left, y, line, REGULAR, 7.5)
    if slip.qr_url:
        draw_qr(page, slip.qr_url, x + SLIP_W - PAD - QR_SIZE, y_top - PAD - 14, QR_SIZE)


def render_slips(slips: list[Slip], *, title: str = "", language: str = "") -> bytes:
    """One PDF of ``slips``, ten to an A4 page, with cut marks; empty list, one blank page."""
    register_fonts()
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, pageCompression=1,
                    initialFontName=REGULAR,  # type: ignore[arg-type]  # stub wrongly says float
                    lang=language or None)
    canvas.setTitle(title)
    canvas.setCreator("domino-tournaments slips")
    for start in range(0, max(len(slips), 1), PER_PAGE):
        page = Page(canvas)
        _cut_marks(page)
        for index, slip in enumerate(slips[start:start + PER_PAGE]):
            col, row = index % COLUMNS, index // COLUMNS
            _draw_slip(page, slip, MARGIN_X + col * SLIP_W, PAGE_H - MARGIN_Y - row * SLIP_H)
        page.finish()
    canvas.save()
    return buffer.getvalue()
