"""A small layer over XlsxWriter in constant-memory (streaming) mode: sheets of typed cells, formats, charts.

Each row is written as it comes and then dropped, so a sheet of any length costs the memory of one row.

* Decimal values are written as decimal text (16 significant digits, never through a float).
* A text value is always a string cell, even when it starts with ``=``, ``+``, ``-``, ``@``, a tab or a
  carriage return. Formulas exist only as :class:`Formula`; their cached result is left empty (``<v></v>``),
  so Excel and LibreOffice compute every formula on opening, and the import names it as a formula without
  a saved result rather than trusting a stale 0.
* Dates and date-times without a column format get ``yyyy-mm-dd`` and ``yyyy-mm-dd h:mm:ss``.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from quotetui.domain.economics.display import sheet_format
from quotetui.io.csv_guard import neutralise
from quotetui.io.percent import is_percent_format, percent_text

MONEY = sheet_format(2)
MONEY_FINE = sheet_format(2, optional=4)
INTEGER = sheet_format(0)
PERCENT = "0.00%"
DATE = "yyyy-mm-dd"
DATETIME = "yyyy-mm-dd hh:mm"
NUMBER = sheet_format(0, optional=6)
DEFAULT_DATE = "yyyy-mm-dd"  # a date cell without a column format (what openpyxl gave it before)
DEFAULT_DATETIME = "yyyy-mm-dd h:mm:ss"

BEST = "#C6EFCE"  # the best value of its column or row
HEADER = "#DDE7F3"
CHART_CM = (18, 9)  # a line chart's width and height
PX_PER_CM = 96 / 2.54


@dataclass(frozen=True, slots=True)
class Formula:
    text: str  # starts with "="


@dataclass(frozen=True, slots=True)
class Styled:
    value: Any
    number_format: str | None = None
    bold: bool = False
    best: bool = False  # highlighted as the best value of its column or row


@dataclass(frozen=True, slots=True)
class Column:
    header: str
    width: int = 12
    number_format: str | None = None


@dataclass(frozen=True, slots=True)
class LineChartSpec:
    title: str
    anchor: str
    header_row: int  # the row holding the series names
    first_row: int
    last_row: int
    category_column: int
    series_columns: tuple[int, ...]
    x_title: str = ""
    y_title: str = ""


@dataclass(slots=True)
class Sheet:
    title: str
    columns: list[Column]
    rows: Iterable[Sequence[Any]]
    preamble: Sequence[Sequence[Any]] = field(default_factory=list)  # rows above the header (titles, inputs)
    freeze: bool = True
    autofilter: bool = True
    charts: list[LineChartSpec] = field(default_factory=list)
    #: the name the sheet is written under when it is not ``title`` (a sheet's name in the language in use,
    #: ``import_schema.sheet_tab``); ``title`` stays the code's name for it
    tab: str = ""

    @property
    def name(self) -> str:
        """The sheet's name in the workbook (its charts' series name their cells by it)."""
        return self.tab or self.title


class _Formats:
    """One XlsxWriter format per combination of number format, bold, fill (made once, shared)."""

    def __init__(self, book: Any) -> None:
        self.book = book
        self.made: dict[tuple[str | None, bool, str | None], Any] = {}

    def get(self, number_format: str | None, bold: bool = False, fill: str | None = None) -> Any:
        key = (number_format, bold, fill)
        found = self.made.get(key, False)
        if found is False:
            spec: dict[str, Any] = {}
            if number_format:
                spec["num_format"] = number_format
            if bold:
                spec["bold"] = True
            if fill:
                spec |= {"pattern": 1, "bg_color": fill}
            found = self.made[key] = self.book.add_format(spec) if spec else None
        return found


class _Row:
    """Writes one sheet's cells: each value by its type, with its column's number format."""

    def __init__(self, sheet: Any, formats: _Formats) -> None:
        self.sheet, self.formats = sheet, formats
        self.date = formats.get(DEFAULT_DATE)
        self.datetime = formats.get(DEFAULT_DATETIME)

    def write(self, r: int, values: Sequence[Any], column_formats: Sequence[Any]) -> None:
        sheet = self.sheet
        width = len(column_formats)
        for c, value in enumerate(values):
            if value is None:
                continue
            kind = type(value)
            fmt = column_formats[c] if c < width else None
            if kind is str:
                if value:
                    sheet.write_string(r, c, value)
            elif kind is Decimal or kind is int or kind is float:
                sheet.write_number(r, c, value, fmt)
            elif kind is bool:
                sheet.write_boolean(r, c, value)
            elif kind is Styled:
                self.styled(r, c, value, fmt)
            elif kind is Formula:
                sheet.write_formula(r, c, value.text, fmt, "")
            elif isinstance(value, datetime):
                sheet.write_datetime(r, c, value.replace(tzinfo=None), fmt or self.datetime)
            elif isinstance(value, date):
                sheet.write_datetime(r, c, value, fmt or self.date)
            elif isinstance(value, int | float | Decimal):  # an IntEnum, a subclass: still a number
                sheet.write_number(r, c, value, fmt)
            else:
                sheet.write_string(r, c, str(value))

    def styled(self, r: int, c: int, value: Styled, column_format: Any) -> None:
        inner = value.value
        fill = BEST if value.best else None
        if isinstance(inner, str):
            self.sheet.write_string(r, c, inner, self.formats.get(None, value.bold, fill))
            return
        fmt = self.formats.get(value.number_format or self._number_format(column_format), value.bold, fill)
        if inner is None:
            if value.bold or fill:
                self.sheet.write_blank(r, c, None, fmt)
        elif isinstance(inner, Formula):
            self.sheet.write_formula(r, c, inner.text, fmt, "")
        elif isinstance(inner, datetime):
            self.sheet.write_datetime(r, c, inner.replace(tzinfo=None), fmt)
        elif isinstance(inner, date):
            self.sheet.write_datetime(r, c, inner, fmt)
        elif isinstance(inner, bool):
            self.sheet.write_boolean(r, c, inner, fmt)
        else:
            self.sheet.write_number(r, c, inner, fmt)

    def _number_format(self, column_format: Any) -> str | None:
        return None if column_format is None else column_format.num_format or None


def write_xlsx(path: Path, sheets: list[Sheet], properties: dict[str, str]) -> Path:
    import xlsxwriter

    book = xlsxwriter.Workbook(
        str(path),
        {"constant_memory": True, "strings_to_numbers": False, "strings_to_formulas": False, "strings_to_urls": False},
    )
    formats = _Formats(book)
    header_format = formats.get(None, True, HEADER)
    try:
        for spec in sheets:
            _write_sheet(book, spec, formats, header_format)
        props: dict[str, Any] = {
            "title": properties.get("title", ""),
            "subject": properties.get("subject", ""),
            "comments": properties.get("description", ""),
            "keywords": properties.get("keywords", ""),
            "author": "quotetui",
        }
        if "created" in properties:
            props["created"] = datetime.fromisoformat(properties["created"]).replace(tzinfo=None)
        book.set_properties(props)
    finally:
        _close(book)
    return path


def _close(book: Any) -> None:
    """``book.close()``, its write failing as the OSError it is (a full disk, a quota, a file size limit:
    ``system/atomic.py`` names it), not as XlsxWriter's FileCreateError, an internal error to the user; and
    without the unclosed zip it leaves behind printing "Exception ignored" as the collector frees it."""
    import gc
    import sys

    from xlsxwriter.exceptions import FileCreateError

    failure: OSError | None = None
    quiet = sys.unraisablehook

    def skip_the_zip(unraisable: Any) -> None:
        if not isinstance(unraisable.exc_value, OSError):
            quiet(unraisable)

    sys.unraisablehook = skip_the_zip
    try:
        try:
            book.close()
        except FileCreateError as exc:
            cause = exc.args[0] if exc.args and isinstance(exc.args[0], OSError) else None
            if cause is None:
                raise
            failure = OSError(cause.errno, cause.strerror or str(cause))  # no traceback: nothing holds the zip
            del cause  # its traceback holds the frame that holds the zip
            # the zip (and its failing close) goes now, while the hook keeps it quiet; only then: a full
            # collection walks every figure the export holds (a second at 100,000 offers)
            gc.collect()
    finally:
        sys.unraisablehook = quiet
    if failure is not None:
        raise failure


def _write_sheet(book: Any, spec: Sheet, formats: _Formats, header_format: Any) -> None:
    sheet = book.add_worksheet(spec.name)
    for index, column in enumerate(spec.columns):
        sheet.set_column(index, index, column.width)
    header_row = len(spec.preamble)  # 0-based: the row under the preamble
    if spec.freeze:
        sheet.freeze_panes(header_row + 1, 0)
    cells = _Row(sheet, formats)
    for r, row in enumerate(spec.preamble):
        cells.write(r, row, ())
    for c, column in enumerate(spec.columns):
        sheet.write_string(header_row, c, column.header, header_format)
    column_formats = [formats.get(c.number_format) for c in spec.columns]
    if _RawRows.fits(sheet):
        last = _RawRows(sheet, formats, column_formats).write(header_row + 1, spec.rows)
    else:  # XlsxWriter's internals moved: its public calls, cell by cell (same cells, slower)
        last = header_row
        for row in spec.rows:
            last += 1
            cells.write(last, row, column_formats)
    if spec.autofilter and last > header_row:
        sheet.autofilter(header_row, 0, last, len(spec.columns) - 1)
    for chart_spec in spec.charts:
        sheet.insert_chart(chart_spec.anchor, _line_chart(book, spec.name, chart_spec))


CONTROL = re.compile("[\x00-\x08\x0b-\x1f]")
ESCAPE_LIKE = re.compile("_(?=x[0-9A-Fa-f]{4}_)")  # an underscore that would start an escape
AS_IS = re.compile("[^&<>\x00-\x08\x0b-\x1f]*")  # text none of whose characters _text changes (no "_x" either)
EPOCH = datetime(1899, 12, 30)  # Excel's day 0 (1900 system), for dates from March 1900 on


def _text(value: str) -> str:
    """Text as cell XML holds it: ``&<>`` escaped, a control character as ``_xHHHH_`` and a literal
    ``_xHHHH_`` with its underscore escaped (OOXML's ST_Xstring, as Excel and XlsxWriter write them)."""
    if "_x" not in value and AS_IS.fullmatch(value):  # most text: nothing to escape
        return value
    if "_x" in value:
        value = ESCAPE_LIKE.sub("_x005F_", value)  # every such underscore, overlapping ones too
    if CONTROL.search(value):
        value = CONTROL.sub(lambda m: f"_x{ord(m.group(0)):04X}_", value)
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _string(ref: str, value: str, style: str = "") -> str:
    return f'<c r="{ref}"{style}{_string_end(value)}'


_ENDS: dict[str, str] = {}
_ENDS_MAX = 50_000


def _string_end(value: str) -> str:
    """A text cell's XML after its reference and style: the same text recurs down a column (a provider, a
    unit, a GPU), so each is escaped once (a bounded cache, emptied when full)."""
    found = _ENDS.get(value)
    if found is None:
        space = ' xml:space="preserve"' if value[:1].isspace() or value[-1:].isspace() else ""
        found = f' t="inlineStr"><is><t{space}>{_text(value)}</t></is></c>'
        if len(_ENDS) >= _ENDS_MAX:
            _ENDS.clear()
        _ENDS[value] = found
    return found


def _serial(value: date) -> str:
    if isinstance(value, datetime):
        delta = value.replace(tzinfo=None) - EPOCH
        return repr(delta.days + (delta.seconds + delta.microseconds / 1e6) / 86400)
    return str((value - EPOCH.date()).days)


def _number(value: Any) -> str | None:
    if isinstance(value, Decimal):
        return f"{value:f}" if value.is_finite() else None
    if isinstance(value, float):
        return repr(value) if value == value and value not in (float("inf"), float("-inf")) else None
    return str(int(value))


class _RawRows:
    """A sheet's data rows as XML written straight into XlsxWriter's row file (constant-memory mode keeps
    one row at a time; its per-cell calls cost several times the XML). The same cells its public calls
    write: inline strings, numbers, booleans, formulas with an empty cached result, dates as serials;
    styles are XlsxWriter's own formats (their xf index)."""

    @staticmethod
    def fits(sheet: Any) -> bool:
        needed = ("row_data_fh", "fh", "previous_row", "table", "_write_single_row", "_check_dimensions")
        return getattr(sheet, "constant_memory", False) and all(hasattr(sheet, n) for n in needed)

    def __init__(self, sheet: Any, formats: _Formats, column_formats: list[Any]) -> None:
        self.sheet, self.formats = sheet, formats
        self.styles: dict[int, str] = {}
        self.column_styles = [self.style(f) for f in column_formats]
        self.column_numbers = [getattr(f, "num_format", None) or None for f in column_formats]
        self.date, self.datetime = self.style(formats.get(DEFAULT_DATE)), self.style(formats.get(DEFAULT_DATETIME))

    def style(self, fmt: Any) -> str:
        if fmt is None:
            return ""
        index = fmt._get_xf_index()
        return f' s="{index}"' if index else ""

    def write(self, first: int, rows: Iterable[Sequence[Any]]) -> int:
        """Write ``rows`` from the 0-based row ``first`` on; the last row written (``first - 1`` if none)."""
        sheet = self.sheet
        sheet._write_single_row(first)  # XlsxWriter writes what it holds (the header) and starts afresh
        out = sheet.fh
        from xlsxwriter.utility import xl_col_to_name

        letters = [xl_col_to_name(c) for c in range(256)]
        styles = self.column_styles
        width = len(styles)
        number, string_end, text_of = _number, _string_end, _text
        r = first - 1
        widest = 0
        for row in rows:
            r += 1
            n = str(r + 1)
            cells = []
            for c, value in enumerate(row):
                if value is None:
                    continue
                kind = type(value)
                if kind is str:
                    if value:
                        cells.append(f'<c r="{letters[c]}{n}"{string_end(value)}')
                    continue
                style = styles[c] if c < width else ""
                if kind is Decimal:
                    if value.is_finite():
                        cells.append(f'<c r="{letters[c]}{n}"{style}><v>{value:f}</v></c>')
                elif kind is int:
                    cells.append(f'<c r="{letters[c]}{n}"{style}><v>{value}</v></c>')
                elif kind is Formula:
                    formula = text_of(value.text.removeprefix("="))
                    cells.append(f'<c r="{letters[c]}{n}"{style}><f>{formula}</f><v></v></c>')
                elif kind is bool:
                    cells.append(f'<c r="{letters[c]}{n}" t="b"><v>{int(value)}</v></c>')
                elif kind is float:
                    text = number(value)
                    if text is not None:
                        cells.append(f'<c r="{letters[c]}{n}"><v>{text}</v></c>')
                else:
                    cells.append(self.other(letters[c] + n, value, style, c))
            if cells:
                out.write(f'<row r="{n}">{"".join(cells)}</row>')
                widest = max(widest, len(row))
        if r >= first:
            sheet._check_dimensions(r, max(widest, width, 1) - 1)
            sheet.previous_row = r
        return r

    def other(self, ref: str, value: Any, style: str, column: int) -> str:
        if isinstance(value, bool):
            return f'<c r="{ref}" t="b"><v>{int(value)}</v></c>'
        if isinstance(value, Formula):
            return f'<c r="{ref}"{style}><f>{_text(value.text.removeprefix("="))}</f><v></v></c>'
        if isinstance(value, Styled):
            numbers = self.column_numbers
            return self.styled(ref, value, numbers[column] if column < len(numbers) else None)
        if isinstance(value, datetime):
            return f'<c r="{ref}"{style or self.datetime}><v>{_serial(value)}</v></c>'
        if isinstance(value, date):
            return f'<c r="{ref}"{style or self.date}><v>{_serial(value)}</v></c>'
        if isinstance(value, int | float | Decimal):
            text = _number(value)
            return f'<c r="{ref}"{style}><v>{text}</v></c>' if text is not None else ""
        return _string(ref, str(value))

    def styled(self, ref: str, value: Styled, column_format: str | None) -> str:
        inner = value.value
        fill = BEST if value.best else None
        if isinstance(inner, str):
            return _string(ref, inner, self.style(self.formats.get(None, value.bold, fill))) if inner else ""
        number_format = value.number_format or column_format
        style = self.style(self.formats.get(number_format, value.bold, fill))
        if inner is None:
            return f'<c r="{ref}"{style}/>' if style else ""
        if isinstance(inner, Formula):
            return f'<c r="{ref}"{style}><f>{_text(inner.text.removeprefix("="))}</f><v></v></c>'
        if isinstance(inner, bool):
            return f'<c r="{ref}"{style} t="b"><v>{int(inner)}</v></c>'
        if isinstance(inner, date):
            return f'<c r="{ref}"{style}><v>{_serial(inner)}</v></c>'
        text = _number(inner)
        return f'<c r="{ref}"{style}><v>{text}</v></c>' if text is not None else ""


def _line_chart(book: Any, sheet: str, spec: LineChartSpec) -> Any:
    chart = book.add_chart({"type": "line"})
    chart.set_title({"name": spec.title})
    chart.set_x_axis({"name": spec.x_title})
    chart.set_y_axis({"name": spec.y_title})
    chart.set_size({"width": round(CHART_CM[0] * PX_PER_CM), "height": round(CHART_CM[1] * PX_PER_CM)})
    first, last = spec.header_row, spec.last_row - 1  # 0-based; the series' values start under their name
    category = spec.category_column - 1
    for column in spec.series_columns:
        c = column - 1
        chart.add_series(
            {
                "name": [sheet, spec.header_row - 1, c],
                "categories": [sheet, spec.first_row - 1, category, last, category],
                "values": [sheet, first, c, last, c],
            }
        )
    return chart


def write_csv(path: Path, columns: list[Column], rows: Iterable[Sequence[Any]]) -> Path:
    with path.open("w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow([neutralise(c.header) for c in columns])
        formats = [c.number_format for c in columns]
        for row in rows:
            writer.writerow(
                [neutralise(_csv_cell(v, formats[i] if i < len(formats) else None)) for i, v in enumerate(row)]
            )
    return path


def _csv_cell(value: Any, column_format: str | None) -> Any:
    """A cell as CSV text holds it; a share with its sign (``60%``: CSV has no number formats, and a bare
    number in a share's column is read back as a percentage)."""
    shown = value.number_format if isinstance(value, Styled) and value.number_format else column_format
    plain_value = _plain(value)
    return percent_text(plain_value) if is_percent_format(shown) else plain_value


def _plain(value: Any) -> Any:
    if isinstance(value, Styled):
        value = value.value
    if isinstance(value, Formula):
        return ""
    if isinstance(value, datetime):
        return value.isoformat(timespec="minutes")
    if isinstance(value, date):
        return value.isoformat()
    if value is None:
        return ""
    return value
