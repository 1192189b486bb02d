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

from quotetui.domain.economics.caveats import NONE as NO_CAVEATS
from quotetui.domain.economics.caveats import Caveats, number_format
from quotetui.domain.economics.display import sheet_format
from quotetui.domain.economics.exact import dec
from quotetui.io.rfq_workbook import put
from quotetui.language import N_, _, ngettext

if TYPE_CHECKING:
    from quotetui.services.award import AwardResult, AwardScenario
    from quotetui.services.rfq_views import RfqView

COMPARISON_SHEET = "Comparison 比较"
AWARD_SHEET = "Award 授标"
BRIEF_SHEET = "Brief 简报"
MONEY_FORMAT = sheet_format(2)
BOLD = Font(bold=True)


def _amount(sheet: Worksheet, row: int, column: int, value: Fraction | None, caveats: Caveats = NO_CAVEATS) -> None:
    """An amount to the cent (the one rounding point), a number with its caveats' marks in its format."""
    if value is not None:
        put(sheet, row, column, dec(value, 2)).number_format = number_format(caveats, MONEY_FORMAT)


def _comparison(sheet: Worksheet, view: RfqView) -> None:
    from quotetui.services.rfq_matrix import Amount, matrix_rows

    r = view.requirement
    title = ngettext(
        "RFQ {name} (#{id}, revision {revision}): {gpus} × {models}, {n} month, {currency}",
        "RFQ {name} (#{id}, revision {revision}): {gpus} × {models}, {n} months, {currency}",
        r.months,
    )
    put(sheet, 1, 1, title.format(name=r.name, id=view.id, revision=r.revision, gpus=f"{r.gpus:,}", models=r.models,
                                  n=f"{r.months:,}", currency=r.currency)).font = BOLD  # fmt: skip
    offers = view.offers
    if not offers:  # nothing to compare: say so, and what was asked
        from quotetui.io.rfq_workbook import line_text, requirement_lines

        put(sheet, 3, 1, _("No answer yet, and no offer on record of {models}.").format(models=r.models)).font = BOLD
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
                _amount(sheet, row, c, cell.value, cell.caveats)
            else:
                put(sheet, row, c, cell)
    sheet.column_dimensions["A"].width = 44
    for c in range(2, len(offers) + 2):
        sheet.column_dimensions[sheet.cell(3, c).column_letter].width = 30
    sheet.freeze_panes = "B4"


SCENARIO_HEADS = (
    "scenario / 方案", N_("feasible"), N_("total"), N_("risk premium"), N_("per delivered PFLOP-hour"), N_("why not"),
    N_("at least"), N_("beyond the need"),
)  # fmt: skip
"""The award sheet's scenario columns (each shown through ``_()``; the bilingual one is the same in every
language, and the premium's heading is ``services/award.py: premium_head``)."""
LINE_HEADS = (
    "scenario / 方案", N_("offer id"), N_("provider"), N_("offer"), N_("nodes"), N_("GPUs"), N_("total"),
    N_("way to buy"),
)  # fmt: skip
"""The award sheet's allocation columns (shown through ``_()``)."""


def _scenario_rows(sheet: Worksheet, row: int, found: tuple[AwardScenario, ...], prefix: str, premium: str) -> int:
    """A row per scenario (and per split without nodes beyond the need), from ``row``; the next free row."""
    from quotetui.services.award import beyond_text

    for c, head in enumerate(SCENARIO_HEADS, 1):
        put(sheet, row, c, premium if c == 4 else _(head)).font = BOLD
    row += 1
    for s in found:
        for label, shown in ((s.label, s), (_without(s.label), s.lean)):
            if shown is None:
                continue
            put(sheet, row, 1, prefix + label)
            put(sheet, row, 2, _("yes") if shown.feasible else _("no"))
            _amount(sheet, row, 3, shown.total_cost, shown.caveats)
            _amount(sheet, row, 4, shown.premium if shown is s else None)
            _amount(sheet, row, 5, shown.cost_per_pflop_hour, shown.caveats)
            put(sheet, row, 6, shown.reason)
            rough = shown is s and s.premium_rough and not shown.lower_bound
            if shown.lower_bound:
                at_least = _("yes (a cost not priced)")
            else:
                at_least = _("no (the premium's base is)") if rough else _("no")
            put(sheet, row, 7, at_least)
            put(sheet, row, 8, beyond_text(shown))
            row += 1
    return row


def _without(label: str) -> str:
    """A scenario's label for its split without nodes beyond the need."""
    return _("{scenario}, without buying beyond the need").format(scenario=label)


def _line_rows(sheet: Worksheet, row: int, found: tuple[AwardScenario, ...], prefix: str) -> int:
    for s in found:
        for label, shown in ((s.label, s), (_without(s.label), s.lean)):
            for a in shown.lines if shown is not None else ():
                for c, value in enumerate((prefix + label, a.offer_id, a.provider, a.offer, a.nodes, a.gpus), 1):
                    put(sheet, row, c, value)
                _amount(sheet, row, 7, a.total_cost, a.caveats)
                put(sheet, row, 8, a.way)
                row += 1
    return row


def _listed(sheet: Worksheet, row: int, title: str, lines: list[str]) -> int:
    """A bold title at ``row`` and a line a row under it; the row after the last."""
    put(sheet, row, 1, title).font = BOLD
    for n, line in enumerate(lines, 1):
        put(sheet, row + n, 1, line)
    return row + len(lines) + 1


def _award(sheet: Worksheet, result: AwardResult) -> None:
    """The headline scenarios (confirmed candidates only), then the same if the open questions are confirmed and
    the questions to ask, then every scenario's allocations."""
    from quotetui.services.award import left_out_text, premium_head, question_text

    r = result.requirement
    title = ngettext(
        "Award for RFQ {name}: {gpus} × {models}, {n} month ({currency})",
        "Award for RFQ {name}: {gpus} × {models}, {n} months ({currency})",
        r.months,
    )
    put(sheet, 1, 1, title.format(name=r.name, gpus=f"{r.gpus:,}", models=r.models, n=f"{r.months:,}",
                                  currency=result.currency)).font = BOLD  # fmt: skip
    among = ngettext(
        "Among {n} confirmed candidate (every line ✓); {more} more with questions open",
        "Among {n} confirmed candidates (every line ✓); {more} more with questions open",
        result.candidates,
    )
    put(sheet, 2, 1, among.format(n=f"{result.candidates:,}", more=f"{result.questioned:,}"))
    premium = premium_head(result.minimise)
    row = _scenario_rows(sheet, 3, result.scenarios, "", premium)
    maybe = _("if confirmed: ")
    if result.left_out:
        row = _listed(sheet, row + 1, "Not in the award / 未纳入", [left_out_text(x) for x in result.left_out])
    if result.if_confirmed:
        row += 1
        put(
            sheet, row, 1, _("If confirmed / 待确认: the offers whose open lines (?) the providers confirm")
        ).font = BOLD
        row = _scenario_rows(sheet, row + 1, result.if_confirmed, maybe, premium)
        row = _listed(sheet, row + 1, "Ask before awarding / 需确认", [question_text(q) for q in result.questions])
    row += 1
    for c, head in enumerate(LINE_HEADS, 1):
        put(sheet, row, c, _(head)).font = BOLD
    row = _line_rows(sheet, row + 1, result.scenarios, "")
    _line_rows(sheet, row, result.if_confirmed, maybe)
    for letter, width in zip("ABCDEFGH", (40, 10, 20, 34, 22, 40, 18, 24), strict=True):
        sheet.column_dimensions[letter].width = width


def write_sourcing_workbook(path: Path, view: RfqView, result: AwardResult | None = None) -> None:
    """The comparison (and the award, if given) at ``path``, whole or not at all (``system/atomic.py``); the caller
    checks the target."""
    from quotetui.system.atomic import replacing

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
    from quotetui.system.atomic import replacing

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
