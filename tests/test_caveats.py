"""Issue 30 point 1: a figure carries what qualifies it to every view — ≥ a lower bound, ~ an estimate, ✗ the
offer's critical findings, ! a lapsed quote, ¤ VAT not recorded while costs are net of VAT — rendered by one
function (``caveats.figure_text``; in a sheet ``number_format``)."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date
from fractions import Fraction
from pathlib import Path

from openpyxl import load_workbook
from textual.coordinate import Coordinate
from textual.widgets import DataTable

from quotetui import language
from quotetui.domain.economics.caveats import Caveats, figure_text, merged, number_format
from quotetui.domain.verification.findings import FindingCode
from quotetui.tui.offer_rows import at
from quotetui.tui.widgets.virtual_table import VirtualTable
from tests.conftest import Cli
from tests.test_tui import RecordingApp, settle, text_of
from tests.test_tui_verification import _import


def test_one_rendering_of_every_mark() -> None:
    v = Fraction(123456789, 100000)  # 1,234.56789
    assert figure_text(v, Caveats()) == "1,234.57"
    assert figure_text(v, Caveats(unpriced=("storage",))) == "≥ 1,234.57"
    assert figure_text(v, Caveats(estimates=("a range",))) == "~1,234.57"
    assert figure_text(v, Caveats(critical=(FindingCode.MODEL_MISMATCH,))) == "1,234.57 ✗"
    claim = FindingCode.IMPLAUSIBLE_CLAIM
    every = Caveats(("storage",), ("a range",), (claim, claim), date(2026, 11, 30), True)
    assert figure_text(v, every) == "≥ ~1,234.57 ✗!¤"
    # a flags cell: no ≥ (the cost cells carry it), the findings first
    assert every.flags() == ["✗ 2× implausible-claim", "~ estimate", "! lapsed 2026-11-30", "¤ VAT not recorded"]
    # the warnings too, counted alike; a code found both critical and as a warning is said once, under ✗, with
    # every finding counted; a warning marks the flags only, never a figure
    warned = replace(every, warnings=(FindingCode.PRICE_BELOW_MARKET, claim, FindingCode.GPU_COUNT))
    assert warned.flags()[:3] == ["✗ 3× implausible-claim", "! price-below-market", "! gpu-count"]
    assert figure_text(v, warned) == "≥ ~1,234.57 ✗!¤"
    assert figure_text(v, Caveats(warnings=(claim,))) == "1,234.57"
    assert number_format(every, '#,##0.00 "CNY"') == '"≥ ~"#,##0.00 "CNY" "✗!¤"'
    assert number_format(Caveats(), '#,##0.00 "CNY"') == '#,##0.00 "CNY"'
    # a sum of figures (an award's total) carries every part's caveats
    total = merged(
        [Caveats(unpriced=("egress",)), Caveats(critical=(FindingCode.MIG,)), Caveats(lapsed=date(2026, 12, 1))]
    )
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
    assert "marks: ≥ at least (a cost not priced) · ~ estimate · ✗ critical finding · ! a warning: a finding's" in out
    offers = _offers(cli, db)
    assert offers[2]["caveats"]["critical_findings"] == ["implausible-claim", "implausible-claim"]
    assert offers[4]["caveats"]["marks"] == "≥ ~" and offers[18]["caveats"]["critical_findings"] == []


def test_the_chinese_offers_table_and_explain_show_a_finding_by_its_word(cli: Cli, demo_db_path: Path) -> None:
    """Issue 35: a finding's code is the key (stored, JSON, docs/VERIFICATION.md); a Chinese buyer reads its word
    in the flags column and in explain's caveats (宣称不可信, never ``implausible-claim``)."""
    db = str(demo_db_path)
    out = cli("--db", db, "--lang", "zh-CN", "offers").out
    row2 = next(line for line in out.splitlines() if line.startswith("  3   2 "))
    assert row2.rstrip().endswith("✗ 2× 宣称不可信")
    row3 = next(line for line in out.splitlines() if line.startswith(" 13   3 "))
    assert row3.rstrip().endswith("✗ 2× 宣称不可信、~ 估算")  # one impossible claim and one optimistic
    assert "implausible-claim" not in out
    shown = cli("--db", db, "--lang", "zh-CN", "explain", "3").out
    assert "✗ 严重检查发现：宣称不可信（`quotetui bench check --offer 3` 逐条说明）" in shown
    assert _offers(cli, db)[2]["caveats"]["critical_findings"] == ["implausible-claim", "implausible-claim"]


FLAGS = {
    "en": {
        1: "! 3× implausible-claim",  # three optimistic claims: warnings
        3: "✗ 2× implausible-claim, ~ estimate",  # one impossible claim, one optimistic: said once, under ✗
        9: "✗ mig, ✗ model-mismatch, ! gpu-count",  # a MIG slice's log: 1 GPU listed of the 8 sold
        6: "",  # 8 nodes without a scale-out network: its feasibility, not a flag (✗ rank, noted apart)
        8: "! price-below-market",  # blocked likewise; its warning is its only flag
    },
    "zh-CN": {
        1: "! 3× 宣称不可信",
        3: "✗ 2× 宣称不可信、~ 估算",
        9: "✗ MIG 切片、✗ 型号不符、! 卡数不足",
        6: "",
        8: "! 远低于市场价",
    },
}
BLOCKED_8 = {
    "en": "✗ #8: 8 nodes without a scale-out network: one job cannot span them",
    "zh-CN": "✗ #8：8 个节点，但没有机间网络：单个任务无法跨这些节点运行",
}
"""Why #8 is not ranked, as the CLI notes it under its table and the TUI above its status line (#8 highlighted)."""


async def test_every_front_end_says_an_offers_flags_alike(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    """A hostile review: `offers` left out the warnings the TUI and the workbook showed (#1 blank there, ``! 3×
    宣称不可信`` here), and #3 said 宣称不可信 twice (``✗ 宣称不可信、! 宣称不可信``). Every front end now asks
    ``Caveats.flags``: the CLI's table, the TUI's offers table and compare, the Summary and Benchmarks sheets."""
    db = str(demo_db_path)
    _import(demo_db_path, 9, "mig-slice")
    for lang, expected in FLAGS.items():
        table = cli("--db", db, "--lang", lang, "offers").out.splitlines()
        for offer, flags in expected.items():
            row = next(line for line in table if line[4:8].strip() == str(offer))
            assert row.rstrip().endswith("  " + flags if flags else "  1m"), row  # #6: its term last
        assert BLOCKED_8[lang] in table
        out = tmp_path / f"{lang}.xlsx"
        assert cli("--db", db, "--lang", lang, "export", str(out)).code == 0
        book = load_workbook(out, read_only=True)
        summary = list(book.worksheets[0].iter_rows(min_row=3, values_only=True))
        assert {r[1]: r[-1] or "" for r in summary[1:] if r[1] in expected} == expected
        benchmarks = list(book["Benchmarks"].iter_rows(values_only=True))
        assert benchmarks[0][-1] == {"en": "offer findings", "zh-CN": "报价检查发现"}[lang]
        offer_1 = benchmarks[1]  # #1's claims come first
        assert offer_1[1] == "8×H100 SXM5 整机" and offer_1[-1] == expected[1]
        findings_3 = {r[-1] for r in benchmarks[1:] if r[1] == "8×A100 80GB SXM4 整机"}
        assert findings_3 == {"✗ 2× implausible-claim" if lang == "en" else "✗ 2× 宣称不可信"}  # no ~: findings only
        language.use(lang)
        try:
            app = RecordingApp(db)
            async with app.run_test(size=(200, 50)) as pilot:
                await settle(pilot)
                await pilot.press("o")
                await settle(pilot)
                table = app.screen.query_one(VirtualTable)
                rows = {row.key: row.cells[at("flags")] for row in table.rows}
                assert {k: rows[k] for k in expected} == expected
                # why #8 is not ranked: a line of its own above the status line while #8 is highlighted
                note = app.screen.query_one("#offers-note")
                assert not note.display  # #18 first: nothing to note
                table.cursor = next(n for n, row in enumerate(table.view_rows) if row.key == 8)
                await settle(pilot)
                assert note.display and text_of(app, "#offers-note").strip() == BLOCKED_8[lang]
                for pins in ((1, 3, 9), (6, 8)):
                    app.pinned = pins
                    await pilot.press("c")
                    await settle(pilot)
                    compare = app.screen.query_one("#compare", DataTable)
                    cells = [
                        [str(compare.get_cell_at(Coordinate(r, c))) for c in range(len(pins) + 1)]
                        for r in range(compare.row_count)
                    ]
                    flags_row = next(r for r in cells if r[0] in ("Flags", "标记"))
                    assert flags_row[1:] == [expected[p] or "—" for p in pins]  # never the code "blocked"
                    await pilot.press("escape")
                    await settle(pilot)
                await pilot.press("f1")  # the help ends with what the marks mean, as `offers` says it
                await settle(pilot)
                legend = text_of(app, "#help-marks")
                assert legend.startswith({"en": "marks: ≥ at least", "zh-CN": "标记：≥ 至少"}[lang])
                assert {
                    "en": "! a warning: a finding's, or the quote lapsed",
                    "zh-CN": "! 警告：检查发现的警告，或报价已过期",
                }[lang] in legend
        finally:
            language.use(language.ENGLISH)


def test_explain_and_the_brief_lead_with_the_caveats(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    shown = cli("--db", db, "explain", "3").out
    head = shown.split("\nNodes needed")[0]
    assert "What qualifies these figures" in head
    assert "~ an estimate: the annual prepaid price it is costed at is an estimate" in head
    assert "✗ critical findings: implausible-claim (`quotetui bench check --offer 3` explains each)" in head
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
    claimed = labels.index("per PFLOP-hour if the claims hold (CNY)") + 1
    cells = [side.cell(row=claimed, column=c) for c in range(2, side.max_column + 1)]
    numbers = [c for c in cells if isinstance(c.value, float | int)]  # #14's 99.9 % without credits
    assert numbers and all(c.number_format.startswith('"≥ "') for c in numbers)
    assert not any(str(c.fill.fgColor.rgb).endswith("C6EFCE") for c in cells)  # a second figure: never green


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
    from quotetui.domain.economics.caveats import money_figure

    assert money_figure(Fraction(1000), c, "CNY") == "≥ 1,000.00 CNY ✗"
    assert money_figure(Fraction(1000), Caveats(), "CNY") == "1,000.00 CNY"


def test_the_award_carries_the_findings_of_the_offers_it_awards(cli: Cli, demo_db_path: Path) -> None:
    """#2 at 60,000 a node-month (its impossible claims are critical findings) is the cheapest for 16 H100:
    the award's figures carry ✗ in text and JSON."""
    db = str(demo_db_path)
    for args in (
        ("rfq", "new", "H100 16", "--gpu", "H100 SXM5", "--gpus", "16", "--months", "12", "--start", "2027-01-01",
         "--respond-by", "2026-12-20"),
        ("round", "add", "2", "--amount", "60000", "--amount-high", "60000"),
    ):  # fmt: skip
        assert cli("--db", db, *args).code == 0
    out = cli("--db", db, "award", "H100 16", "--include-market").out
    cheapest = next(line for line in out.splitlines() if line.startswith("cheapest"))
    assert "CNY ✗" in cheapest and "#2 一万网络 2 nodes" in cheapest
    data = json.loads(cli("--db", db, "award", "H100 16", "--include-market", "--json").out)
    assert data["if_confirmed"][0]["caveats"]["critical_findings"] == ["implausible-claim", "implausible-claim"]


async def test_the_negotiation_tab_marks_the_batna_line(demo_db_path: Path) -> None:
    _import(demo_db_path, 18, "pcie-as-sxm")  # #18, the BATNA of #2, has critical findings
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        for key in ("o", "down", "down", "enter", "3"):
            await pilot.press(key)
        await settle(pilot)
        position = text_of(app, "#position")
        assert "BATNA: #18 腾讯云 GN10Xp 8×H100 80GB（包月） at ≥ 34.98 CNY ✗ per delivered PFLOP-hour" in position
        assert "(this offer: ≥ 44.60 ✗)" in position  # #2's impossible claims


def test_a_lapsed_quote_is_no_batna() -> None:
    from econ_helpers import fx, offer, option, scenario

    from quotetui.domain.economics.assumptions import Assumptions
    from quotetui.domain.economics.evaluate import evaluate
    from quotetui.domain.economics.negotiation import find_batna

    a = Assumptions()
    this = evaluate(offer(option("90000"), id=1, provider="A"), scenario(), fx(), a)
    stale = evaluate(offer(option("70000"), id=2, provider="B", valid_until=date(2026, 11, 1)), scenario(), fx(), a)
    fresh = evaluate(offer(option("80000"), id=3, provider="C"), scenario(), fx(), a)
    assert find_batna(this, [stale, fresh]) is stale  # no day given: as before
    batna = find_batna(this, [stale, fresh], date(2026, 12, 1))
    assert batna is fresh  # as of 2026-12-01 #2's quote has lapsed: no alternative to lean on


def test_the_calculators_mark_their_costs(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    train = cli("--db", db, "calc", "train", "--gpus", "8", "--offer", "3", "--params", "7e9", "--tokens", "1e12").out
    assert "annual prepaid: ~1,500,000.00 CNY ✗" in train and "monthly: 1,496,000.00 CNY ✗" in train
    rent = cli("--db", db, "calc", "rent-vs-buy", "--purchase", "1", "--offer", "3").out
    assert "≥ ~2,250,000.00 CNY ✗ over 36 months" in rent


def test_a_spot_offers_training_costs_are_estimates_as_its_ranking_is(cli: Cli, demo_db_path: Path) -> None:
    """The offer's own reasons for ~ (marked as an estimate, its round, spot) go with every cost the planner
    shows, as with the ranking's figures: #2's monthly plan was a plain figure before it was spot."""
    import json

    from quotetui.domain.economics.evaluate import SPOT_ESTIMATE
    from tests.conftest import execute

    db = str(demo_db_path)
    args = ("--db", db, "calc", "train", "--gpus", "16", "--offer", "2", "--flops", "1e21")
    assert "monthly: 240,000.00 CNY ✗" in cli(*args).out
    execute(demo_db_path, "UPDATE offer SET billing_basis = 'spot' WHERE id = 2")
    assert "monthly: ~240,000.00 CNY ✗" in cli(*args).out
    costs = json.loads(cli(*args, "--json").out)["cost"]["options"]
    assert costs and all(SPOT_ESTIMATE in c["caveats"]["estimates"] for c in costs)
    assert SPOT_ESTIMATE in json.loads(cli("--db", db, "explain", "2", "--json").out)["estimates"]


def test_the_batnas_marks_follow_its_currency(cli: Cli, demo_db_path: Path) -> None:
    """#18 lapsed is no one's BATNA: #14's is then #2 (44.60 a delivered PFLOP-hour, its claims impossible: ✗).
    The BATNA's figure reads as every figure does, number, currency, marks: ``≥ 44.60 CNY ✗`` (it read
    ``≥ 44.60 ✗ CNY``)."""
    db = str(demo_db_path)
    assert cli("--db", db, "offer", "edit", "18", "--valid-until", "2026-11-01").code == 0
    shown = cli("--db", db, "explain", "14").out
    assert "at ≥ 44.60 CNY ✗ per delivered PFLOP-hour (this offer: ≥ 37.38)" in shown
