"""An RFQ's comparison and award as a workbook (``quotetui rfq show NAME --out FILE.xlsx``, ``quotetui award
NAME --out FILE.xlsx``): the same rows as the command line shows, with amounts as numbers (to the cent,
rounded half-even for display only where the figure is not a whole cent) and texts as data, never formulas.

Sheets: "Comparison 比较" (a column per answer and offer on record, a row per requirement line and figure:
``services/rfq_matrix.py: matrix_rows``), and with an award "Award 授标" (each scenario's total,
risk premium, cost per delivered PFLOP-hour and its allocations).
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from openpyxl import Workbook
from openpyxl.styles import Font
from openpyxl.worksheet.worksheet import Worksheet

from quotetui.domain.economics.exact import dec
from quotetui.io.rfq_workbook import put

if TYPE_CHECKING:
    from quotetui.services.award import AwardResult
    from quotetui.services.rfq import RfqView

COMPARISON_SHEET = "Comparison 比较"
AWARD_SHEET = "Award 授标"
BRIEF_SHEET = "Brief 简报"
MONEY_FORMAT = "#,##0.00"
BOLD = Font(bold=True)


def _amount(sheet: Worksheet, row: int, column: int, value: Fraction | None) -> None:
    if value is not None:
        put(sheet, row, column, dec(value, 2)).number_format = MONEY_FORMAT  # the one rounding point


def _comparison(sheet: Worksheet, view: RfqView) -> None:
    from quotetui.services.rfq_matrix import Amount, matrix_rows

    r = view.requirement
    put(sheet, 1, 1, f"RFQ {r.name} (#{view.id}, revision {r.revision}): {r.gpus:,} × {r.models}, {r.months} months, "
        f"{r.currency}").font = BOLD  # fmt: skip
    offers = view.offers
    if not offers:  # nothing to compare: say so, and what was asked
        from quotetui.io.rfq_workbook import line_text, requirement_lines

        put(sheet, 3, 1, f"No answer yet, and no offer on record of {r.models}.").font = BOLD
        for row, (label, value) in enumerate(requirement_lines(r), 5):
            put(sheet, row, 1, label)
            put(sheet, row, 2, line_text(value))
        sheet.column_dimensions["A"].width = 44
        sheet.column_dimensions["B"].width = 40
        return
    put(sheet, 3, 1, "line / 项目").font = BOLD
    for c, o in enumerate(offers, 2):
        put(sheet, 3, c, f"#{o.offer_id} {o.provider}").font = BOLD
    for row, line in enumerate(matrix_rows(offers, r.currency), 4):
        put(sheet, row, 1, line.label)
        for c, cell in enumerate(line.cells, 2):
            if isinstance(cell, Amount):
                _amount(sheet, row, c, cell.value)
            else:
                put(sheet, row, c, cell)
    sheet.column_dimensions["A"].width = 44
    for c in range(2, len(offers) + 2):
        sheet.column_dimensions[sheet.cell(3, c).column_letter].width = 30
    sheet.freeze_panes = "B4"


def _award(sheet: Worksheet, result: AwardResult) -> None:
    r = result.requirement
    put(
        sheet, 1, 1, f"Award for RFQ {r.name}: {r.gpus:,} × {r.models}, {r.months} months ({result.currency})"
    ).font = BOLD
    heads = ("scenario / 方案", "feasible", "total", "risk premium", "per delivered PFLOP-hour", "why not", "at least")
    for c, head in enumerate(heads, 1):
        put(sheet, 3, c, head).font = BOLD
    row = 4
    for s in result.scenarios:
        put(sheet, row, 1, s.label)
        put(sheet, row, 2, "yes" if s.feasible else "no")
        _amount(sheet, row, 3, s.total_cost)
        _amount(sheet, row, 4, s.premium)
        _amount(sheet, row, 5, s.cost_per_pflop_hour)
        put(sheet, row, 6, s.reason)
        put(sheet, row, 7, "yes (a cost not priced)" if s.lower_bound else "no")
        row += 1
    row += 1
    for c, head in enumerate(("scenario / 方案", "offer id", "provider", "offer", "nodes", "GPUs", "total"), 1):
        put(sheet, row, c, head).font = BOLD
    row += 1
    for s in result.scenarios:
        for a in s.lines:
            for c, value in enumerate((s.label, a.offer_id, a.provider, a.offer, a.nodes, a.gpus), 1):
                put(sheet, row, c, value)
            _amount(sheet, row, 7, a.engine_cost)
            row += 1
    for letter, width in zip("ABCDEFG", (28, 10, 20, 34, 22, 40, 18), strict=True):
        sheet.column_dimensions[letter].width = width


def write_sourcing_workbook(path: Path, view: RfqView, result: AwardResult | None = None) -> None:
    """The comparison (and the award, if given) at ``path``, whole or not at all (``io/atomic.py``); the caller
    checks the target."""
    from quotetui.io.atomic import replacing

    book = Workbook()
    sheet = book.active
    sheet.title = COMPARISON_SHEET
    _comparison(sheet, view)
    if result is not None:
        _award(book.create_sheet(AWARD_SHEET), result)
    with replacing(path) as tmp:
        book.save(tmp)


_ESCAPED = re.compile(r"\\(.)")


def write_brief_workbook(path: Path, markdown: str) -> None:
    """The negotiation brief (``services/brief.py: markdown``) as a sheet: a row per line, headings in bold,
    the Markdown escapes taken off (a cell is data, not Markdown); whole or not at all."""
    from quotetui.io.atomic import replacing

    book = Workbook()
    sheet = book.active
    sheet.title = BRIEF_SHEET
    row = 1
    for line in markdown.splitlines():
        if not line.strip():
            continue
        level = len(line) - len(line.lstrip("#"))
        text = _ESCAPED.sub(r"\1", line[level:].strip() if level else line)
        cell = put(sheet, row, 1, text)
        if level:
            cell.font = Font(bold=True, size={1: 14, 2: 12}.get(level, 11))
        row += 1
    sheet.column_dimensions["A"].width = 120
    with replacing(path) as tmp:
        book.save(tmp)
