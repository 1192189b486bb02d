"""Recalculate exported workbooks in LibreOffice (headless): no formula errors anywhere, and every live
formula gives the app's figure to the cent — also after an assumption is changed in the workbook."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

from quotetui.domain.economics.evaluate import Evaluation
from quotetui.services.database import open_database
from quotetui.services.export_data import ExportData, gather
from quotetui.services.export_tco import RB, RB_CHECKS, RB_TABLE_HEADER, TCO_CHECKS
from quotetui.services.rent_buy import calc_rent_vs_buy
from quotetui.services.transfer import export_file
from tests.conftest import CliResult

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
pytestmark = pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (libreoffice-calc-nogui) is not installed")
CENT = Decimal("0.01")
ERRORS = ("#VALUE!", "#DIV/0!", "#NAME?", "#REF!", "#N/A", "#NUM!", "#NULL!", "Err:")


def recalculate(files: list[Path], outdir: Path, profile: Path) -> list[Path]:
    """Open each workbook in LibreOffice, recalculate every formula, save it as xlsx with the values."""
    assert SOFFICE is not None
    outdir.mkdir()
    subprocess.run(
        [
            SOFFICE,
            f"-env:UserInstallation={profile.as_uri()}",
            "--headless",
            "--norestore",
            "--convert-to",
            "xlsx:Calc MS Excel 2007 XML",
            "--outdir",
            str(outdir),
            *map(str, files),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    out = [outdir / f.name for f in files]
    assert all(p.is_file() for p in out), list(outdir.iterdir())
    return out


def cents(value: Any) -> Decimal:
    assert isinstance(value, int | float), f"not a number: {value!r}"
    return Decimal(repr(value)).quantize(CENT)


def app(value: Fraction) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(CENT)


TCO_FIGURES = {
    "compute_total": lambda e: e.best.compute_total,
    "total": lambda e: e.best.total,
    "annualised_tco": lambda e: e.annualised_tco,
    "cost_per_gpu_hour": lambda e: e.cost_per_gpu_hour,
    "cost_per_pflop_hour": lambda e: e.cost_per_pflop_hour,
}


def check_no_errors(path: Path) -> int:
    book = load_workbook(path, data_only=True)
    numbers = 0
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                if isinstance(cell.value, str):
                    assert not cell.value.startswith(ERRORS), f"{sheet.title}!{cell.coordinate}: {cell.value}"
                elif isinstance(cell.value, int | float):
                    numbers += 1
    return numbers


def tco_rows(path: Path) -> dict[int, dict[str, Any]]:
    """Offer id → {column letter: value} for the TCO sheet's offer rows."""
    sheet = load_workbook(path, data_only=True)["TCO"]
    rows: dict[int, dict[str, Any]] = {}
    header = next(r for r in range(1, 60) if sheet.cell(row=r, column=1).value == "id")
    for r in range(header + 1, sheet.max_row + 1):
        offer = sheet.cell(row=r, column=1).value
        if isinstance(offer, int | float):
            rows[int(offer)] = {letter: sheet[f"{letter}{r}"].value for letter in TCO_CHECKS}
    return rows


def compare_tco(path: Path, evaluations: list[Evaluation]) -> int:
    rows = tco_rows(path)
    assert set(rows) == {e.offer.id for e in evaluations}
    compared = 0
    for e in evaluations:
        for letter, figure in TCO_CHECKS.items():
            got, want = cents(rows[e.offer.id][letter]), app(TCO_FIGURES[figure](e))
            assert got == want, f"offer {e.offer.id} {figure}: workbook {got}, app {want}"
            compared += 1
    return compared


def compare_rent_buy(path: Path, data: ExportData) -> None:
    assert data.rent_buy is not None
    result = data.rent_buy.result
    sheet = load_workbook(path, data_only=True)["Rent vs buy"]
    want = {
        "opex": result.inputs.own_paid_monthly,
        "residual": result.inputs.residual,
        "rent_paid": result.inputs.rent_paid_monthly,
        "breakeven_months": result.breakeven_months or Fraction(0),
        "breakeven_utilisation": result.breakeven_utilisation,
        "npv_rent": result.npv_rent,
        "npv_buy": result.npv_buy,
    }
    for name, figure in {"opex": "opex", "residual": "residual", **RB_CHECKS}.items():
        cell = RB[name].replace("$", "")
        if want[figure] is None:  # no break-even utilisation: no part of the rent follows use
            assert str(sheet[cell].value).startswith("n/a"), f"{name} ({cell}): {sheet[cell].value!r}"
            continue
        assert cents(sheet[cell].value) == app(want[figure]), f"{name} ({cell})"
    for point in result.series:  # the monthly cumulative table behind the chart
        row = RB_TABLE_HEADER + 1 + point.month
        assert sheet[f"A{row}"].value == point.month
        assert cents(sheet[f"B{row}"].value) == app(point.rent), f"rent at month {point.month}"
        assert cents(sheet[f"C{row}"].value) == app(point.own), f"own at month {point.month}"


WAYS = {
    # issue 30 point 3, in the sheet's formulas: tiers of one kind do not stack (3 % from 16 and 3 % from 64 at
    # 64 GPUs is 0.97), the best tier applies (5 % from 24 at 24 GPUs), a quoted prepaid year is that way's price
    # (1,080,000, never 90,000 × 12 × 0.95), a prepay discount with no term makes "monthly prepaid"
    "equal tiers": (["100000,node_month,CNY,1,"], ["volume,3%,,16", "volume,3%,,64"]),
    "better tier": (["100000,node_month,CNY,1,"], ["volume,3%,,16", "volume,5%,,24"]),
    "prepaid year": (["90000,node_month,CNY,1,", "1080000,term_total,CNY,12,yes"], ["prepay,5%,12,"]),
    "monthly prepay": (["100000,node_month,CNY,1,"], ["prepay,2%,,"]),
}
LAMBDA_EXTRAS = (
    ("egress", "per_gb", "0.09"),
    ("setup_fee", "one_off", "500"),  # counted once in a short need's year
    ("storage", "per_tb_month", "20"),
    ("public_ip", "per_node_month", "5"),
    ("support", "per_hour", "0.1"),  # follows the use: the half-use scenario bills half
    ("platform_fee", "per_month", "100"),
)
"""Every basis an extra can be charged on, each with a kind charged on it (``billing.EXTRA_BASES``): the sheet's
formula for each equals the engine's."""
RESIZED = {"64 GPUs for 6 months": (64, 6), "24 GPUs for 13 months": (24, 13), "16 GPUs for 3 months": (16, 3)}
"""Scenarios a CFO makes by typing other GPUs and months into the default scenario's workbook."""


@pytest.fixture(scope="module")
def market(tmp_path_factory: pytest.TempPathFactory, demo_template: Path) -> Path:
    """The demo market plus a USD-priced offer (so the FX block is exercised) and a scenario with more egress."""
    from tests.conftest import copy_demo, run_cli

    folder = tmp_path_factory.mktemp("lo-market")
    path = copy_demo(demo_template, folder / "market.db")
    (folder / "offers.csv").write_text(
        "provider,offer,gpu,gpus per node,billing\nLambda,8×H100 on demand,H100 SXM5,8,on_demand\n"
        + "".join(f"Tiers,{name},H100 SXM5,8,monthly\n" for name in WAYS),
        encoding="utf-8",
    )
    (folder / "providers.csv").write_text("name,kind\nLambda,gpu_cloud\nTiers,lessor\n", encoding="utf-8")
    (folder / "negotiation.csv").write_text(
        "provider,offer,round,mover,quoted_at,price,unit,currency,term_months,prepay\n"
        "Lambda,8×H100 on demand,1,list,2026-11-02,2.99,gpu_hour,USD,0,\n"
        + "".join(
            f"Tiers,{name},1,provider,2026-11-02,{price}\n" for name, (prices, _) in WAYS.items() for price in prices
        ),
        encoding="utf-8",
    )
    (folder / "discounts.csv").write_text(
        "provider,offer,kind,rate,min_term_months,min_gpus\n"
        + "".join(f"Tiers,{name},{d}\n" for name, (_, discounts) in WAYS.items() for d in discounts),
        encoding="utf-8",
    )
    (folder / "extra costs.csv").write_text(
        "provider,offer,kind,basis,amount,currency\n"
        + "".join(f"Lambda,8×H100 on demand,{kind},{basis},{amount},USD\n" for kind, basis, amount in LAMBDA_EXTRAS),
        encoding="utf-8",
    )
    names = ("providers.csv", "offers.csv", "negotiation.csv", "discounts.csv", "extra costs.csv")
    files = [str(folder / n) for n in names]
    steps: list[tuple[str, ...]] = [
        ("import", *files),
        ("fx", "add", "USD", "CNY", "7.1234", "--date", "2026-11-02", "--source", "PBOC"),
        ("scenario", "add", "more egress", "--gpus", "8", "--months", "12", "--egress-tb", "25", "--storage-tb", "10"),
        ("scenario", "add", "half use", "--gpus", "16", "--months", "3", "--utilization", "50"),
        *(
            (
                "scenario",
                "add",
                name,
                "--gpus",
                str(g),
                "--months",
                str(m),
                "--egress-tb",
                "1",
                "--storage-tb",
                "10",
                "--gpu",
                "H100 SXM",
            )
            for name, (g, m) in RESIZED.items()
        ),  # as the default scenario has them, whose workbook gets the other GPUs and months
    ]
    for args in steps:
        result: CliResult = run_cli("--db", str(path), *args)
        assert result.code == 0, (args, result.err)
    return path


@pytest.fixture(scope="module")
def recalculated(market: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, ExportData]]:
    """Workbooks for three scenarios and one with an assumption edited in the workbook, all recalculated at once."""
    folder = tmp_path_factory.mktemp("lo-out")
    db = open_database(str(market)).db
    try:
        scenarios = {"default": None, "half": "half use", "more": "more egress"}
        sources, data = [], {}
        for key, name in scenarios.items():
            sources.append(export_file(db, folder / f"{key}.xlsx", name))
            data[key] = gather(db, name)
        # change an assumption in the workbook, as a CFO would: egress of the default scenario up to 25 TB
        # and storage to 10 TB, which makes it the "more egress" scenario
        default = data["default"].ranking.scenario
        assert default.egress_tb_month != 25
        book = load_workbook(sources[0])
        sheet = book["TCO"]
        assert sheet["A7"].value == "Egress TB a month" and sheet["A8"].value == "Storage TB"
        sheet["B7"], sheet["B8"] = 25, 10
        assert default.gpu_count == 8 and default.months == 12 and default.utilisation == 1
        assert (default.egress_tb_month, default.storage_tb) == (1, 10)  # as the RESIZED scenarios
        edited = [folder / "edited.xlsx"]
        book.save(edited[0])
        data["edited"] = data["more"]
        for name, (gpus, months) in RESIZED.items():  # other GPUs and months typed into column B
            book = load_workbook(sources[0])
            sheet = book["TCO"]
            assert (sheet["A4"].value, sheet["A5"].value) == ("Months", "GPUs")
            sheet["B4"], sheet["B5"] = months, gpus
            edited.append(folder / f"{name}.xlsx")
            book.save(edited[-1])
            data[name] = gather(db, name)
        # a buyer types another capex into the rent-vs-buy sheet: spares, the book value and NPVs follow
        book = load_workbook(sources[0])
        sheet = book["Rent vs buy"]
        capex_cell = RB["capex"].replace("$", "")
        assert sheet[f"A{capex_cell[1:]}"].value == "Capex"
        sheet[capex_cell] = 3_000_000
        sheet[RB["rate"].replace("$", "")] = 0.08  # and discounts at 8 %: NPVs and the break-even utilisation
        edited.append(folder / "capex.xlsx")
        book.save(edited[-1])
        default_rb = data["default"].rent_buy
        assert default_rb is not None and default_rb.purchase is not None
        typed = calc_rent_vs_buy(
            db,
            {"capex": "3000000", "discount_rate": "8"},
            offer_id=default_rb.offer_id,
            purchase=default_rb.purchase,
        )
        data["capex"] = replace(data["default"], rent_buy=typed)
        # and an idle draw of 30 % at 60 % use: owned power follows use, the break-even utilisation with it
        book = load_workbook(sources[0])
        sheet = book["Rent vs buy"]
        assert str(sheet[f"A{RB['idle'].replace('$', '')[1:]}"].value).startswith("Idle draw")
        sheet[RB["idle"].replace("$", "")] = 0.3
        sheet[RB["use"].replace("$", "")] = 0.6
        sheet[RB["rate"].replace("$", "")] = 0.08
        edited.append(folder / "idle.xlsx")
        book.save(edited[-1])
        idle = calc_rent_vs_buy(
            db,
            {"idle_share": "30", "utilisation": "60", "discount_rate": "8"},
            offer_id=default_rb.offer_id,
            purchase=default_rb.purchase,
        )
        assert idle.result.inputs.opex_by_use > 0
        data["idle"] = replace(data["default"], rent_buy=idle)
        out = recalculate([*sources, *edited], folder / "recalculated", folder / "profile")
    finally:
        db.dispose()
    keys = [*scenarios, "edited", *RESIZED, "capex", "idle"]
    return {key: (path, data[key]) for key, path in zip(keys, out, strict=True)}


def test_no_formula_errors_in_any_sheet(recalculated: dict[str, tuple[Path, ExportData]]) -> None:
    for path, _ in recalculated.values():
        assert check_no_errors(path) > 500


@pytest.mark.parametrize("key", ["default", "half", "more"])
def test_tco_formulas_equal_the_app_to_the_cent(key: str, recalculated: dict[str, tuple[Path, ExportData]]) -> None:
    path, data = recalculated[key]
    evaluations = data.ranking.evaluations
    assert any(o.currency == "USD" for e in evaluations for o in e.offer.options)  # the FX rate is in play
    assert compare_tco(path, evaluations) == 5 * len(evaluations)


def test_the_extras_priced_in_the_workbook_take_every_basis_and_a_kind_charged_on_it() -> None:
    from quotetui.domain.economics.billing import EXTRA_BASES
    from quotetui.domain.enums import ExtraBasis, ExtraKind

    assert {ExtraBasis(basis) for _, basis, _ in LAMBDA_EXTRAS} == set(ExtraBasis)
    assert all(ExtraBasis(basis) in EXTRA_BASES[ExtraKind(kind)] for kind, basis, _ in LAMBDA_EXTRAS)


def test_changing_an_assumption_in_the_workbook_recalculates_like_the_app(
    recalculated: dict[str, tuple[Path, ExportData]],
) -> None:
    path, data = recalculated["edited"]
    before = tco_rows(recalculated["default"][0])
    after = tco_rows(path)
    assert any(after[k]["V"] != before[k]["V"] for k in after)  # egress and storage charges moved the totals
    compare_tco(path, data.ranking.evaluations)


@pytest.mark.parametrize("name", list(RESIZED))
def test_other_gpus_and_months_typed_into_the_workbook_choose_the_way_to_buy_like_the_app(
    name: str, recalculated: dict[str, tuple[Path, ExportData]]
) -> None:
    path, data = recalculated[name]
    if name == "24 GPUs for 13 months":  # a year's terms and a month: the sheet mixes terms as the app does
        assert any(e.best.segments for e in data.ranking.evaluations)
    compare_tco(path, data.ranking.evaluations)
    sheet = load_workbook(path, data_only=True)["TCO"]
    header = next(r for r in range(1, 60) if sheet.cell(row=r, column=1).value == "id")
    way = [c.value for c in sheet[header]].index("way to buy") + 1
    chosen = {
        int(sheet.cell(row=r, column=1).value): sheet.cell(row=r, column=way).value
        for r in range(header + 1, sheet.max_row + 1)
        if isinstance(sheet.cell(row=r, column=1).value, int | float)
    }
    assert chosen == {e.offer.id: e.best.label for e in data.ranking.evaluations}


def test_the_way_to_buy_moves_with_the_months(recalculated: dict[str, tuple[Path, ExportData]]) -> None:
    """#2 for 12 months is cheapest on its annual prepaid term; for 6 months (64 GPUs) the monthly plan
    wins, 5,760,000 (8 nodes × 120,000 × 6), where a fixed annual choice gave 9,792,000."""
    short = {e.offer.id: e for e in recalculated["64 GPUs for 6 months"][1].ranking.evaluations}
    year = {e.offer.id: e for e in recalculated["default"][1].ranking.evaluations}
    assert year[2].best.option.term_months == 12 and short[2].best.option.term_months == 1
    assert tco_rows(recalculated["64 GPUs for 6 months"][0])[2]["V"] == 5_760_000


@pytest.mark.parametrize("key", ["default", "half", "more", "capex", "idle"])
def test_rent_vs_buy_formulas_and_table_equal_the_app(
    key: str, recalculated: dict[str, tuple[Path, ExportData]]
) -> None:
    path, data = recalculated[key]
    compare_rent_buy(path, data)


def test_the_sheet_buys_each_way_as_the_rules_say(recalculated: dict[str, tuple[Path, ExportData]]) -> None:
    """Worked by hand: tiers of one kind do not stack, a quoted prepaid year is that way's price, a prepay
    discount with no term makes a monthly prepaid way (issue 30 point 3)."""
    expected = {
        ("default", "equal tiers"): 1_200_000,  # 8 GPUs: no tier; 12 × 100,000
        ("64 GPUs for 6 months", "equal tiers"): 4_656_000,  # 8 nodes × 97,000 × 6 (not × 94,090)
        ("16 GPUs for 3 months", "equal tiers"): 582_000,  # 2 nodes × 97,000 × 3
        ("24 GPUs for 13 months", "better tier"): 3_705_000,  # 3 nodes × 95,000 × 13
        ("64 GPUs for 6 months", "better tier"): 4_560_000,  # 8 nodes × 95,000 × 6
        ("default", "prepaid year"): 1_080_000,  # the quoted year, tied with 12 × 90,000 (not 1,026,000)
        ("default", "monthly prepay"): 1_176_000,  # 12 × 100,000 × 0.98
    }
    for (key, name), total in expected.items():
        path, data = recalculated[key]
        e = next(e for e in data.ranking.evaluations if e.offer.name == name)
        assert e.best.total == total, (key, name)
        assert tco_rows(path)[e.offer.id]["V"] == total, (key, name)


def test_the_resale_curve_formula_reads_the_curve_as_the_engine_does(tmp_path: Path) -> None:
    """The Rent vs buy sheet's resale share (``_share_at``), recalculated by LibreOffice, at ages on a point,
    between points, before the first and after the last, equals ``resale_share``; 30 months on the default
    curve is 40 % + (25 % − 40 %) × 6/12 = 32.5 %, by hand."""
    from openpyxl import Workbook

    from quotetui.domain.economics.ownership import DEFAULT_RESALE_CURVE, parse_resale_curve, resale_share
    from quotetui.services.export_tco import _share_at

    curves = [DEFAULT_RESALE_CURVE, parse_resale_curve("6:90, 18:55.5, 40:12.25")]
    ages = [1, 6, 12, 24, 30, 59, 60, 72, 600]
    book = Workbook()
    sheet = book.active
    for row, age in enumerate(ages, start=1):
        sheet.cell(row, 1, age)
        for column, curve in enumerate(curves, start=2):
            sheet.cell(row, column, f"={_share_at(curve, f'$A${row}', '5')}")
    book.save(tmp_path / "curve.xlsx")
    [done] = recalculate([tmp_path / "curve.xlsx"], tmp_path / "out", tmp_path / "profile")
    shown = load_workbook(done, data_only=True).active
    for row, age in enumerate(ages, start=1):
        for column, curve in enumerate(curves, start=2):
            expected = resale_share(curve, age)
            got = Fraction(str(shown.cell(row, column).value))
            assert abs(got - expected) < Fraction(1, 10**9), (age, curve, got, expected)
    assert resale_share(DEFAULT_RESALE_CURVE, 30) == Fraction(325, 1000)
