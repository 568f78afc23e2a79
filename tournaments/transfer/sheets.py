"""Tabular files: read an uploaded CSV or XLSX into rows of text; write a sheet as CSV or XLSX.

What is written is deterministic, so that two installations holding the same data give
byte-identical files: CSV is UTF-8 with a byte-order mark (Excel then reads Cyrillic right),
comma-separated, CRLF line ends, numbers without trailing zeros; XLSX is written by openpyxl
and repacked with a fixed time on every zip entry and fixed document dates.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.conf import settings
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from openpyxl.worksheet.worksheet import Worksheet

CSV_TYPE = "text/csv; charset=utf-8"
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CONTENT_TYPES = {"csv": CSV_TYPE, "xlsx": XLSX_TYPE}
#: The columns of an uploaded XLSX sheet that are read (a roster has six).
MAX_COLUMNS = 64
#: What makes a spreadsheet read a cell as a formula (OWASP's list for CSV injection).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?")
#: The time every entry of a written XLSX carries (the earliest a zip file can hold).
ZIP_TIME = (1980, 1, 1, 0, 0, 0)
XLSX_CREATOR = "domino-tournaments"

Cell = str | int | float | None


class SheetError(Exception):
    """An uploaded file that cannot be read as a table; the message says why."""


@dataclass(frozen=True)
class Sheet:
    """A table to write: a title, the header and the rows; ``when`` dates the XLSX document."""

    title: str
    header: list[str]
    rows: list[list[Cell]] = field(default_factory=list)
    when: dt.datetime = dt.datetime(2000, 1, 1)


def number_text(value: float | int) -> str:
    """A number as text: whole numbers without a decimal point, others with up to 2 decimals."""
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return str(int(value))


def spreadsheet_safe(value: Cell) -> Cell:
    """A cell that no spreadsheet runs as a formula: text starting with ``= + - @``, a tab or a
    carriage return gets a leading apostrophe (OWASP's advice); numbers, and text that is only a
    number such as ``-15``, stay as they are. Every CSV and XLSX export goes through it."""
    if isinstance(value, str) and value[:1] in FORMULA_START and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def unguarded(text: str) -> str:
    """An uploaded cell without the apostrophe ``spreadsheet_safe`` put before a formula sign,
    so that an exported name imports back as it was."""
    if text[:1] == "'" and text[1:2] in FORMULA_START:
        return text[1:]
    return text


def cell_text(value: Cell) -> str:
    """A cell as the text CSV holds."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int | float):
        return number_text(value)
    return str(value)


def _xlsx_value(value: Cell) -> Cell:
    """A cell as XLSX holds it: whole floats as integers, so both formats show the same."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return spreadsheet_safe(value)


def _append(worksheet: Worksheet, values: Iterable[Cell]) -> None:
    """Add a row; its text cells are strings (type ``s``), never formulas."""
    worksheet.append([_xlsx_value(value) for value in values])
    for cell in worksheet[worksheet.max_row]:
        if isinstance(cell.value, str):
            cell.data_type = "s"


def to_csv(sheet: Sheet) -> bytes:
    """The sheet as CSV bytes (UTF-8 with BOM, CRLF line ends)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    rows: tuple[Sequence[Cell], ...] = (sheet.header, *sheet.rows)
    for row in rows:
        writer.writerow([cell_text(spreadsheet_safe(value)) for value in row])
    return out.getvalue().encode("utf-8-sig")


def _repack(data: bytes, replace: dict[str, bytes]) -> bytes:
    """Rewrite a zip with fixed entry times and attributes, replacing some entries' content."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            entry = zipfile.ZipInfo(info.filename, date_time=ZIP_TIME)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o600 << 16
            target.writestr(entry, replace.get(info.filename, source.read(info)))
    return out.getvalue()


def to_xlsx(sheet: Sheet) -> bytes:
    """The sheet as an XLSX workbook of one worksheet, the same bytes for the same sheet."""
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter
    from openpyxl.worksheet.worksheet import Worksheet
    from openpyxl.xml.functions import tostring

    workbook = Workbook()
    worksheet = workbook.active
    if not isinstance(worksheet, Worksheet):
        raise TypeError("A new workbook's active sheet is not a worksheet")
    worksheet.title = _sheet_title(sheet.title)
    _append(worksheet, sheet.header)
    for cell in worksheet[1]:
        cell.font = Font(bold=True)
    worksheet.freeze_panes = "A2"
    for row in sheet.rows:
        _append(worksheet, row)
    for index, title in enumerate(sheet.header, start=1):
        width = max([len(cell_text(title))] + [len(cell_text(r[index - 1])) for r in sheet.rows])
        worksheet.column_dimensions[get_column_letter(index)].width = min(60, width + 2)
    when = sheet.when.replace(tzinfo=None, microsecond=0)
    props = workbook.properties
    props.creator = props.lastModifiedBy = XLSX_CREATOR
    props.title = sheet.title
    props.created = when
    buffer = io.BytesIO()
    workbook.save(buffer)
    props.modified = when  # openpyxl stamps the time of saving; the repack puts ours back
    return _repack(buffer.getvalue(), {"docProps/core.xml": tostring(props.to_tree())})


def _sheet_title(title: str) -> str:
    """A worksheet name Excel accepts (at most 31 characters, none of ``[]:*?/\\``)."""
    cleaned = "".join(" " if ch in "[]:*?/\\" else ch for ch in title).strip()
    return cleaned[:31] or "Sheet"


def render(sheet: Sheet, fmt: str) -> bytes:
    """The sheet in ``fmt`` ("csv" or "xlsx")."""
    if fmt == "xlsx":
        return to_xlsx(sheet)
    return to_csv(sheet)


# -- reading an upload -----------------------------------------------------------------------


def _text(value: object) -> str:
    """An XLSX cell's value as text (whole numbers without ".0")."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    return str(value)


class TooManyRows(SheetError):
    """More rows than the limit: found while reading, before the rest of the file is read."""


def _xlsx_rows(content: bytes) -> Iterator[list[str]]:
    """The first worksheet's rows as text, read one at a time (openpyxl's read-only mode).

    The sheet's declared size is ignored (a few bytes can claim a million rows by 16,384
    columns) and only the first ``MAX_COLUMNS`` columns are kept; a workbook that unpacks to
    more than ``ROSTER_XLSX_MAX_UNPACKED_BYTES`` is refused before it is parsed.
    """
    from openpyxl import load_workbook

    try:
        unpacked = sum(info.file_size for info in zipfile.ZipFile(io.BytesIO(content)).infolist())
    except (zipfile.BadZipFile, ValueError) as exc:
        raise SheetError(_("The file is not a readable XLSX workbook.")) from exc
    limit = settings.ROSTER_XLSX_MAX_UNPACKED_BYTES
    if unpacked > limit:
        raise SheetError(_("The workbook unpacks to more than %(size)s.")
                         % {"size": filesizeformat(limit)})
    try:
        workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds on a damaged file
        raise SheetError(_("The file is not a readable XLSX workbook.")) from exc
    try:
        worksheet = workbook.worksheets[0]
        worksheet.reset_dimensions()
        for row in worksheet.iter_rows(max_col=MAX_COLUMNS, values_only=True):
            yield [] if row.count(None) == len(row) else [_text(v) for v in row]
    except SheetError:
        raise
    except Exception as exc:
        raise SheetError(_("The file is not a readable XLSX workbook.")) from exc
    finally:
        workbook.close()


def _decode(content: bytes) -> str:
    """Text of a CSV file: UTF-8 (with or without BOM), else Windows-1251 (Russian Excel)."""
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            return content.decode("cp1251")
        except UnicodeDecodeError as exc:  # pragma: no cover - cp1251 decodes almost anything
            raise SheetError(_("Save the CSV file in UTF-8.")) from exc


def _csv_rows(content: bytes) -> Iterator[list[str]]:
    """The rows of a CSV file, one at a time; the delimiter (comma, semicolon or tab) is
    detected on the first line."""
    text = _decode(content)
    if "\x00" in text:
        raise SheetError(_("The file is not a CSV or XLSX table."))
    first_line = text.split("\n", 1)[0]
    try:
        delimiter = csv.Sniffer().sniff(first_line, delimiters=",;\t").delimiter
    except csv.Error:
        delimiter = ","
    try:  # only the delimiter is guessed: quotes are Excel's (an apostrophe is text)
        yield from csv.reader(io.StringIO(text), csv.excel, delimiter=delimiter)
    except csv.Error as exc:
        raise SheetError(_("The CSV file cannot be read: %(error)s") % {"error": exc}) from exc


def is_xlsx(filename: str, content: bytes) -> bool:
    """Whether an upload is an XLSX workbook (by its name, or a zip's signature)."""
    return filename.lower().endswith(".xlsx") or content[:4] == b"PK\x03\x04"


def size_error(size: int) -> str:
    """Why a roster upload of ``size`` bytes is refused ("" when it is not too large)."""
    limit = settings.ROSTER_UPLOAD_MAX_BYTES
    if size <= limit:
        return ""
    return _("The file is too large (at most %(size)s).") % {"size": filesizeformat(limit)}


def read_rows(filename: str, content: bytes, max_rows: int | None = None
              ) -> list[tuple[int, list[str]]]:
    """The non-empty rows of an uploaded CSV or XLSX file, each with its row number (from 1).

    Cells are stripped text without an export's formula guard (``unguarded``); rows whose
    cells are all empty are left out but keep their numbers counted, so that a row number is
    what the organizer sees in his spreadsheet. With ``max_rows``, reading stops (and
    ``TooManyRows`` is raised) at the first non-empty row past that many below the first.
    """
    if size_error(len(content)):
        raise SheetError(size_error(len(content)))
    if not content.strip():
        raise SheetError(_("The file is empty."))
    rows = _xlsx_rows(content) if is_xlsx(filename, content) else _csv_rows(content)
    out: list[tuple[int, list[str]]] = []
    for number, row in enumerate(rows, start=1):
        cells = [unguarded(cell.strip()) for cell in row]
        if any(cells):
            if max_rows is not None and len(out) > max_rows:
                raise TooManyRows(_("The file has more than %(max)s rows.") % {"max": max_rows})
            out.append((number, cells))
    return out


def table_bytes(header: Sequence[str], rows: Sequence[Sequence[Cell]], fmt: str,
                title: str) -> bytes:
    """A small table (a template to fill in) as CSV or XLSX bytes."""
    return render(Sheet(title=title, header=list(header), rows=[list(r) for r in rows]), fmt)
