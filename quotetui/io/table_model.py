"""What a spreadsheet or CSV file is read into (``io/tables.py`` reads CSV, ``io/xlsx_read.py`` xlsx): a table
per sheet with the row numbers the user sees, the limits on its size, and the one check of a cell's text."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from openpyxl.utils import get_column_letter

from quotetui.domain.errors import BadInput, noun
from quotetui.domain.text import check_text
from quotetui.io.problems import Problem
from quotetui.language import N_, _

MAX_ROWS = 1_048_575
"""Excel's own limit (1,048,576 rows, the header included): any sheet Excel or LibreOffice saves fits, and
the 400,000-row Negotiation sheet of a 100k-offer export with 2.6× to spare."""
MAX_COLUMNS = 200
MAX_TEXT = 10_000


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
    encoding: str | None = None  # a CSV file's, as read (``io/text_encoding.py``)

    def refuse(self, row: int, column: int, reason: str) -> None:
        """Report a cell that cannot be read (its value is left out, and not reported again as missing)."""
        self.problems.append(self.where(row, column, reason))
        self.bad.add((row, column))

    def where(self, row: int | None = None, column: int | None = None, reason: str = "") -> Problem:
        name = None
        if column is not None:
            label = repr(self.header[column] if column < len(self.header) else "")
            if self.sheet:
                name = _("column {name} ({letter})").format(name=label, letter=get_column_letter(column + 1))
            else:
                name = _("column {name}").format(name=label)
        return Problem(self.file, reason, self.sheet, row, name)


THE_TEXT = N_("the text")
"""How a cell's text is named in a message about it; taken off again, since the problem names the cell."""


def _unnamed(message: str) -> str:
    """A cell's problem without the words :data:`THE_TEXT` it starts with (English or the language in use)."""
    if message.startswith(THE_TEXT + " "):
        return message.removeprefix(THE_TEXT + " ")
    said = noun(THE_TEXT)
    return message.removeprefix(said).lstrip() if said != THE_TEXT and message.startswith(said) else message


def check_cell(value: Any, table: Table, row: int, column: int) -> Any:
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            too_long = _("text of {count} characters (limit {limit})")
            table.refuse(row, column, too_long.format(count=f"{len(value):,}", limit=f"{MAX_TEXT:,}"))
            return None
        try:  # the multi-line rules: a one-line field refuses line breaks when its value is parsed
            return check_text(value, what=THE_TEXT, multiline=True)
        except BadInput as exc:
            table.refuse(row, column, _unnamed(str(exc)))
            return None
    return value


Tick = Callable[[], None]
"""Called once per row read (a progress count; it may raise to stop the reading)."""


Each = Callable[[Table], bool]
"""Handed each table as soon as its header is read, before the next sheet of the workbook is read: it returns
True when it took the rows (a workbook's: iterated once as they stream, then let go, so a big workbook's cells
are never all held), False to have them read whole into ``rows`` as without it."""
