"""A knockout bracket as a PDF for the wall: one landscape page (A3 or A4), every name whole.

The rounds are columns from the first round to the final, joined by connector lines; the
match for third place sits under the final. Each round's names share one type size, the
largest at which every name of the round fits its box (on one line, or one person a line,
broken only at spaces); a name is never shortened. Only the embedded DejaVu Sans is used.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass

from reportlab.lib.pagesizes import A3, A4, landscape
from reportlab.pdfgen.canvas import Canvas

from scoring.standings.bracket import DECIDED, BracketSheet, SheetMatch, SheetSlot

from .fonts import BOLD, REGULAR, register_fonts
from .layout import Page, breaks, fit, text_width
from .render import _binary_streams

PAGES = {"A3": landscape(A3), "A4": landscape(A4)}

#: The captions the sheet does not carry; the caller passes them translated.
DEFAULT_LABELS = {"bye": "bye", "table": "table"}
RUSSIAN_LABELS = {"bye": "проход без игры", "table": "стол"}

MARGIN = 24.0
COLUMN_GAP = 16.0
SEED_SIZE = 0.8  # the seed's type size against the round's name size
SMALLEST = 2.0
STEP = 0.25
LEADING = 1.15


@dataclass(frozen=True)
class _Frame:
    """Where the bracket goes on the page and how big its type may get."""

    width: float
    height: float
    top: float
    bottom: float
    largest: float
    column: float


@dataclass(frozen=True)
class _Box:
    """One match's box: its left edge, its vertical centre, width and height, and its label's
    type size (0: no room for a label)."""

    x: float
    centre: float
    width: float
    height: float
    label_size: float


def _lines(name: str, size: float, width: float) -> list[str] | None:
    """``name`` in lines no wider than ``width`` at ``size`` (one line, or one person a line
    broken at spaces), or ``None`` when a word would have to be cut."""
    if text_width(name, BOLD, size) <= width:
        return [name]
    parts = name.split(" / ")
    lines: list[str] = []
    for index, part in enumerate(parts):
        text = part + (" /" if index < len(parts) - 1 else "")
        lines += breaks(text, BOLD, size, width, hyphens=False)
    if " ".join(lines) != " ".join(name.split()):
        return None  # a word was cut in pieces
    return lines


def _fits(name: str, size: float, width: float, height: float) -> bool:
    """Whether ``name`` fits a box of ``width`` × ``height`` at ``size``."""
    lines = _lines(name, size, width)
    return lines is not None and len(lines) * size * LEADING <= height


def _round_size(names: list[str], largest: float, width: float, height: float) -> float:
    """The largest size (in steps of ``STEP``) at which every one of ``names`` fits."""
    size = largest
    while size > SMALLEST and not all(_fits(name, size, width, height) for name in names):
        size -= STEP
    return size


def _frame(sheet: BracketSheet, page_size: tuple[float, float]) -> _Frame:
    """The page's bracket area below the title, subtitle and round names."""
    width, height = page_size
    scale = width / landscape(A4)[0]
    columns = max(len(sheet.rounds), 1)
    column = (width - 2 * MARGIN - (columns - 1) * COLUMN_GAP) / columns
    top = height - MARGIN - 18 * scale - (11 * scale if sheet.subtitle else 0) - 12 * scale
    return _Frame(width, height, top, MARGIN, min(9.5 * scale, 14.0), column)


def _boxes(frame: _Frame, matches_first: int, rounds: int) -> list[list[_Box]]:
    """Every match's box, round by round: the first round evenly down the area, each later
    match centred between the two matches that feed it."""
    pitch = (frame.top - frame.bottom) / max(matches_first, 1)
    found: list[list[_Box]] = []
    for number in range(rounds):
        step = pitch * 2**number
        label = min(step * 0.14, 7.0 * frame.largest / 9.5)
        label = label if label >= 3.5 else 0.0
        spacing = max(step * 0.08, 2.0)
        box_h = min(step - label - 1.5 - spacing, frame.largest * LEADING * 6 + 8)
        x = MARGIN + number * (frame.column + COLUMN_GAP)
        count = max(matches_first // 2**number, 1)
        found.append([_Box(x, frame.top - step * (index + 0.5), frame.column, box_h, label)
                      for index in range(count)])
    return found


def _third_box(frame: _Frame, final: _Box) -> _Box:
    """The third-place match's box: in the final's column, halfway down below it."""
    centre = frame.bottom + (final.centre - final.height / 2 - frame.bottom) / 2
    return _Box(final.x, centre, final.width, final.height, max(final.label_size, 5.0))


class _Drawer:
    """Draws the matches of one sheet onto one page."""

    def __init__(self, page: Page, labels: Mapping[str, str], score_w: float) -> None:
        self.page = page
        self.labels = labels
        self.score_w = score_w

    def name_area(self, box: _Box, size: float) -> tuple[float, float]:
        """The left edge and width of the names in ``box`` at ``size``."""
        seed_w = text_width("88", REGULAR, size * SEED_SIZE) + 4
        return box.x + seed_w, box.width - seed_w - self.score_w - 2

    def match(self, match: SheetMatch, box: _Box, size: float) -> None:
        """One match: its label above, its two sides in the box."""
        page = self.page
        top = box.centre + box.height / 2
        if box.label_size:
            label = match.label
            if match.table is not None and match.status != DECIDED:
                label += f" · {self.labels['table']} {match.table}"
            page.write(box.x + 1, top + 1.5, fit(label, REGULAR, box.label_size, box.width),
                       REGULAR, box.label_size, gray=0.35)
        slot_h = box.height / 2
        for index, slot in enumerate(match.slots):
            self.slot(slot, box, top - index * slot_h, slot_h, size)
        page.box(box.x, box.centre - box.height / 2, box.width, box.height)
        page.hline(box.x, box.x + box.width, box.centre)

    def slot(self, slot: SheetSlot, box: _Box, top: float, height: float, size: float) -> None:
        """One side: seed, name (bold and shaded if it won), score."""
        page = self.page
        centre = top - height / 2
        if slot.winner:
            page.shaded(box.x, top - height, box.width, height)
        if slot.seed is not None:
            small = size * SEED_SIZE
            page.write(box.x + 2, centre - 0.365 * small, str(slot.seed), REGULAR, small,
                       gray=0.4)
        left, width = self.name_area(box, size)
        font = BOLD if slot.winner else REGULAR
        if slot.bye:
            page.write(left, centre - 0.365 * size, self.labels["bye"], REGULAR, size, gray=0.5)
        elif slot.name:
            lines = _lines(slot.name, size, width) or breaks(slot.name, BOLD, size, width)
            leading = size * LEADING
            first = centre + len(lines) * leading / 2 - (leading + 0.73 * size) / 2
            for number, line in enumerate(lines):
                page.write(left, first - number * leading, line, font, size)
        if slot.score:
            page.write(box.x + box.width - 2, centre - 0.365 * size, slot.score, BOLD, size,
                       "right")

    def connect(self, feeds: tuple[_Box, _Box], target: _Box) -> None:
        """The lines from two matches' right edges to the match they feed."""
        page = self.page
        middle = feeds[0].x + feeds[0].width + COLUMN_GAP / 2
        for box in feeds:
            page.hline(box.x + box.width, middle, box.centre)
        page.vline(middle, feeds[1].centre, feeds[0].centre)
        page.hline(middle, target.x, target.centre)


def _sizes(sheet: BracketSheet, drawer: _Drawer, boxes: list[list[_Box]],
           largest: float) -> list[float]:
    """Each round's name size: the largest at which all its names fit their boxes."""
    sizes = []
    for round_, column in zip(sheet.rounds, boxes, strict=True):
        names = [slot.name for match in round_.matches for slot in match.slots if slot.name]
        box = column[0]
        size = largest
        while True:  # the name area shrinks a little with the seed's size
            _, width = drawer.name_area(box, size)
            found = _round_size(names, size, width, box.height / 2 - 1.5)
            done = found == size or found <= SMALLEST
            size = found
            if done:
                break
        sizes.append(size)
    return sizes


def _header(page: Page, sheet: BracketSheet, frame: _Frame,
            boxes: list[list[_Box]]) -> None:
    """The title, the subtitle and each round's name over its column."""
    scale = frame.width / landscape(A4)[0]
    y = frame.height - MARGIN - 14 * scale
    page.write(MARGIN, y, fit(sheet.title, BOLD, 14 * scale, frame.width - 2 * MARGIN), BOLD,
               14 * scale)
    if sheet.subtitle:
        y -= 11 * scale
        page.write(MARGIN, y, sheet.subtitle, REGULAR, 8 * scale, gray=0.3)
    for round_, column in zip(sheet.rounds, boxes, strict=True):
        page.write(column[0].x + column[0].width / 2, frame.top + 4 * scale,
                   fit(round_.name, BOLD, 8 * scale, frame.column), BOLD, 8 * scale, "centre")


def bracket_pdf(sheet: BracketSheet, page: str = "A3", *,
                labels: Mapping[str, str] | None = None, invariant: bool = False) -> bytes:
    """Render ``sheet`` on one landscape ``page`` ("A3" or "A4") and return the PDF's bytes.

    ``labels`` are the captions the sheet does not carry (``DEFAULT_LABELS``' keys: "bye",
    "table"), translated by the caller. Up to 64 slots fit a page; every name is printed
    whole, in a smaller type where it is long. ``invariant`` gives byte-identical output.
    """
    if page not in PAGES:
        raise ValueError(f"page must be one of {sorted(PAGES)}, not {page!r}")
    register_fonts()
    frame = _frame(sheet, PAGES[page])
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=PAGES[page], invariant=1 if invariant else 0,
                    pageCompression=1,
                    initialFontName=REGULAR)  # type: ignore[arg-type]  # stub wrongly says float
    canvas.setTitle(sheet.title)
    canvas.setSubject(sheet.subtitle)
    canvas.setCreator("domino-tournaments brackets")
    first = len(sheet.rounds[0].matches) if sheet.rounds else 0
    boxes = _boxes(frame, first, len(sheet.rounds))
    scores = [slot.score for round_ in sheet.rounds for match in round_.matches
              for slot in match.slots]
    score_w = max([text_width(score, BOLD, frame.largest) for score in scores] + [6.0]) + 4
    with _binary_streams():
        sheet_page = Page(canvas)
        drawer = _Drawer(sheet_page, {**DEFAULT_LABELS, **(labels or {})}, score_w)
        sizes = _sizes(sheet, drawer, boxes, frame.largest)
        _header(sheet_page, sheet, frame, boxes)
        for number, (round_, column) in enumerate(zip(sheet.rounds, boxes, strict=True)):
            for index, (match, box) in enumerate(zip(round_.matches, column, strict=True)):
                drawer.match(match, box, sizes[number])
                if number + 1 < len(boxes):
                    if index % 2 == 0 and index + 1 < len(column):
                        drawer.connect((box, column[index + 1]), boxes[number + 1][index // 2])
        if sheet.third_place is not None and boxes:
            third = _third_box(frame, boxes[-1][0])
            size = _round_size([slot.name for slot in sheet.third_place.slots if slot.name],
                               sizes[-1], drawer.name_area(third, sizes[-1])[1],
                               third.height / 2 - 1.5)
            drawer.match(sheet.third_place, third, size)
        sheet_page.finish()
        canvas.save()
    return buffer.getvalue()
