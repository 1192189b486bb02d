"""Issue 30 point 1: a figure carries what qualifies it to every view — ≥ a lower bound, ~ an estimate, ✗ the
offer's critical findings, ! a lapsed quote, ¤ VAT not recorded while costs are net of VAT — rendered by one
function (``caveats.figure_text``; in a sheet ``number_format``)."""

from __future__ import annotations

import json
from datetime import date
from fractions import Fraction
from pathlib import Path

from openpyxl import load_workbook
from textual.coordinate import Coordinate
from textual.widgets import DataTable

from quotetui.domain.economics.caveats import Caveats, figure_text, merged, number_format
from tests.conftest import Cli
from tests.test_tui import RecordingApp, settle, text_of
from tests.test_tui_verification import _import


def test_one_rendering_of_every_mark() -> None:
    v = Fraction(123456789, 100000)  # 1,234.56789
    assert figure_text(v, Caveats()) == "1,234.57"
    assert figure_text(v, Caveats(unpriced=("storage",))) == "≥ 1,234.57"
    assert figure_text(v, Caveats(estimates=("a range",))) == "~1,234.57"
    assert figure_text(v, Caveats(critical=("model-mismatch",))) == "1,234.57 ✗"
    every = Caveats(("storage",), ("a range",), ("a", "a"), date(2026, 11, 30), True)
    assert figure_text(v, every) == "≥ ~1,234.57 ✗!¤"
    assert every.flags() == ["✗ 2× a", "≥ 1 cost not priced", "~ estimate", "! lapsed 2026-11-30", "¤ VAT not recorded"]
    assert number_format(every, '#,##0.00 "CNY"') == '"≥ ~"#,##0.00 "CNY" "✗!¤"'
    assert number_format(Caveats(), '#,##0.00 "CNY"') == '#,##0.00 "CNY"'
    # a sum of figures (an award's total) carries every part's caveats
    total = merged([Caveats(unpriced=("egress",)), Caveats(critical=("x",)), Caveats(lapsed=date(2026, 12, 1))])
    assert figure_text(v, total) == "≥ 1,234.57 ✗!"


def _offers(cli: Cli, db: str, *more: str) -> dict[int, dict]:  # type: ignore[type-arg]
    result = cli("--db", db, "offers", "--json", *more)
    assert result.code == 0, result.err
    return {o["id"]: o for o in json.loads(result.out)}


def test_the_offers_table_says_what_qualifies_each_row(cli: Cli, demo_db_path: Path) -> None:
    """#2 ranks 3rd with two impossible claims (critical findings): its row says so; #4 and #3 are costed at
    estimated prices: ≥ ~ on their costs and "~ estimate" in the flags."""
    db = str(demo_db_path)
    out = cli("--db", db, "offers").out
    row2 = next(line for line in out.splitlines() if line.startswith("  3   2 "))
    assert row2.rstrip().endswith("✗ 2× implausible-claim")
    row4 = next(line for line in out.splitlines() if "  4  一万网络" in line)
    assert "≥ ~720,000.00" in row4 and row4.rstrip().endswith("~ estimate")
    assert "marks: ≥ at least (a cost not priced) · ~ estimate · ✗ critical finding" in out
    offers = _offers(cli, db)
    assert offers[2]["caveats"]["critical_findings"] == ["implausible-claim", "implausible-claim"]
    assert offers[4]["caveats"]["marks"] == "≥ ~" and offers[18]["caveats"]["critical_findings"] == []


def test_explain_and_the_brief_lead_with_the_caveats(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    shown = cli("--db", db, "explain", "3").out
    head = shown.split("\nNodes needed")[0]
    assert "What qualifies these figures" in head
    assert "~ an estimate: the annual prepaid price it is costed at is an estimate" in head
    assert "✗ critical findings: implausible-claim (`quotetui bench check 3` explains each)" in head
    assert "Total for the scenario = ≥ ~750,000.00 CNY" in shown  # the figure itself carries ≥ ~
    brief = cli("--db", db, "brief", "2").out
    assert "Caveat / 注意: ✗ critical findings: 2× implausible-claim" in brief
    assert "(this offer: ≥ 44.60 ✗)" in brief


def test_a_lapsed_quote_and_vat_not_recorded_are_marked(cli: Cli, demo_db_path: Path) -> None:
    """#18 valid until 2026-11-01 (lapsed: today is later); costs net of VAT where #18 records no VAT rate."""
    db = str(demo_db_path)
    assert cli("--db", db, "offer", "edit", "18", "--valid-until", "2026-11-01").code == 0
    assert cli("--db", db, "settings", "set", "--net-of-vat", "yes").code == 0
    o = _offers(cli, db)[18]
    assert o["caveats"]["lapsed"] == "2026-11-01" and o["caveats"]["vat_unknown"] is True
    assert o["caveats"]["marks"] == "≥ ! ¤"
    out = cli("--db", db, "offers").out
    row = next(line for line in out.splitlines() if "  18  腾讯云" in line)
    assert "! lapsed 2026-11-01" in row and "¤ VAT not recorded" in row and "≥ 960,000.00 ¤" in row


def test_the_summary_sheet_marks_the_figures_it_colours(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    """The best value in green never goes to a lower bound or an offer with a critical finding without saying
    so: the cell's number format carries the marks, the number stays a number."""
    db = str(demo_db_path)
    _import(demo_db_path, 18, "pcie-as-sxm")  # #18, first, gets three critical findings
    out = tmp_path / "market.xlsx"
    assert cli("--db", db, "export", str(out)).code == 0
    summary = load_workbook(out)["Summary"]
    header = [c.value for c in summary[3]]
    pflop = header.index("cost per delivered PFLOP-hour (CNY)") + 1
    first = summary.cell(row=4, column=pflop)
    assert summary.cell(row=4, column=2).value == 18 and isinstance(first.value, float | int)
    assert str(first.fill.fgColor.rgb).endswith("C6EFCE")  # green: the lowest
    assert first.number_format.startswith('"≥ "') and first.number_format.endswith('"✗"')
    flags = summary.cell(row=4, column=header.index("flags") + 1).value
    assert flags.startswith("✗ allreduce-low, ✗ model-mismatch, ✗ pcie-topology")
    assert "marks on a figure: ≥ at least" in summary["A1"].value
    side = load_workbook(out)["Side by side"]
    labels = [side.cell(row=r, column=1).value for r in range(1, side.max_row + 1)]
    caveats = side.cell(row=labels.index("caveats") + 1, column=2).value
    assert caveats.startswith("≥ a lower bound") and "✗ critical findings" in caveats


async def test_compare_and_the_dashboard_show_the_marks(demo_db_path: Path) -> None:
    _import(demo_db_path, 18, "pcie-as-sxm")
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(pilot)
        best = text_of(app, "#best")
        # H100: #18 is the cheapest per GPU-hour and per PFLOP-hour; its critical findings go with it
        assert "13.70 ✗" in best and "≥ 34.98 ✗" in best
        app.pinned = (18, 2)
        await pilot.press("c")
        await settle(pilot)
        table = app.screen.query_one("#compare", DataTable)
        shown = " | ".join(str(table.get_cell_at(Coordinate(r, c))) for r in range(table.row_count) for c in (1, 2))
        assert "≥ 34.98 ✗" in shown and "≥ 44.60 ✗" in shown  # #2's impossible claims
        assert "≥ 960,000.00 ✗" in shown


def test_rfq_show_and_the_award_carry_the_caveats() -> None:
    from quotetui.services.rfq_matrix import Amount, cell_text

    c = Caveats(unpriced=("storage",), critical=("model-mismatch",))
    assert cell_text(Amount(Fraction(1000), c)) == "≥ 1,000.00 ✗"
    from quotetui.services.award import amount_shown

    assert amount_shown(Fraction(1000), c, "CNY") == "≥ 1,000.00 CNY ✗"
    assert amount_shown(Fraction(1000), Caveats(), "CNY") == "1,000.00 CNY"
