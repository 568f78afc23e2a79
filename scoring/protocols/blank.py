"""Blank paper protocols for printing: pre-filled header and sides, empty grids to write in."""

from __future__ import annotations

from collections.abc import Sequence

from .data import GAMES, KOZEL, SEATS, ProtocolData, ProtocolSignature
from .fonts import BOLD, REGULAR
from .layout import (
    CONTENT_W,
    MARGIN,
    PAGE_W,
    ROW_H,
    Block,
    Page,
    cell,
    gap,
    section_title,
    table_header,
    text_width,
)
from .sections import header, per_seat, sides, signature_row
from .tables import (
    SEAT_NO_W,
    SEAT_OUTCOME_W,
    penalty_columns,
    seat_geometry,
    seat_head,
    seat_subcolumns,
)

BLANK_ROW_H = 14.0
BLANK_DEAL_ROWS = 24
BLANK_PENALTY_ROWS = 5
BLANK_FULL_ROWS = 26


def _blank_deal_grid(data: ProtocolData) -> list[Block]:
    """Two side-by-side grids of numbered deal rows (two sides)."""
    half_gap = 8.0
    half = (CONTENT_W - half_gap) / 2
    num = (half - 20 - 58) / 4
    widths = [20.0, 58.0, num, num, num, num]
    captions = [data.label("deal_no"), data.label("outcome"), f"{data.label('points')} A",
                f"{data.label('points')} B", f"{data.label('total')} A",
                f"{data.label('total')} B"]
    height = BLANK_ROW_H * BLANK_DEAL_ROWS + ROW_H + 1

    def draw(page: Page, top: float) -> None:
        for side in range(2):
            x0 = MARGIN + side * (half + half_gap)
            page.shaded(x0, top - ROW_H - 1, half, ROW_H + 1)
            x = x0
            for caption, width in zip(captions, widths, strict=True):
                cell(page, caption, x, width, top - ROW_H + 2, BOLD, 6.5, "centre")
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

    return [section_title(data.label("deals")), Block(height, draw)]


def _blank_penalties(data: ProtocolData) -> list[Block]:
    """The penalty table's header over empty rows."""
    columns = penalty_columns(data)
    height = BLANK_ROW_H * BLANK_PENALTY_ROWS

    def draw(page: Page, top: float) -> None:
        bottom = top - height
        page.box(MARGIN, bottom, CONTENT_W, height)
        x = MARGIN
        for _, width, _align in columns[:-1]:
            x += width
            page.vline(x, bottom, top)
        for row in range(1, BLANK_PENALTY_ROWS):
            page.hline(MARGIN, PAGE_W - MARGIN, top - row * BLANK_ROW_H)

    return [section_title(data.label("penalties")), table_header(columns), Block(height, draw)]


def _blank_rows(height: float, top: float, page: Page, rows: int, first_w: float,
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


def _blank_game_grid(data: ProtocolData) -> list[Block]:
    """A paper score card of a match: game, hand, scoring plays, points and the game's totals."""
    num = 44.0
    columns = [(data.label("deal_no"), 24.0, "centre"), (data.label("game"), 34.0, "centre"),
               (data.label("outcome"), 84.0, "centre"),
               (data.label("plays"), CONTENT_W - 142 - 4 * num, "centre"),
               (f"{data.label('points')} A", num, "centre"),
               (f"{data.label('points')} B", num, "centre"),
               (f"{data.label('total')} A", num, "centre"),
               (f"{data.label('total')} B", num, "centre")]
    head = table_header(columns, size=6.5)
    edges = []
    x = MARGIN
    for _caption, width, _align in columns[:-1]:
        x += width
        edges.append(x)
    rows = BLANK_FULL_ROWS
    grid = Block(BLANK_ROW_H * rows, lambda page, top: _blank_rows(
        0, top, page, rows, columns[0][1], edges))
    return [section_title(data.label("deals")), head, grid]


def _blank_seat_grid(data: ProtocolData) -> list[Block]:
    """A paper score sheet with a group of columns per player (Kozel: memorized points)."""
    head = seat_head(data, size=6.5)
    group, sub = seat_geometry(data)
    edges = [MARGIN + SEAT_NO_W, MARGIN + SEAT_NO_W + SEAT_OUTCOME_W]
    for index in range(len(data.seats)):
        start = edges[1] + index * group
        edges += [start + k * sub for k in range(1, len(seat_subcolumns(data)))]
        if index:
            edges.append(start)
    rows = BLANK_FULL_ROWS - 2 * max(0, len(data.seats) - 2)  # room for more signatures
    grid = Block(BLANK_ROW_H * rows, lambda page, top: _blank_rows(
        0, top, page, rows, SEAT_NO_W, edges))
    return [section_title(data.label("deals")), head, grid]


def _blank_result(data: ProtocolData) -> Block:
    """Lines to write the result, the winner and the end reason on."""
    items = [data.label("result"), data.label("match_points"), data.label("winner")]
    if data.layout == GAMES:
        items[0] = data.label("game_wins")
    elif data.layout == KOZEL:
        items = [data.label("goat"), data.label("winner")]
    elif data.layout == SEATS:
        items = [data.label("winner")]

    def draw(page: Page, top: float) -> None:
        y = top - 14
        x = MARGIN
        slot = CONTENT_W / 3
        for caption in items:
            page.write(x, y, caption, REGULAR, 9, gray=0.35)
            page.hline(x + text_width(caption, REGULAR, 9) + 4, x + slot - 12, y - 1.5)
            x += slot
        y -= 18
        caption = data.label("end_reason")
        page.write(MARGIN, y, caption, REGULAR, 9, gray=0.35)
        page.hline(MARGIN + text_width(caption, REGULAR, 9) + 4, PAGE_W - MARGIN, y - 1.5)

    return Block(36, draw)


def _blank_signatures(data: ProtocolData) -> list[ProtocolSignature]:
    """Who signs the paper protocol: as given, else players and referee."""
    if data.signatures:
        return [ProtocolSignature(s.role, s.name, None) for s in data.signatures]
    people = [ProtocolSignature(data.label("player"), player.name, None)
              for side in data.sides for player in side.players]
    people.append(ProtocolSignature(data.label("referee"), data.referee, None))
    return people


def blank_blocks(data: ProtocolData) -> list[Block]:
    """A blank protocol top to bottom: header, sides, grids, result, signatures."""
    blocks = [header(data, data.label("blank_title"), blank=True), sides(data), gap()]
    if data.layout == GAMES:
        blocks += _blank_game_grid(data)
    elif per_seat(data):
        blocks += _blank_seat_grid(data)
    else:
        blocks += _blank_deal_grid(data)
    blocks.append(gap())
    blocks += _blank_penalties(data)
    blocks.append(gap())
    blocks.append(_blank_result(data))
    blocks.append(gap())
    blocks.append(section_title(data.label("signatures")))
    for signature in _blank_signatures(data):
        blocks.append(signature_row(data, signature, blank=True))
    return blocks
