"""Import players and pairs from a CSV or XLSX file, with a row-by-row report.

The file has a header row naming its columns (English or Russian, any order):

* ``name`` — the player's name, in any script (required);
* ``club``, ``city``, ``rating`` (a whole number, empty for 0);
* ``partner`` — the name of his partner: another row of the file or a player already
  registered in the tournament (pairs tournaments only);
* ``pair`` — the pair's name (optional; either partner's row may give it).

In a singles tournament (a side is one player, pairs format) every row is a player and his
side: ``partner`` must be empty and ``pair`` names the side (optional).

Every row goes through the registration services (``register_player``, ``register_pair``), so
an import obeys the same rules as the pages; on top of them the file is checked as a whole:
a name twice in the file or already registered, an unknown partner, a player named as the
partner of two others. Nothing is imported when a row is wrong, unless the organizer chooses
to skip bad rows: then the good rows are imported (a pair only with both its rows) and the
others are reported as skipped. One transaction, the tournament's row locked.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.errors import ServiceError
from scoring.models import Player, Tournament
from tournaments.services import register_pair, register_player, registers_sides
from tournaments.transfer.sheets import SheetError, read_rows, table_bytes

#: The columns, each with the header names it is recognised by (compared loosely).
COLUMNS: dict[str, tuple[str, ...]] = {
    "name": ("name", "player", "player name", "имя", "игрок", "фио"),
    "club": ("club", "клуб"),
    "city": ("city", "город"),
    "rating": ("rating", "рейтинг"),
    "partner": ("partner", "partner name", "партнёр", "партнер"),
    "pair": ("pair", "pair name", "пара", "название пары"),
}
COLUMN_LABELS = {
    "name": gettext_lazy("name"),
    "club": gettext_lazy("club"),
    "city": gettext_lazy("city"),
    "rating": gettext_lazy("rating"),
    "partner": gettext_lazy("partner"),
    "pair": gettext_lazy("pair name"),
    "row": gettext_lazy("row"),
}
#: Which column a registration service's error field is shown under.
PLAYER_FIELDS = {"name": "name", "club": "club", "city": "city", "rating": "rating"}
PAIR_FIELDS = {"name": "pair", "rating": "partner"}
#: Example rows of the template file.
TEMPLATE_ROWS = [
    ["Иван Петров", "Дубль-шесть", "Москва", 1500, "Сергей Смирнов", "Дубль"],
    ["Сергей Смирнов", "Дубль-шесть", "Москва", 1480, "Иван Петров", "Дубль"],
    ["José García", "Club Capicúa", "Madrid", 1420, "Anna Müller", ""],
    ["Anna Müller", "Club Capicúa", "Berlin", 1400, "José García", ""],
]


def clean_name(text: str) -> str:
    """A name as stored: Unicode NFC, spaces collapsed."""
    return " ".join(unicodedata.normalize("NFC", text or "").split())


def name_key(text: str) -> str:
    """A name as compared: case and the letters ё/е do not matter."""
    return clean_name(text).casefold().replace("ё", "е")


def _header_key(text: str) -> str:
    """A header as compared: like a name, with ``_``, ``-`` and ``*`` read as spaces."""
    for ch in "_-*":
        text = text.replace(ch, " ")
    return name_key(text)


HEADER_NAMES = {_header_key(alias): column for column, aliases in COLUMNS.items()
                for alias in aliases}


@dataclass
class RosterRow:
    """One row of the file: its values by column, its errors by column, what became of it."""

    number: int
    values: dict[str, str]
    errors: dict[str, list[str]] = field(default_factory=dict)
    status: str = "ok"
    partner_row: int | None = None
    partner_player: Player | None = None
    rating: int = 0

    @property
    def name(self) -> str:
        """The player's name as it will be stored."""
        return clean_name(self.values.get("name", ""))

    def add_error(self, column: str, message: str) -> None:
        """Note an error under a column."""
        messages = self.errors.setdefault(column, [])
        if str(message) not in messages:
            messages.append(str(message))

    @property
    def messages(self) -> list[tuple[str, str]]:
        """Each error with the name of its column, for the page."""
        return [(str(COLUMN_LABELS.get(column, column)), message)
                for column, messages in self.errors.items() for message in messages]

    def as_dict(self) -> dict[str, Any]:
        """The row as the report shows it."""
        return {
            "row": self.number,
            "name": self.name,
            "values": dict(self.values),
            "status": self.status,
            "partner_row": self.partner_row,
            "errors": {column: list(messages) for column, messages in self.errors.items()},
        }


@dataclass
class RosterReport:
    """What an import found and did: file errors, every row, how many players and pairs."""

    rows: list[RosterRow] = field(default_factory=list)
    file_errors: list[str] = field(default_factory=list)
    skip_bad_rows: bool = False
    dry_run: bool = False
    players: int = 0
    pairs: int = 0
    imported: bool = False

    @property
    def bad_rows(self) -> list[RosterRow]:
        """Rows with errors of their own."""
        return [row for row in self.rows if row.errors]

    @property
    def skipped(self) -> list[RosterRow]:
        """Rows left out of an import that skipped bad rows."""
        return [row for row in self.rows if row.status == "skipped"]

    @property
    def ok(self) -> bool:
        """Whether every row is right (the whole file can be imported)."""
        return not self.file_errors and bool(self.rows) and not self.bad_rows

    @property
    def refused(self) -> bool:
        """Whether nothing is (or would be) imported because of errors."""
        return bool(self.file_errors) or bool(
            self.bad_rows and not self.skip_bad_rows) or not self.players

    def as_dict(self) -> dict[str, Any]:
        """The report as JSON for the API."""
        return {
            "ok": self.ok,
            "imported": self.imported,
            "dry_run": self.dry_run,
            "skip_bad_rows": self.skip_bad_rows,
            "players": self.players,
            "pairs": self.pairs,
            "file_errors": list(self.file_errors),
            "rows": [row.as_dict() for row in self.rows],
        }


# -- reading -------------------------------------------------------------------------------


def _columns(header: list[str]) -> list[str | None]:
    """The column of each header cell (None for an empty one); unknown or repeated ones refused."""
    columns: list[str | None] = []
    for text in header:
        if not text:
            columns.append(None)
            continue
        column = HEADER_NAMES.get(_header_key(text))
        if column is None:
            raise SheetError(
                _("Unknown column “%(header)s”. The columns are: %(columns)s.")
                % {"header": text, "columns": ", ".join(COLUMNS)}
            )
        if column in columns:
            raise SheetError(_("The column “%(header)s” is given twice.") % {"header": text})
        columns.append(column)
    if "name" not in columns:
        raise SheetError(
            _("The first row must name the columns, among them “name”. The columns are: "
              "%(columns)s.") % {"columns": ", ".join(COLUMNS)}
        )
    return columns


def parse_roster(filename: str, content: bytes) -> list[RosterRow]:
    """The rows of an uploaded roster file (SheetError when it cannot be read as one)."""
    rows = read_rows(filename, content, max_rows=settings.ROSTER_MAX_ROWS)
    if not rows:
        raise SheetError(_("The file is empty."))
    (_number, header), *data = rows
    columns = _columns(header)
    if not data:
        raise SheetError(_("The file has no rows below its header."))
    parsed = []
    for number, cells in data:
        values = {column: "" for column in COLUMNS}
        extra = [cell for i, cell in enumerate(cells) if cell and (
            i >= len(columns) or columns[i] is None)]
        for i, column in enumerate(columns):
            if column is not None and i < len(cells):
                values[column] = cells[i]
        row = RosterRow(number=number, values=values)
        if extra:
            row.add_error("row", _("Values outside the named columns: %(values)s.")
                          % {"values": ", ".join(extra)})
        parsed.append(row)
    return parsed


def parse_rating(text: str) -> int | None:
    """A rating cell as a whole number (empty is 0); None when it is not one."""
    text = "".join(text.split())
    if not text:
        return 0
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text.replace(",", "."))
    except ValueError:
        return None
    return int(value) if value.is_integer() else None


# -- checking the file as a whole ----------------------------------------------------------


def _check_values(rows: list[RosterRow]) -> None:
    """Ratings are whole numbers."""
    for row in rows:
        rating = parse_rating(row.values["rating"])
        if rating is None:
            row.add_error("rating", _("The rating is a whole number."))
        else:
            row.rating = rating


def _check_names(
    rows: list[RosterRow], registered: dict[str, list[Player]]
) -> dict[str, RosterRow]:
    """Each name once in the file and not yet registered; return the rows by name."""
    by_key: dict[str, RosterRow] = {}
    for row in rows:
        key = name_key(row.name)
        if not key:
            continue  # the service says the name is required
        if key in by_key:
            row.add_error("name", _("%(name)s is already in row %(row)s of the file.")
                          % {"name": row.name, "row": by_key[key].number})
            continue
        by_key[key] = row
        if key in registered:
            row.add_error("name", _("%(name)s is already registered in this tournament.")
                          % {"name": row.name})
    return by_key


def _link(rows: list[RosterRow], by_key: dict[str, RosterRow],
          registered: dict[str, list[Player]]) -> None:
    """Resolve each ``partner`` to a row of the file or a registered player, consistently."""
    claimed: dict[int, int] = {}  # a registered player's id -> the row that named him
    for row in rows:
        text = clean_name(row.values["partner"])
        if not text:
            continue
        key = name_key(text)
        target = by_key.get(key)
        if key == name_key(row.name):
            row.add_error("partner", _("A player cannot be his own partner."))
        elif target is not None:
            if row.partner_row == target.number:
                continue  # the partner's row named this one first
            if row.partner_row is not None:
                row.add_error("partner", _("Row %(row)s names this player as its partner.")
                              % {"row": row.partner_row})
            elif target.partner_row is not None or target.partner_player is not None:
                row.add_error("partner", _("%(name)s is already the partner of row %(row)s.")
                              % {"name": target.name,
                                 "row": target.partner_row or target.number})
            else:
                row.partner_row, target.partner_row = target.number, row.number
        elif len(registered.get(key, ())) > 1:
            row.add_error("partner", _("Several registered players are called %(name)s: pair "
                                       "them on the pair page.") % {"name": text})
        elif key in registered:
            player = registered[key][0]
            if player.pk in claimed:
                row.add_error("partner", _("%(name)s is already the partner of row %(row)s.")
                              % {"name": player.name, "row": claimed[player.pk]})
            elif row.partner_row is not None:
                row.add_error("partner", _("Row %(row)s names this player as its partner.")
                              % {"row": row.partner_row})
            else:
                claimed[player.pk] = row.number
                row.partner_player = player
        else:
            row.add_error("partner", _("Unknown partner %(name)s: neither a row of the file nor "
                                       "a registered player.") % {"name": text})


def _check_pair_names(rows: list[RosterRow], by_number: dict[int, RosterRow]) -> None:
    """A pair name needs a partner, and both rows of a pair give the same one (or one gives it)."""
    for row in rows:
        name = clean_name(row.values["pair"])
        if not name:
            continue
        if row.partner_row is None and row.partner_player is None:
            row.add_error("pair", _("A pair name needs a partner."))
            continue
        other = by_number.get(row.partner_row) if row.partner_row else None
        other_name = clean_name(other.values["pair"]) if other else ""
        if other and other.number < row.number and other_name and other_name != name:
            row.add_error("pair", _("Row %(row)s gives this pair another name: %(name)s.")
                          % {"row": other.number, "name": other_name})


# -- importing -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _PairPlan:
    """A pair to register: its first row, the second row or a registered player, its name."""

    first: RosterRow
    second: RosterRow | None
    player: Player | None
    name: str

    @property
    def rows(self) -> tuple[RosterRow, ...]:
        """The rows of the file the pair is made of."""
        return (self.first,) if self.second is None else (self.first, self.second)

    @property
    def owner(self) -> RosterRow:
        """The row its errors are shown on: the later of its rows."""
        return self.rows[-1]


def _check_singles(rows: list[RosterRow]) -> list[_PairPlan]:
    """Singles: no partners; every row is a side of one player (named by ``pair``)."""
    for row in rows:
        if clean_name(row.values["partner"]):
            row.add_error("partner", _("In this rule set a side is one player: leave the "
                                       "partner empty."))
    return [_PairPlan(row, None, None, clean_name(row.values["pair"])) for row in rows]


def _plan_pairs(rows: list[RosterRow], by_number: dict[int, RosterRow]) -> list[_PairPlan]:
    """The pairs the file forms, in the order of their first rows."""
    plans = []
    for row in rows:
        if row.partner_player is not None:
            plans.append(_PairPlan(row, None, row.partner_player, clean_name(row.values["pair"])))
        elif row.partner_row is not None and row.partner_row > row.number:
            second = by_number[row.partner_row]
            name = clean_name(row.values["pair"]) or clean_name(second.values["pair"])
            plans.append(_PairPlan(row, second, None, name))
    return plans


def _attempt(tournament: Tournament, rows: list[RosterRow], plans: list[_PairPlan],
             bad: set[int]) -> tuple[dict[int, dict[str, list[str]]], int, int]:
    """Register the rows not in ``bad`` through the services; return errors and counts."""
    errors: dict[int, dict[str, list[str]]] = defaultdict(dict)
    created: dict[int, Player] = {}
    for row in rows:
        if row.number in bad:
            continue
        try:
            created[row.number] = register_player(
                tournament, name=row.name, club=clean_name(row.values["club"]),
                city=clean_name(row.values["city"]), rating=row.rating)
        except ServiceError as err:
            errors[row.number].setdefault(PLAYER_FIELDS.get(err.field, "row"), []).append(
                str(err.message))
    pairs = 0
    for plan in plans:
        if any(r.number not in created for r in plan.rows):
            continue
        first = created[plan.first.number]
        second = created[plan.second.number] if plan.second else plan.player
        try:  # seeded by the players' ratings (Pair.seeding_rating), as the pair form does
            register_pair(tournament, first, second, name=plan.name)
        except ServiceError as err:
            errors[plan.owner.number].setdefault(PAIR_FIELDS.get(err.field, "partner"), []).append(
                str(err.message))
        else:
            pairs += 1
    return errors, len(created), pairs


def _spread(plans: list[_PairPlan], bad: set[int]) -> None:
    """A pair is imported whole or not at all: a bad row makes its partner's row bad too."""
    for plan in plans:
        wrong = [r for r in plan.rows if r.number in bad]
        for row in plan.rows:
            if row.number not in bad and wrong:
                bad.add(row.number)
                row.status = "skipped"
                row.add_error("partner", _("Skipped with its partner: row %(row)s is wrong.")
                              % {"row": wrong[0].number})


def check_rows(tournament: Tournament, rows: list[RosterRow]) -> list[_PairPlan]:
    """Check the file as a whole (values, names, partners); return the pairs it forms."""
    registered: dict[str, list[Player]] = defaultdict(list)
    for player in tournament.players.order_by("id"):
        registered[name_key(player.name)].append(player)
    by_number = {row.number: row for row in rows}
    _check_values(rows)
    by_key = _check_names(rows, registered)
    if registers_sides(tournament):
        return _check_singles(rows)
    _link(rows, by_key, registered)
    _check_pair_names(rows, by_number)
    return _plan_pairs(rows, by_number)


def import_roster(tournament: Tournament, filename: str, content: bytes, *,
                  skip_bad_rows: bool = False, dry_run: bool = False) -> RosterReport:
    """Import the players and pairs of a roster file; see the module's docstring.

    With ``dry_run`` nothing is kept (the preview); the report says what would be imported.
    """
    report = RosterReport(skip_bad_rows=skip_bad_rows, dry_run=dry_run)
    try:
        report.rows = parse_roster(filename, content)
    except SheetError as err:
        report.file_errors.append(str(err))
        return report
    rows = report.rows
    by_number = {row.number: row for row in rows}
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        plans = check_rows(tournament, rows)
        bad = {row.number for row in rows if row.errors}
        if skip_bad_rows:
            _spread(plans, bad)
        while True:
            savepoint = transaction.savepoint()
            found, report.players, report.pairs = _attempt(tournament, rows, plans, bad)
            for number, columns in found.items():
                for column, messages in columns.items():
                    for message in messages:
                        by_number[number].add_error(column, message)
            keep = not found and not dry_run and (skip_bad_rows or not bad)
            if keep:
                transaction.savepoint_commit(savepoint)
                report.imported = True
            else:
                transaction.savepoint_rollback(savepoint)
            if not found or not skip_bad_rows:
                break
            bad |= set(found)
            _spread(plans, bad)
    for row in rows:
        if row.errors and row.status == "ok":
            row.status = "skipped" if skip_bad_rows else "error"
    if not skip_bad_rows and (bad or any(row.errors for row in rows)):
        report.players = report.pairs = 0
    return report


def template_file(tournament: Tournament, fmt: str) -> bytes:
    """A file to fill in: the header and example rows (partners only in pairs of two)."""
    columns = list(COLUMNS)
    rows = [list(row) for row in TEMPLATE_ROWS]
    if tournament.format == Tournament.Format.INDIVIDUAL or registers_sides(tournament):
        columns = columns[:4]
        rows = [row[:4] for row in rows]
    return table_bytes(columns, rows, fmt, title=_("Players"))
