"""Issue 30, point 8: one convention for shares. A person types percentages everywhere (flags, settings, forms,
CSV, spreadsheet cells): 60 and 60% are 60 %; a bare 0.6 is refused ("did you mean 60%?"), and a bare 1 where
100 % is allowed is refused as ambiguous. A percent-formatted cell holds the fraction itself. JSON keeps
fractions. Expected values are worked by hand here."""

from __future__ import annotations

import csv
import json
from decimal import Decimal
from pathlib import Path

import pytest
from openpyxl import Workbook

from tests.conftest import Cli


def _scenarios(cli: Cli, db: str) -> dict[str, dict]:  # type: ignore[type-arg]
    return {s["name"]: s for s in json.loads(cli("--db", db, "scenario", "list", "--json").out)}


@pytest.mark.parametrize(
    ("args", "flag", "hint"),
    [
        (("scenario", "add", "x", "--gpus", "8", "--months", "1", "--utilization", "0.6"), "--utilization",
         "did you mean 60%?"),
        (("scenario", "add", "x", "--gpus", "8", "--months", "1", "--utilization", "1"), "--utilization",
         "1 is ambiguous: type 1% for one percent, or 100% for all of it"),
        (("calc", "rent-vs-buy", "--capex", "2500000", "--opex-monthly", "19000", "--rent-monthly", "180000",
          "--utilization", "0.5"), "--utilization", "did you mean 50%?"),
        (("calc", "rent-vs-buy", "--capex", "2500000", "--opex-monthly", "19000", "--rent-monthly", "180000",
          "--discount-rate", "0.08"), "--discount-rate", "did you mean 8%?"),
        (("calc", "train", "--flops", "3.14e23", "--gpu", "H100 SXM", "--gpus", "32", "--mfu", "0.5"), "--mfu",
         "did you mean 50%?"),
        (("calc", "train", "--flops", "3.14e23", "--gpu", "H100 SXM", "--gpus", "32", "--scaling", "1"),
         "--scaling", "is ambiguous"),
        (("settings", "set", "--default-mfu", "0.35"), "--default-mfu", "did you mean 35%?"),
        (("award", "H100 256", "--max-share", "0.6"), "--max-share", "did you mean 60%?"),
    ],
)  # fmt: skip
def test_a_fraction_typed_at_a_flag_is_refused_and_nothing_changes(
    cli: Cli, demo_db_path: Path, args: tuple[str, ...], flag: str, hint: str
) -> None:
    db = str(demo_db_path)
    before = (_scenarios(cli, db), cli("--db", db, "settings", "--json").out)
    result = cli("--db", db, *args)
    assert result.code == 2 and flag in result.err and hint in result.err, result.err
    assert (_scenarios(cli, db), cli("--db", db, "settings", "--json").out) == before


def test_percentages_at_flags_are_the_figures_a_fraction_gave(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    for name, typed in (("at 60", "60"), ("at 60%", "60%")):
        made = cli("--db", db, "scenario", "add", name, "--gpus", "8", "--months", "3", "--utilization", typed)
        assert made.code == 0, made.err
    shown = _scenarios(cli, db)
    assert shown["at 60"]["utilization"] == shown["at 60%"]["utilization"] == "0.6"  # JSON keeps the fraction
    # the DESIGN check on 32 H100 SXM at 50 % MFU and perfect scaling: 3.14e23 ÷ (32 × 989e12 × 0.5) s = 229.7 days
    run = json.loads(
        cli(
            "--db",
            db,
            "calc",
            "train",
            "--flops",
            "3.14e23",
            "--gpu",
            "H100 SXM",
            "--gpus",
            "32",
            "--mfu",
            "50",
            "--scaling",
            "100%",
            "--json",
        ).out
    )
    days = Decimal("3.14e23") / (32 * Decimal("989e12") * Decimal("0.5")) / 86400
    assert Decimal(run["wall_days"]).quantize(Decimal("0.1")) == days.quantize(Decimal("0.1")) == Decimal("229.7")
    # rent 180,000 at 50 % use against owning 2,500,000 + 19,000 a month: 90,000 − 19,000 = 71,000 a month
    # saved, so owning breaks even after 2,500,000 ÷ 71,000 = 35.21 months
    rb = json.loads(
        cli(
            "--db",
            db,
            "calc",
            "rent-vs-buy",
            "--capex",
            "2500000",
            "--opex-monthly",
            "19000",
            "--rent-monthly",
            "180000",
            "--utilization",
            "50",
            "--json",
        ).out
    )
    assert (rb["breakeven_months"], rb["breakeven_month"]) == ("35.21", 36)
    assert cli("--db", db, "settings", "set", "--discount-rate", "8").code == 0
    assert json.loads(cli("--db", db, "settings", "--json").out)["discount_rate"]["value"] == "0.08"


def test_the_default_of_a_share_flag_is_shown_as_a_percentage(cli: Cli) -> None:
    shown = " ".join(cli("award", "--help").out.split())
    assert "--max-share PERCENT" in shown and "[default: 60 %]" in shown


def _answer_book(path: Path, cells: list[tuple[object, str | None]]) -> Path:
    """An import workbook with one SLA row per offer of the demo: (availability cell, its number format)."""
    book = Workbook()
    sheet = book.active
    sheet.title = "SLA"
    sheet.append(["provider", "offer", "availability"])
    offers = [("一万网络", "8×H100 SXM5 整机"), ("一万网络", "8×A100 80GB SXM4 整机")]
    for (provider, offer), (value, number_format) in zip(offers, cells, strict=False):
        sheet.append([provider, offer, value])
        if number_format:
            sheet.cell(sheet.max_row, 3).number_format = number_format
    book.save(path)
    return path


def _availability(cli: Cli, db: str, offer_id: int) -> Decimal:
    """The SLA's availability as stored (``explain``'s figure if the promise holds)."""
    return Decimal(json.loads(cli("--db", db, "explain", str(offer_id), "--json").out)["availability_if_claims_hold"])


def test_a_sheet_cell_is_read_as_it_shows(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    """A cell showing 99.5% (0.995 with a percent format, as Excel stores what was typed into a percent-formatted
    cell) is 99.5 %; a plain 99.8 is 99.8 %; a custom format with the sign counts; a percent sign inside quoted
    text does not."""
    db = str(demo_db_path)
    book = _answer_book(tmp_path / "sla.xlsx", [(0.995, "0.00%"), (99.8, None)])
    done = cli("--db", db, "import", str(book))
    assert done.code == 0, done.err
    assert (_availability(cli, db, 1), _availability(cli, db, 3)) == (Decimal("0.995"), Decimal("0.998"))
    custom = _answer_book(tmp_path / "custom.xlsx", [(0.997, "[Blue]0.0%;[Red]-0.0%"), (99.6, '0.0" %"')])
    assert cli("--db", db, "import", str(custom)).code == 0
    assert (_availability(cli, db, 1), _availability(cli, db, 3)) == (Decimal("0.997"), Decimal("0.996"))


def test_a_fraction_in_a_plain_cell_is_refused_by_place_and_nothing_is_imported(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    db = str(demo_db_path)
    before = (_availability(cli, db, 1), _availability(cli, db, 3))
    assert before == (Decimal("0.999"), Decimal("0.999"))  # the demo's 99.9 % promises
    book = _answer_book(tmp_path / "sla.xlsx", [(99.5, None), (0.999, None)])
    result = cli("--db", db, "import", str(book))
    assert result.code == 2 and "nothing was imported" in result.err
    assert "SLA › row 3 › column 'availability'" in result.err and "did you mean 99.9%?" in result.err
    assert (_availability(cli, db, 1), _availability(cli, db, 3)) == before
    (tmp_path / "sla.csv").write_text("provider,offer,availability\n一万网络,8×H100 SXM5 整机,1\n", encoding="utf-8")
    ambiguous = cli("--db", db, "import", str(tmp_path / "sla.csv"))
    assert ambiguous.code == 2 and "row 2" in ambiguous.err and "is ambiguous" in ambiguous.err


def test_the_offers_csv_writes_shares_with_their_sign(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    """CSV has no number formats: a share is written 99.9%, so it reads back as the same share."""
    db = str(demo_db_path)
    out = tmp_path / "offers.csv"
    assert cli("--db", db, "export", str(out)).code == 0
    rows = list(csv.DictReader(out.open(encoding="utf-8-sig")))
    first = next(r for r in rows if r["offer"] == "8×H100 SXM5 整机")
    # demo #1: no verified MFU, so the default 40 %; its 99.9 % SLA has no credit schedule: the default 99 %
    assert (first["MFU"], first["availability"]) == ("40%", "99%")
    assert all(not r["availability"] or r["availability"].endswith("%") for r in rows)


def test_whole_numbers_in_share_cells_are_percentages_and_claims_of_shares_are_shares(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    """A hostile pass found a whole number in a share cell crashing the import (60 as an int), and a claimed
    MFU of 54.3 read as 5,430 %. Both are read as people type them now."""
    db = str(demo_db_path)
    book = Workbook()
    sheet = book.active
    sheet.title = "Scenarios"
    sheet.append(["name", "gpu_count", "months", "utilisation"])
    sheet.append(["m60", 8, 3, 60])
    sheet.append(["m100", 8, 3, 100])
    claims = book.create_sheet("Benchmarks")
    claims.append(["provider", "offer", "metric", "value", "value_high", "unit", "source"])
    claims.append(["一万网络", "8×H100 SXM5 整机", "mfu", 45, 52.5, "%", "s004"])
    claims.append(["一万网络", "8×H100 SXM5 整机", "scaling_efficiency", "90%", None, "%", "s004"])
    claims.append(["一万网络", "8×H100 SXM5 整机", "gemm_tflops", 700, None, "TFLOPS", "s004"])
    book.save(tmp_path / "whole.xlsx")
    done = cli("--db", db, "import", str(tmp_path / "whole.xlsx"))
    assert done.code == 0, done.err
    shown = _scenarios(cli, db)
    assert (shown["m60"]["utilization"], shown["m100"]["utilization"]) == ("0.6", "1")
    listed = json.loads(cli("--db", db, "claims", "--json").out)
    mine = {c["metric"]: c for c in listed if c["offer_id"] == 1 and c["source"] == "s004"}
    assert (mine["mfu"]["claimed"], mine["scaling_efficiency"]["claimed"]) == ("0.45–0.525", "0.9"), mine
    assert mine["gemm_tflops"]["claimed"] == "700"
    assert "claimed 45.0–52.5 % MFU" in cli("--db", db, "claims").out
    refused = tmp_path / "fraction.csv"
    refused.write_text("provider,offer,metric,value,unit,source\n一万网络,8×H100 SXM5 整机,mfu,0.543,%,s004\n", "utf-8")
    result = cli("--db", db, "import", str(refused))
    assert result.code == 2 and "did you mean 54.3%?" in result.err


def test_a_percent_format_is_read_from_the_section_a_share_is_shown_in() -> None:
    from quotetui.io.percent import is_percent_format

    assert is_percent_format("0.00%") and is_percent_format("[Red]0.0%;-0.0%") and is_percent_format("0%;0")
    assert not is_percent_format('0" %"') and not is_percent_format('"%"0') and not is_percent_format("0;-0%")
    assert not is_percent_format("General") and not is_percent_format(None) and not is_percent_format("0.00\\%")


def test_full_width_separators_read_as_the_ascii_ones() -> None:
    from quotetui.domain.economics.ownership import parse_resale_curve
    from quotetui.domain.entities import parse_credits

    assert parse_resale_curve("１２：６０、２４：４０") == parse_resale_curve("12:60, 24:40")
    assert parse_credits("99.9：10、99:25") == parse_credits("99.9:10, 99:25")
