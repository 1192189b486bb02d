"""The 万/亿 money style (issue 35): large amounts written as Chinese buyers write them, through the one display
(``domain/economics/display.py``), every amount of money alike: a figure with its marks (``caveats.figure_text``),
a target, a table's cell, a sentence's amount. Expected texts are written by hand."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import Cli
from hypothesis import given
from hypothesis import strategies as st

from quotetui.domain.economics import display
from quotetui.domain.economics.caveats import NONE, Caveats, figure_text, money_figure
from quotetui.domain.verification.findings import FindingCode


@pytest.fixture
def wan() -> None:
    display.use_money_style("wan")


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (Fraction(960000), "96.00万 CNY"),  # the issue's own example
        (Fraction(123456789), "1.23亿 CNY"),
        (Fraction(9999), "9,999.00 CNY"),  # below 1万: as ever
        (Fraction(10000), "1.00万 CNY"),
        (Fraction(9999996, 1000), "1.00万 CNY"),  # rounds to 10,000.00 first: not "10,000.00 CNY"
        (Fraction(9999994, 1000), "9,999.99 CNY"),
        (Fraction(99994999), "9,999.50万 CNY"),
        (Fraction(99999999), "1.00亿 CNY"),  # 9,999.9999万 rounds up to a whole 亿, written so
        (Fraction(-25000), "-2.50万 CNY"),
        (Fraction(10**12), "10,000.00亿 CNY"),
        (Fraction(1, 3) * 10**6, "33.33万 CNY"),
    ],
)
def test_large_amounts_are_written_in_wan_and_yi(wan: None, value: Fraction, shown: str) -> None:
    assert display.money_shown(value, "CNY") == shown


@pytest.mark.parametrize(
    ("amount", "currency", "shown"),
    [
        ("1234567.89", "CNY", "123.456789万"),  # as typed: exact, the point moves, nothing is rounded
        ("80000", "CNY", "8.00万"),
        ("120000000", "CNY", "1.20亿"),
        ("0.125", "CNY", "0.125"),
        ("9999.99", "CNY", "9,999.99"),
        ("250000", "JPY", "25.00万"),
    ],
)
def test_an_amount_as_typed_stays_exact_in_wan(wan: None, amount: str, currency: str, shown: str) -> None:
    assert display.stored_text(Decimal(amount), currency) == shown


def test_the_plain_style_is_unchanged_and_is_the_default() -> None:
    assert display.money_style() == "plain"
    assert display.money_shown(Fraction(960000), "CNY") == "960,000.00 CNY"
    assert display.stored_text(Decimal("1234567.89"), "CNY") == "1,234,567.89"
    with pytest.raises(ValueError):
        display.use_money_style("lakh")


@given(st.decimals(min_value=-(10**13), max_value=10**13, places=2, allow_nan=False, allow_infinity=False))
def test_an_amount_as_typed_reads_back_exactly(amount: Decimal) -> None:
    display.use_money_style("wan")
    try:
        text = display.stored_text(amount, "CNY")
    finally:
        display.use_money_style("plain")
    number = text.replace(",", "")
    unit = {"万": Decimal(10**4), "亿": Decimal(10**8)}.get(number[-1:], Decimal(1))
    assert Decimal(number.rstrip("万亿")) * unit == amount


# -- one style throughout: figures with marks, targets, every command's amounts --------------------------------

CRITICAL = Caveats(critical=(FindingCode.IMPLAUSIBLE_CLAIM,))
BOUND_ESTIMATE = Caveats(unpriced=("egress",), estimates=("an estimated price",))


def test_a_figure_with_marks_is_money_in_the_same_style(wan: None) -> None:
    assert money_figure(Fraction(4224000), CRITICAL, "CNY") == "422.40万 CNY ✗"
    assert money_figure(Fraction(750000), BOUND_ESTIMATE | CRITICAL, "CNY") == "≥ ~75.00万 CNY ✗"
    # a table's cell: the heading names the currency, the figure says it is money
    assert figure_text(Fraction(1026000), BOUND_ESTIMATE, money=True) == "≥ ~102.60万"
    assert figure_text(Fraction(3498, 100), BOUND_ESTIMATE, money=True) == "≥ ~34.98"  # below 1万: as ever
    assert money_figure(Fraction(12345, 1000), NONE, "CNY", 4) == "12.3450 CNY"


def test_the_plain_style_writes_figures_with_marks_as_before() -> None:
    assert money_figure(Fraction(4224000), CRITICAL, "CNY") == "4,224,000.00 CNY ✗"
    assert figure_text(Fraction(1026000), BOUND_ESTIMATE, money=True) == "≥ ~1,026,000.00"


@pytest.mark.parametrize(
    ("unit", "money"),
    [("CNY", True), ("USD", True), ("CNY/GPU-h", True), ("CNY/PFLOP-h", True), ("JPY/node-month", True),
     ("", False), ("hours/year", False), ("h", False), ("PFLOP", False), ("%", False), ("nodes", False),
     ("fraction of peak", False), ("GB", False)],
)  # fmt: skip
def test_a_figure_is_money_when_its_unit_is_a_currency(unit: str, money: bool) -> None:
    assert display.is_money(unit) is money


def test_hours_pflop_and_shares_never_read_wan(wan: None) -> None:
    assert figure_text(Fraction(87600), NONE, 1, "hours/year") == "87,600.0 hours/year"
    assert figure_text(Fraction(70080), BOUND_ESTIMATE, 0, "PFLOP") == "≥ ~70,080 PFLOP"
    assert figure_text(Fraction(123456), NONE) == "123,456.00"  # not said to be money: a figure as it is


@pytest.mark.parametrize(
    ("amount", "currency", "wan_text", "plain_text"),
    [
        ("25237.61", "CNY", "2.52万", "25,237.61"),
        ("25257.61", "CNY", "2.52万", "25,257.61"),  # an upper bound rounds down: 2.53万 would not beat the BATNA
        ("302851.36", "CNY", "30.28万", "302,851.36"),
        ("99999999.99", "CNY", "9,999.99万", "99,999,999.99"),  # not 1.00亿: that is more than the target
        ("9999.99", "CNY", "9,999.99", "9,999.99"),
        ("250000", "JPY", "25.00万", "250,000"),
    ],
)
def test_a_target_is_a_figure_rounded_down(amount: str, currency: str, wan_text: str, plain_text: str) -> None:
    assert display.target_number(Decimal(amount), currency) == plain_text
    display.use_money_style("wan")
    assert display.target_number(Decimal(amount), currency) == wan_text


@pytest.fixture
def wan_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The config file asks for 万 (as a buyer sets it); the run speaks Chinese."""
    config = tmp_path / "config.toml"
    config.write_text('money_style = "wan"\n', encoding="utf-8")
    monkeypatch.setenv("QUOTETUI_CONFIG", str(config))
    monkeypatch.setenv("QUOTETUI_LANG", "zh-CN")


_LARGE_PLAIN = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+\.\d+")


def _large_plain_amounts(text: str) -> list[str]:
    """Amounts with decimals written in full from 1万 up (the demo's non-money figures have none: 70,080 GPU时)."""
    return [m for m in _LARGE_PLAIN.findall(text) if Decimal(m.replace(",", "")) >= 10**4]


@pytest.mark.parametrize(
    ("args", "lines"),
    [
        (("offers",), ["  1  18  腾讯云 GN10Xp 8×H100 80GB（包月）", "≥ 96.00万   ≥ 34.98"]),
        (
            ("explain", "3"),
            [
                "场景总计 = ≥ ~75.00万 CNY",
                "每月成本 = ≥ ~6.25万 CNY",
                "目标价：不高于 2.52万 CNY 每节点月（包月），比当前的 8.80万 低 71.3%，购买方式为包月",
                "包年预付：75.00万 CNY 每节点（整个期限）；目标价不高于 30.28万（降低 59.6%）",
            ],
        ),
        (("brief", "3"), ["- 包月：现价 8.80万 CNY 每节点月；目标价不高于 2.52万 CNY 每节点月（降低 71.3%）"]),
        (
            ("calc", "term", "--monthly", "88000", "--annual", "750000"),
            ["包月：每期 8.80万 = 每月 8.80万 = 每年 105.60万"],
        ),
        (
            ("calc", "rent-vs-buy", "--capex", "2000000", "--offer", "3"),
            [
                "满负荷使用 36 个月共 ≥ ~225.00万 CNY ✗",
                "  资本支出 200.00万 CNY（给定）",
                "租用 225.00万 CNY，自购 199.12万 CNY",
            ],
        ),
    ],
    ids=["offers", "explain", "brief", "term", "rent-vs-buy"],
)
def test_every_amount_of_a_command_is_in_the_style_chosen(
    cli: Cli, demo_db_path: Path, wan_config: None, args: tuple[str, ...], lines: list[str]
) -> None:
    done = cli("--db", str(demo_db_path), *args)
    assert done.code == 0, done.err
    for line in lines:
        assert line in done.out
    assert _large_plain_amounts(done.out) == []


def test_the_award_writes_its_totals_and_premiums_in_wan(cli: Cli, demo_db_path: Path, wan_config: None) -> None:
    need = ("--gpu", "H100 SXM5,H800 SXM5", "--gpus", "256", "--months", "12", "--start", "2027-01-01",
            "--min-availability", "99.5", "--inter-fabric", "infiniband_ndr")  # fmt: skip
    assert cli("--db", str(demo_db_path), "rfq", "new", "H100 256", *need).code == 0
    done = cli("--db", str(demo_db_path), "award", "H100 256", "--include-market", "--budget", "50000000")
    assert done.code == 0, done.err
    # 32 nodes of #2 at 1,224,000 a node-year (tests/test_award_cli.py); 31 of #2 and 1 of #9 at 3,000,000
    assert "3,916.80万 CNY ✗" in done.out and "4,094.40万 CNY ✗  177.60万 CNY" in done.out
    assert "预算 5,000.00万 低于成本最低的分配方案（6,225.60万）" in done.out
    assert _large_plain_amounts(done.out) == []


def test_a_switch_of_style_while_running_is_never_served_the_old_text(
    demo_db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The TUI switches the money style without a restart (``display.use_money_style``): a ranking, stored
    evaluations or a listing kept on disk in the old style is a different entry (``display.style_key``)."""
    from quotetui.services.database import open_database
    from quotetui.services.offer_listing import TABLE, offer_listing
    from quotetui.services.ranking_cache import RANKINGS

    monkeypatch.setenv("QUOTETUI_CACHE_DIR", str(tmp_path / "cache"))
    RANKINGS.clear()
    db = open_database(str(demo_db_path)).db
    try:

        def tco_of_18() -> str:
            rows = list(offer_listing(db, TABLE))  # read whole: a listing is kept once read to its end
            return next(row[6] for row in rows if row[0] == "row" and row[2] == "18")

        assert tco_of_18() == "≥ 960,000.00"
        display.use_money_style("wan")
        assert tco_of_18() == "≥ 96.00万"
        display.use_money_style("plain")
        assert tco_of_18() == "≥ 960,000.00"
    finally:
        db.dispose()


def test_json_is_the_same_whatever_the_money_style(
    cli: Cli, demo_db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--json`` is for scripts: amounts in full in its sentences too (``explain``'s lines said 8.80万 under the
    万 style), the same output whichever style a person chose."""
    db = str(demo_db_path)
    plain = cli("--db", db, "explain", "3", "--json").out
    config = tmp_path / "config.toml"
    config.write_text('money_style = "wan"\n', encoding="utf-8")
    monkeypatch.setenv("QUOTETUI_CONFIG", str(config))
    assert "8.80万" in cli("--db", db, "explain", "3", "--lang", "zh-CN").out  # the style is on for people
    assert cli("--db", db, "explain", "3", "--json").out == plain
    assert "8.80万" not in plain and "88,000.00" in plain
