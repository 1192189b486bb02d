"""A small layer over openpyxl's write-only (streaming) mode: sheets of typed cells, formats, charts.

* Decimal values are written as exact decimal text (never through a float).
* A text value is always a string cell, even when it starts with ``=``, ``+``, ``-``, ``@``, a tab or a
  carriage return: openpyxl would otherwise make ``=…`` a formula. Formulas exist only as :class:`Formula`.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from types import MethodType
from typing import Any

from openpyxl import Workbook
from openpyxl.cell import Cell, WriteOnlyCell
from openpyxl.chart import LineChart, Reference
from openpyxl.styles import Font, PatternFill
from openpyxl.utils import get_column_letter

from quotetui.io.csv_guard import RISKY, neutralise

MONEY = "#,##0.00"
MONEY_FINE = "#,##0.00####"
INTEGER = "#,##0"
PERCENT = "0.00%"
DATE = "yyyy-mm-dd"
DATETIME = "yyyy-mm-dd hh:mm"
NUMBER = "#,##0.######"

BEST = PatternFill("solid", fgColor="C6EFCE")
HEADER = PatternFill("solid", fgColor="DDE7F3")
BOLD = Font(bold=True)


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


class _Cells:
    """Makes the cells of one sheet. A styled cell gets a copy of a style made once per combination of
    number format, bold and fill (openpyxl's own setters look the style up again for every cell)."""

    def __init__(self, sheet: Any) -> None:
        self.sheet = sheet
        self.styles: dict[tuple[str | None, bool, bool], Any] = {}

    def styled(self, value: Any, number_format: str | None, bold: bool = False, best: bool = False) -> Cell:
        key = (number_format, bold, best)
        style = self.styles.get(key)
        if style is None:
            probe = WriteOnlyCell(self.sheet)
            if number_format:
                probe.number_format = number_format
            if bold:
                probe.font = BOLD
            if best:
                probe.fill = BEST
            style = self.styles[key] = probe._style
        return Cell(self.sheet, 1, 1, value, style)

    def cell(self, value: Any, number_format: str | None) -> Any:
        if value is None or isinstance(value, float | bool):
            return value
        if isinstance(value, str):
            if value.startswith(RISKY):  # never a formula: a string cell
                cell = Cell(self.sheet, 1, 1, value)
                cell.data_type = "s"
                return cell
            return value
        if isinstance(value, Styled):
            inner = value.value
            text = isinstance(inner, str)
            fmt = None if text else value.number_format or number_format
            cell = self.styled(_cell_value(inner), fmt, value.bold, value.best)
            if text:
                cell.data_type = "s"
            elif isinstance(inner, Formula):
                cell.data_type = "f"
            return cell
        if isinstance(value, Formula):
            return self.styled(value.text, number_format)
        if number_format and isinstance(value, int | Decimal | date):
            return self.styled(value, number_format)
        return value


def _values_to_row(sheet: Any, values: Sequence[Any], row_idx: int) -> Iterator[Cell]:
    """openpyxl's write-only ``_values_to_row``, taking a ready cell without first failing to assign it as a
    value (openpyxl's version raises and formats an error for every styled cell). Same cells out."""
    plain = WriteOnlyCell(sheet)
    for col_idx, value in enumerate(values, 1):
        if value is None:
            continue
        if isinstance(value, Cell):
            cell = value
        else:
            cell = plain
            cell.value = value
        cell.column = col_idx
        cell.row = row_idx
        yield cell
        if cell is plain and cell.has_style:  # a date got its default format: the next value starts clean
            plain = WriteOnlyCell(sheet)


def _cell_value(value: Any) -> Any:
    return value.text if isinstance(value, Formula) else value


def write_xlsx(path: Path, sheets: list[Sheet], properties: dict[str, str]) -> Path:
    book = Workbook(write_only=True)
    for spec in sheets:
        sheet = book.create_sheet(spec.title)
        if callable(getattr(sheet, "_values_to_row", None)):  # openpyxl's write-only internals, 3.0 to 3.1
            sheet._values_to_row = MethodType(_values_to_row, sheet)
        for index, column in enumerate(spec.columns, start=1):
            sheet.column_dimensions[get_column_letter(index)].width = column.width
        header_row = len(spec.preamble) + 1
        if spec.freeze:
            sheet.freeze_panes = f"A{header_row + 1}"
        count = 0
        cells = _Cells(sheet)
        for row in spec.preamble:
            sheet.append([cells.cell(v, None) for v in row])
        header = []
        for column in spec.columns:
            cell = WriteOnlyCell(sheet, value=column.header)
            cell.data_type, cell.font, cell.fill = "s", BOLD, HEADER
            header.append(cell)
        sheet.append(header)
        formats = [c.number_format for c in spec.columns]
        width = len(formats)
        make = cells.cell
        for row in spec.rows:
            sheet.append([make(v, formats[i] if i < width else None) for i, v in enumerate(row)])
            count += 1
        if spec.autofilter and count:
            sheet.auto_filter.ref = f"A{header_row}:{get_column_letter(len(spec.columns))}{header_row + count}"
        for chart_spec in spec.charts:
            sheet.add_chart(_line_chart(sheet, chart_spec), chart_spec.anchor)
    props = book.properties
    props.title = properties.get("title", "")
    props.subject = properties.get("subject", "")
    props.description = properties.get("description", "")
    props.keywords = properties.get("keywords", "")
    props.creator = "quotetui"
    if "created" in properties:
        props.created = datetime.fromisoformat(properties["created"]).replace(tzinfo=None)
    book.save(path)
    return path


def _line_chart(sheet: Any, spec: LineChartSpec) -> LineChart:
    chart = LineChart()
    chart.title = spec.title
    chart.x_axis.title = spec.x_title
    chart.y_axis.title = spec.y_title
    chart.height, chart.width = 9, 18
    for column in spec.series_columns:
        data = Reference(sheet, min_col=column, min_row=spec.header_row, max_row=spec.last_row)
        chart.add_data(data, titles_from_data=True)
    chart.set_categories(Reference(sheet, min_col=spec.category_column, min_row=spec.first_row, max_row=spec.last_row))
    return chart


def write_csv(path: Path, columns: list[Column], rows: Iterable[Sequence[Any]]) -> Path:
    with path.open("w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow([neutralise(c.header) for c in columns])
        for row in rows:
            writer.writerow([neutralise(_plain(v)) for v in row])
    return path


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
