"""Reading spreadsheets safely into plain tables: xlsx (openpyxl, read-only) and CSV (UTF-8, BOM or not).

Hardening, all before or while parsing, never trusting the file:
* xlsx: a zip whose members, total size and compression ratios are checked first (zip bombs); XML parsed
  through defusedxml (openpyxl uses it when installed); ``max_row`` ignored (rows are streamed and capped);
  formulas use their cached values, and a formula without one is reported, not read as empty;
  merged cells are filled from their top-left cell; dates come through in both the 1900 and 1904 systems.
* every text cell: length capped and control characters refused.
Problems are collected with their place; nothing here writes anything.
"""

from __future__ import annotations

import csv
import io
import re
import threading
import zipfile
import zlib
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from openpyxl.utils import column_index_from_string, get_column_letter, range_boundaries

from quotetui.domain.errors import BadInput
from quotetui.domain.text import check_text
from quotetui.io.problems import Problem

MAX_FILE_BYTES = 100 * 2**20
MAX_UNZIPPED_BYTES = 400 * 2**20
MAX_MEMBER_RATIO = 200  # uncompressed : compressed, for members over 1 MiB
MAX_MEMBERS = 2000
MAX_ROWS = 250_000
MAX_COLUMNS = 200
MAX_TEXT = 10_000
OLE_MAGIC = bytes.fromhex("d0cf11e0a1b11ae1")  # compound file: encrypted OOXML packages and .xls
FORMULA_CELL = re.compile(rb'<(?:\w+:)?c r="([A-Z]{1,3})([0-9]{1,7})"[^>]*(?<!/)>(.*?)</(?:\w+:)?c>', re.S)
FORMULA = re.compile(rb"<(?:\w+:)?f[ >/]")
VALUE = re.compile(rb"<(?:\w+:)?v(?: [^>]*)?>[^<]")  # a saved value; <v/> or <v></v> is none
MERGE = re.compile(rb'<mergeCell ref="([A-Z]+[0-9]+:[A-Z]+[0-9]+)"')


@dataclass(slots=True)
class Table:
    """One sheet (or CSV file): its header row and data rows, with the row numbers the user sees."""

    file: str
    sheet: str | None
    header: list[str]
    rows: list[tuple[int, list[Any]]] = field(default_factory=list)
    #: problems inside this table; they count only if the table is imported (a sheet of computed figures
    #: in an exported workbook may hold formulas without saved results, and is skipped anyway)
    problems: list[Problem] = field(default_factory=list)
    bad: set[tuple[int, int]] = field(default_factory=set)  # (row, column) of cells already reported

    def refuse(self, row: int, column: int, reason: str) -> None:
        """Report a cell that cannot be read (its value is left out, and not reported again as missing)."""
        self.problems.append(self.where(row, column, reason))
        self.bad.add((row, column))

    def where(self, row: int | None = None, column: int | None = None, reason: str = "") -> Problem:
        name = None
        if column is not None:
            label = self.header[column] if column < len(self.header) else ""
            name = f"column {label!r}" + (f" ({get_column_letter(column + 1)})" if self.sheet else "")
        return Problem(self.file, reason, self.sheet, row, name)


def _check_text(value: Any, table: Table, row: int, column: int) -> Any:
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            table.refuse(row, column, f"text of {len(value):,} characters (limit {MAX_TEXT:,})")
            return None
        try:  # the multi-line rules: a one-line field refuses line breaks when its value is parsed
            return check_text(value, what="the text", multiline=True)
        except BadInput as exc:
            table.refuse(row, column, str(exc).removeprefix("the text "))
            return None
    return value


def read_file(path: Path, problems: list[Problem], skip: Collection[str] = ()) -> list[Table]:
    """Every table in ``path``; problems are appended (and the bad parts left out). Sheets titled as in
    ``skip`` are not read: they come back as tables without a header or rows."""
    name = path.name
    if not path.is_file():
        problems.append(Problem(name, "file not found"))
        return []
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        problems.append(Problem(name, f"file of {size:,} bytes is over the {MAX_FILE_BYTES:,}-byte limit"))
        return []
    suffix = path.suffix.lower()
    if suffix in (".xlsx", ".xlsm"):
        return _read_xlsx(path, problems, skip)
    if suffix in (".csv", ".txt"):
        return _read_csv(path, problems)
    if suffix == ".xls":
        problems.append(Problem(name, "an Excel 97–2003 .xls file: open it in Excel or LibreOffice and save as .xlsx"))
        return []
    problems.append(Problem(name, "not a spreadsheet quotetui reads (.xlsx or .csv)"))
    return []


# -- CSV -------------------------------------------------------------------------------------------------
def _read_csv(path: Path, problems: list[Problem]) -> list[Table]:
    raw = path.read_bytes()
    if b"\x00" in raw:
        problems.append(Problem(path.name, "contains NUL bytes: not a text CSV file"))
        return []
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        problems.append(Problem(path.name, f"not UTF-8 text (line {line}); save the file as CSV UTF-8", row=line))
        return []
    reader = csv.reader(io.StringIO(text, newline=""))
    table: Table | None = None
    try:
        for number, cells in enumerate(reader, start=1):
            if number > MAX_ROWS + 1:
                problems.append(Problem(path.name, f"more than {MAX_ROWS:,} rows"))
                break
            if len(cells) > MAX_COLUMNS:
                problems.append(Problem(path.name, f"{len(cells)} columns (limit {MAX_COLUMNS})", row=number))
                cells = cells[:MAX_COLUMNS]
            if table is None:
                if not any(c.strip() for c in cells):
                    continue
                table = Table(path.name, None, [c.strip() for c in cells])
                continue
            values = [_check_text(c, table, number, i) for i, c in enumerate(cells)]
            if any(v not in (None, "") for v in values):
                table.rows.append((number, values))
    except csv.Error as exc:
        problems.append(Problem(path.name, f"not valid CSV: {exc}", row=reader.line_num))
        return []
    return [table] if table is not None else []


# -- xlsx ------------------------------------------------------------------------------------------------
def _check_zip(path: Path, problems: list[Problem]) -> dict[str, bytes] | None:
    """Zip sanity before any XML is parsed; returns the raw sheet XML (for merged cells and formulas)."""
    with path.open("rb") as handle:
        magic = handle.read(8)
    if magic == OLE_MAGIC:
        problems.append(
            Problem(
                path.name,
                "a password-protected workbook (or an old .xls file): save it in Excel or LibreOffice "
                "as an .xlsx without a password",
            )
        )
        return None
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
            if len(members) > MAX_MEMBERS:
                problems.append(Problem(path.name, f"{len(members)} parts in the zip: not a normal workbook"))
                return None
            total = sum(m.file_size for m in members)
            if total > MAX_UNZIPPED_BYTES:
                problems.append(Problem(path.name, f"unpacks to {total:,} bytes (limit {MAX_UNZIPPED_BYTES:,})"))
                return None
            for m in members:
                if m.flag_bits & 0x1:
                    problems.append(Problem(path.name, "the workbook is encrypted"))
                    return None
                if m.file_size > 2**20 and m.file_size > MAX_MEMBER_RATIO * max(m.compress_size, 1):
                    problems.append(
                        Problem(
                            path.name,
                            f"{m.filename} compresses {m.file_size // max(m.compress_size, 1)}:1"
                            " — a zip bomb, not a workbook",
                        )
                    )
                    return None
            names = {m.filename for m in members}
            if "[Content_Types].xml" not in names or "xl/workbook.xml" not in names:
                problems.append(Problem(path.name, "not an Excel workbook (the zip has no xl/workbook.xml)"))
                return None
            return {n: archive.read(n) for n in names if n.startswith("xl/worksheets/") and n.endswith(".xml")}
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, zlib.error, NotImplementedError) as exc:
        problems.append(Problem(path.name, f"not an .xlsx workbook, or a damaged or truncated one (zip: {exc})"))
        return None


_LOAD = threading.Lock()


@contextmanager
def _no_dimension_scan() -> Iterator[None]:
    """Open read-only sheets without openpyxl's look for their declared size: we never trust it (rows are
    read as the XML has them), and where a sheet declares none — every file written in write-only mode —
    the look parses the whole sheet once more. Serialised, and skipped if openpyxl's internals change."""
    from openpyxl.worksheet._read_only import ReadOnlyWorksheet

    original = getattr(ReadOnlyWorksheet, "_get_size", None)
    with _LOAD:
        if original is not None:
            ReadOnlyWorksheet._get_size = lambda self: None
        try:
            yield
        finally:
            if original is not None:
                ReadOnlyWorksheet._get_size = original


def _sheet_xml(sheet: Any, xml: dict[str, bytes]) -> bytes:
    """The raw XML of a read-only sheet (openpyxl keeps the zip part of each read-only sheet)."""
    part = getattr(sheet, "_worksheet_path", None) or ""
    return xml.get(part.lstrip("/"), b"")


HIDDEN = {"hidden": "hidden", "veryHidden": "very hidden (only a macro or the VBA editor can show it)"}


def _read_xlsx(path: Path, problems: list[Problem], skip: Collection[str]) -> list[Table]:
    xml = _check_zip(path, problems)
    if xml is None:
        return []
    from openpyxl import load_workbook

    try:
        with _no_dimension_scan():
            book = load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many types for broken files; all mean "cannot read it"
        problems.append(Problem(path.name, _unreadable(exc)))
        return []
    tables: list[Table] = []
    seen: dict[str, str] = {}
    try:
        for sheet in book.worksheets:
            title = sheet.title
            twin = seen.setdefault(title.casefold(), title)
            if twin is not title:
                problems.append(Problem(path.name, f"two sheets are named {twin!r} (Excel itself refuses that)", title))
                continue
            if title in skip:
                tables.append(Table(path.name, title, []))
                continue
            read = _read_sheet(path, sheet, _sheet_xml(sheet, xml), problems)
            state = HIDDEN.get(getattr(sheet, "sheet_state", "visible"))
            for table in read:
                if state is not None:  # counts only if the sheet is one quotetui would import
                    table.problems.append(
                        Problem(
                            path.name, f"the sheet is {state}: unhide it if it should be imported, or delete it", title
                        )
                    )
            tables += read
    except Exception as exc:
        problems.append(Problem(path.name, _unreadable(exc)))
        return []
    finally:
        book.close()
    return tables


def _unreadable(exc: BaseException) -> str:
    """Why a workbook cannot be read, in one line; entity declarations (XML bombs, XXE) are named as such."""
    chain: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and len(chain) < 10:
        chain.append(current)
        current = current.__cause__ or current.__context__
    if any(type(e).__module__.startswith("defusedxml") for e in chain):
        return "refused: its XML declares entities or a DTD (the pattern of XML bomb and XXE attacks)"
    root = chain[-1]
    detail = str(root).splitlines()[0] if str(root) else ""
    return f"cannot read the workbook (damaged or not Excel): {type(root).__name__}: {detail}"[:300]


def _formula_cells(sheet_xml: bytes) -> set[tuple[int, int]]:
    """(row, column) of every formula cell without a saved value, from the sheet's raw XML (cells may carry
    a namespace prefix; a cell's formula is ``<f>``, its saved value ``<v>``)."""
    found = set()
    for match in FORMULA_CELL.finditer(sheet_xml):
        body = match.group(3)
        if FORMULA.search(body) and not VALUE.search(body):
            found.add((int(match.group(2)), column_index_from_string(match.group(1).decode()) - 1))
    return found


def _merged(sheet_xml: bytes) -> list[tuple[int, int, int, int]]:
    ranges = []
    for ref in MERGE.findall(sheet_xml):
        min_col, min_row, max_col, max_row = range_boundaries(ref.decode())
        ranges.append((min_row, min_col - 1, max_row, max_col - 1))  # rows 1-based, columns 0-based
    return ranges


def _read_sheet(path: Path, sheet: Any, sheet_xml: bytes, problems: list[Problem]) -> list[Table]:
    title = sheet.title
    has_formulas = b"<f" in sheet_xml
    formulas: set[tuple[int, int]] | None = None  # found on the first empty cell of a sheet with formulas
    merged = _merged(sheet_xml)
    grid: list[tuple[int, list[Any]]] = []
    for number, values in enumerate(_rows(sheet), start=1):
        if number > MAX_ROWS + 1:
            problems.append(Problem(path.name, f"more than {MAX_ROWS:,} rows", title))
            break
        grid.append((number, values))
    by_number = dict(grid)
    for top, left, bottom, right in merged:  # a merged block shows its top-left value everywhere in it
        source = by_number.get(top)
        value = source[left] if source is not None and left < len(source) else None
        for n in range(top, min(bottom, MAX_ROWS + 1) + 1):
            cells = by_number.get(n)
            if cells is None:
                continue
            for c in range(left, min(right, MAX_COLUMNS - 1) + 1):
                while len(cells) <= c:
                    cells.append(None)
                if cells[c] is None:
                    cells[c] = value
    table: Table | None = None
    for number, cells in grid:
        if table is None:
            if not any(v not in (None, "") for v in cells):
                continue
            table = Table(path.name, title, [str(v).strip() if v is not None else "" for v in cells])
            continue
        values = []
        for c, value in enumerate(cells):
            if value is None and has_formulas and formulas is None:
                formulas = _formula_cells(sheet_xml)
            if value is None and formulas and (number, c) in formulas:
                table.refuse(
                    number,
                    c,
                    "a formula without a saved result: open the file in Excel or LibreOffice and save it, "
                    "so the values are stored",
                )
            values.append(_check_text(value, table, number, c))
        if any(v not in (None, "") for v in values):
            table.rows.append((number, values))
    return [table] if table is not None else []


def _rows(sheet: Any) -> Iterator[list[Any]]:
    """Every row as the XML has it: the sheet's declared dimension is ignored (it may say fewer rows than
    there are, or a million that are not), rows end at their last value and are cut at MAX_COLUMNS."""
    sheet.reset_dimensions()
    for row in sheet.iter_rows(values_only=True):
        values = list(row[:MAX_COLUMNS])
        while values and values[-1] is None:
            values.pop()
        yield values


def cell_date(value: Any) -> date | None:
    """A date from a date cell, a datetime cell, or ISO / slashed / Chinese text."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        text = value.strip().replace("/", "-").replace("年", "-").replace("月", "-").replace("日", "")
        try:
            return date.fromisoformat("-".join(part.zfill(2) for part in text.split("-")))
        except ValueError:
            return None
    return None


__all__ = ["Table", "cell_date", "read_file"]
