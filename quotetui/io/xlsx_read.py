"""Reading xlsx workbooks safely into tables (openpyxl, read-only), in bounded memory.

Hardening, all before or while parsing, never trusting the file:
* the zip's members, total size and compression ratios are checked first (zip bombs); an encrypted or
  password-protected package is named as such;
* XML is parsed with defusedxml's refusals (openpyxl uses defusedxml when installed; the sheet rows go
  through expat with the same handlers, see ``_rows``); ``max_row`` is ignored (rows are streamed and capped);
* a sheet's raw XML is never held whole: one streamed pass over it (1 MiB at a time) finds its merged cells
  and, in a sheet with formulas, the formula cells without a saved value, which are reported, not read as
  empty; merged cells are filled from their top-left cell as the rows stream by;
* hidden and very hidden sheets, and two sheets of one name, are named; dates come through in both the 1900
  and 1904 systems.
"""

from __future__ import annotations

import io
import math
import re
import threading
import zipfile
import zlib
from collections.abc import Container, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import IO, Any, cast

from openpyxl.utils import column_index_from_string, range_boundaries

from quotetui.io.bounded import Opened
from quotetui.io.percent import PercentCell, is_percent_format
from quotetui.io.problems import Problem
from quotetui.io.table_model import MAX_COLUMNS, MAX_ROWS, Each, Table, Tick, check_cell
from quotetui.language import N_, _
from quotetui.language.lists import quoted

MAX_UNZIPPED_BYTES = 3 * 2**30
"""What all parts may unpack to: a 100,000-offer export unpacks to about 1.1 GB (2.7× to spare). Sheets are
streamed, never unpacked whole, so this bounds the time spent, not the memory; a zip bomb is caught sooner,
by a part's ratio (MAX_MEMBER_RATIO: an export's sheets compress about 10:1)."""
MAX_MEMBER_RATIO = 200  # uncompressed : compressed, for members over 1 MiB
MAX_MEMBERS = 2000
CHUNK = 1 << 20
MAX_CELL_XML = 4 << 20  # a cell's XML longer than this is not a cell Excel writes (32,767 characters at most)
OLE_MAGIC = bytes.fromhex("d0cf11e0a1b11ae1")  # compound file: encrypted OOXML packages and .xls
FORMULA_CELL = re.compile(rb'<(?:\w+:)?c r="([A-Z]{1,3})([0-9]{1,7})"[^>]*(?<!/)>(.*?)</(?:\w+:)?c>', re.S)
FORMULA = re.compile(rb"<(?:\w+:)?f[ >/]")
VALUE = re.compile(rb"<(?:\w+:)?v(?: [^>]*)?>[^<]")  # a saved value; <v/> or <v></v> is none
MERGE = re.compile(rb'<(?:\w+:)?mergeCell ref="([A-Z]+[0-9]+:[A-Z]+[0-9]+)"')
CELL_START = re.compile(rb"<(?:\w+:)?c ")
ROW_OR_COL = re.compile(rb"<(?:\w+:)?(row|col)\s([^>]*)>")
HIDDEN_ATTR = re.compile(rb'\bhidden="(?:1|true)"')
NUMBER_ATTR = {name: re.compile(rb"\b" + name + rb'="([0-9]{1,7})"') for name in (b"r", b"min", b"max")}
ESCAPED = re.compile(r"_x([0-9A-Fa-f]{4})_")  # OOXML's escape of a character XML cannot hold (ST_Xstring)
HIDDEN = {
    "hidden": N_("the sheet is hidden: unhide it if it should be imported, or delete it"),
    "veryHidden": N_(
        "the sheet is very hidden (only a macro or the VBA editor can show it): unhide it if it should be "
        "imported, or delete it"
    ),
}


def unescape(text: str) -> str:
    """A cell's text as Excel shows it: ``_x000D_`` is a carriage return, ``_x005F_`` a literal underscore
    (writers such as XlsxWriter escape control characters so; openpyxl's reader leaves them as they are)."""
    if "_x" not in text:
        return text
    return ESCAPED.sub(lambda m: chr(int(m.group(1), 16)), text)


@dataclass(slots=True)
class SheetScan:
    """What one streamed pass over a sheet's XML found."""

    merges: list[tuple[int, int, int, int]] = field(default_factory=list)  # top, left, bottom, right
    formulas: set[tuple[int, int]] = field(default_factory=set)  # (row, column) without a saved value
    hidden_rows: set[int] = field(default_factory=set)  # 1-based
    hidden_columns: set[int] = field(default_factory=set)  # 0-based


def _formula_cells(xml: bytes) -> set[tuple[int, int]]:
    """(row, column) of every formula cell without a saved value in complete cells of sheet XML (cells may
    carry a namespace prefix; a cell's formula is ``<f>``, its saved value ``<v>``)."""
    found = set()
    for match in FORMULA_CELL.finditer(xml):
        body = match.group(3)
        if FORMULA.search(body) and not VALUE.search(body):
            found.add((int(match.group(2)), column_index_from_string(match.group(1).decode()) - 1))
    return found


def _cut(buffer: bytes) -> int:
    """Where to split a chunk of sheet XML so that no tag and, normally, no cell is cut in two: before the
    last cell that starts near its end (or the last tag); never so that more than MAX_CELL_XML is kept."""
    last_tag = buffer.rfind(b"<")
    if last_tag < 0:
        return len(buffer)
    tail = max(0, len(buffer) - (64 << 10))
    starts = [m.start() for m in CELL_START.finditer(buffer, tail)]
    cut = min(last_tag, starts[-1]) if starts else last_tag
    if len(buffer) - cut > MAX_CELL_XML:  # a giant run of text: keep only an unfinished tag
        closed = buffer.rfind(b">")
        cut = last_tag if last_tag > closed else len(buffer)
    return cut


def _hidden(scan: SheetScan, kind: bytes, attributes: bytes) -> None:
    """A hidden ``<row r="N">`` or ``<col min="A" max="B">`` (a row without its number is not counted)."""
    if kind == b"row":
        found = NUMBER_ATTR[b"r"].search(attributes)
        if found:
            scan.hidden_rows.add(int(found.group(1)))
        return
    low, high = NUMBER_ATTR[b"min"].search(attributes), NUMBER_ATTR[b"max"].search(attributes)
    if low:
        first = int(low.group(1))
        last = min(int(high.group(1)) if high else first, MAX_COLUMNS)
        scan.hidden_columns.update(range(first - 1, last))


def scan_sheet(stream: IO[bytes]) -> SheetScan:
    """Merged ranges and value-less formula cells of a sheet, read 1 MiB at a time: what is kept between two
    reads is at most the last, unfinished cell."""
    scan = SheetScan()
    carry = b""
    formulas = False
    while True:
        chunk = stream.read(CHUNK)
        buffer = carry + chunk
        cut = _cut(buffer) if chunk else len(buffer)
        done, carry = buffer[:cut], buffer[cut:]
        formulas = formulas or FORMULA.search(done) is not None
        for kind, attributes in ROW_OR_COL.findall(done):
            if HIDDEN_ATTR.search(attributes):
                _hidden(scan, kind, attributes)
        for ref in MERGE.findall(done):
            min_col, min_row, max_col, max_row = range_boundaries(ref.decode())
            scan.merges.append((min_row, min_col - 1, max_row, max_col - 1))  # rows 1-based, columns 0-based
        if formulas:
            scan.formulas |= _formula_cells(done)
        if not chunk:
            return scan


def check_zip(source: Opened, problems: list[Problem]) -> zipfile.ZipFile | None:
    """The open zip after its sanity checks (before any XML is parsed), or None and a problem."""
    name = source.path.name
    raw: IO[bytes] = io.BytesIO(source.data) if source.data is not None else source.path.open("rb")
    magic = raw.read(8)
    raw.seek(0)
    if magic == OLE_MAGIC:
        raw.close()
        problems.append(
            Problem(
                name,
                _(
                    "a password-protected workbook (or an old .xls file): save it in Excel or LibreOffice "
                    "as an .xlsx without a password"
                ),
            )
        )
        return None
    try:
        archive = zipfile.ZipFile(raw)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, zlib.error, NotImplementedError) as exc:
        raw.close()
        problems.append(
            Problem(
                name,
                _('not an .xlsx workbook, or a damaged or truncated one (the zip reader says "{error}")').format(
                    error=exc
                ),
            )
        )
        return None
    reason = _zip_problem(archive)
    if reason is not None:
        archive.close()
        raw.close()
        problems.append(Problem(name, reason))
        return None
    return archive


def _zip_problem(archive: zipfile.ZipFile) -> str | None:
    members = archive.infolist()
    if len(members) > MAX_MEMBERS:
        return _("{count} parts in the zip: not a normal workbook").format(count=len(members))
    total = sum(m.file_size for m in members)
    if total > MAX_UNZIPPED_BYTES:
        return _("unpacks to {size} bytes (limit {limit})").format(size=f"{total:,}", limit=f"{MAX_UNZIPPED_BYTES:,}")
    for m in members:
        if m.flag_bits & 0x1:
            return _("the workbook is encrypted")
        if m.file_size > 2**20 and m.file_size > MAX_MEMBER_RATIO * max(m.compress_size, 1):
            return _("{part} compresses {ratio}:1 — a zip bomb, not a workbook").format(
                part=m.filename, ratio=m.file_size // max(m.compress_size, 1)
            )
    names = {m.filename for m in members}
    if "[Content_Types].xml" not in names or "xl/workbook.xml" not in names:
        return _("not an Excel workbook (the zip has no xl/workbook.xml)")
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


def read_xlsx(
    source: Opened, problems: list[Problem], skip: Container[str], tick: Tick | None = None, each: Each | None = None
) -> list[Table]:
    archive = check_zip(source, problems)
    if archive is None:
        return []
    name = source.path.name
    from openpyxl import load_workbook

    try:
        with _no_dimension_scan():
            stream = io.BytesIO(source.data) if source.data is not None else source.path
            book = load_workbook(stream, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many types for broken files; all mean "cannot read it"
        archive.close()
        problems.append(Problem(name, _unreadable(exc)))
        return []
    tables: list[Table] = []
    seen: dict[str, str] = {}
    try:
        for sheet in book.worksheets:
            title = sheet.title
            twin = seen.setdefault(title.casefold(), title)
            if twin is not title:
                twice = _("two sheets are named {name} (Excel itself refuses that)").format(name=quoted(twin))
                problems.append(Problem(name, twice, title))
                continue
            if title in skip:
                tables.append(Table(name, title, []))
                _hand(each, tables[-1])
                continue
            part = (getattr(sheet, "_worksheet_path", None) or "").lstrip("/")  # read-only sheets know their part
            with archive.open(part) as xml:
                scan = scan_sheet(xml)
            read = _read_sheet(name, sheet, scan, problems, tick, lazy=each is not None)
            state = HIDDEN.get(getattr(sheet, "sheet_state", "visible"))
            for table in read:
                if state is not None:  # counts only if the sheet is one quotetui would import
                    table.problems.append(Problem(name, _(state), title))
            tables += read
            for table in read:
                streaming = table.rows  # the consumer may have replaced it
                took = _hand(each, table)
                if isinstance(streaming, Streaming):  # read to its end now: the next sheet's XML follows
                    if took:
                        for _row in streaming:  # what the consumer left unread: damage, rows out of order, too many
                            pass
                        if streaming.error is not None:
                            raise streaming.error
                    table.rows = [] if took else streaming.rest()
    except _Handed as handed:  # the caller's own error (a bug, a cancel), not the workbook's
        raise handed.error from None
    except Exception as exc:
        problems.append(Problem(name, _unreadable(exc)))
        return []
    finally:
        book.close()
        archive.close()
    return tables


class _Handed(Exception):
    def __init__(self, error: Exception) -> None:
        self.error = error


def _hand(each: Each | None, table: Table) -> bool:
    """``each(table)`` (whether it took the rows), its exceptions kept apart from the workbook's own (which mean
    "cannot read it")."""
    if each is None:
        return False
    try:
        return each(table)
    except Exception as exc:
        raise _Handed(exc) from exc


def _unreadable(exc: BaseException) -> str:
    """Why a workbook cannot be read, in one line; entity declarations (XML bombs, XXE) are named as such."""
    chain: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and len(chain) < 10:
        chain.append(current)
        current = current.__cause__ or current.__context__
    if any(type(e).__module__.startswith("defusedxml") for e in chain):
        return _("refused: its XML declares entities or a DTD (the pattern of XML bomb and XXE attacks)")
    root = chain[-1]
    detail = str(root).splitlines()[0] if str(root) else ""
    said = _('cannot read the workbook: damaged or not Excel (the reader says "{error}")')
    return said.format(error=f"{type(root).__name__}: {detail}")[:300]


NO_SAVED_RESULT = N_(
    "a formula without a saved result: open the file in Excel or LibreOffice and save it, so the values are stored"
)


HIDDEN_ROW = N_("the row is hidden: unhide it if it should be imported, or delete it")
HIDDEN_COLUMN = N_("the column is hidden: unhide it if it should be imported, or delete it")


def _read_sheet(
    name: str, sheet: Any, scan: SheetScan, problems: list[Problem], tick: Tick | None, lazy: bool = False
) -> list[Table]:
    """The sheet's table, its rows read once as they stream (a merged block shows its top-left value in
    every cell of it: the value is taken when the block's first row goes by). ``lazy``: the rows are left to
    stream (:class:`Streaming`), read as the caller iterates them, before the next sheet is read."""
    stream = _stream(name, sheet, scan, problems, tick)
    table = next(stream, None)
    if not isinstance(table, Table):
        return []
    rows = cast(Iterator[tuple[int, list[Any]]], stream)
    table.rows = cast(list[tuple[int, list[Any]]], Streaming(rows)) if lazy else list(rows)
    return [table]


class Streaming:
    """A sheet's rows as the XML streams: iterated once (by the import's checks); an error of the workbook's
    own (a damaged part) is kept in ``error`` for the reader, not raised into the caller's checks."""

    def __init__(self, rows: Iterator[tuple[int, list[Any]]]) -> None:
        self.rows = rows
        self.error: Exception | None = None

    def __iter__(self) -> Iterator[tuple[int, list[Any]]]:
        try:
            yield from self.rows
        except Exception as exc:
            self.error = exc

    def rest(self) -> list[tuple[int, list[Any]]]:
        """The rows not iterated yet, read now (the error, if any, is raised)."""
        return list(self.rows)


def _stream(
    name: str, sheet: Any, scan: SheetScan, problems: list[Problem], tick: Tick | None
) -> Iterator[Table | tuple[int, list[Any]]]:
    """The sheet's table (its header) once found, then its data rows, each as it is read."""
    title = sheet.title
    starts: dict[int, list[tuple[int, int, int, int]]] = {}
    for block in scan.merges:
        starts.setdefault(block[0], []).append(block)
    formulas: dict[int, list[int]] = {}
    for row, column in scan.formulas:
        formulas.setdefault(row, []).append(column)
    active: list[tuple[int, int, int, Any]] = []  # (bottom, left, right, value) of the blocks being filled
    table: Table | None = None
    rows = enumerate(_rows(sheet), start=1)
    while True:
        try:
            number, cells = next(rows)
        except StopIteration:
            break
        except BadRow as exc:
            problems.append(Problem(name, str(exc), title))
            break
        if number > MAX_ROWS + 1:
            problems.append(Problem(name, _("more than {count} rows").format(count=f"{MAX_ROWS:,}"), title))
            break
        for _top, left, bottom, right in starts.pop(number, ()):
            active.append((bottom, left, min(right, MAX_COLUMNS - 1), cells[left] if left < len(cells) else None))
        if active:
            active = [block for block in active if block[0] >= number]
            for _bottom, left, right, value in active:
                while len(cells) <= right:
                    cells.append(None)
                for c in range(left, right + 1):
                    if cells[c] is None:
                        cells[c] = value
        if table is None:
            if any(v not in (None, "") for v in cells):
                table = Table(name, title, [unescape(str(v)).strip() if v is not None else "" for v in cells])
                for c in sorted(scan.hidden_columns):  # a hidden column with a header: read, never unseen
                    if c < len(table.header) and table.header[c]:
                        table.problems.append(table.where(number, c, _(HIDDEN_COLUMN)))
                if number in scan.hidden_rows:
                    table.problems.append(table.where(number, None, _(HIDDEN_ROW)))
                yield table
            continue
        for c in formulas.get(number, ()):  # the row's last cells may be formulas without a value: no cells at all
            if c < MAX_COLUMNS and (c >= len(cells) or cells[c] is None):
                table.refuse(number, c, _(NO_SAVED_RESULT))
        for c, value in enumerate(cells):
            if isinstance(value, str):
                cells[c] = check_cell(unescape(value), table, number, c)
        if any(v not in (None, "") for v in cells):
            if number in scan.hidden_rows:
                table.problems.append(table.where(number, None, _(HIDDEN_ROW)))
            if tick is not None:
                tick()
            yield number, cells


SHEET_NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
ROW_TAG, CELL_TAG, VALUE_TAG = f"{SHEET_NS}row", f"{SHEET_NS}c", f"{SHEET_NS}v"
INLINE_TAG, TEXT_TAG, RUN_TAG = f"{SHEET_NS}is", f"{SHEET_NS}t", f"{SHEET_NS}r"


def _rows(sheet: Any) -> Iterator[list[Any]]:
    """Every row as the XML has it: the sheet's declared dimension is ignored (it may say fewer rows than
    there are, or a million that are not), rows end at their last value and are cut at MAX_COLUMNS; a row
    the XML skips comes as an empty one. The same values openpyxl's read-only cells give (shared and inline
    strings, numbers as int or float, booleans, dates by their cell style, cached results of formulas), read
    straight from the XML: openpyxl builds an object per cell and per inline string, several times the parse.

    The XML goes through expat (C) with the handlers defusedxml sets (entity declarations and external
    references refused, with defusedxml's own errors), and this reader's callbacks build each row's values
    directly: defusedxml's ElementTree parser is pure Python and builds an element per cell, value and text,
    several times the cost of the parse. The values are those of the elements: a cell is a ``<c>`` child
    of a ``<row>``; its value the text of its first ``<v>`` child or, inline, of its first ``<is>``'s ``<t>``
    children, then its runs' ``<t>`` (phonetic hints left out); a text is what comes before a child element."""
    from openpyxl.utils.datetime import from_excel, from_ISO8601

    book = sheet.parent
    shared = sheet._shared_strings
    epoch, dates, durations = book.epoch, book._date_formats, book._timedelta_formats
    percents = _percent_styles(book)
    columns: dict[str, int] = {}
    expected = 1
    ready: list[list[Any]] = []  # rows complete, waiting to be yielded
    stack: list[str] = []
    row: dict[str, Any] = {}  # the open row: its attributes, its values, its last column
    cell: dict[str, str] = {}  # the open cell's attributes
    value_text: list[str] | None = None  # the open cell's first <v> text, its pieces
    inline: list[list[str]] | None = None  # the open cell's first <is>: its <t> texts, then its runs' texts
    runs: list[list[str]] = []
    collect: list[str] | None = None  # where character data goes now (text before a child only)
    in_row = False

    def start(name: str, attributes: dict[str, str]) -> None:
        nonlocal collect, value_text, inline, cell, row, in_row
        collect = None  # a child ends its parent's text
        parent = stack[-1] if stack else ""
        stack.append(name)
        if name == X_ROW:
            row = {"r": attributes.get("r"), "values": [], "position": 0}
            in_row = True
        elif parent == X_ROW and name == X_CELL and in_row:
            cell = attributes
            value_text, inline = None, None
            runs.clear()
        elif parent == X_CELL and cell is not None:
            if name == X_VALUE and value_text is None:
                value_text = collect = []
            elif name == X_INLINE and inline is None:
                inline = []
                stack[-1] = OPEN_INLINE  # its children are the first <is>'s
        elif parent == OPEN_INLINE:
            if name == X_TEXT:
                inline.append(collect := [])  # type: ignore[union-attr]
            elif name == X_RUN:
                stack[-1] = OPEN_RUN
        elif parent == OPEN_RUN and name == X_TEXT:
            runs.append(collect := [])

    def text(data: str) -> None:
        if collect is not None:
            collect.append(data)

    def end(name: str) -> None:
        nonlocal collect, expected, in_row
        collect = None
        stack.pop()
        parent = stack[-1] if stack else ""
        if name == X_CELL and parent == X_ROW and in_row:
            _cell_value()
        elif name == X_ROW:
            in_row = False
            index = _row_number(row["r"], expected)
            while expected < index:
                expected += 1
                ready.append([])
            expected += 1
            ready.append(row["values"])

    def _cell_value() -> None:
        values: list[Any] = row["values"]
        ref = cell.get("r")
        if ref:
            letters = ref.rstrip("0123456789")
            position = columns.get(letters) or columns.setdefault(letters, _column(letters, ref))
        else:
            position = row["position"] + 1
        row["position"] = position
        if position > MAX_COLUMNS:
            return
        kind = cell.get("t", "n")
        if kind == "inlineStr":
            value: Any = None if inline is None else "".join(["".join(t) for t in (*inline, *runs)])
        else:
            value = "".join(value_text) if value_text is not None else None
            value = value or None
            if value is not None:
                value = _typed(value, kind, cell.get("s"), shared, epoch, dates, durations, from_excel, percents)
                if kind == "d":
                    value = from_ISO8601(value)
        if value is None:
            return
        while len(values) < position - 1:
            values.append(None)
        values.append(value)

    parser = _parser()
    parser.StartElementHandler, parser.EndElementHandler, parser.CharacterDataHandler = start, end, text
    with sheet._get_source() as source:
        while True:
            chunk = source.read(CHUNK)
            _feed(parser, chunk, final=not chunk)
            yield from ready
            ready.clear()
            if not chunk:
                break


class BadRow(ValueError):
    """A row or cell reference no spreadsheet program writes: the sheet is refused, naming it."""


def _row_number(given: str | None, expected: int) -> int:
    """A ``<row r="N">``'s number: a whole number, after the rows before it (a row that goes back would be
    dropped, or replace one already read: its data is refused rather than lost)."""
    if not given:
        return expected
    try:
        number = int(given)
    except ValueError:
        try:
            as_float = float(given)
        except ValueError:
            as_float = math.nan
        if not (math.isfinite(as_float) and as_float.is_integer()):
            raise BadRow(_("row number {given} is not a row number").format(given=quoted(given[:20]))) from None
        number = int(as_float)
    if number > MAX_ROWS + 1:  # refused here, before the rows between are made (a billion empty rows)
        raise BadRow(_("more than {count} rows").format(count=f"{MAX_ROWS:,}"))
    if number < expected:
        raise BadRow(
            _(
                "row {row} comes after row {previous} (rows out of order): open the file in Excel or "
                "LibreOffice and save it again"
            ).format(row=f"{number:,}", previous=f"{expected - 1:,}")
        )
    return number


def _column(letters: str, ref: str) -> int:
    """A cell reference's column (past the last column read when beyond it: those cells are cut)."""
    if not letters or not letters.isascii() or not letters.isalpha() or not letters.isupper():
        raise BadRow(_("cell reference {ref} is not a cell").format(ref=quoted(ref[:20])))
    return MAX_COLUMNS + 1 if len(letters) > 3 else column_index_from_string(letters)


X_ROW, X_CELL, X_VALUE = ROW_TAG[1:], CELL_TAG[1:], VALUE_TAG[1:]  # expat's names: "namespace}local"
X_INLINE, X_TEXT, X_RUN = INLINE_TAG[1:], TEXT_TAG[1:], RUN_TAG[1:]
OPEN_INLINE, OPEN_RUN = " the first is", " a run of it"  # stack marks: no XML name has a space


def _parser() -> Any:
    """An expat parser with namespaces ("uri}local" names) that refuses what defusedxml refuses, the same way."""
    from xml.parsers import expat

    from defusedxml.common import EntitiesForbidden, ExternalReferenceForbidden

    parser = expat.ParserCreate(None, "}")
    parser.buffer_text = True

    def entity(name: str, is_parameter: bool, value: Any, base: Any, sysid: Any, pubid: Any, notation: Any) -> None:
        raise EntitiesForbidden(name, value, base, sysid, pubid, notation)

    def unparsed(name: str, base: Any, sysid: Any, pubid: Any, notation: Any) -> None:
        raise EntitiesForbidden(name, None, base, sysid, pubid, notation)

    def external(context: Any, base: Any, sysid: Any, pubid: Any) -> int:
        raise ExternalReferenceForbidden(context, base, sysid, pubid)

    parser.EntityDeclHandler, parser.UnparsedEntityDeclHandler = entity, unparsed
    parser.ExternalEntityRefHandler = external
    return parser


def _feed(parser: Any, data: bytes, *, final: bool) -> None:
    """Parse ``data``; a syntax error is ElementTree's ParseError, with expat's words, as before."""
    from xml.etree.ElementTree import ParseError
    from xml.parsers import expat

    try:
        parser.Parse(data, final)
    except expat.ExpatError as exc:
        error = ParseError(str(exc))
        error.code, error.position = exc.code, (exc.lineno, exc.offset)
        raise error from None


def _percent_styles(book: Any) -> frozenset[int]:
    """The cell styles whose number format shows a percentage (their numbers are fractions: ``io/percent.py``),
    found as openpyxl finds the date styles: built-in formats by id, custom ones in the book's list."""
    from openpyxl.styles.numbers import BUILTIN_FORMATS_MAX_SIZE, builtin_format_code

    found = set()
    custom = list(getattr(book, "_number_formats", ()))
    for idx, style in enumerate(getattr(book, "_cell_styles", ())):
        n = style.numFmtId
        code = builtin_format_code(n) if n < BUILTIN_FORMATS_MAX_SIZE else None
        if n >= BUILTIN_FORMATS_MAX_SIZE and n - BUILTIN_FORMATS_MAX_SIZE < len(custom):
            code = custom[n - BUILTIN_FORMATS_MAX_SIZE]
        if is_percent_format(code):
            found.add(idx)
    return frozenset(found)


def _typed(text: str, kind: str, style: str | None, shared: Any, epoch: Any, dates: Any, durations: Any,
           from_excel: Any, percents: frozenset[int] = frozenset()) -> Any:  # fmt: skip
    if kind == "n":
        number: Any = float(text) if "." in text or "E" in text or "e" in text else int(text)
        style_id = int(style) if style else 0
        if style_id and style_id in dates:
            try:
                return from_excel(number, epoch, timedelta=style_id in durations)
            except (OverflowError, ValueError):
                return "#VALUE!"
        if style_id and style_id in percents:
            try:
                return PercentCell(number)
            except OverflowError:  # a whole number too large for a float: read as it is, and refused as a share
                return number
        return number
    if kind == "s":
        return shared[int(text)]
    if kind == "b":
        return bool(int(text))
    return text  # "str", "e" (an error such as #N/A), "d" (converted by the caller)
