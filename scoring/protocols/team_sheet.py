"""A team match sheet as PDF: both teams, every board's party, the team score, the captains'
and the referee's signature lines; A4, every name whole (wrapped, never cut).

Plain Python like the party protocol: the Django layer fills ``TeamSheetData`` with text that
is already human and translated (the figures from ``scoring.teams.results``), and this module
lays it out with the protocol's blocks, fonts and footer. The sheet is signed (PAdES) with the
protocols' signer.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

from .data import ProtocolSignature
from .fonts import BOLD, REGULAR
from .layout import (
    CONTENT_W,
    MARGIN,
    PAGE_W,
    ROW_FONT,
    ROW_H,
    TOP,
    Block,
    Page,
    breaks,
    cell,
    fit,
    gap,
    section_title,
    table_header,
    text_width,
)
from .render import _binary_streams, _canvas, emit_pages
from .sections import footer, write_facts, write_title
from .team_sheet_data import (
    SheetBoard,
    SheetTeam,
    TeamSheetData,
    team_sheet_data_from_dict,
    team_sheet_fingerprint,
    team_sheet_labels,
)

__all__ = [
    "SheetBoard",
    "SheetTeam",
    "TeamSheetData",
    "render_team_sheet",
    "render_team_sheets",
    "team_sheet_data_from_dict",
    "team_sheet_fingerprint",
    "team_sheet_labels",
]


# --------------------------------------------------------------------------- blocks


def _whole(text: str, font: str, size: float, width: float) -> list[str]:
    """``text`` in lines no wider than ``width``, broken at spaces only; where a word alone is
    wider, also after its hyphens (and inside it only if a part is still wider). Every
    character is kept."""
    words = text.split()
    hyphens = any(text_width(word, font, size) > width for word in words)
    return breaks(" ".join(words), font, size, width, hyphens=hyphens)


def _people(names: str, font: str, size: float, width: float) -> list[str]:
    """A pair's names ("X / Y") a person a line where they do not fit one line, each whole."""
    if text_width(names, font, size) <= width:
        return [names]
    parts = names.split(" / ")
    lines: list[str] = []
    for index, part in enumerate(parts):
        lines += _whole(part + (" /" if index < len(parts) - 1 else ""), font, size, width)
    return lines


def _header(data: TeamSheetData, title: str) -> Block:
    """The title, the tournament (whole) and the round, date, tables and version."""
    tournament = _whole(data.tournament, BOLD, 11.5, CONTENT_W)
    facts = [(caption, value) for caption, value in (
        (data.label("round"), str(data.round_number)), (data.label("date"), data.date),
        (data.label("tables"), data.tables), (data.label("version"), str(data.version)))
        if value]
    height = 20 + 15 * len(tournament) + 16

    def draw(page: Page, top: float) -> None:
        y = write_title(page, top, title, tournament)
        write_facts(page, y - 14, facts, PAGE_W - MARGIN)

    return Block(height, draw)


def _teams(data: TeamSheetData) -> list[Block]:
    """The two teams, one under the other: name, club and captain, each whole."""
    blocks = []
    for key, team in (("team_a", data.team_a), ("team_b", data.team_b)):
        blocks.append(_field(data.label(key), team.name, 11))
        for caption, value in (("club", team.club), ("country", team.country),
                               ("captain", team.captain)):
            if value:
                blocks.append(_field(data.label(caption), value, 9))
    return blocks


def _board_columns(data: TeamSheetData, halves: bool) -> list[tuple[str, float, str]]:
    """Board, (half,) table, the two pairs, points and fines."""
    fixed: list[tuple[str, float, str]] = [(data.label("board"), 36.0, "right")]
    if halves:
        fixed.append((data.label("half"), 32.0, "right"))
    fixed.append((data.label("table"), 40.0, "right"))
    numbers = [(data.label("points"), 48.0, "right"), (data.label("fines_short"), 48.0, "right")]
    rest = CONTENT_W - sum(width for _c, width, _a in [*fixed, *numbers])
    return [*fixed, (data.label("pair"), rest, "left"), *numbers]


def _board_row(board: SheetBoard, columns: list[tuple[str, float, str]], halves: bool,
               shade: bool) -> Block:
    """A board: its numbers, then each team's pair on its own lines with its points and
    fines; the winning pair in bold."""
    first = len(columns) - 3
    width = columns[first][1] - 22
    sides = []
    for key, names, points, fines in (("A", board.pair_a, board.points_a, board.fines_a),
                                      ("B", board.pair_b, board.points_b, board.fines_b)):
        font = BOLD if board.winner == key.lower() else REGULAR
        sides.append((key, _people(names, font, ROW_FONT, width), points, fines, font))
    height = ROW_H * sum(len(lines) for _k, lines, _p, _f, _font in sides) + 3
    numbers = [str(board.board), *([str(board.half)] if halves else []), board.table]

    def draw(page: Page, top: float) -> None:
        if shade:
            page.zebra(MARGIN, top - height, CONTENT_W, height)
        base = top - ROW_H + 1
        x = MARGIN
        for value, (_caption, column, align) in zip(numbers, columns, strict=False):
            cell(page, value, x, column, base, REGULAR, ROW_FONT, align)
            x += column
        x_points = x + columns[first][1]
        for key, lines, points, fines, font in sides:
            page.write(x + 3, base, key, BOLD, ROW_FONT, gray=0.35)
            cell(page, points, x_points, columns[first + 1][1], base, font, ROW_FONT, "right")
            cell(page, fines, x_points + columns[first + 1][1], columns[first + 2][1], base,
                 REGULAR, ROW_FONT, "right")
            for line in lines:
                page.write(x + 19, base, line, font, ROW_FONT)
                base -= ROW_H
        page.hline(MARGIN, PAGE_W - MARGIN, top - height + 0.5)

    return Block(height, draw)


def _board_blocks(data: TeamSheetData) -> list[Block]:
    """The boards' table: board, half, table, both pairs (whole), points and fines."""
    halves = any(board.half > 1 for board in data.boards)
    columns = _board_columns(data, halves)
    head = table_header(columns)
    blocks = [section_title(data.label("boards")), head]
    for index, board in enumerate(data.boards):
        row = _board_row(board, columns, halves, index % 2 == 1)
        row.repeat = [head]
        blocks.append(row)
    return blocks


def _field(caption: str, value: str, size: float = 9.5) -> Block:
    """A caption and its value, the value wrapped whole beside it."""
    room = CONTENT_W - 130
    lines = _whole(value, BOLD, size, room)
    height = 3 + (size + 3.5) * len(lines)

    def draw(page: Page, top: float) -> None:
        page.write(MARGIN, top - size - 4.5, fit(caption, REGULAR, 9, 124), REGULAR, 9,
                   gray=0.35)
        y = top - 1
        for line in lines:
            y -= size + 3.5
            page.write(MARGIN + 130, y, line, BOLD, size)

    return Block(height, draw)


def _score_blocks(data: TeamSheetData) -> list[Block]:
    """The team score under the tournament's method, parties and points, and the winner."""
    blocks = [section_title(data.label("team_score")),
              _field(f"{data.label('team_score')} ({data.scoring})" if data.scoring
                     else data.label("team_score"), data.score, 13)]
    for key, value in (("parties_won", data.parties_won), ("points_total", data.points),
                       ("winner", data.winner)):
        if value:
            blocks.append(_field(data.label(key), value))
    return blocks


def _protocol_blocks(data: TeamSheetData) -> list[Block]:
    """Which party protocols are signed, a line per board."""
    blocks = [section_title(data.label("protocols"))]
    for board in data.boards:
        where = f"{data.label('board')} {board.board}"
        if board.half > 1:
            where = f"{where} · {data.label('half')} {board.half}"
        text = board.protocol
        if board.winner_name:
            text = f"{data.label('winner')}: {board.winner_name} · {text}"
        blocks.append(_field(f"{where} · {data.label('table')} {board.table}", text, 8.5))
    return blocks


def _signature(data: TeamSheetData, line: ProtocolSignature) -> Block:
    """A signature line: role, name (whole) and when signed, over a rule."""
    role_w, name_w = 110.0, 280.0
    names = _whole(line.name, BOLD, 9, name_w - 8)
    height = 8 + 11 * len(names)
    if line.signed_at:
        status = f"{data.label('signed_at')} {line.signed_at}"
    else:
        status = data.label("not_signed")

    def draw(page: Page, top: float) -> None:
        base = top - 11
        page.write(MARGIN, base, fit(line.role, REGULAR, 8.5, role_w - 4), REGULAR, 8.5,
                   gray=0.35)
        for number, text in enumerate(names):
            page.write(MARGIN + role_w, base - 11 * number, text, BOLD, 9)
        x = MARGIN + role_w + name_w
        page.write(x, base, fit(status, REGULAR, 8.5, PAGE_W - MARGIN - x), REGULAR, 8.5)
        page.hline(MARGIN, PAGE_W - MARGIN, top - height + 1)

    return Block(height, draw)


def _sheet_blocks(data: TeamSheetData, title: str) -> list[Block]:
    """The sheet top to bottom."""
    blocks = [_header(data, title), gap(), *_teams(data), gap(), *_board_blocks(data), gap(),
              *_score_blocks(data), gap(), *_protocol_blocks(data), gap(),
              section_title(data.label("signatures"))]
    blocks += [_signature(data, line) for line in data.signatures]
    return blocks


def _continuation(data: TeamSheetData, title: str) -> Callable[[Page], None]:
    """The line that opens a continuation page."""
    text = (f"{title} · {data.tournament} · {data.label('round')} {data.round_number} "
            f"({data.label('continued')})")

    def draw(page: Page) -> None:
        page.write(MARGIN, TOP - 10, fit(text, BOLD, 9, CONTENT_W), BOLD, 9)
        page.hline(MARGIN, PAGE_W - MARGIN, TOP - 15)

    return draw


def _footer(data: TeamSheetData, fingerprint: str | None) -> Callable[[Page, int, int], None]:
    """The protocol's footer under every page of the sheet."""

    def draw(page: Page, number: int, count: int) -> None:
        footer(page, data, fingerprint, number, count)

    return draw


def _title(data: TeamSheetData, draft: bool) -> str:
    return data.label("sheet_draft_title" if draft else "sheet_title")


def render_team_sheets(items: Sequence[tuple[TeamSheetData, str | None]], *,
                       draft: bool = False, invariant: bool = False) -> bytes:
    """Render team match sheets into one fresh A4 PDF, each from a new page; each item is the
    data and its fingerprint (printed in the footer; ``None`` for a draft's)."""
    buffer = io.BytesIO()
    language = items[0][0].language if items else "en"
    canvas = _canvas(buffer, invariant, language)
    canvas.setCreator("domino-tournaments team match sheets")
    if items:
        first = items[0][0]
        canvas.setTitle(f"{_title(first, draft)} · {first.tournament} · "
                        f"{first.label('round')} {first.round_number}")
    if len(items) == 1 and items[0][1]:
        data, fingerprint = items[0]
        canvas.setSubject(data.public_id)
        canvas.setKeywords(f"team-sheet={data.public_id} version={data.version} "
                           f"sha256={fingerprint}")
    with _binary_streams():
        for data, fingerprint in items:
            title = _title(data, draft)
            emit_pages(canvas, _sheet_blocks(data, title), _continuation(data, title),
                       _footer(data, fingerprint))
        if not items:
            canvas.showPage()
        canvas.save()
    return buffer.getvalue()


def render_team_sheet(data: TeamSheetData, fingerprint: str | None = None, *,
                      draft: bool = False, invariant: bool = False) -> bytes:
    """Render one team match sheet as an A4 PDF (a draft says so in its title)."""
    return render_team_sheets([(data, fingerprint)], draft=draft, invariant=invariant)
