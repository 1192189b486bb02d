"""The exported workbook as a CFO opens it: sheets, formats, frozen headers, filters, properties, CJK text,
highlighted best values, charts, and text that can never run as a formula (xlsx and CSV)."""

from __future__ import annotations

import csv
import json
import zipfile
from pathlib import Path

import pytest
from openpyxl import load_workbook

from quotetui.io.xlsx_read import unescape
from quotetui.services.transfer import SHEET_ORDER
from tests.conftest import Cli, execute

HOSTILE = {
    '=HYPERLINK("http://evil.example","click")': "formula",
    "+SUM(1,2)": "plus",
    "-2+3": "minus",
    "@SUM(A1:A2)": "at",
    "\tcmd|' /C calc'!A0": "tab",
    "\r=1+1": "carriage return",
}


@pytest.fixture
def workbook(cli: Cli, demo_db_path: Path, tmp_path: Path) -> Path:
    out = tmp_path / "compare.xlsx"
    result = cli("--db", str(demo_db_path), "export", str(out), "--pin", "18", "--pin", "2")
    assert result.code == 0, result.err
    assert result.out.strip() == f"Wrote {out}."
    return out


def test_sheets_formats_filters_and_properties(workbook: Path) -> None:
    book = load_workbook(workbook)
    assert tuple(book.sheetnames) == SHEET_ORDER
    assert "8×H100 一年训练" in book.properties.title  # the default scenario of the demo, CJK intact
    assert "8×H100 一年训练" in (book.properties.subject or "")
    assert book.properties.created is not None
    summary = book["Summary"]
    header = [c.value for c in summary[3]]
    assert header[:5] == ["rank", "id", "provider", "offer", "GPU"]
    assert summary.freeze_panes == "A4"
    assert summary.auto_filter.ref is not None and summary.auto_filter.ref.startswith("A3:")
    assert summary.column_dimensions["D"].width >= 20
    first = [c.value for c in summary[4]]
    assert first[0] == 1 and first[1] == 18  # Tencent's reserved H100 ranks first, as in `quotetui offers`
    assert first[2] == "腾讯云"
    money = summary.cell(row=4, column=6)
    assert isinstance(money.value, float | int) and "CNY" in money.number_format
    assert summary.cell(row=4, column=11).number_format.endswith("%")
    # the best value of each figure column is highlighted (green) on at least one feasible row
    highlighted = {
        c.column for row in summary.iter_rows(min_row=4) for c in row if str(c.fill.fgColor.rgb).endswith("C6EFCE")
    }
    assert {6, 7, 8, 9, 10} <= highlighted
    negotiation = book["Negotiation"]
    quoted_at = [c.value for c in negotiation[1]].index("quoted_at") + 1
    assert negotiation.cell(row=2, column=quoted_at).is_date
    side = book["Side by side"]
    assert [c.value for c in side[3]][1:3] == ["#18 腾讯云", "#2 一万网络"]  # pinned offers, in pin order
    assert book["Rent vs buy"]._charts, "the rent vs buy sheet has its line chart"


def test_every_sheet_has_a_frozen_header_and_numbers_are_numbers(workbook: Path) -> None:
    book = load_workbook(workbook)
    for name in ("Offers", "Negotiation", "SLA", "Benchmarks", "Providers", "Discounts", "Extra costs"):
        sheet = book[name]
        assert sheet.freeze_panes == "A2", name
        assert sheet.auto_filter.ref, name
    offers = book["Offers"]
    header = [c.value for c in offers[1]]
    tco = header.index("annualised TCO (CNY)") + 1
    values = [offers.cell(row=r, column=tco).value for r in range(2, offers.max_row + 1)]
    assert values and all(v is None or isinstance(v, int | float) for v in values)


def test_text_that_looks_like_a_formula_stays_text(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    for i, text in enumerate(HOSTILE):
        execute(demo_db_path, "update offer set notes = :t, region = :t where id = :i", {"t": text, "i": i + 1})
    execute(demo_db_path, "update provider set notes = :t where id = 1", {"t": "=1+1"})
    out = tmp_path / "hostile.xlsx"
    assert cli("--db", str(demo_db_path), "export", str(out)).code == 0
    book = load_workbook(out)
    offers = book["Offers"]
    header = [c.value for c in offers[1]]
    notes, region = header.index("notes") + 1, header.index("region") + 1
    id_column = header.index("id") + 1
    ids = {offers.cell(row=r, column=id_column).value: r for r in range(2, offers.max_row + 1)}
    for i, text in enumerate(HOSTILE):
        for column in (notes, region):
            cell = offers.cell(row=ids[i + 1], column=column)
            assert cell.data_type == "s", (HOSTILE[text], cell.data_type)
            assert unescape(cell.value) == text  # a carriage return is escaped as _x000D_, as Excel reads it
    # no formula anywhere outside the two live sheets: the raw XML of every other sheet has no <f> element
    with zipfile.ZipFile(out) as archive:
        rels = archive.read("xl/workbook.xml").decode()
        formula_parts = [
            n for n in archive.namelist() if n.startswith("xl/worksheets/sheet") and b"<f>" in archive.read(n)
        ]
    titles = [t.split('"')[0] for t in rels.split('<sheet name="')[1:]]
    with_formulas = {titles[int(Path(n).stem.removeprefix("sheet")) - 1] for n in formula_parts}
    assert with_formulas == {"TCO", "Rent vs buy"}


def test_csv_export_neutralises_formula_text(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    for i, text in enumerate(HOSTILE):
        execute(demo_db_path, "update offer set notes = :t where id = :i", {"t": text, "i": i + 1})
    out = tmp_path / "offers.csv"
    assert cli("--db", str(demo_db_path), "export", str(out)).code == 0
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # UTF-8 with BOM, so Excel shows 腾讯云 correctly
    rows = list(csv.reader(raw.decode("utf-8-sig").splitlines(keepends=True)))
    notes = rows[0].index("notes")
    cells = [r[notes] for r in rows[1:] if len(r) > notes]
    for text in HOSTILE:
        assert "'" + text in cells
    assert not any(c.startswith(("=", "+", "-", "@", "\t", "\r")) for r in rows for c in r if c and not c[0].isdigit())
    assert any("腾讯云" in c for r in rows for c in r)


def test_pinning_an_unknown_offer_is_a_clear_error(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    result = cli("--db", str(demo_db_path), "export", str(tmp_path / "x.xlsx"), "--pin", "999")
    assert result.code == 2
    assert "no offer #999" in result.err
    assert not (tmp_path / "x.xlsx").exists()


def test_export_refuses_an_unknown_suffix(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    result = cli("--db", str(demo_db_path), "export", str(tmp_path / "x.ods"))
    assert result.code == 2
    assert ".xlsx" in result.err


def test_template_has_a_sheet_per_entity_notes_and_drop_downs(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "template.xlsx"
    assert cli("--db", str(demo_db_path), "template", str(out)).code == 0
    book = load_workbook(out)
    entities = ["Providers", "Offers", "Negotiation", "Discounts", "Extra costs", "SLA", "Benchmarks", "FX rates"]
    entities += ["Scenarios", "Purchase options", "Settings"]  # needs, owning, assumptions: rankings round-trip
    assert book.sheetnames == [*entities, "Lists"]
    assert book["Lists"].sheet_state == "hidden"
    for name in entities:
        for cell in book[name][1]:
            assert cell.comment is not None and cell.comment.text, f"{name}!{cell.coordinate} has no note"
    lists = book["Lists"]
    columns = {lists.cell(row=1, column=c).value: c for c in range(1, lists.max_column + 1)}
    gpus = [lists.cell(row=r, column=columns["gpu"]).value for r in range(2, lists.max_row + 1)]
    assert "H100 SXM5" in gpus and "A100 80GB SXM4" in gpus

    def validated(sheet: str, header: str) -> str:
        ws = book[sheet]
        letter = next(c.column_letter for c in ws[1] if c.value == header)
        for dv in ws.data_validations.dataValidation:
            if any(letter + "2" in str(r) for r in dv.sqref.ranges):
                assert dv.type == "list"
                return str(dv.formula1)
        raise AssertionError(f"no drop-down on {sheet} {header}")

    assert validated("Offers", "gpu").startswith("'Lists'!$")
    assert validated("Offers", "billing") != validated("Offers", "gpu")
    assert validated("Negotiation", "unit").startswith("'Lists'!$")
    assert validated("Negotiation", "currency").startswith("'Lists'!$")


def test_a_template_before_any_database_creates_none(cli: Cli, tmp_path: Path, isolated_user_dirs: Path) -> None:
    """Writing a template first must not create the default database empty (the first launch would then find
    a database and not load the demo market); its GPU list is the catalog a new database starts with."""
    out = tmp_path / "template.xlsx"
    assert cli("template", str(out)).code == 0
    assert not [p for p in isolated_user_dirs.rglob("*.db*")]
    lists = load_workbook(out)["Lists"]
    columns = {lists.cell(row=1, column=c).value: c for c in range(1, lists.max_column + 1)}
    gpus = {lists.cell(row=r, column=columns["gpu"]).value for r in range(2, lists.max_row + 1)} - {None}
    fresh = cli("--db", str(tmp_path / "fresh.db"), "gpus", "--json")
    assert gpus == {g["name"] for g in json.loads(fresh.out)}
    first = cli("providers")  # the first real use still gets the demo market
    assert first.code == 0 and "Loaded the demo market" in first.err


def test_a_filled_template_imports(cli: Cli, tmp_path: Path) -> None:
    template = tmp_path / "template.xlsx"
    db = tmp_path / "new.db"
    assert cli("--db", str(db), "template", str(template)).code == 0
    book = load_workbook(template)
    book["Providers"].append(["蓝海算力", "lessor", None, "北京, 上海"])
    offers = book["Offers"]
    header = [c.value for c in offers[1]]
    row = dict.fromkeys(header)
    row.update(provider="蓝海算力", offer="8×H800 月租", gpu="H800", gpus_per_node=8, billing="monthly")
    offers.append([row[h] for h in header])
    rounds = book["Negotiation"]
    header = [c.value for c in rounds[1]]
    row = dict.fromkeys(header)
    row.update(
        provider="蓝海算力",
        offer="8×H800 月租",
        round=1,
        mover="list",
        quoted_at="2026年11月2日",
        price=68000,
        unit="node_month",
        currency="CNY",
        term_months=1,
    )
    rounds.append([row[h] for h in header])
    book.save(template)
    result = cli("--db", str(db), "import", str(template))
    assert result.code == 0, result.err
    assert "offers: 1 added" in result.out
    assert "Lists" not in result.err  # the template's own drop-down sheet is not worth a warning
    listed = cli("--db", str(db), "offers", "--json")
    assert "8×H800 月租" in listed.out


def test_writer_keeps_each_cells_format_to_itself(tmp_path: Path) -> None:
    """A date's default format must not leak into the next plain value of the row (the writer reuses cells)."""
    from datetime import date
    from decimal import Decimal

    from quotetui.io.xlsx_write import MONEY, Column, Formula, Sheet, Styled, write_xlsx

    columns = [Column("when"), Column("count"), Column("amount", number_format=MONEY), Column("text")]
    rows = [
        [date(2026, 11, 2), 7, Decimal("1234.5"), "=not a formula"],
        [None, Styled(3, bold=True), Formula("=C2*2"), "x"],
    ]
    out = write_xlsx(tmp_path / "w.xlsx", [Sheet("S", columns, rows)], {"title": "t"})
    sheet = load_workbook(out)["S"]
    assert sheet["A2"].is_date
    assert sheet["B2"].number_format == "General" and sheet["B2"].value == 7
    assert sheet["C2"].number_format == MONEY and sheet["C2"].value == 1234.5
    assert sheet["D2"].data_type == "s" and sheet["D2"].value == "=not a formula"
    assert sheet["B3"].font.b and sheet["B3"].value == 3
    assert sheet["C3"].value == "=C2*2" and sheet["C3"].number_format == MONEY


def test_the_negotiation_sheet_gives_every_option_its_target_in_its_own_unit(workbook: Path) -> None:
    sheet = load_workbook(workbook, read_only=True)["Negotiation"]
    rows = sheet.iter_rows(values_only=True)
    header = list(next(rows))
    at = {name: header.index(name) for name in ("offer", "unit", "price", "target price (same unit)")}
    three = {r[at["unit"]]: r for r in rows if r[at["offer"]] == "8×A100 80GB SXM4 整机"}
    monthly, annual = three["node_month"], three["term_total"]
    assert (monthly[at["price"]], annual[at["price"]]) == (88000, 750000)
    # one node for 12 months: the annual prepaid total that ties the BATNA is 12 × the monthly one, so the
    # 750,000 row's target is ≈ 12 × 25,237.61, not a per-node-month figure. By hand: the BATNA #18 costs
    # 960,000 ÷ (70,080 GPU-h × 989 × 40 % × 99 % ÷ 1000) = 34.97725 a PFLOP-hour; #3 delivers 70,080 × 312 ×
    # 40 % × 99 % ÷ 1000 = 8,658.28 PFLOP-hours (its 45–52 % claim and its 99.9 % SLA without credits buy no
    # rank): 302,851.365 a year, 25,237.614 a month
    m, a = monthly[at["target price (same unit)"]], annual[at["target price (same unit)"]]
    assert m == 25237.61 and a == 302851.36
    assert abs(a - 12 * m) < 0.12  # each rounded down to the cent on its own


def test_the_fast_row_writer_writes_what_xlsxwriters_own_calls_write(tmp_path: Path) -> None:
    """The data rows go as XML straight into XlsxWriter's row file (its private internals, checked at start);
    if a release moves them the writer falls back to XlsxWriter's public per-cell calls. Both must give the
    same workbook: every value, type, number format, bold and fill of every cell."""
    from datetime import date, datetime
    from decimal import Decimal

    from quotetui.io import xlsx_write
    from quotetui.io.xlsx_write import MONEY, Column, Formula, Sheet, Styled, write_xlsx

    columns = [Column("a"), Column("b", number_format=MONEY), Column("c"), Column("d", number_format="0.0%")]
    rows = [
        ["plain", Decimal("1234.5678"), 7, Decimal("0.125")],
        [" lead and trail ", Decimal("-0.000001"), 2**53, Decimal("1E+3")],
        ["tab\there & <b>", Styled(Decimal("9.99"), bold=True), 0.1, Styled(Decimal("0.5"), best=True)],
        ["_x0041_ stays", Formula("=B2*2"), True, None],
        [date(2026, 12, 3), datetime(2026, 12, 3, 13, 45, 30), False, Styled("name", MONEY, bold=True)],
        ["", None, "=looks like a formula", "中文 ✓"],
    ]

    def cells(path: Path) -> list[tuple[object, ...]]:
        sheet = load_workbook(path)["S"]
        return [
            (c.coordinate, c.value, c.data_type, c.number_format, bool(c.font.b), c.fill.fgColor.rgb)
            for row in sheet.iter_rows()
            for c in row
        ]

    taken: list[bool] = []
    real_fits = xlsx_write._RawRows.fits
    xlsx_write._RawRows.fits = staticmethod(lambda sheet: taken.append(real_fits(sheet)) or taken[-1])  # type: ignore[method-assign]
    try:
        fast = write_xlsx(tmp_path / "fast.xlsx", [Sheet("S", columns, rows)], {"title": "t"})
    finally:
        xlsx_write._RawRows.fits = real_fits  # type: ignore[method-assign]
    assert taken == [True]  # the fast path is the one this XlsxWriter takes
    original = xlsx_write._RawRows.fits
    try:
        xlsx_write._RawRows.fits = staticmethod(lambda sheet: False)  # type: ignore[method-assign]
        public = write_xlsx(tmp_path / "public.xlsx", [Sheet("S", columns, rows)], {"title": "t"})
    finally:
        xlsx_write._RawRows.fits = original  # type: ignore[method-assign]
    assert cells(fast) == cells(public)
    assert len(cells(fast)) == 4 * 7


def test_a_purchase_in_another_currency_than_the_scenario_leaves_rent_vs_buy_out_not_the_workbook(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    """The demo's purchase option is in CNY; a USD scenario's workbook is written whole, its Rent vs buy sheet
    saying why the two are not compared (the export failed with the calculator's advice)."""
    db = str(demo_db_path)
    assert cli("--db", db, "fx", "add", "USD", "CNY", "7.1", "--date", "2026-11-01", "--source", "test").code == 0
    assert cli("--db", db, "scenario", "add", "usd16", "--gpus", "16", "--months", "6", "--currency", "USD").code == 0
    out = tmp_path / "usd.xlsx"
    done = cli("--db", db, "export", str(out), "--scenario", "usd16")
    assert done.code == 0, done.err
    book = load_workbook(out, read_only=True)
    try:
        assert tuple(book.sheetnames) == SHEET_ORDER
        [why] = next(book["Rent vs buy"].iter_rows(values_only=True))
        assert why == (
            "Not compared: the purchase option '自购 8×H100 SXM 服务器' is in CNY and scenario 'usd16' in USD; "
            "export a scenario in CNY, or record the purchase in USD."
        )
        assert len(list(book["Summary"].iter_rows(values_only=True))) > 10  # the offers, in dollars
    finally:
        book.close()
