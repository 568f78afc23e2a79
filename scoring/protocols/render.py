"""Render party protocols as PDF with reportlab: signed-off protocols, blank paper protocols,
and one-file batches of either for printing a whole round.

The layout is computed first as a list of blocks (each with a fixed height and a draw
function), then paginated, then drawn. Text goes into one text object per page and lines,
shading and the QR code into one path each, which keeps a one-page protocol in a few
milliseconds. Only the embedded DejaVu Sans is used, never a PDF base font.
"""

from __future__ import annotations

import contextlib
import functools
import io
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import segno
from reportlab import rl_config
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from .data import (
    GAMES,
    KOZEL,
    SEATS,
    ProtocolData,
    ProtocolDeal,
    ProtocolPenalty,
    ProtocolPlayer,
    ProtocolSide,
    ProtocolSignature,
)
from .fingerprint import canonical_json, protocol_fingerprint
from .fonts import BOLD, REGULAR, register_fonts

__all__ = [
    "canonical_json",
    "protocol_fingerprint",
    "render_batch",
    "render_blank",
    "render_protocol",
]

PAGE_W, PAGE_H = A4
MARGIN = 36.0
CONTENT_W = PAGE_W - 2 * MARGIN
TOP = PAGE_H - 30.0
TOP_CONTINUED = TOP - 22.0
BOTTOM = 42.0
QR_SIZE = 72.0
#: A fixed QR mask: choosing the best of eight costs ~4 ms per code and any mask is valid.
QR_MASK = 2

SECTION_GAP = 7.0
TITLE_H = 13.0
ROW_H = 10.0
ROW_FONT = 8.0
HEAD_FONT = 7.5
BLANK_ROW_H = 14.0
BLANK_DEAL_ROWS = 24
BLANK_PENALTY_ROWS = 5
MAX_WRAP_LINES = 4
ELLIPSIS = "…"


# --------------------------------------------------------------------------- text helpers


@functools.lru_cache(maxsize=8192)
def _width(text: str, font: str, size: float) -> float:
    return stringWidth(text, font, size)


def _fit(text: str, font: str, size: float, width: float) -> str:
    """Shorten ``text`` with an ellipsis so that it fits ``width``."""
    if _width(text, font, size) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _width(text[:mid].rstrip() + ELLIPSIS, font, size) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS


def _wrap(text: str, font: str, size: float, width: float,
          max_lines: int = MAX_WRAP_LINES) -> list[str]:
    """Break ``text`` into lines no wider than ``width`` (at most ``max_lines``)."""
    text = " ".join(text.split())
    if not text or _width(text, font, size) <= width:
        return [text]
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        candidate = f"{current} {word}" if current else word
        if _width(candidate, font, size) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        # A single word wider than the column is cut into pieces.
        while _width(word, font, size) > width and len(word) > 1:
            cut = len(word) - 1
            while cut > 1 and _width(word[:cut], font, size) > width:
                cut -= 1
            lines.append(word[:cut])
            word = word[cut:]
        current = word
    if current:
        lines.append(current)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = _fit(lines[-1] + ELLIPSIS, font, size, width)
    return lines


# --------------------------------------------------------------------------- page drawing


class _Page:
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
            w = _width(text, font, size)
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
class _Block:
    """A horizontal strip of the page: its height and how to draw it from a top edge."""

    height: float
    draw: Callable[[_Page, float], None]
    keep_with_next: bool = False
    repeat: list[_Block] | None = None  # drawn again at the top of a continuation page
    is_gap: bool = False  # dropped when it would open a page


def _gap(height: float = SECTION_GAP) -> _Block:
    return _Block(height, lambda page, top: None, is_gap=True)


def _paginate(blocks: list[_Block]) -> list[list[_Block]]:
    pages: list[list[_Block]] = [[]]
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


def _qr_rectangles(matrix: Sequence[Sequence[int]]) -> list[tuple[int, int, int, int]]:
    """Cover the dark modules with rectangles ``(column, row, width, height)``.

    Horizontal runs of dark modules are merged with identical runs in the rows below, which
    roughly halves the number of rectangles (and of numbers reportlab has to format).
    """
    open_runs: dict[tuple[int, int], int] = {}  # (start, end) -> first row
    rects: list[tuple[int, int, int, int]] = []
    n = len(matrix)
    for r in range(n + 1):
        runs: set[tuple[int, int]] = set()
        if r < n:
            row = matrix[r]
            c = 0
            while c < n:
                if row[c]:
                    start = c
                    while c < n and row[c]:
                        c += 1
                    runs.add((start, c))
                else:
                    c += 1
        for run in list(open_runs):
            if run not in runs:
                first = open_runs.pop(run)
                rects.append((run[0], first, run[1] - run[0], r - first))
        for run in runs:
            open_runs.setdefault(run, r)
    return rects


def _draw_qr(page: _Page, url: str, x: float, y_top: float, size: float) -> None:
    """Draw a QR code for ``url`` as filled rectangles (no image, no reportlab widget)."""
    qr = segno.make(url, error="m", micro=False, mask=QR_MASK)
    matrix = qr.matrix
    module = size / len(matrix)
    for col, row, width, height in _qr_rectangles(matrix):
        page.filled(x + col * module, y_top - (row + height) * module, width * module,
                    height * module)


# --------------------------------------------------------------------------- shared blocks


def _table_header(columns: list[tuple[str, float, str]], size: float = HEAD_FONT,
                  height: float = ROW_H + 1) -> _Block:
    def draw(page: _Page, top: float) -> None:
        page.shaded(MARGIN, top - height, CONTENT_W, height)
        x = MARGIN
        base = top - height + 3
        for caption, width, align in columns:
            _cell(page, caption, x, width, base, BOLD, size, align)
            x += width

    return _Block(height, draw, keep_with_next=True)


def _cell(page: _Page, text: str, x: float, width: float, base: float, font: str,
          size: float, align: str) -> None:
    pad = 3.0
    text = _fit(text, font, size, width - 2 * pad)
    if align == "right":
        page.write(x + width - pad, base, text, font, size, "right")
    elif align == "centre":
        page.write(x + width / 2, base, text, font, size, "centre")
    else:
        page.write(x + pad, base, text, font, size)


def _section_title(text: str) -> _Block:
    def draw(page: _Page, top: float) -> None:
        page.write(MARGIN, top - 10, text, BOLD, 9.5)

    return _Block(TITLE_H, draw, keep_with_next=True)


def _header(data: ProtocolData, title: str, blank: bool) -> _Block:
    """Title, tournament, round/table/date/times/referee and the QR code."""
    has_qr = bool(data.verify_url)
    text_w = CONTENT_W - (QR_SIZE + 12 if has_qr else 0)
    tournament_lines = _wrap(data.tournament, BOLD, 11.5, text_w, max_lines=2)
    blank_value = "__________"
    facts_1 = [
        (data.label("round"), str(data.round_number)),
        (data.label("table"), data.table),
        (data.label("date"), data.date or blank_value),
    ]
    facts_2 = [
        (data.label("start"), "" if blank else data.start_time),
        (data.label("end"), "" if blank else data.end_time),
    ]
    if blank:
        facts_2 = [(caption, blank_value) for caption, _ in facts_2]
    facts_3 = [(data.label("referee"), data.referee or blank_value)]
    if not blank:
        facts_3.append((data.label("version"), str(data.version)))
    text_h = 20 + 14 * len(tournament_lines) + 3 * 13
    height = max(text_h, QR_SIZE + 13 if has_qr else 0) + 2

    def facts(page: _Page, y: float, items: list[tuple[str, str]]) -> None:
        x = MARGIN
        limit = MARGIN + text_w
        for caption, value in items:
            if x >= limit - 20:
                break
            page.write(x, y, caption, REGULAR, 9, gray=0.35)
            x += _width(caption, REGULAR, 9) + 4
            value = _fit(value, BOLD, 9.5, limit - x)
            page.write(x, y, value, BOLD, 9.5)
            x += _width(value, BOLD, 9.5) + 16

    def draw(page: _Page, top: float) -> None:
        page.write(MARGIN, top - 14, title, BOLD, 15)
        y = top - 14
        for line in tournament_lines:
            y -= 15
            page.write(MARGIN, y, line, BOLD, 11.5)
        for items in (facts_1, facts_2, facts_3):
            y -= 13.5
            facts(page, y, items)
        if has_qr:
            qx = PAGE_W - MARGIN - QR_SIZE
            _draw_qr(page, data.verify_url, qx, top, QR_SIZE)
            if data.short_code:
                page.write(qx + QR_SIZE / 2, top - QR_SIZE - 10, data.short_code, BOLD, 9.5,
                           "centre")

    return _Block(height, draw)


def _per_seat(data: ProtocolData) -> bool:
    """Whether every player scores for himself (Kozel, Draw, Block, Classic)."""
    return data.layout in (SEATS, KOZEL) and bool(data.seats)


def _seat_list(data: ProtocolData) -> _Block:
    """The players in playing order, two a line: seat and name."""
    half = CONTENT_W / 2
    lines = (len(data.seats) + 1) // 2
    height = 13 + 11 * lines

    def draw(page: _Page, top: float) -> None:
        page.write(MARGIN, top - 10, data.label("players"), REGULAR, 9, gray=0.35)
        for index, seat in enumerate(data.seats):
            x = MARGIN + (index % 2) * half
            y = top - 10 - 11 * (index // 2 + 1)
            page.write(x + 8, y, seat.seat.upper(), REGULAR, 8.5, gray=0.35)
            page.write(x + 30, y, _fit(seat.name, BOLD, 9, half - 40), BOLD, 9)

    return _Block(height, draw)


def _sides(data: ProtocolData) -> _Block:
    if _per_seat(data):
        return _seat_list(data)
    half = CONTENT_W / 2

    def listed(side: ProtocolSide) -> list[ProtocolPlayer]:
        """The players under a side's name (not a lone player already named as the side)."""
        if len(side.players) == 1 and side.players[0].name == side.name:
            return []
        return side.players

    rows = max((len(listed(side)) for side in data.sides), default=0)
    height = 13 + 11 * rows

    def draw(page: _Page, top: float) -> None:
        for index, side in enumerate(data.sides[:2]):
            x = MARGIN + index * half
            one = data.label("player") if len(side.players) == 1 else data.label("pair")
            caption = f"{one} {side.key.upper()}: "
            page.write(x, top - 10, caption, REGULAR, 9, gray=0.35)
            cw = _width(caption, REGULAR, 9)
            page.write(x + cw, top - 10, _fit(side.name, BOLD, 9.5, half - cw - 8), BOLD, 9.5)
            y = top - 10
            for player in listed(side):
                y -= 11
                seat = f"{player.seat}" if player.seat else ""
                page.write(x + 8, y, seat, REGULAR, 8.5, gray=0.35)
                page.write(x + 30, y, _fit(player.name, REGULAR, 9, half - 40), REGULAR, 9)

    return _Block(height, draw)


def _footer(page: _Page, data: ProtocolData, fingerprint: str | None, number: int,
            count: int) -> None:
    """Two lines under a rule: the full fingerprint and page number, then id and link."""
    page.hline(MARGIN, PAGE_W - MARGIN, 37)
    page_no = f"{data.label('page')} {number} {data.label('of')} {count}"
    page.write(PAGE_W - MARGIN, 28, page_no, REGULAR, 7, "right")
    if fingerprint:
        caption = f"{data.label('fingerprint')}: "
        page.write(MARGIN, 28, caption, REGULAR, 6.5, gray=0.35)
        page.write(MARGIN + _width(caption, REGULAR, 6.5), 28, fingerprint, BOLD, 6.5)
    parts = []
    if data.public_id and data.public_id in data.verify_url:  # the link already names it
        parts.append(f"{data.label('version')} {data.version}")
    elif data.public_id:
        parts.append(f"{data.label('public_id')} {data.public_id} · "
                     f"{data.label('version')} {data.version}")
    if data.short_code:
        parts.append(f"{data.label('short_code')}: {data.short_code}")
    if data.verify_url:
        parts.append(f"{data.label('verify')}: {data.verify_url}")
    if parts:
        line = _fit("  ·  ".join(parts), REGULAR, 6.5, CONTENT_W)
        page.write(MARGIN, 19, line, REGULAR, 6.5)


def _continuation_header(page: _Page, data: ProtocolData, title: str) -> None:
    line = (f"{title} · {data.tournament} · {data.label('round')} {data.round_number} · "
            f"{data.label('table')} {data.table} ({data.label('continued')})")
    page.write(MARGIN, TOP - 10, _fit(line, BOLD, 9, CONTENT_W), BOLD, 9)
    page.hline(MARGIN, PAGE_W - MARGIN, TOP - 15)


def _emit(canvas: Canvas, data: ProtocolData, blocks: list[_Block], title: str,
          fingerprint: str | None) -> int:
    pages = _paginate(blocks)
    for number, page_blocks in enumerate(pages, start=1):
        page = _Page(canvas)
        y = TOP
        if number > 1:
            _continuation_header(page, data, title)
            y = TOP_CONTINUED
        for block in page_blocks:
            block.draw(page, y)
            y -= block.height
        _footer(page, data, fingerprint, number, len(pages))
        page.finish()
    return len(pages)


# --------------------------------------------------------------------------- protocol


def _deal_columns(data: ProtocolData) -> list[tuple[str, float, str]]:
    a, b = "A", "B"
    num = 62.0
    fixed = 24 + 104 + 4 * num
    return [
        (data.label("deal_no"), 24, "right"),
        (data.label("outcome"), 104, "left"),
        (f"{data.label('points')} {a}", num, "right"),
        (f"{data.label('points')} {b}", num, "right"),
        (f"{data.label('total')} {a}", num, "right"),
        (f"{data.label('total')} {b}", num, "right"),
        (data.label("note"), CONTENT_W - fixed, "left"),
    ]


def _deal_row(deal: ProtocolDeal, columns: list[tuple[str, float, str]], shade: bool) -> _Block:
    note_w = columns[-1][1] - 6
    note_lines = _wrap(deal.note, REGULAR, ROW_FONT, note_w) if deal.note else [""]
    height = ROW_H * len(note_lines)
    values = [str(deal.number), deal.outcome, str(deal.points_a), str(deal.points_b),
              str(deal.running_a), str(deal.running_b)]

    def draw(page: _Page, top: float) -> None:
        if shade:
            page.zebra(MARGIN, top - height, CONTENT_W, height)
        base = top - ROW_H + 2.5
        x = MARGIN
        for index, ((_, width, align), value) in enumerate(zip(columns, values, strict=False)):
            font = BOLD if index >= 4 else REGULAR  # running totals stand out
            _cell(page, value, x, width, base, font, ROW_FONT, align)
            x += width
        for line in note_lines:
            page.write(x + 3, base, line, REGULAR, ROW_FONT)
            base -= ROW_H

    return _Block(height, draw)


# -- the games of RULES.md sections 2 and 3 --------------------------------------------------


def _line_block(text: str, font: str = BOLD, size: float = 8.5, *, rule: bool = False,
                gray: float = 0.0) -> _Block:
    """One line of text across the table (a game's title or final score, a legend)."""

    def draw(page: _Page, top: float) -> None:
        if rule:
            page.hline(MARGIN, PAGE_W - MARGIN, top - 0.5)
        page.write(MARGIN + 3, top - ROW_H + 1.5, _fit(text, font, size, CONTENT_W - 6), font,
                   size, gray=gray)

    return _Block(ROW_H + 2, draw)


def _text_row(values: list[str], columns: list[tuple[str, float, str]], shade: bool,
              wrapped: dict[int, str], bold: Sequence[int] = ()) -> _Block:
    """A table row; the columns in ``wrapped`` (index → text) wrap onto more lines."""
    lines = {index: _wrap(text, REGULAR, ROW_FONT, columns[index][1] - 6, max_lines=3)
             if text else [""] for index, text in wrapped.items()}
    height = ROW_H * max([1, *(len(found) for found in lines.values())])

    def draw(page: _Page, top: float) -> None:
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
                _cell(page, values[index], x, width, base, font, ROW_FONT, align)
            x += width

    return _Block(height, draw)


def _game_columns(data: ProtocolData) -> list[tuple[str, float, str]]:
    num = 44.0
    fixed = 24 + 96 + 4 * num + 116
    return [
        (data.label("deal_no"), 24, "right"),
        (data.label("outcome"), 96, "left"),
        (f"{data.label('points')} A", num, "right"),
        (f"{data.label('points')} B", num, "right"),
        (f"{data.label('total')} A", num, "right"),
        (f"{data.label('total')} B", num, "right"),
        (data.label("plays"), 116, "left"),
        (data.label("note"), CONTENT_W - fixed, "left"),
    ]


def _game_deal_blocks(data: ProtocolData) -> list[_Block]:
    """The hands game by game: each game's title, its hands, then its final score and winner."""
    columns = _game_columns(data)
    head = _table_header(columns)
    repeat = [_section_title(f"{data.label('deals')} ({data.label('continued')})"), head]
    blocks = [_section_title(data.label("deals")), head]
    by_game: dict[int, list[ProtocolDeal]] = {}
    for deal in data.deals:
        by_game.setdefault(deal.game or 1, []).append(deal)
    games = {game.number: game for game in data.games}
    numbers = [*games, *sorted(number for number in by_game if number not in games)]
    for number in numbers:
        title = _line_block(f"{data.label('game')} {number}")
        title.keep_with_next = True
        title.repeat = repeat
        blocks.append(title)
        for index, deal in enumerate(by_game.get(number, [])):
            values = [str(deal.number), deal.outcome, str(deal.points_a), str(deal.points_b),
                      str(deal.running_a), str(deal.running_b)]
            row = _text_row(values, columns, index % 2 == 1, {6: deal.plays, 7: deal.note},
                            bold=(4, 5))
            row.repeat = repeat
            blocks.append(row)
        game = games.get(number)
        if game is not None:
            text = f"{data.label('game')} {number}: {game.points_a} : {game.points_b}"
            if game.winner:
                text = f"{text} · {data.label('winner')}: {game.winner}"
            footer = _line_block(text, rule=True)
            footer.repeat = repeat
            blocks.append(footer)
    return blocks


def _games_summary(data: ProtocolData) -> list[_Block]:
    """Every game's final score and winner, the official score card's own lines."""
    columns = [(data.label("game"), 60.0, "left"), (data.label("score"), 100.0, "left"),
               (data.label("winner"), CONTENT_W - 160, "left")]
    head = _table_header(columns)
    blocks = [_section_title(data.label("games")), head]
    for index, game in enumerate(data.games):
        row = _text_row([str(game.number), f"{game.points_a} : {game.points_b}", game.winner],
                        columns, index % 2 == 1, {}, bold=(1,))
        row.repeat = [_section_title(f"{data.label('games')} ({data.label('continued')})"), head]
        blocks.append(row)
    return blocks


SEAT_NO_W = 22.0
SEAT_OUTCOME_W = 92.0


def _seat_subcolumns(data: ProtocolData) -> list[str]:
    """What each player's group of columns holds: the deal and the total (Kozel: the account
    and the memorized points)."""
    if data.layout == KOZEL:
        return [data.label("deal_points"), data.label("account"), data.label("memorized_short")]
    return [data.label("deal_points"), data.label("total")]


def _seat_geometry(data: ProtocolData) -> tuple[float, float]:
    """The width of a player's group of columns and of one column in it."""
    group = (CONTENT_W - SEAT_NO_W - SEAT_OUTCOME_W) / max(1, len(data.seats))
    return group, group / len(_seat_subcolumns(data))


def _seat_rules(page: _Page, data: ProtocolData, top: float, bottom: float) -> None:
    """Vertical rules between the players' groups of columns."""
    group, _sub = _seat_geometry(data)
    x = MARGIN + SEAT_NO_W + SEAT_OUTCOME_W
    for _seat in data.seats:
        page.vline(x, bottom, top)
        x += group


def _seat_head(data: ProtocolData, size: float = HEAD_FONT) -> _Block:
    """Two header lines: each player's seat and name over his columns, then what they hold."""
    height = 2 * ROW_H + 2
    subs = _seat_subcolumns(data)
    group, sub = _seat_geometry(data)

    def draw(page: _Page, top: float) -> None:
        page.shaded(MARGIN, top - height, CONTENT_W, height)
        first, second = top - ROW_H + 2, top - 2 * ROW_H + 2.5
        _cell(page, data.label("deal_no"), MARGIN, SEAT_NO_W, second, BOLD, size, "right")
        _cell(page, data.label("outcome"), MARGIN + SEAT_NO_W, SEAT_OUTCOME_W, second, BOLD,
              size, "left")
        x = MARGIN + SEAT_NO_W + SEAT_OUTCOME_W
        for seat in data.seats:
            _cell(page, f"{seat.seat.upper()} {seat.name}", x, group, first, BOLD, size,
                  "centre")
            for index, caption in enumerate(subs):
                _cell(page, caption, x + index * sub, sub, second, BOLD, size - 0.5, "right")
            x += group
        _seat_rules(page, data, top, top - height)

    return _Block(height, draw, keep_with_next=True)


def _seat_row(data: ProtocolData, deal: ProtocolDeal, shade: bool) -> _Block:
    """A deal with every player's points, total (Kozel: account, "–" while not open) and
    memorized points; the note on a line of its own below."""
    kozel = data.layout == KOZEL
    group, sub = _seat_geometry(data)
    width = CONTENT_W - SEAT_NO_W - 6
    note_lines = _wrap(deal.note, REGULAR, ROW_FONT, width, max_lines=2) if deal.note else []
    height = ROW_H * (1 + len(note_lines))

    def draw(page: _Page, top: float) -> None:
        if shade:
            page.zebra(MARGIN, top - height, CONTENT_W, height)
        base = top - ROW_H + 2.5
        _cell(page, str(deal.number), MARGIN, SEAT_NO_W, base, REGULAR, ROW_FONT, "right")
        _cell(page, deal.outcome, MARGIN + SEAT_NO_W, SEAT_OUTCOME_W, base, REGULAR, ROW_FONT,
              "left")
        x = MARGIN + SEAT_NO_W + SEAT_OUTCOME_W
        for seat in data.seats:
            key = seat.seat.lower()
            points = (deal.seat_points or {}).get(key)
            running = (deal.seat_running or {}).get(key)
            values = [("" if points is None else str(points), REGULAR)]
            if kozel and deal.opened is not None and not deal.opened.get(key, True):
                values.append(("–", BOLD))
            else:
                values.append(("" if running is None else str(running), BOLD))
            if kozel:
                memorized = (deal.memorized or {}).get(key)
                values.append(("" if memorized is None else str(memorized), REGULAR))
            for index, (value, font) in enumerate(values):
                _cell(page, value, x + index * sub, sub, base, font, ROW_FONT, "right")
            x += group
        _seat_rules(page, data, top, top - ROW_H)
        for number, line in enumerate(note_lines, start=1):
            page.write(MARGIN + SEAT_NO_W + 3, base - number * ROW_H, line, REGULAR, ROW_FONT,
                       gray=0.35)

    return _Block(height, draw)


def _seat_deal_blocks(data: ProtocolData) -> list[_Block]:
    """The deals with a group of columns per player (Kozel: with the memorized points)."""
    head = _seat_head(data)
    repeat = [_section_title(f"{data.label('deals')} ({data.label('continued')})"), head]
    blocks = [_section_title(data.label("deals")), head]
    for index, deal in enumerate(data.deals):
        row = _seat_row(data, deal, index % 2 == 1)
        row.repeat = repeat
        blocks.append(row)
    if data.layout == KOZEL:
        blocks.append(_line_block(data.label("not_open"), REGULAR, 7, gray=0.35))
    return blocks


def _seat_summary(data: ProtocolData) -> list[_Block]:
    """Each player's standing at the end: points, fines (Kozel: memorized points, whether the
    account is open, the rating after the game) and who is the Goat or the winner."""
    kozel = data.layout == KOZEL
    columns: list[tuple[str, float, str]] = [
        (data.label("seat"), 40.0, "left"), (data.label("player"), 0.0, "left"),
        (data.label("points"), 45.0, "right"), (data.label("fines"), 45.0, "right")]
    if kozel:
        columns += [(data.label("memorized"), 45.0, "right"),
                    (data.label("account_open"), 82.0, "right"),
                    (data.label("rating"), 48.0, "right")]
    columns.append(("", 80.0, "left"))
    rest = CONTENT_W - sum(width for _caption, width, _align in columns)
    columns[1] = (columns[1][0], rest, "left")
    head = _table_header(columns)
    blocks = [_section_title(data.label("players")), head]
    for index, seat in enumerate(data.seats):
        values = [seat.seat.upper(), seat.name, str(seat.points), str(seat.fines)]
        if kozel:
            opened = "" if seat.opened is None else data.label("yes" if seat.opened else "no")
            values += ["" if seat.memorized is None else str(seat.memorized), opened,
                       "" if seat.rating is None else str(seat.rating)]
        mark = data.label("goat") if seat.goat else data.label("winner") if seat.winner else ""
        values.append(mark)
        blocks.append(_text_row(values, columns, index % 2 == 1, {},
                                bold=(2, len(values) - 1)))
    return blocks


def _penalty_columns(data: ProtocolData) -> list[tuple[str, float, str]]:
    fixed = 34 + 28 + 108 + 148 + 34
    return [
        (data.label("time"), 34, "left"),
        (data.label("side"), 28, "left"),
        (data.label("player"), 108, "left"),
        (data.label("kind"), 148, "left"),
        (data.label("points"), 34, "right"),
        (data.label("reason"), CONTENT_W - fixed, "left"),
    ]


def _penalty_row(penalty: ProtocolPenalty, columns: list[tuple[str, float, str]],
                 shade: bool) -> _Block:
    """One row; the kind (a ruling with its choice and fine) and the reason wrap."""
    kind_lines = _wrap(penalty.kind, REGULAR, ROW_FONT, columns[3][1] - 6, max_lines=3)
    reason_lines = _wrap(penalty.reason, REGULAR, ROW_FONT, columns[-1][1] - 6)
    height = ROW_H * max(len(kind_lines), len(reason_lines))
    values = [penalty.time, penalty.side, penalty.player, "",
              str(penalty.points) if penalty.points else "–"]

    def draw(page: _Page, top: float) -> None:
        if shade:
            page.zebra(MARGIN, top - height, CONTENT_W, height)
        base = top - ROW_H + 2.5
        x = MARGIN
        for index, ((_, width, align), value) in enumerate(zip(columns, values, strict=False)):
            if index == 3:
                for number, line in enumerate(kind_lines):
                    page.write(x + 3, base - number * ROW_H, line, REGULAR, ROW_FONT)
            else:
                _cell(page, value, x, width, base, REGULAR, ROW_FONT, align)
            x += width
        for line in reason_lines:
            page.write(x + 3, base, line, REGULAR, ROW_FONT)
            base -= ROW_H

    return _Block(height, draw)


def _result_lines(data: ProtocolData) -> tuple[list[tuple[str, str, float]], str | None]:
    """The result's first line (caption, value, size) and whether a winner's line follows.

    Sport domino: the score and the match points; a match of games: the games won; Kozel:
    the Goat; a game of single players: its winner. The winner's line follows unless the
    first line already names him.
    """
    if data.layout == GAMES:
        first = [(data.label("game_wins"), data.game_wins, 13.0),
                 (data.label("match_points"), data.match_points, 11.0)]
    elif data.layout == KOZEL:
        first = [(data.label("goat"), data.goat, 13.0)]
    elif data.layout == SEATS:
        return [(data.label("winner"), data.winner, 13.0)], None
    else:
        first = [(data.label("result"), data.result, 13.0),
                 (data.label("match_points"), data.match_points, 11.0)]
    return first, data.winner


def _result(data: ProtocolData) -> _Block:
    end_lines = _wrap(data.end_reason, REGULAR, 9, CONTENT_W - 90, max_lines=2)
    first, winner = _result_lines(data)
    height = 17 + (12 if winner is not None else -3) + 12 * len(end_lines)

    def pair(page: _Page, x: float, y: float, caption: str, value: str, size: float) -> float:
        page.write(x, y, caption, REGULAR, 9, gray=0.35)
        x += _width(caption, REGULAR, 9) + 5
        page.write(x, y, value, BOLD, size)
        return x + _width(value, BOLD, size) + 24

    def draw(page: _Page, top: float) -> None:
        y = top - 13
        x = MARGIN
        for caption, value, size in first:
            x = pair(page, x, y, caption, _fit(value, BOLD, size, CONTENT_W - 90), size)
        if winner is not None:
            y -= 15
            pair(page, MARGIN, y, data.label("winner"), _fit(winner, BOLD, 9.5, CONTENT_W - 90),
                 9.5)
        caption = data.label("end_reason")
        for index, line in enumerate(end_lines):
            y -= 12
            if index == 0:
                page.write(MARGIN, y, caption, REGULAR, 9, gray=0.35)
            page.write(MARGIN + max(_width(caption, REGULAR, 9) + 5, 80), y, line, REGULAR, 9)

    return _Block(height, draw)


def _signature_row(data: ProtocolData, signature: ProtocolSignature, blank: bool) -> _Block:
    height = 18.0 if blank else 13.0
    role_w, name_w = 80.0, 190.0

    def draw(page: _Page, top: float) -> None:
        base = top - height + 4
        page.write(MARGIN, base, _fit(signature.role, REGULAR, 8.5, role_w - 4), REGULAR, 8.5,
                   gray=0.35)
        page.write(MARGIN + role_w, base, _fit(signature.name, BOLD, 9, name_w - 6), BOLD, 9)
        x = MARGIN + role_w + name_w
        if blank:
            page.hline(x, PAGE_W - MARGIN, base - 1.5)
            return
        if signature.refused_reason is not None:
            status = f"{data.label('refused')}: {signature.refused_reason}"
            if signature.signed_at:
                status = f"{signature.signed_at} · {status}"
            font = BOLD
        elif signature.signed_at:
            status = f"{data.label('signed_at')} {signature.signed_at}"
            font = REGULAR
        else:
            status = data.label("not_signed")
            font = REGULAR
        page.write(x, base, _fit(status, font, 8.5, PAGE_W - MARGIN - x), font, 8.5)
        page.hline(MARGIN, PAGE_W - MARGIN, top - height + 1)

    return _Block(height, draw)


def _protocol_blocks(data: ProtocolData) -> list[_Block]:
    blocks = [_header(data, data.label("title"), blank=False), _sides(data), _gap()]

    if data.layout == GAMES:
        blocks += _game_deal_blocks(data)
        if data.games:
            blocks += [_gap(), *_games_summary(data)]
    elif _per_seat(data):
        blocks += [*_seat_deal_blocks(data), _gap(), *_seat_summary(data)]
    else:
        columns = _deal_columns(data)
        title = _section_title(data.label("deals"))
        head = _table_header(columns)
        blocks += [title, head]
        for index, deal in enumerate(data.deals):
            row = _deal_row(deal, columns, shade=index % 2 == 1)
            row.repeat = [
                _section_title(f"{data.label('deals')} ({data.label('continued')})"), head]
            blocks.append(row)
    blocks.append(_gap())

    columns = _penalty_columns(data)
    title = _section_title(data.label("penalties"))
    if data.penalties:
        head = _table_header(columns)
        blocks += [title, head]
        for index, penalty in enumerate(data.penalties):
            row = _penalty_row(penalty, columns, shade=index % 2 == 1)
            row.repeat = [
                _section_title(f"{data.label('penalties')} ({data.label('continued')})"), head]
            blocks.append(row)
    else:
        title.keep_with_next = True
        none = data.label("none")
        blocks += [title, _Block(ROW_H + 2, lambda page, top: page.write(
            MARGIN + 3, top - ROW_H + 2, none, REGULAR, ROW_FONT))]
    blocks.append(_gap())

    result = _result(data)
    blocks.append(result)
    blocks.append(_gap())
    blocks.append(_section_title(data.label("signatures")))
    for signature in data.signatures:
        blocks.append(_signature_row(data, signature, blank=False))
    return blocks


# --------------------------------------------------------------------------- blank


def _blank_deal_grid(data: ProtocolData) -> list[_Block]:
    half_gap = 8.0
    half = (CONTENT_W - half_gap) / 2
    num = (half - 20 - 58) / 4
    widths = [20.0, 58.0, num, num, num, num]
    captions = [data.label("deal_no"), data.label("outcome"), f"{data.label('points')} A",
                f"{data.label('points')} B", f"{data.label('total')} A",
                f"{data.label('total')} B"]
    height = BLANK_ROW_H * BLANK_DEAL_ROWS + ROW_H + 1

    def draw(page: _Page, top: float) -> None:
        for side in range(2):
            x0 = MARGIN + side * (half + half_gap)
            page.shaded(x0, top - ROW_H - 1, half, ROW_H + 1)
            x = x0
            for caption, width in zip(captions, widths, strict=True):
                _cell(page, caption, x, width, top - ROW_H + 2, BOLD, 6.5, "centre")
                x += width
            bottom = top - height
            page.box(x0, bottom, half, height)
            x = x0
            for width in widths[:-1]:
                x += width
                page.vline(x, bottom, top)
            y = top - ROW_H - 1
            for row in range(BLANK_DEAL_ROWS):
                page.hline(x0, x0 + half, y)
                number = side * BLANK_DEAL_ROWS + row + 1
                page.write(x0 + widths[0] - 3, y - BLANK_ROW_H + 3.5, str(number), REGULAR,
                           7, "right", gray=0.45)
                y -= BLANK_ROW_H

    return [_section_title(data.label("deals")), _Block(height, draw)]


def _blank_penalties(data: ProtocolData) -> list[_Block]:
    columns = _penalty_columns(data)
    height = BLANK_ROW_H * BLANK_PENALTY_ROWS

    def draw(page: _Page, top: float) -> None:
        bottom = top - height
        page.box(MARGIN, bottom, CONTENT_W, height)
        x = MARGIN
        for _, width, _align in columns[:-1]:
            x += width
            page.vline(x, bottom, top)
        for row in range(1, BLANK_PENALTY_ROWS):
            page.hline(MARGIN, PAGE_W - MARGIN, top - row * BLANK_ROW_H)

    return [_section_title(data.label("penalties")), _table_header(columns), _Block(height, draw)]


BLANK_FULL_ROWS = 26


def _blank_rows(height: float, top: float, page: _Page, rows: int, first_w: float,
                edges: Sequence[float]) -> None:
    """A full-width grid under a header of ``height``: rules, column edges, deal numbers."""
    bottom = top - height - BLANK_ROW_H * rows
    page.box(MARGIN, bottom, CONTENT_W, top - bottom)
    for x in edges:
        page.vline(x, bottom, top)
    y = top - height
    for row in range(rows):
        page.hline(MARGIN, PAGE_W - MARGIN, y)
        page.write(MARGIN + first_w - 3, y - BLANK_ROW_H + 3.5, str(row + 1), REGULAR, 7,
                   "right", gray=0.45)
        y -= BLANK_ROW_H


def _blank_game_grid(data: ProtocolData) -> list[_Block]:
    """A paper score card of a match: game, hand, scoring plays, points and the game's totals."""
    num = 44.0
    columns = [(data.label("deal_no"), 24.0, "centre"), (data.label("game"), 34.0, "centre"),
               (data.label("outcome"), 84.0, "centre"),
               (data.label("plays"), CONTENT_W - 142 - 4 * num, "centre"),
               (f"{data.label('points')} A", num, "centre"),
               (f"{data.label('points')} B", num, "centre"),
               (f"{data.label('total')} A", num, "centre"),
               (f"{data.label('total')} B", num, "centre")]
    head = _table_header(columns, size=6.5)
    edges = []
    x = MARGIN
    for _caption, width, _align in columns[:-1]:
        x += width
        edges.append(x)
    rows = BLANK_FULL_ROWS
    grid = _Block(BLANK_ROW_H * rows, lambda page, top: _blank_rows(
        0, top, page, rows, columns[0][1], edges))
    return [_section_title(data.label("deals")), head, grid]


def _blank_seat_grid(data: ProtocolData) -> list[_Block]:
    """A paper score sheet with a group of columns per player (Kozel: memorized points)."""
    head = _seat_head(data, size=6.5)
    group, sub = _seat_geometry(data)
    edges = [MARGIN + SEAT_NO_W, MARGIN + SEAT_NO_W + SEAT_OUTCOME_W]
    for index in range(len(data.seats)):
        start = edges[1] + index * group
        edges += [start + k * sub for k in range(1, len(_seat_subcolumns(data)))]
        if index:
            edges.append(start)
    rows = BLANK_FULL_ROWS - 2 * max(0, len(data.seats) - 2)  # room for more signatures
    grid = _Block(BLANK_ROW_H * rows, lambda page, top: _blank_rows(
        0, top, page, rows, SEAT_NO_W, edges))
    return [_section_title(data.label("deals")), head, grid]


def _blank_result(data: ProtocolData) -> _Block:
    items = [data.label("result"), data.label("match_points"), data.label("winner")]
    if data.layout == GAMES:
        items[0] = data.label("game_wins")
    elif data.layout == KOZEL:
        items = [data.label("goat"), data.label("winner")]
    elif data.layout == SEATS:
        items = [data.label("winner")]

    def draw(page: _Page, top: float) -> None:
        y = top - 14
        x = MARGIN
        slot = CONTENT_W / 3
        for caption in items:
            page.write(x, y, caption, REGULAR, 9, gray=0.35)
            page.hline(x + _width(caption, REGULAR, 9) + 4, x + slot - 12, y - 1.5)
            x += slot
        y -= 18
        caption = data.label("end_reason")
        page.write(MARGIN, y, caption, REGULAR, 9, gray=0.35)
        page.hline(MARGIN + _width(caption, REGULAR, 9) + 4, PAGE_W - MARGIN, y - 1.5)

    return _Block(36, draw)


def _blank_signatures(data: ProtocolData) -> list[ProtocolSignature]:
    if data.signatures:
        return [ProtocolSignature(s.role, s.name, None) for s in data.signatures]
    people = [ProtocolSignature(data.label("player"), player.name, None)
              for side in data.sides for player in side.players]
    people.append(ProtocolSignature(data.label("referee"), data.referee, None))
    return people


def _blank_blocks(data: ProtocolData) -> list[_Block]:
    blocks = [_header(data, data.label("blank_title"), blank=True), _sides(data), _gap()]
    if data.layout == GAMES:
        blocks += _blank_game_grid(data)
    elif _per_seat(data):
        blocks += _blank_seat_grid(data)
    else:
        blocks += _blank_deal_grid(data)
    blocks.append(_gap())
    blocks += _blank_penalties(data)
    blocks.append(_gap())
    blocks.append(_blank_result(data))
    blocks.append(_gap())
    blocks.append(_section_title(data.label("signatures")))
    for signature in _blank_signatures(data):
        blocks.append(_signature_row(data, signature, blank=True))
    return blocks


# --------------------------------------------------------------------------- public API


#: reportlab keeps per-document font-subset state on the shared font objects and reads the
#: global ``rl_config``; one render at a time per process keeps both safe under threads (the
#: work is CPU-bound under the GIL anyway, so nothing is lost).
_render_lock = threading.RLock()


@contextlib.contextmanager
def _binary_streams() -> Iterator[None]:
    """Write streams Flate-compressed only, without the ASCII85 layer reportlab adds by default.

    ASCII85-encoding the embedded font subsets is a third of the rendering time and makes the
    file bigger; every PDF reader handles binary streams. Also holds the render lock.
    """
    with _render_lock:
        previous = rl_config.useA85
        rl_config.useA85 = 0
        try:
            yield
        finally:
            rl_config.useA85 = previous


def _canvas(buffer: io.BytesIO, invariant: bool, language: str) -> Canvas:
    register_fonts()
    canvas = Canvas(buffer, pagesize=A4, invariant=1 if invariant else 0, pageCompression=1,
                    initialFontName=REGULAR, lang=language or None)
    canvas.setCreator("domino-tournaments protocols")
    canvas.setProducer("domino-tournaments / reportlab")
    return canvas


def _draw_one(canvas: Canvas, data: ProtocolData, blank: bool) -> int:
    if blank:
        return _emit(canvas, data, _blank_blocks(data), data.label("blank_title"), None)
    fingerprint = protocol_fingerprint(data)
    return _emit(canvas, data, _protocol_blocks(data), data.label("title"), fingerprint)


def render_protocol(data: ProtocolData, *, invariant: bool = False) -> bytes:
    """Render one party's protocol as an A4 PDF and return its bytes.

    A normal party (about 30 deals and 10 penalties) fits one page; longer ones continue on
    further pages with the table headers repeated. The page carries a QR code of
    ``verify_url``, the short code and the data fingerprint. ``invariant=True`` makes the
    output byte-identical for identical data (fixed dates and document id).
    """
    buffer = io.BytesIO()
    canvas = _canvas(buffer, invariant, data.language)
    fingerprint = protocol_fingerprint(data)
    canvas.setTitle(f"{data.label('title')} · {data.tournament} · "
                    f"{data.label('round')} {data.round_number} · "
                    f"{data.label('table')} {data.table}")
    canvas.setSubject(data.public_id)
    canvas.setKeywords(f"protocol={data.public_id} version={data.version} sha256={fingerprint}")
    with _binary_streams():
        _emit(canvas, data, _protocol_blocks(data), data.label("title"), fingerprint)
        canvas.save()
    return buffer.getvalue()


def render_blank(data: ProtocolData) -> bytes:
    """Render a blank paper protocol pre-filled with tournament, round, table and pairs."""
    return render_batch([data], blank=True)


def render_batch(items: Sequence[ProtocolData], *, blank: bool = False,
                 progress: Callable[[int, int], None] | None = None,
                 invariant: bool = False) -> bytes:
    """Render many protocols (or blank protocols) into one fresh PDF, each from a new page.

    ``progress(done, total)`` is called after each protocol. The result is a new document
    drawn in one canvas, never a merge of separate (possibly signed) files.
    """
    buffer = io.BytesIO()
    language = items[0].language if items else "en"
    canvas = _canvas(buffer, invariant, language)
    if items:
        first = items[0]
        title = first.label("blank_title" if blank else "title")
        canvas.setTitle(f"{title} · {first.tournament} · {first.label('round')} "
                        f"{first.round_number}")
    total = len(items)
    with _binary_streams():
        for done, data in enumerate(items, start=1):
            _draw_one(canvas, data, blank)
            if progress is not None:
                progress(done, total)
        if not items:
            canvas.showPage()
        canvas.save()
    return buffer.getvalue()
