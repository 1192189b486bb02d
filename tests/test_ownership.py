"""The buy side of rent vs buy, part by part: colocation, power (kW × PUE × hours × tariff), staff, spares,
depreciation and residual, each given, computed or a named default. Every figure is computed by hand here."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from quotetui.domain.economics.ownership import PurchaseTerms, ownership

F = Fraction


def _json(cli, *args: str):  # type: ignore[no-untyped-def]
    result = cli(*args)
    assert result.code == 0, result.err
    return json.loads(result.out)


DEMO = PurchaseTerms(
    gpus=8, currency="CNY", capex=F(2_200_000), capex_high=F(2_800_000), colocation_month=F(10_000),
    colocation_month_high=F(20_000), power_kw=F("5.6"), power_month=F(3000), power_month_high=F(5000), gpu_tdp_w=700,
)  # fmt: skip
"""The seed's 8×H100 server: 220–280万, colocation 1–2万 a month, ≈5.6 kW, ¥3,000–5,000 of power a month."""


def test_the_seeds_server_costs_its_parts_with_the_power_of_a_whole_server() -> None:
    o = ownership(DEMO, 36, 730)
    assert o.capex == 2_500_000  # the middle of 2.2–2.8M
    parts = {p.name: p for p in o.parts}
    assert parts["colocation"].monthly == 15_000
    # 5.6 kW is 8 × 700 W, the GPUs alone; a DGX H100 draws 10.2 kW: the quoted ¥4,000 scales to
    # 4,000 × 10.2 / 5.6 = 7,285.714…
    assert parts["power"].monthly == F(4000) * F("10.2") / F("5.6")
    assert "only the GPUs' own TDP (8 × 700 W = 5.60 kW)" in parts["power"].how and "10.20 kW" in parts["power"].how
    assert parts["staff"].monthly == 0 and parts["staff"].kind == "not given" and o.left_out == ("staff",)
    assert parts["spares"].monthly == F(2_500_000) * F(5, 100) / 12  # 10,416.67, the named default
    assert parts["spares"].kind == "default"
    assert o.opex_monthly == 15_000 + F(4000) * F("10.2") / F("5.6") + F(2_500_000, 240)  # 32,702.38
    assert o.residual == 1_000_000  # book value after 36 of 60 months: 2.5M × 24/60
    assert o.booked_a_year == F(2_500_000, 5) + o.opex_monthly * 12  # 892,428.57


def test_power_is_kw_times_pue_times_hours_times_tariff() -> None:
    given = PurchaseTerms(8, "CNY", F(2_500_000), power_kw=F("10.2"), pue=F("1.3"), tariff_per_kwh=F("0.65"),
                          gpu_tdp_w=700)  # fmt: skip
    power = {p.name: p for p in ownership(given, 36, 730).parts}["power"]
    assert power.monthly == F("10.2") * F("1.3") * 730 * F("0.65")  # 6,291.87
    assert power.kind == "computed" and "(given)" in power.how
    defaults = PurchaseTerms(8, "CNY", F(2_500_000), gpu_tdp_w=700)
    power = {p.name: p for p in ownership(defaults, 36, 744).parts}["power"]
    # a server's 10.2 kW × the default PUE 1.56 × 744 h (the user's hours a month) × ¥0.80 = 9,470.82
    assert power.monthly == F("10.2") * F("1.56") * 744 * F("0.8")
    assert "PUE 1.56 (default)" in power.how and "0.8 CNY/kWh (default)" in power.how
    euros = PurchaseTerms(8, "EUR", F(250_000), gpu_tdp_w=700)  # no default tariff in euros: power left out
    o = ownership(euros, 36, 730)
    assert {p.name: p for p in o.parts}["power"].monthly == 0 and "power" in o.left_out


def test_residual_given_as_an_amount_a_share_or_a_useful_life() -> None:
    base = PurchaseTerms(8, "CNY", F(2_400_000), gpu_tdp_w=700)
    assert ownership(PurchaseTerms(8, "CNY", F(2_400_000), residual=F(300_000)), 36, 730).residual == 300_000
    assert ownership(PurchaseTerms(8, "CNY", F(2_400_000), residual_share=F(3, 10)), 36, 730).residual == 720_000
    three = PurchaseTerms(8, "CNY", F(2_400_000), depreciation_years=3)
    assert ownership(three, 36, 730).residual == 0 and ownership(three, 48, 730).residual == 0  # never below 0
    four = ownership(PurchaseTerms(8, "CNY", F(2_400_000), depreciation_years=4), 36, 730)
    assert four.residual == 600_000 and four.booked_a_year == 600_000 + four.opex_monthly * 12  # 2.4M × 12/48
    assert ownership(base, 24, 730).residual == F(2_400_000) * F(36, 60)  # 1,440,000


def test_cli_rent_vs_buy_from_the_recorded_purchase_option(cli, demo_db_path: Path) -> None:  # type: ignore[no-untyped-def]
    r = _json(cli, "--db", str(demo_db_path), "calc", "rent-vs-buy", "--purchase", "自购 8×H100 SXM 服务器",
              "--offer", "13", "--utilization", "0.6", "--json")  # fmt: skip
    assert r["capex"] == "2500000.00" and r["opex_monthly"] == "32702.380952"  # JSON money: exact to 6 places
    assert [(p["part"], p["monthly"], p["kind"]) for p in r["owning_parts"]] == [
        ("colocation", "15000.00", "given"),
        ("power", "7285.714286", "computed"),
        ("staff", "0.00", "not given"),
        ("spares", "10416.666667", "default"),
    ]
    assert r["owning_left_out"] == ["staff"] and r["residual"] == "1000000.00"
    # no discounting: 2,500,000 + 36 × 32,702.380952 − 1,000,000 = 2,677,285.71; rent 36 × (116,800 × 0.6 + 500)
    assert r["npv_buy"] == "2677285.714286" and r["npv_rent"] == "2540880.00" and r["cheaper"] == "rent"
    typed = _json(cli, "--db", str(demo_db_path), "calc", "rent-vs-buy", "--purchase", "1", "--offer", "13",
                  "--staff-monthly", "8000", "--power-kw", "10.2", "--tariff", "0.8", "--pue", "1.3",
                  "--json")  # fmt: skip
    parts = {p["part"]: p["monthly"] for p in typed["owning_parts"]}
    # typed power replaces the recorded quote: 10.2 kW × PUE 1.3 × 730 h × ¥0.80 = 7,743.84
    assert parts == {"colocation": "15000.00", "power": "7743.84", "staff": "8000.00", "spares": "10416.666667"}


def test_the_discount_rate_setting_is_the_npv_default(cli, demo_db_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = str(demo_db_path)
    assert cli("--db", db, "settings", "set", "--discount-rate", "8%").code == 0
    r = _json(cli, "--db", db, "calc", "rent-vs-buy", "--capex", "2500000", "--opex-monthly", "19000",
              "--rent-monthly", "180000", "--residual", "0", "--json")  # fmt: skip
    assert r["discount_rate"] == "0.08"
    v = 1 / (1 + Decimal("0.08") / 12)  # opex at each month's end: an annuity of 36 payments
    annuity = (1 - v**36) / (Decimal("0.08") / 12)
    assert abs(Decimal(r["npv_buy"]) - (2_500_000 + 19_000 * annuity)) < Decimal("0.01")  # 3,106,336.xx
    assert abs(Decimal(r["npv_rent"]) - 180_000 * annuity) < Decimal("0.01")
    zero = _json(cli, "--db", db, "calc", "rent-vs-buy", "--capex", "2500000", "--opex-monthly", "19000",
                 "--rent-monthly", "180000", "--residual", "0", "--discount-rate", "0", "--json")  # fmt: skip
    assert zero["npv_buy"] == "3184000.00"  # a typed rate wins over the setting
    shown = _json(cli, "--db", db, "settings", "--json")
    assert shown["discount_rate"] == {"value": "0.08", "default": False}
    term = cli("--db", db, "calc", "term", "--monthly", "88000", "--annual", "750000").out
    assert "in present value at 8.00 % a year" in term and "saving 26.35 %" in term  # calc term reads it too


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--opex-monthly", "19000", "--staff-monthly", "5000"], "--opex-monthly: give the owning costs a month or"),
        (["--purchase", "nope"], "no purchase option 'nope' (recorded: '自购 8×H100 SXM 服务器')"),
        (["--pue", "0.9"], "'--pue': must be at least 1"),
        (["--depreciation-years", "0"], "'--depreciation-years': must be at least 1"),
        (["--spares", "150%"], "'--spares'"),
        (["--residual", "9000000"], "--residual: the resale value cannot exceed the capex"),
        (["--purchase", "1", "--currency", "USD"], "is in CNY; leave --currency out"),
    ],
)
def test_bad_buy_side_inputs_are_named(cli, demo_db_path: Path, args: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    capex = [] if "--purchase" in args else ["--capex", "2500000"]
    result = cli("--db", str(demo_db_path), "calc", "rent-vs-buy", *capex, "--rent-monthly", "180000", *args)
    assert result.code == 2 and message in result.err and "Traceback" not in result.err, result.err
