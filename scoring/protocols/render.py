"""Render party protocols as PDF with reportlab: signed-off protocols, blank paper protocols,
and one-file batches of either for printing a whole round.

The layout is computed first as a list of blocks (each with a fixed height and a draw
function), then paginated, then drawn. Text goes into one text object per page and lines,
shading and the QR code into one path each, which keeps a one-page protocol in a few
milliseconds. Only the embedded DejaVu Sans is used, never a PDF base font.
"""

from __future__ import annotations

import contextlib
import io
import threading
from collections.abc import Callable, Iterator, Sequence

from reportlab import rl_config
from reportlab.lib.pagesizes import A4
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
from .layout import (
    CONTENT_W,
    HEAD_FONT,
    MARGIN,
    PAGE_W,
    ROW_FONT,
    ROW_H,
    TOP,
    TOP_CONTINUED,
    Block,
    Page,
    cell,
    fit,
    gap,
    line_block,
    paginate,
    section_title,
    table_header,
    text_row,
    text_width,
    wrap,
)
from .qr import draw_qr

__all__ = [
    "canonical_json",
    "protocol_fingerprint",
    "render_batch",
    "render_blank",
    "render_protocol",
]

QR_SIZE = 72.0
BLANK_ROW_H = 14.0
BLANK_DEAL_ROWS = 24
BLANK_PENALTY_ROWS = 5


# --------------------------------------------------------------------------- shared blocks


def _header(data: ProtocolData, title: str, blank: bool) -> Block:
    """Title, tournament, round/table/date/times/referee and the QR code."""
    has_qr = bool(data.verify_url)
    text_w = CONTENT_W - (QR_SIZE + 12 if has_qr else 0)
    tournament_lines = wrap(data.tournament, BOLD, 11.5, text_w, max_lines=2)
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

    def facts(page: Page, y: float, items: list[tuple[str, str]]) -> None:
        x = MARGIN
        limit = MARGIN + text_w
        for caption, value in items:
            if x >= limit - 20:
                break
            page.write(x, y, caption, REGULAR, 9, gray=0.35)
            x += text_width(caption, REGULAR, 9) + 4
            value = fit(value, BOLD, 9.5, limit - x)
            page.write(x, y, value, BOLD, 9.5)
            x += text_width(value, BOLD, 9.5) + 16

    def draw(page: Page, top: float) -> None:
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
            draw_qr(page, data.verify_url, qx, top, QR_SIZE)
            if data.short_code:
                page.write(qx + QR_SIZE / 2, top - QR_SIZE - 10, data.short_code, BOLD, 9.5,
                           "centre")

    return Block(height, draw)


def _per_seat(data: ProtocolData) -> bool:
    """Whether every player scores for himself (Kozel, Draw, Block, Classic)."""
    return data.layout in (SEATS, KOZEL) and bool(data.seats)


def _seat_list(data: ProtocolData) -> Block:
    """The players in playing order, two a line: seat and name."""
    half = CONTENT_W / 2
    lines = (len(data.seats) + 1) // 2
    height = 13 + 11 * lines

    def draw(page: Page, top: float) -> None:
        page.write(MARGIN, top - 10, data.label("players"), REGULAR, 9, gray=0.35)
        for index, seat in enumerate(data.seats):
            x = MARGIN + (index % 2) * half
            y = top - 10 - 11 * (index // 2 + 1)
            page.write(x + 8, y, seat.seat.upper(), REGULAR, 8.5, gray=0.35)
            page.write(x + 30, y, fit(seat.name, BOLD, 9, half - 40), BOLD, 9)

    return Block(height, draw)


def _sides(data: ProtocolData) -> Block:
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

    def draw(page: Page, top: float) -> None:
        for index, side in enumerate(data.sides[:2]):
            x = MARGIN + index * half
            one = data.label("player") if len(side.players) == 1 else data.label("pair")
            caption = f"{one} {side.key.upper()}: "
            page.write(x, top - 10, caption, REGULAR, 9, gray=0.35)
            cw = text_width(caption, REGULAR, 9)
            page.write(x + cw, top - 10, fit(side.name, BOLD, 9.5, half - cw - 8), BOLD, 9.5)
            y = top - 10
            for player in listed(side):
                y -= 11
                seat = f"{player.seat}" if player.seat else ""
                page.write(x + 8, y, seat, REGULAR, 8.5, gray=0.35)
                page.write(x + 30, y, fit(player.name, REGULAR, 9, half - 40), REGULAR, 9)

    return Block(height, draw)


def _footer(page: Page, data: ProtocolData, fingerprint: str | None, number: int,
            count: int) -> None:
    """Two lines under a rule: the full fingerprint and page number, then id and link."""
    page.hline(MARGIN, PAGE_W - MARGIN, 37)
    page_no = f"{data.label('page')} {number} {data.label('of')} {count}"
    page.write(PAGE_W - MARGIN, 28, page_no, REGULAR, 7, "right")
    if fingerprint:
        caption = f"{data.label('fingerprint')}: "
        page.write(MARGIN, 28, caption, REGULAR, 6.5, gray=0.35)
        page.write(MARGIN + text_width(caption, REGULAR, 6.5), 28, fingerprint, BOLD, 6.5)
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
        line = fit("  ·  ".join(parts), REGULAR, 6.5, CONTENT_W)
        page.write(MARGIN, 19, line, REGULAR, 6.5)


def _continuation_header(page: Page, data: ProtocolData, title: str) -> None:
    line = (f"{title} · {data.tournament} · {data.label('round')} {data.round_number} · "
            f"{data.label('table')} {data.table} ({data.label('continued')})")
    page.write(MARGIN, TOP - 10, fit(line, BOLD, 9, CONTENT_W), BOLD, 9)
    page.hline(MARGIN, PAGE_W - MARGIN, TOP - 15)


def _emit(canvas: Canvas, data: ProtocolData, blocks: list[Block], title: str,
          fingerprint: str | None) -> int:
    pages = paginate(blocks)
    for number, page_blocks in enumerate(pages, start=1):
        page = Page(canvas)
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


def _deal_row(deal: ProtocolDeal, columns: list[tuple[str, float, str]], shade: bool) -> Block:
    note_w = columns[-1][1] - 6
    note_lines = wrap(deal.note, REGULAR, ROW_FONT, note_w) if deal.note else [""]
    height = ROW_H * len(note_lines)
    values = [str(deal.number), deal.outcome, str(deal.points_a), str(deal.points_b),
              str(deal.running_a), str(deal.running_b)]

    def draw(page: Page, top: float) -> None:
        if shade:
            page.zebra(MARGIN, top - height, CONTENT_W, height)
        base = top - ROW_H + 2.5
        x = MARGIN
        for index, ((_, width, align), value) in enumerate(zip(columns, values, strict=False)):
            font = BOLD if index >= 4 else REGULAR  # running totals stand out
            cell(page, value, x, width, base, font, ROW_FONT, align)
            x += width
        for line in note_lines:
            page.write(x + 3, base, line, REGULAR, ROW_FONT)
            base -= ROW_H

    return Block(height, draw)


# -- the games of RULES.md sections 2 and 3 --------------------------------------------------


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


def _game_deal_blocks(data: ProtocolData) -> list[Block]:
    """The hands game by game: each game's title, its hands, then its final score and winner."""
    columns = _game_columns(data)
    head = table_header(columns)
    repeat = [section_title(f"{data.label('deals')} ({data.label('continued')})"), head]
    blocks = [section_title(data.label("deals")), head]
    by_game: dict[int, list[ProtocolDeal]] = {}
    for deal in data.deals:
        by_game.setdefault(deal.game or 1, []).append(deal)
    games = {game.number: game for game in data.games}
    numbers = [*games, *sorted(number for number in by_game if number not in games)]
    for number in numbers:
        title = line_block(f"{data.label('game')} {number}")
        title.keep_with_next = True
        title.repeat = repeat
        blocks.append(title)
        for index, deal in enumerate(by_game.get(number, [])):
            values = [str(deal.number), deal.outcome, str(deal.points_a), str(deal.points_b),
                      str(deal.running_a), str(deal.running_b)]
            row = text_row(values, columns, index % 2 == 1, {6: deal.plays, 7: deal.note},
                           bold=(4, 5))
            row.repeat = repeat
            blocks.append(row)
        game = games.get(number)
        if game is not None:
            text = f"{data.label('game')} {number}: {game.points_a} : {game.points_b}"
            if game.winner:
                text = f"{text} · {data.label('winner')}: {game.winner}"
            footer = line_block(text, rule=True)
            footer.repeat = repeat
            blocks.append(footer)
    return blocks


def _games_summary(data: ProtocolData) -> list[Block]:
    """Every game's final score and winner, the official score card's own lines."""
    columns = [(data.label("game"), 60.0, "left"), (data.label("score"), 100.0, "left"),
               (data.label("winner"), CONTENT_W - 160, "left")]
    head = table_header(columns)
    blocks = [section_title(data.label("games")), head]
    for index, game in enumerate(data.games):
        row = text_row([str(game.number), f"{game.points_a} : {game.points_b}", game.winner],
                       columns, index % 2 == 1, {}, bold=(1,))
        row.repeat = [section_title(f"{data.label('games')} ({data.label('continued')})"), head]
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


def _seat_rules(page: Page, data: ProtocolData, top: float, bottom: float) -> None:
    """Vertical rules between the players' groups of columns."""
    group, _sub = _seat_geometry(data)
    x = MARGIN + SEAT_NO_W + SEAT_OUTCOME_W
    for _seat in data.seats:
        page.vline(x, bottom, top)
        x += group


def _seat_head(data: ProtocolData, size: float = HEAD_FONT) -> Block:
    """Two header lines: each player's seat and name over his columns, then what they hold."""
    height = 2 * ROW_H + 2
    subs = _seat_subcolumns(data)
    group, sub = _seat_geometry(data)

    def draw(page: Page, top: float) -> None:
        page.shaded(MARGIN, top - height, CONTENT_W, height)
        first, second = top - ROW_H + 2, top - 2 * ROW_H + 2.5
        cell(page, data.label("deal_no"), MARGIN, SEAT_NO_W, second, BOLD, size, "right")
        cell(page, data.label("outcome"), MARGIN + SEAT_NO_W, SEAT_OUTCOME_W, second, BOLD,
             size, "left")
        x = MARGIN + SEAT_NO_W + SEAT_OUTCOME_W
        for seat in data.seats:
            cell(page, f"{seat.seat.upper()} {seat.name}", x, group, first, BOLD, size,
                 "centre")
            for index, caption in enumerate(subs):
                cell(page, caption, x + index * sub, sub, second, BOLD, size - 0.5, "right")
            x += group
        _seat_rules(page, data, top, top - height)

    return Block(height, draw, keep_with_next=True)


def _seat_row(data: ProtocolData, deal: ProtocolDeal, shade: bool) -> Block:
    """A deal with every player's points, total (Kozel: account, "–" while not open) and
    memorized points; the note on a line of its own below."""
    kozel = data.layout == KOZEL
    group, sub = _seat_geometry(data)
    width = CONTENT_W - SEAT_NO_W - 6
    note_lines = wrap(deal.note, REGULAR, ROW_FONT, width, max_lines=2) if deal.note else []
    height = ROW_H * (1 + len(note_lines))

    def draw(page: Page, top: float) -> None:
        if shade:
            page.zebra(MARGIN, top - height, CONTENT_W, height)
        base = top - ROW_H + 2.5
        cell(page, str(deal.number), MARGIN, SEAT_NO_W, base, REGULAR, ROW_FONT, "right")
        cell(page, deal.outcome, MARGIN + SEAT_NO_W, SEAT_OUTCOME_W, base, REGULAR, ROW_FONT,
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
                cell(page, value, x + index * sub, sub, base, font, ROW_FONT, "right")
            x += group
        _seat_rules(page, data, top, top - ROW_H)
        for number, line in enumerate(note_lines, start=1):
            page.write(MARGIN + SEAT_NO_W + 3, base - number * ROW_H, line, REGULAR, ROW_FONT,
                       gray=0.35)

    return Block(height, draw)


def _seat_deal_blocks(data: ProtocolData) -> list[Block]:
    """The deals with a group of columns per player (Kozel: with the memorized points)."""
    head = _seat_head(data)
    repeat = [section_title(f"{data.label('deals')} ({data.label('continued')})"), head]
    blocks = [section_title(data.label("deals")), head]
    for index, deal in enumerate(data.deals):
        row = _seat_row(data, deal, index % 2 == 1)
        row.repeat = repeat
        blocks.append(row)
    if data.layout == KOZEL:
        blocks.append(line_block(data.label("not_open"), REGULAR, 7, gray=0.35))
    return blocks


def _seat_summary(data: ProtocolData) -> list[Block]:
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
    head = table_header(columns)
    blocks = [section_title(data.label("players")), head]
    for index, seat in enumerate(data.seats):
        values = [seat.seat.upper(), seat.name, str(seat.points), str(seat.fines)]
        if kozel:
            opened = "" if seat.opened is None else data.label("yes" if seat.opened else "no")
            values += ["" if seat.memorized is None else str(seat.memorized), opened,
                       "" if seat.rating is None else str(seat.rating)]
        mark = data.label("goat") if seat.goat else data.label("winner") if seat.winner else ""
        values.append(mark)
        blocks.append(text_row(values, columns, index % 2 == 1, {},
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
                 shade: bool) -> Block:
    """One row; the kind (a ruling with its choice and fine) and the reason wrap."""
    kind_lines = wrap(penalty.kind, REGULAR, ROW_FONT, columns[3][1] - 6, max_lines=3)
    reason_lines = wrap(penalty.reason, REGULAR, ROW_FONT, columns[-1][1] - 6)
    height = ROW_H * max(len(kind_lines), len(reason_lines))
    values = [penalty.time, penalty.side, penalty.player, "",
              str(penalty.points) if penalty.points else "–"]

    def draw(page: Page, top: float) -> None:
        if shade:
            page.zebra(MARGIN, top - height, CONTENT_W, height)
        base = top - ROW_H + 2.5
        x = MARGIN
        for index, ((_, width, align), value) in enumerate(zip(columns, values, strict=False)):
            if index == 3:
                for number, line in enumerate(kind_lines):
                    page.write(x + 3, base - number * ROW_H, line, REGULAR, ROW_FONT)
            else:
                cell(page, value, x, width, base, REGULAR, ROW_FONT, align)
            x += width
        for line in reason_lines:
            page.write(x + 3, base, line, REGULAR, ROW_FONT)
            base -= ROW_H

    return Block(height, draw)


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


def _result(data: ProtocolData) -> Block:
    end_lines = wrap(data.end_reason, REGULAR, 9, CONTENT_W - 90, max_lines=2)
    first, winner = _result_lines(data)
    height = 17 + (12 if winner is not None else -3) + 12 * len(end_lines)

    def pair(page: Page, x: float, y: float, caption: str, value: str, size: float) -> float:
        page.write(x, y, caption, REGULAR, 9, gray=0.35)
        x += text_width(caption, REGULAR, 9) + 5
        page.write(x, y, value, BOLD, size)
        return x + text_width(value, BOLD, size) + 24

    def draw(page: Page, top: float) -> None:
        y = top - 13
        x = MARGIN
        for caption, value, size in first:
            x = pair(page, x, y, caption, fit(value, BOLD, size, CONTENT_W - 90), size)
        if winner is not None:
            y -= 15
            pair(page, MARGIN, y, data.label("winner"), fit(winner, BOLD, 9.5, CONTENT_W - 90),
                 9.5)
        caption = data.label("end_reason")
        for index, line in enumerate(end_lines):
            y -= 12
            if index == 0:
                page.write(MARGIN, y, caption, REGULAR, 9, gray=0.35)
            page.write(MARGIN + max(text_width(caption, REGULAR, 9) + 5, 80), y, line, REGULAR, 9)

    return Block(height, draw)


def _signature_row(data: ProtocolData, signature: ProtocolSignature, blank: bool) -> Block:
    height = 18.0 if blank else 13.0
    role_w, name_w = 80.0, 190.0

    def draw(page: Page, top: float) -> None:
        base = top - height + 4
        page.write(MARGIN, base, fit(signature.role, REGULAR, 8.5, role_w - 4), REGULAR, 8.5,
                   gray=0.35)
        page.write(MARGIN + role_w, base, fit(signature.name, BOLD, 9, name_w - 6), BOLD, 9)
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
        page.write(x, base, fit(status, font, 8.5, PAGE_W - MARGIN - x), font, 8.5)
        page.hline(MARGIN, PAGE_W - MARGIN, top - height + 1)

    return Block(height, draw)


def _protocol_blocks(data: ProtocolData) -> list[Block]:
    blocks = [_header(data, data.label("title"), blank=False), _sides(data), gap()]

    if data.layout == GAMES:
        blocks += _game_deal_blocks(data)
        if data.games:
            blocks += [gap(), *_games_summary(data)]
    elif _per_seat(data):
        blocks += [*_seat_deal_blocks(data), gap(), *_seat_summary(data)]
    else:
        columns = _deal_columns(data)
        title = section_title(data.label("deals"))
        head = table_header(columns)
        blocks += [title, head]
        for index, deal in enumerate(data.deals):
            row = _deal_row(deal, columns, shade=index % 2 == 1)
            row.repeat = [
                section_title(f"{data.label('deals')} ({data.label('continued')})"), head]
            blocks.append(row)
    blocks.append(gap())

    columns = _penalty_columns(data)
    title = section_title(data.label("penalties"))
    if data.penalties:
        head = table_header(columns)
        blocks += [title, head]
        for index, penalty in enumerate(data.penalties):
            row = _penalty_row(penalty, columns, shade=index % 2 == 1)
            row.repeat = [
                section_title(f"{data.label('penalties')} ({data.label('continued')})"), head]
            blocks.append(row)
    else:
        title.keep_with_next = True
        none = data.label("none")
        blocks += [title, Block(ROW_H + 2, lambda page, top: page.write(
            MARGIN + 3, top - ROW_H + 2, none, REGULAR, ROW_FONT))]
    blocks.append(gap())

    result = _result(data)
    blocks.append(result)
    blocks.append(gap())
    blocks.append(section_title(data.label("signatures")))
    for signature in data.signatures:
        blocks.append(_signature_row(data, signature, blank=False))
    return blocks


# --------------------------------------------------------------------------- blank


def _blank_deal_grid(data: ProtocolData) -> list[Block]:
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
    columns = _penalty_columns(data)
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


BLANK_FULL_ROWS = 26


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
    head = _seat_head(data, size=6.5)
    group, sub = _seat_geometry(data)
    edges = [MARGIN + SEAT_NO_W, MARGIN + SEAT_NO_W + SEAT_OUTCOME_W]
    for index in range(len(data.seats)):
        start = edges[1] + index * group
        edges += [start + k * sub for k in range(1, len(_seat_subcolumns(data)))]
        if index:
            edges.append(start)
    rows = BLANK_FULL_ROWS - 2 * max(0, len(data.seats) - 2)  # room for more signatures
    grid = Block(BLANK_ROW_H * rows, lambda page, top: _blank_rows(
        0, top, page, rows, SEAT_NO_W, edges))
    return [section_title(data.label("deals")), head, grid]


def _blank_result(data: ProtocolData) -> Block:
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
    if data.signatures:
        return [ProtocolSignature(s.role, s.name, None) for s in data.signatures]
    people = [ProtocolSignature(data.label("player"), player.name, None)
              for side in data.sides for player in side.players]
    people.append(ProtocolSignature(data.label("referee"), data.referee, None))
    return people


def _blank_blocks(data: ProtocolData) -> list[Block]:
    blocks = [_header(data, data.label("blank_title"), blank=True), _sides(data), gap()]
    if data.layout == GAMES:
        blocks += _blank_game_grid(data)
    elif _per_seat(data):
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
