"""Reading spreadsheets safely into plain tables: xlsx (``io/xlsx_read.py``) and CSV or tab-separated text
(UTF-8, UTF-16 or GB18030/GBK: ``io/text_encoding.py``).

Hardening, never trusting the file: a file is read through ``io/bounded.py`` (a device or a pipe is cut off
at the size limit, never read forever); a file that has no spreadsheet suffix (a pipe, ``/dev/stdin``) is
told apart by its first bytes; every text cell's length is capped and control characters are refused.
Problems are collected with their place; nothing here writes anything.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Container
from pathlib import Path

from quotetui.domain.errors import BadInput
from quotetui.io.bounded import Opened, open_input
from quotetui.io.csv_guard import unguard
from quotetui.io.problems import Problem
from quotetui.io.table_model import MAX_COLUMNS, MAX_ROWS, Each, Table, Tick, check_cell
from quotetui.io.text_encoding import Decoded, NotText, decode_text
from quotetui.language import _

# The file limits, and why each is what it is (a sheet's rows and columns: ``io/table_model.py``). A workbook
# quotetui exports must import back: a 100,000-offer market exports to about 115 MB (zipped), its Negotiation
# sheet has 400,000 rows (benchmarks/market: four price options an offer) and its sheets unpack to about
# 1.1 GB. Memory stays bounded all the same: a workbook is read from disk as a zip and its sheets are streamed
# (only the rows of the sheets imported are kept).
MAX_FILE_BYTES = 256 * 2**20
"""A workbook: 2.2× the 100k-offer export. Also the most a device or a pipe is read into memory."""
MAX_CSV_BYTES = 100 * 2**20
"""The limit files had before: a CSV file is decoded whole in memory (its text can take four times its
bytes), so it keeps the lower bound."""
ZIP_MAGIC = b"PK\x03\x04"
OLE_MAGIC = bytes.fromhex("d0cf11e0a1b11ae1")  # compound file: encrypted OOXML packages and .xls


def read_file(
    path: Path, problems: list[Problem], skip: Container[str] = (), tick: Tick | None = None, each: Each | None = None
) -> list[Table]:
    """Every table in ``path``; problems are appended (and the bad parts left out). Sheets titled as in
    ``skip`` are not read: they come back as tables without a header or rows. ``tick`` is called per row,
    ``each`` per table as it is read (a file that cannot be read to its end returns no table, even when ``each``
    was handed some)."""
    try:
        source = open_input(path, MAX_FILE_BYTES)
    except BadInput as exc:
        problems.append(Problem(path.name, str(exc).removeprefix(f"{path.name}: ")))
        return []
    try:
        return _read_source(path, source, problems, skip, tick, each)
    except OSError as exc:  # a device or pseudo-file that opens and then fails (/proc/self/mem), a disk error
        problems.append(Problem(path.name, _("cannot be read ({reason})").format(reason=exc.strerror or exc)))
        return []


def _read_source(
    path: Path, source: Opened, problems: list[Problem], skip: Container[str], tick: Tick | None, each: Each | None
) -> list[Table]:
    suffix = path.suffix.lower()
    if suffix not in (".xlsx", ".xlsm", ".csv", ".txt", ".xls"):
        suffix = _sniff(source) or suffix
    if suffix in (".xlsx", ".xlsm"):
        from quotetui.io.xlsx_read import read_xlsx

        return read_xlsx(source, problems, skip, tick, each)
    if suffix in (".csv", ".txt"):
        tables = _read_csv(source, problems, tick)
        for table in tables if each is not None else ():
            each(table)
        return tables
    if suffix == ".xls":
        problems.append(
            Problem(path.name, _("an Excel 97–2003 .xls file: open it in Excel or LibreOffice and save as .xlsx"))
        )
        return []
    problems.append(Problem(path.name, _("not a spreadsheet quotetui reads (.xlsx or .csv)")))
    return []


def _sniff(source: Opened) -> str | None:
    """A file without a spreadsheet suffix (a pipe, ``/dev/stdin``, a download): a zip is a workbook, and
    anything a stream sends is read as CSV (whose own checks then say if it is not text)."""
    if source.data is not None:
        head = source.data[:8]
    else:
        with source.path.open("rb") as handle:
            head = handle.read(8)
    if head.startswith((ZIP_MAGIC, OLE_MAGIC)):
        return ".xlsx"
    return None if source.regular else ".csv"


# -- CSV -------------------------------------------------------------------------------------------------
def _read_csv(source: Opened, problems: list[Problem], tick: Tick | None = None) -> list[Table]:
    path = source.path
    size = len(source.data) if source.data is not None else path.stat().st_size
    if size > MAX_CSV_BYTES:
        over = _("file of {size} bytes is over the {limit}-byte limit for CSV")
        problems.append(Problem(path.name, over.format(size=f"{size:,}", limit=f"{MAX_CSV_BYTES:,}")))
        return []
    raw = source.data if source.data is not None else path.read_bytes()
    try:
        decoded = decode_text(raw)
    except NotText as exc:
        problems.append(Problem(path.name, exc.reason, row=exc.line))
        return []
    text = decoded.text
    if not text.strip(" \t\r\n,;"):
        problems.append(Problem(path.name, _empty(raw, decoded)))
        return []
    if "\x00" in text:
        problems.append(Problem(path.name, _("contains NUL bytes: not a text CSV file")))
        return []
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text))
    table: Table | None = None
    try:
        for number, cells in enumerate(reader, start=1):
            if number > MAX_ROWS + 1:
                problems.append(Problem(path.name, _("more than {count} rows").format(count=f"{MAX_ROWS:,}")))
                break
            if len(cells) > MAX_COLUMNS:
                wide = _("{count} columns (limit {limit})").format(count=len(cells), limit=MAX_COLUMNS)
                problems.append(Problem(path.name, wide, row=number))
                cells = cells[:MAX_COLUMNS]
            if table is None:
                if not any(c.strip() for c in cells):
                    continue
                table = Table(path.name, None, [unguard(c.strip()) for c in cells], encoding=decoded.encoding)
                continue
            values = [check_cell(unguard(c), table, number, i) for i, c in enumerate(cells)]
            if not any(v not in (None, "") for v in values):
                continue
            named = max((i + 1 for i, h in enumerate(table.header) if h), default=0)  # up to the last named
            if len(cells) < named or any(c.strip() for c in cells[len(table.header) :]):  # a line cut short, or
                # shifted by an unquoted comma: its cells would land in other columns (empty ones past the end are fine)
                reason = _("{count} cells where the header has {named}: a line cut short or shifted?").format(
                    count=len(cells), named=named
                )
                table.problems.append(Problem(path.name, reason, row=number))
                table.bad.update((number, i) for i in range(max(len(cells), len(table.header))))
                continue
            table.rows.append((number, values))
            if tick is not None:
                tick()
    except csv.Error as exc:
        problems.append(Problem(path.name, _("not valid CSV: {error}").format(error=exc), row=reader.line_num))
        return []
    return [table] if table is not None else []


def _empty(raw: bytes, decoded: Decoded) -> str:
    """Why a CSV file that holds no cell is refused: an empty file is a mistake (the wrong file, an export
    that failed), not a successful import of nothing."""
    if not raw:
        return _("the file is empty (0 bytes): nothing to import")
    if decoded.text == "" and decoded.encoding.endswith(" (BOM)"):
        mark = decoded.encoding.removesuffix(" (BOM)")
        return _("the file is empty (nothing but a {mark} byte-order mark): nothing to import").format(mark=mark)
    return _("the file is empty (only blank lines, no header or row): nothing to import")


def _delimiter(text: str) -> str:
    """Tab for tab-separated text (Excel's "Unicode text" and "Text (tab delimited)"), else comma: whichever
    the first line that holds anything has more of."""
    for line in io.StringIO(text):
        if line.strip(" \t\r\n,"):
            return "\t" if line.count("\t") > line.count(",") else ","
    return ","


__all__ = ["read_file"]
