"""The rows of a roster file as read: its columns (recognised by English or Russian headers),
each row's values and errors, and the report of an import (see ``tournaments.transfer.roster``)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.models import Player, Profile
from scoring.people.profiles import Match
from tournaments.transfer.sheets import SheetError, read_rows

#: The columns, each with the header names it is recognised by (compared loosely).
COLUMNS: dict[str, tuple[str, ...]] = {
    "name": ("name", "player", "player name", "имя", "игрок", "фио"),
    "club": ("club", "клуб"),
    "city": ("city", "город"),
    "country": ("country", "страна"),
    "rating": ("rating", "рейтинг"),
    "partner": ("partner", "partner name", "партнёр", "партнер"),
    "pair": ("pair", "pair name", "пара", "название пары"),
    "birth_year": ("birth year", "year of birth", "born", "год рождения", "г.р.", "г. р.",
                   "гр"),
    "federation_id": ("federation id", "fed id", "id", "player id", "номер федерации",
                      "id федерации", "код игрока"),
    "team": ("team", "team name", "команда", "название команды"),
}
COLUMN_LABELS = {
    "name": gettext_lazy("name"),
    "club": gettext_lazy("club"),
    "city": gettext_lazy("city"),
    "country": gettext_lazy("country"),
    "rating": gettext_lazy("rating"),
    "partner": gettext_lazy("partner"),
    "pair": gettext_lazy("pair name"),
    "birth_year": gettext_lazy("birth year"),
    "federation_id": gettext_lazy("federation id"),
    "team": gettext_lazy("team"),
    "profile": gettext_lazy("profile"),
    "row": gettext_lazy("row"),
}
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
    birth_year: int | None = None
    match: Match | None = None
    profile: Profile | None = None
    new_profile: bool = False

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

    def as_dict(self, readable: frozenset[int] = frozenset()) -> dict[str, Any]:
        """The row as the report shows it (``readable``: the candidates whose birth year and
        federation id the reader may see)."""
        return {
            "row": self.number,
            "name": self.name,
            "values": dict(self.values),
            "status": self.status,
            "partner_row": self.partner_row,
            "errors": {column: list(messages) for column, messages in self.errors.items()},
            "profile": self.profile_status(readable),
        }

    @property
    def needs_review(self) -> bool:
        """Whether the organizer must choose this row's profile before it is imported."""
        return bool(self.match and self.match.doubtful and self.profile is None
                    and not self.new_profile)

    def profile_status(self, readable: frozenset[int] = frozenset()) -> dict[str, Any]:
        """How the row links to a profile: linked (which, why), new, refused (a federation id
        of a person the importer may not see) or to review (candidates, with the birth year
        and federation id of those in ``readable``)."""
        if self.match is None:
            return {"status": "unchecked"}
        if self.match.refusal:
            return {"status": "refused", "reason": self.match.reason}
        if self.profile is not None:
            return {"status": "linked", "profile": self.profile.pk,
                    "reason": self.match.reason if self.match.profile else "chosen"}
        if self.needs_review:
            return {"status": "review", "reason": self.match.reason, "candidates": [
                {"id": p.pk, "name": p.name, "club": p.club, "city": p.city,
                 **({"birth_year": p.birth_year, "federation_id": p.federation_id}
                    if p.pk in readable else {})}
                for p in self.match.candidates]}
        return {"status": "new"}


@dataclass
class RosterReport:
    """What an import found and did: file errors, every row, how many players and pairs."""

    rows: list[RosterRow] = field(default_factory=list)
    file_errors: list[str] = field(default_factory=list)
    skip_bad_rows: bool = False
    dry_run: bool = False
    players: int = 0
    pairs: int = 0
    teams: int = 0
    """Teams registered (or to be) with the file's pairs: new ones and those joined."""
    imported: bool = False
    readable: frozenset[int] = frozenset()
    """The candidates (of the doubtful rows) whose birth year and federation id the importing
    user may read."""

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
    def to_review(self) -> list[RosterRow]:
        """Rows whose profile the organizer must choose (doubtful matches)."""
        return [row for row in self.rows if row.needs_review and row.status == "ok"]

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
            "teams": self.teams,
            "file_errors": list(self.file_errors),
            "to_review": [row.number for row in self.to_review],
            "rows": [row.as_dict(self.readable) for row in self.rows],
        }


@dataclass(frozen=True)
class _PairPlan:
    """A pair to register: its first row, the second row or a registered player, its name."""

    first: RosterRow
    second: RosterRow | None
    player: Player | None
    name: str
    team: str = ""
    """The team the pair plays for, as the file names it (team tournaments)."""

    @property
    def rows(self) -> tuple[RosterRow, ...]:
        """The rows of the file the pair is made of."""
        return (self.first,) if self.second is None else (self.first, self.second)

    @property
    def owner(self) -> RosterRow:
        """The row its errors are shown on: the later of its rows."""
        return self.rows[-1]


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


