"""The buy side of rent vs buy, part by part: colocation, power (kW × PUE × hours × tariff), staff, spares,
depreciation and residual, each given, computed or a named default. Every figure is computed by hand here."""

from __future__ import annotations

import json
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from quotetui.domain.economics.ownership import PurchaseTerms, ownership
from quotetui.domain.enums import PowerBasis

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
    # 4,000 × 10.2 / 5.6 = 7,285.714…; the bill does not say it covers cooling, so it is the servers' own draw
    # and the default PUE 1.56 comes on top, as a computed power counts it: 7,285.714… × 1.56 = 11,365.714…
    power = F(4000) * F("10.2") / F("5.6") * F("1.56")
    assert parts["power"].monthly == power
    assert "only the GPUs' own TDP (8 × 700 W = 5.60 kW)" in parts["power"].how and "10.20 kW" in parts["power"].how
    assert "the servers' own draw (assumed: the terms do not say), × PUE 1.56 (default)" in parts["power"].how
    assert "0.9785 CNY/kWh at the servers for 5.6 kW" in parts["power"].how  # 4,000 ÷ (5.6 × 730) = 0.97847…
    assert parts["staff"].monthly == 0 and parts["staff"].kind == "not given" and o.left_out == ("staff",)
    assert parts["spares"].monthly == F(2_500_000) * F(5, 100) / 12  # 10,416.67, the named default
    assert parts["spares"].kind == "default"
    assert o.opex_monthly == 15_000 + power + F(2_500_000, 240)  # 36,782.38
    assert o.residual == 625_000  # resale at 36 months on the default curve, 25 %: 2.5M × 25 %
    assert o.booked_a_year == F(2_500_000, 5) + o.opex_monthly * 12  # 941,388.57
    facility = ownership(replace(DEMO, power_basis=PowerBasis.FACILITY), 36, 730)
    assert {p.name: p for p in facility.parts}["power"].monthly == F(4000) * F("10.2") / F("5.6")  # cooling in it
    servers = ownership(replace(DEMO, power_basis=PowerBasis.SERVERS, pue=F("1.2")), 36, 730)
    assert {p.name: p for p in servers.parts}["power"].monthly == F(4000) * F("10.2") / F("5.6") * F("1.2")


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
    # no residual and no useful life given: the resale curve (12: 60 %, 24: 40 %, 36: 25 %, 48: 15 %, 60: 10 %),
    # read on the line between two points from 100 % at month 0, flat after the last
    assert ownership(base, 24, 730).residual == 960_000  # 2.4M × 40 %
    assert ownership(base, 30, 730).residual == 780_000  # 40 % + (25 % − 40 %) × 6/12 = 32.5 %: 2.4M × 32.5 %
    assert ownership(base, 6, 730).residual == 1_920_000  # 100 % + (60 % − 100 %) × 6/12 = 80 %
    assert ownership(base, 72, 730).residual == 240_000  # 10 % after the last point
    assert "25 % of the capex on the resale curve (default)" in ownership(base, 36, 730).residual_how
    mine = ((12, F(7, 10)), (36, F(3, 10)))
    assert ownership(base, 24, 730, mine).residual == 1_200_000  # 70 % + (30 % − 70 %) × 12/24 = 50 %


def test_cli_rent_vs_buy_from_the_recorded_purchase_option(cli, demo_db_path: Path) -> None:  # type: ignore[no-untyped-def]
    r = _json(cli, "--db", str(demo_db_path), "calc", "rent-vs-buy", "--purchase", "自购 8×H100 SXM 服务器",
              "--offer", "13", "--utilization", "60", "--json")  # fmt: skip
    assert r["capex"] == "2500000.00" and r["opex_monthly"] == "36782.380952"  # JSON money: exact to 6 places
    assert [(p["part"], p["monthly"], p["kind"]) for p in r["owning_parts"]] == [
        ("colocation", "15000.00", "given"),
        ("power", "11365.714286", "computed"),
        ("staff", "0.00", "not given"),
        ("spares", "10416.666667", "default"),
    ]
    assert r["owning_left_out"] == ["staff"] and r["residual"] == "625000.00"  # 25 % on the resale curve
    # no discounting: 2,500,000 + 36 × 36,782.380952 − 625,000 = 3,199,165.71; rent 36 × (116,800 × 0.6 + 500)
    assert r["npv_buy"] == "3199165.714286" and r["npv_rent"] == "2540880.00" and r["cheaper"] == "rent"
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


def test_break_even_utilisation_and_the_verdict_use_the_same_rate(cli, demo_db_path: Path) -> None:  # type: ignore[no-untyped-def]
    r = _json(cli, "--db", str(demo_db_path), "calc", "rent-vs-buy", "--purchase", "1", "--offer", "13",
              "--utilization", "70", "--discount-rate", "8%", "--json")  # fmt: skip
    # by hand at 8 % a year (v = 1 ÷ (1 + 0.08/12)): annuity a = Σ v^m, m = 1…36; NPV of owning
    # 2,500,000 + 36,782.38 × a − 625,000 × v^36 (25 % resale); NPV of renting u × 116,800 × a + 500 × a
    v = 1 / (1 + Fraction(8, 100) / 12)
    a = sum(v**m for m in range(1, 37))
    power = F(4000) * F("10.2") / F("5.6") * F("1.56")  # the servers' draw with the default PUE for cooling
    own = 2_500_000 + (15_000 + power + F(2_500_000, 240)) * a - 625_000 * v**36
    u = (own - 500 * a) / (116_800 * a)  # 0.8494…: at 70 % renting is still cheaper
    assert Decimal(r["breakeven_utilization"]) == Decimal(round(u * 10**4)) / 10**4 == Decimal("0.8494")
    assert r["cheaper"] == "rent"
    assert abs(Decimal(r["npv_buy"]) - Decimal(own.numerator) / Decimal(own.denominator)) < Decimal("0.000001")


def test_the_break_even_month_does_not_move_with_the_horizon(cli, demo_db_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = str(demo_db_path)
    months = {h: _json(cli, "--db", db, "calc", "rent-vs-buy", "--purchase", "1", "--rent-monthly", "80000",
                       "--horizon-months", h, "--json")["breakeven_months"] for h in ("30", "48", "60")}  # fmt: skip
    # 2,500,000 ÷ (80,000 − 36,782.38) = 57.85 months: not within 30 or 48 (the resale at the horizon no longer
    # pins it there), found in 60
    assert months == {"30": None, "48": None, "60": "57.85"}
    text = cli("--db", db, "calc", "rent-vs-buy", "--purchase", "1", "--rent-monthly", "80000", "--horizon-months",
               "48").out  # fmt: skip
    # over 48 months owning costs 2,500,000 + 48 × 36,782.38 − 375,000 (15 % resale) = 3,890,554.29, more than
    # 48 × 80,000 = 3,840,000 of rent: the resale does not bring owning ahead
    assert "not within 48 months: renting stays ahead month by month" in text and "counting the resale" not in text
    dearer = cli("--db", db, "calc", "rent-vs-buy", "--purchase", "1", "--rent-monthly", "85000", "--horizon-months",
                 "48").out  # fmt: skip
    # at 85,000: 2,500,000 ÷ (85,000 − 36,782.38) = 51.85 months, beyond 48; but 4,080,000 of rent is more than
    # owning's 3,890,554.29 once the resale at month 48 is counted
    assert "not within 48 months: renting stays ahead month by month; counting the resale at month 48" in dearer


def test_the_vat_note_only_for_an_offer_whose_vat_is_recovered(cli, demo_db_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = str(demo_db_path)
    assert cli("--db", db, "settings", "set", "--net-of-vat", "yes").code == 0
    r = _json(cli, "--db", db, "calc", "rent-vs-buy", "--purchase", "1", "--offer", "18", "--json")
    assert r["rent_net_of_vat"] is False  # #18 records no VAT rate: its rent is as invoiced
    shown = cli("--db", db, "calc", "rent-vs-buy", "--purchase", "1", "--offer", "18").out
    assert "the rent is net" not in shown  # never said of a rent that is not
    assert "the capex is as invoiced (no VAT rate and 专票 recorded for it" in shown


def test_the_capex_nets_its_vat_with_a_special_invoice_when_costs_are_net(cli, demo_db_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Issue 30, point 10: 13 % recoverable with a 专票. By hand: the seed's capex 2,500,000 ÷ 1.13 =
    2,212,389.380531; spares 5 % a year of it ÷ 12 = 9,218.289086; the resale curve's 25 % at 36 months =
    553,097.345133. As invoiced (the setting off, or no 专票) nothing changes."""
    db = str(demo_db_path)
    args = ("calc", "rent-vs-buy", "--purchase", "1", "--offer", "13", "--capex-vat-rate", "13", "--json")
    gross = _json(cli, "--db", db, *args, "--capex-special-invoice", "yes")
    assert gross["capex"] == "2500000.00" and gross["residual"] == "625000.00"  # the setting is off: as invoiced
    assert cli("--db", db, "settings", "set", "--net-of-vat", "yes").code == 0
    no_invoice = _json(cli, "--db", db, *args)
    assert no_invoice["capex"] == "2500000.00"  # no 专票: the VAT is not recovered
    net = _json(cli, "--db", db, *args, "--capex-special-invoice", "yes")
    capex = F(2_500_000) / F("1.13")
    assert net["capex"] == f"{Decimal(capex.numerator) / Decimal(capex.denominator):.6f}" == "2212389.380531"
    spares = next(p for p in net["owning_parts"] if p["part"] == "spares")
    assert spares["monthly"] == "9218.289086"  # 2,212,389.380531 × 5 % ÷ 12
    assert net["residual"] == "553097.345133"  # 2,212,389.380531 × 25 %
    text = cli("--db", db, *args[:-1], "--capex-special-invoice", "yes").out
    assert "÷ (1 + 13 %) VAT recovered with the 专票: costs are net of VAT" in text
    assert "the capex is net of the VAT its 专票 recovers; give owning costs a month net too" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--purchase", "1", "--offer", "13", "--gpus", "16"],
            "--gpus: purchase option '自购 8×H100 SXM 服务器' buys 8",
        ),
        (["--capex", "1", "--rent-monthly", "2", "--power-kw", "0"], "'--power-kw': must be more than zero"),
        (["--purchase", "1", "--rent-monthly", "2", "--residual", "3000000"], "--residual: the resale value cannot"),
        (["--capex", "1", "--rent-monthly", "2", "--discount-rate", "0.08"], "did you mean 8%?"),
    ],
)
def test_review_findings_are_refused_by_name(cli, demo_db_path: Path, args: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    result = cli("--db", str(demo_db_path), "calc", "rent-vs-buy", *args)
    assert result.code == 2 and message in result.err and "Traceback" not in result.err, result.err
    setting = cli("--db", str(demo_db_path), "settings", "set", "--discount-rate", "0.08")
    assert setting.code == 2 and "0.08 would be 0.08 %: did you mean 8%?" in setting.err


def test_the_resale_curve_is_a_setting_checked_point_by_point(cli, demo_db_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = str(demo_db_path)
    for typed, message in (
        ("12:70, 36:0.3", "'36:0.3': 0.3 would be 0.3 %: did you mean 30%?"),
        ("24:50, 12:70", "'12:70': the ages must rise"),
        ("12:50, 24:60", "'24:60': a server never resells for more when older"),
        ("36", "needs the form months:share"),
    ):
        result = cli("--db", db, "settings", "set", "--resale-curve", typed)
        assert result.code == 2 and "--resale-curve" in result.err and message in result.err, result.err
    assert cli("--db", db, "settings", "set", "--resale-curve", "12:70, 36:30").code == 0
    shown = json.loads(cli("--db", db, "settings", "--json").out)["resale_curve"]
    assert shown == {"value": "12:70%, 36:30%", "default": False}
    r = _json(cli, "--db", db, "calc", "rent-vs-buy", "--purchase", "1", "--offer", "13", "--json")
    assert r["residual"] == "750000.00"  # 2,500,000 × 30 % at 36 months on the curve set
    assert "30 % of the capex on the resale curve 12:70%, 36:30%" in r["residual_how"]
    assert cli("--db", db, "settings", "set", "--resale-curve", "").code == 0  # the default back
    assert (
        _json(cli, "--db", db, "calc", "rent-vs-buy", "--purchase", "1", "--offer", "13", "--json")["residual"]
        == "625000.00"
    )


def test_owned_power_follows_use_from_the_idle_draw(cli, demo_db_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The seed's server, #13 at 60 % use, an idle draw of 30 % of full load, no discounting. By hand: power at
    full load 4,000 × 10.2/5.6 × 1.56 = 11,365.714…; at 60 % use 11,365.714… × (0.3 + 0.7 × 0.6) = × 0.72;
    owning a month 15,000 + that + 10,416.67; the break-even utilisation solves
    2,500,000 + 36 × (15,000 + 0.3 × power + 10,416.67) + 36 × 0.7 × power × u − 625,000
      = 36 × 500 + 36 × 116,800 × u."""
    r = _json(cli, "--db", str(demo_db_path), "calc", "rent-vs-buy", "--purchase", "1", "--offer", "13",
              "--utilization", "60", "--idle-share", "30", "--json")  # fmt: skip
    power = F(4000) * F("10.2") / F("5.6") * F("1.56")
    spares = F(2_500_000, 240)
    month = 15_000 + power * (F(3, 10) + F(7, 10) * F(6, 10)) + spares  # 33,599.98
    assert r["opex_monthly"] == "33599.980952" and Decimal(r["opex_by_use_monthly"]) == Decimal("7956.000000")
    own = 2_500_000 + 36 * month - 625_000
    assert r["npv_buy"] == f"{Decimal(own.numerator) / Decimal(own.denominator):.6f}"  # 3,084,599.31
    at_rest = 2_500_000 + 36 * (15_000 + F(3, 10) * power + spares) - 625_000
    u = (at_rest - 36 * 500) / (36 * 116_800 - 36 * F(7, 10) * power)  # 0.7388…
    assert Decimal(r["breakeven_utilization"]) == Decimal(round(u * 10**4)) / 10**4 == Decimal("0.7388")
    text = cli("--db", str(demo_db_path), "calc", "rent-vs-buy", "--purchase", "1", "--offer", "13",
               "--utilization", "60", "--idle-share", "30").out  # fmt: skip
    assert "owning at 60 % use: 33,599.98 CNY a month (the power above the idle draw, 7,956.00 at full use" in text
    assert "by use from an idle draw of 30 % of it (given)" in text
    full = _json(cli, "--db", str(demo_db_path), "calc", "rent-vs-buy", "--purchase", "1", "--offer", "13",
                 "--utilization", "60", "--json")  # fmt: skip
    assert full["opex_by_use_monthly"] == "0.00" and full["opex_monthly"] == "36782.380952"  # full load always
    both = cli("--db", str(demo_db_path), "calc", "rent-vs-buy", "--opex-monthly", "19000", "--capex", "1",
               "--rent-monthly", "2", "--idle-share", "30")  # fmt: skip
    assert both.code == 2 and "give the owning costs a month or their parts" in both.err  # an idle draw is a part


def test_owning_power_that_follows_use_as_fast_as_the_rent_has_no_break_even_utilisation() -> None:
    from quotetui.domain.economics.rentbuy import RentBuyInput, rent_vs_buy, utilisation_words

    i = RentBuyInput(F(1000), F(10), F(50), "CNY", utilisation=F(1, 2), opex_by_use=F(60))
    r = rent_vs_buy(i)
    assert r.breakeven_utilisation is None
    assert utilisation_words(r) == (
        "no break-even utilisation: owning's power grows with use as fast as the rent or faster, so more use never "
        "favours owning"
    )
    near = rent_vs_buy(RentBuyInput(F(1000), F(10), F(60), "CNY", opex_by_use=F(60) - F(1, 10**9)))
    assert near.breakeven_utilisation is not None and near.breakeven_utilisation > 10
    assert utilisation_words(near) == "break-even utilisation more than 1,000 %: owning never pays at this rent"
    # by hand: owning 1,000 + 36 × (10 + 60 × 0.5) = 2,440; renting 36 × 50 × 0.5 = 900
    assert (r.npv_buy, r.npv_rent) == (2440, 900)
