"""The parts every protocol page has, filled or blank: the header with its QR code, the sides
or players, the result, the signature lines, and each page's footer and continuation line."""

from __future__ import annotations

from typing import Protocol

from .data import GAMES, KOZEL, SEATS, ProtocolData, ProtocolPlayer, ProtocolSide, ProtocolSignature
from .fonts import BOLD, REGULAR
from .layout import CONTENT_W, MARGIN, PAGE_W, TOP, Block, Page, fit, text_width, wrap
from .qr import draw_qr

#: The QR code's side in points, at the header's top right.
QR_SIZE = 72.0


def write_title(page: Page, top: float, title: str, lines: list[str]) -> float:
    """Write a document's title and the tournament's lines under it; return the last
    baseline."""
    page.write(MARGIN, top - 14, title, BOLD, 15)
    y = top - 14
    for line in lines:
        y -= 15
        page.write(MARGIN, y, line, BOLD, 11.5)
    return y


def write_facts(page: Page, y: float, items: list[tuple[str, str]], limit: float) -> None:
    """Write captions and their values on one line up to ``limit`` (a value shortened to
    fit; what is left over is dropped)."""
    x = MARGIN
    for caption, value in items:
        if x >= limit - 20:
            break
        page.write(x, y, caption, REGULAR, 9, gray=0.35)
        x += text_width(caption, REGULAR, 9) + 4
        value = fit(value, BOLD, 9.5, limit - x)
        page.write(x, y, value, BOLD, 9.5)
        x += text_width(value, BOLD, 9.5) + 16


def header(data: ProtocolData, title: str, blank: bool) -> Block:
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

    def draw(page: Page, top: float) -> None:
        y = write_title(page, top, title, tournament_lines)
        for items in (facts_1, facts_2, facts_3):
            y -= 13.5
            write_facts(page, y, items, MARGIN + text_w)
        if has_qr:
            qx = PAGE_W - MARGIN - QR_SIZE
            draw_qr(page, data.verify_url, qx, top, QR_SIZE)
            if data.short_code:
                page.write(qx + QR_SIZE / 2, top - QR_SIZE - 10, data.short_code, BOLD, 9.5,
                           "centre")

    return Block(height, draw)


def per_seat(data: ProtocolData) -> bool:
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


def sides(data: ProtocolData) -> Block:
    """Return the sides under the header: each pair with its players, or the seats."""
    if per_seat(data):
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


class Footed(Protocol):
    """What a page footer prints of a document: its captions, ids, version and link."""

    @property
    def public_id(self) -> str:
        """The document's public id ("" for none)."""

    @property
    def short_code(self) -> str:
        """The short code to type on the verification page ("" for none)."""

    @property
    def verify_url(self) -> str:
        """The verification link ("" for none)."""

    @property
    def version(self) -> int:
        """The document's version."""

    def label(self, key: str) -> str:
        """Return the caption for ``key``."""


def footer(page: Page, data: Footed, fingerprint: str | None, number: int,
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


def continuation_header(page: Page, data: ProtocolData, title: str) -> None:
    """Write the line that opens a continuation page."""
    line = (f"{title} · {data.tournament} · {data.label('round')} {data.round_number} · "
            f"{data.label('table')} {data.table} ({data.label('continued')})")
    page.write(MARGIN, TOP - 10, fit(line, BOLD, 9, CONTENT_W), BOLD, 9)
    page.hline(MARGIN, PAGE_W - MARGIN, TOP - 15)


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


def result_block(data: ProtocolData) -> Block:
    """Return the result, the winner and why the party ended."""
    end_lines = wrap(data.end_reason, REGULAR, 9, CONTENT_W - 90, max_lines=2)
    first, winner = _result_lines(data)
    height = 17 + (12 if winner is not None else -3) + 12 * len(end_lines)
    height += 12 if data.first_move else 0

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
        if data.first_move:
            y -= 12
            caption = data.label("first_move")
            page.write(MARGIN, y, caption, REGULAR, 9, gray=0.35)
            value = fit(data.first_move, REGULAR, 9, CONTENT_W - 90)
            page.write(MARGIN + max(text_width(caption, REGULAR, 9) + 5, 80), y, value, REGULAR, 9)

    return Block(height, draw)


def signature_row(data: ProtocolData, signature: ProtocolSignature, blank: bool) -> Block:
    """Return a signature line: role, name and status (blank: a rule)."""
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
