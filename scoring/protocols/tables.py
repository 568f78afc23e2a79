"""The filled-in protocol's tables for each layout: the deals of two sides, a match's games, a
group of columns per player (Kozel: accounts and memorized points), and the penalties."""

from __future__ import annotations

from .data import KOZEL, ProtocolData, ProtocolDeal, ProtocolPenalty
from .figures import signed_points
from .fonts import BOLD, REGULAR
from .layout import (
    CONTENT_W,
    HEAD_FONT,
    MARGIN,
    ROW_FONT,
    ROW_H,
    Block,
    Page,
    cell,
    line_block,
    section_title,
    table_header,
    text_row,
    wrap,
)


def _repeated(data: ProtocolData, section: str, head: Block) -> list[Block]:
    """The section's title marked continued and its table header, atop a continuation page."""
    return [section_title(f"{data.label(section)} ({data.label('continued')})"), head]


# -- the two sides of sport domino -----------------------------------------------------------


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
    """One deal: its number, outcome, points and running totals; the note wraps."""
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


def side_deal_blocks(data: ProtocolData) -> list[Block]:
    """The deals of two sides: each one's points and running totals, with a note column."""
    columns = _deal_columns(data)
    title = section_title(data.label("deals"))
    head = table_header(columns)
    repeat = _repeated(data, "deals", head)
    blocks = [title, head]
    for index, deal in enumerate(data.deals):
        row = _deal_row(deal, columns, shade=index % 2 == 1)
        row.repeat = repeat
        blocks.append(row)
    return blocks


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


def game_deal_blocks(data: ProtocolData) -> list[Block]:
    """The hands game by game: each game's title, its hands, then its final score and winner."""
    columns = _game_columns(data)
    head = table_header(columns)
    repeat = _repeated(data, "deals", head)
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


def games_summary(data: ProtocolData) -> list[Block]:
    """Every game's final score and winner, then each player's games won and lost: the UDL
    official score card's own lines (seed 003 item 16)."""
    columns = [(data.label("game"), 60.0, "left"), (data.label("score"), 100.0, "left"),
               (data.label("winner"), CONTENT_W - 160, "left")]
    head = table_header(columns)
    repeat = _repeated(data, "games", head)
    title = data.label("games")
    if data.labels.get("match_format"):  # how the match is won: to N wins, best of three
        title = f"{title} · {data.labels['match_format']}"
    blocks = [section_title(title), head]
    for index, game in enumerate(data.games):
        row = text_row([str(game.number), f"{game.points_a} : {game.points_b}", game.winner],
                       columns, index % 2 == 1, {}, bold=(1,))
        row.repeat = repeat
        blocks.append(row)
    tally = []
    for side in data.sides:
        won = sum(1 for game in data.games if game.winner == side.name)
        lost = sum(1 for game in data.games if game.winner and game.winner != side.name)
        tally.append(f"{side.name}: {data.label('won')} {won}, {data.label('lost')} {lost}")
    footer = line_block(" · ".join(tally), rule=True)
    footer.repeat = repeat
    blocks.append(footer)
    return blocks


# -- every player for himself (Kozel, Draw, Block, Classic) ----------------------------------


SEAT_NO_W = 22.0
SEAT_OUTCOME_W = 92.0


def seat_subcolumns(data: ProtocolData) -> list[str]:
    """What each player's group of columns holds: the deal and the total (Kozel: the account
    and the memorized points)."""
    if data.layout == KOZEL:
        return [data.label("deal_points"), data.label("account"), data.label("memorized_short")]
    return [data.label("deal_points"), data.label("total")]


def seat_geometry(data: ProtocolData) -> tuple[float, float]:
    """The width of a player's group of columns and of one column in it."""
    group = (CONTENT_W - SEAT_NO_W - SEAT_OUTCOME_W) / max(1, len(data.seats))
    return group, group / len(seat_subcolumns(data))


def _seat_rules(page: Page, data: ProtocolData, top: float, bottom: float) -> None:
    """Vertical rules between the players' groups of columns."""
    group, _sub = seat_geometry(data)
    x = MARGIN + SEAT_NO_W + SEAT_OUTCOME_W
    for _seat in data.seats:
        page.vline(x, bottom, top)
        x += group


def seat_head(data: ProtocolData, size: float = HEAD_FONT) -> Block:
    """Two header lines: each player's seat and name over his columns, then what they hold."""
    height = 2 * ROW_H + 2
    subs = seat_subcolumns(data)
    group, sub = seat_geometry(data)

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
    group, sub = seat_geometry(data)
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


def seat_deal_blocks(data: ProtocolData) -> list[Block]:
    """The deals with a group of columns per player (Kozel: with the memorized points)."""
    head = seat_head(data)
    repeat = _repeated(data, "deals", head)
    blocks = [section_title(data.label("deals")), head]
    for index, deal in enumerate(data.deals):
        row = _seat_row(data, deal, index % 2 == 1)
        row.repeat = repeat
        blocks.append(row)
    if data.layout == KOZEL:
        blocks.append(line_block(data.label("not_open"), REGULAR, 7, gray=0.35))
    return blocks


def seat_summary(data: ProtocolData) -> list[Block]:
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
        values = [seat.seat.upper(), seat.name, str(seat.points), signed_points(seat.fines)]
        if kozel:
            opened = "" if seat.opened is None else data.label("yes" if seat.opened else "no")
            values += ["" if seat.memorized is None else str(seat.memorized), opened,
                       "" if seat.rating is None else str(seat.rating)]
        mark = data.label("goat") if seat.goat else data.label("winner") if seat.winner else ""
        values.append(mark)
        blocks.append(text_row(values, columns, index % 2 == 1, {},
                               bold=(2, len(values) - 1)))
    return blocks


# -- penalties -------------------------------------------------------------------------------


def penalty_columns(data: ProtocolData) -> list[tuple[str, float, str]]:
    """The penalty table's columns (caption, width, alignment), also the blank form's."""
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


def penalty_blocks(data: ProtocolData) -> list[Block]:
    """The penalties table, or its title and the word for none when there were none."""
    columns = penalty_columns(data)
    title = section_title(data.label("penalties"))
    if not data.penalties:
        title.keep_with_next = True
        none = data.label("none")
        return [title, Block(ROW_H + 2, lambda page, top: page.write(
            MARGIN + 3, top - ROW_H + 2, none, REGULAR, ROW_FONT))]
    head = table_header(columns)
    repeat = _repeated(data, "penalties", head)
    blocks = [title, head]
    for index, penalty in enumerate(data.penalties):
        row = _penalty_row(penalty, columns, shade=index % 2 == 1)
        row.repeat = repeat
        blocks.append(row)
    return blocks
