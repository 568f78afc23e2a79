"""Slips to cut out and hand over: a player's signing PIN, a person's invitation link.

Ten slips per A4 page (two columns of five) with cut marks at every corner; text in the
embedded DejaVu Sans (Cyrillic names print), the link as a QR code beside it. Nothing on a
slip is cut: names wrap (at spaces and after hyphens), a login or a code is set smaller, then
broken over lines, never shortened; a slip whose text is long is set in smaller type. Plain
Python: the caller passes translated texts.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from .fonts import BOLD, REGULAR, register_fonts
from .layout import Page, breaks, text_width
from .qr import draw_qr

PAGE_W, PAGE_H = A4
COLUMNS, ROWS = 2, 5
MARGIN_X, MARGIN_Y = 28.0, 36.0
SLIP_W = (PAGE_W - 2 * MARGIN_X) / COLUMNS
SLIP_H = (PAGE_H - 2 * MARGIN_Y) / ROWS
PAD = 12.0
MARK = 7.0
PER_PAGE = COLUMNS * ROWS
LEADING = 1.2
HEADING_SIZE = 8.0
CODE_MIN = 9.0


@dataclass
class Slip:
    """One slip: whose it is, the code to keep (a PIN, a login) and what to do with it."""

    heading: str
    name: str
    code_label: str = ""
    code: str = ""
    lines: list[str] = field(default_factory=list)
    qr_url: str = ""


@dataclass(frozen=True)
class _Type:
    """One set of type sizes for a slip, from the largest to the smallest tried."""

    name: float
    code: float
    text: float
    qr: float


TYPES = (_Type(13, 22, 7.5, 92), _Type(12, 18, 7, 84), _Type(11, 16, 6.5, 78),
         _Type(10, 14, 6, 72), _Type(9, 12, 5.5, 66))


def _code_lines(code: str, largest: float, width: float) -> tuple[float, list[str]]:
    """The code's size and lines: the largest size that fits one line, else broken lines."""
    size = largest
    while size > CODE_MIN and text_width(code, BOLD, size) > width:
        size -= 1
    return size, breaks(code, BOLD, size, width)


@dataclass
class _Layout:
    """A slip's lines, set for one ``_Type``: (text, font, size, gray) per line."""

    head: list[tuple[str, str, float, float]]
    side: list[tuple[str, str, float, float]]
    foot: list[tuple[str, str, float, float]]
    qr: float
    code_lines: int

    @staticmethod
    def height_of(lines: list[tuple[str, str, float, float]]) -> float:
        """The height of ``lines`` set one under the other."""
        return sum(size * LEADING for _text, _font, size, _gray in lines)

    def fits(self, room: float) -> bool:
        """Whether the content fits ``room`` with the code on one line."""
        return self.height <= room and self.code_lines <= 1

    @property
    def height(self) -> float:
        """The height of the whole slip's content."""
        side = max(self.height_of(self.side), self.qr)
        return self.height_of(self.head) + 4 + side + 4 + self.height_of(self.foot)


def _layout(slip: Slip, types: _Type) -> _Layout:
    """Set ``slip`` with ``types``: heading, then name and code beside the QR, then the rest."""
    inner = SLIP_W - 2 * PAD
    qr = types.qr if slip.qr_url else 0.0
    side_w = inner - (qr + PAD if qr else 0)
    head = [(line, REGULAR, HEADING_SIZE, 0.35)
            for line in breaks(slip.heading, REGULAR, HEADING_SIZE, inner)]
    side = [(line, BOLD, types.name, 0.0) for line in breaks(slip.name, BOLD, types.name, side_w)]
    code: list[str] = []
    if slip.code:
        side += [(line, REGULAR, 8.0, 0.0) for line in breaks(slip.code_label, REGULAR, 8, side_w)]
        size, code = _code_lines(slip.code, types.code, side_w)
        side += [(line, BOLD, size, 0.0) for line in code]
    foot = [(line, REGULAR, types.text, 0.0)
            for text in slip.lines for line in breaks(text, REGULAR, types.text, inner)]
    return _Layout(head, side, foot, qr, len(code))


def _cut_marks(page: Page) -> None:
    """Short crosses at every corner of the slip grid, outside the text."""
    for col in range(COLUMNS + 1):
        for row in range(ROWS + 1):
            x = MARGIN_X + col * SLIP_W
            y = MARGIN_Y + row * SLIP_H
            page.hline(x - MARK, x + MARK, y)
            page.vline(x, y - MARK, y + MARK)


def _write(page: Page, lines: list[tuple[str, str, float, float]], x: float, y: float) -> float:
    """Write ``lines`` one under the other from the top ``y``; the y under the last."""
    for text, font, size, gray in lines:
        y -= size * LEADING
        page.write(x, y + size * (LEADING - 1), text, font, size, gray=gray)
    return y


def _draw_slip(page: Page, slip: Slip, x: float, y_top: float) -> None:
    """Draw one slip with its top-left corner at (x, y_top), in the largest type that fits."""
    room = SLIP_H - 2 * PAD
    layouts = [_layout(slip, types) for types in TYPES]
    layout = next((found for found in layouts if found.fits(room)), None) or next(
        (found for found in layouts if found.height <= room), layouts[-1])
    left = x + PAD
    y = _write(page, layout.head, left, y_top - PAD) - 4
    if layout.qr:
        draw_qr(page, slip.qr_url, x + SLIP_W - PAD - layout.qr, y, layout.qr)
    y = min(_write(page, layout.side, left, y), y - layout.qr) - 4
    _write(page, layout.foot, left, y)


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
