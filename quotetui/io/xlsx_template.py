"""The import template: a sheet per entity, a note on every header, drop-downs for closed vocabularies."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openpyxl import Workbook
from openpyxl.comments import Comment
from openpyxl.styles import Font, PatternFill
from openpyxl.utils import get_column_letter, quote_sheetname
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from quotetui.domain.currency import MINOR_UNITS
from quotetui.io.import_schema import ENTITIES, Field
from quotetui.language import _
from quotetui.language.lists import aside, listed

HEADER_FILL = PatternFill("solid", fgColor="DDE7F3")
REQUIRED_FONT = Font(bold=True, color="1F3864")
ROWS_VALIDATED = 2000
LISTS_SHEET = "Lists"  # hidden: the values of the drop-downs


def list_column(lists: Any, column: int, title: str, values: list[str]) -> str:
    lists.cell(row=1, column=column, value=title).font = Font(bold=True)
    for i, value in enumerate(values, start=2):
        cell = lists.cell(row=i, column=column, value=value)
        cell.data_type = "s"
    letter = get_column_letter(column)
    return f"{quote_sheetname(lists.title)}!${letter}$2:${letter}${len(values) + 1}"


def drop_down(sheet: Worksheet, cells: str, formula: str, title: str, *, required: bool, hint: str = "") -> None:
    """A list drop-down on ``cells`` that refuses other values (``formula``: ``"a,b"`` or a range); an empty
    cell is allowed unless ``required``: the import template's and the RFQ response workbook's. ``title``: the
    column as people read it (a field's title, ``类型``), the title of the refusal and its aside."""
    error = " / ".join(p for p in (_("choose a value from the list"), hint) if p)
    dv = DataValidation(
        type="list",
        formula1=formula,
        allow_blank=not required,
        showErrorMessage=True,
        errorTitle=title,
        error=aside(error, title),
    )
    dv.add(cells)
    sheet.add_data_validation(dv)


def write_template(path: Path, gpu_names: list[str]) -> Path:
    book = Workbook()
    book.remove(book.active)
    lists = book.create_sheet(LISTS_SHEET)
    ranges: dict[str, str] = {}
    column = 1

    def validation_for(col: Field) -> str | None:
        nonlocal column
        if col.kind == "gpu":
            key, values = "gpu", gpu_names
        elif col.kind == "currency":
            key, values = "currency", sorted(MINOR_UNITS)
        elif col.kind == "bool":
            key, values = "bool", ["yes", "no"]
        elif col.choices is not None:
            key, values = col.choices.__name__, [m.value for m in col.choices]
        else:
            return None
        if key not in ranges:
            ranges[key] = list_column(lists, column, key, values)
            column += 1
        return ranges[key]

    for entity in ENTITIES:
        sheet = book.create_sheet(entity.sheet)
        sheet.freeze_panes = "A2"
        for index, col in enumerate(entity.sheet_fields, start=1):
            cell = sheet.cell(row=1, column=index, value=col.column)
            cell.fill = HEADER_FILL
            if col.required:
                cell.font = REQUIRED_FONT
            note = _("required. {note}").format(note=col.note()) if col.required else col.note()
            if col.aliases:
                note += "\n" + _("Also read as: {aliases}").format(aliases=listed(col.aliases))
            cell.comment = Comment(note, "quotetui", width=320, height=120)
            letter = get_column_letter(index)
            sheet.column_dimensions[letter].width = max(12, min(32, len(col.column) + 4))
            formula = validation_for(col)
            if formula is not None:
                drop_down(sheet, f"{letter}2:{letter}{ROWS_VALIDATED}", formula, col.title, required=col.required)
    lists.sheet_state = "hidden"
    book.move_sheet(lists, offset=len(book.sheetnames))
    book.properties.title = _("quotetui import template")
    book.properties.creator = "quotetui"
    book.save(path)
    return path
