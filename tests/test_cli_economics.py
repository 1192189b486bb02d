"""The scripting CLI of the economics engine: rankings, explanations, calculators, scenarios, FX."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from sqlmodel import select

from quotetui.domain.enums import BillingBasis, FormFactor, Mover, PriceUnit, ProviderKind
from quotetui.services.database import open_database
from quotetui.store.models import GpuModel, Offer, Provider, QuoteRevision, RevisionPrice


def _json(cli, *args: str):  # type: ignore[no-untyped-def]
    result = cli(*args)
    assert result.code == 0, result.err
    return json.loads(result.out)


def test_offers_are_ranked_by_cost_per_delivered_pflop_hour(cli, demo_db_path: Path) -> None:  # type: ignore[no-untyped-def]
    items = _json(cli, "--db", str(demo_db_path), "offers", "--json")
    required = {
        "id",
        "provider",
        "gpu_model",
        "price_per_gpu_hour",
        "annualized_tco",
        "cost_per_pflop_hour",
        "mfu",
        "mfu_source",
        "currency",
    }
    assert all(required <= set(item) for item in items)
    feasible = [i for i in items if i["feasible"]]
    confirmed = [i for i in feasible if not i["questions"]]  # then those with a question open ("?"), then ✗
    costs = [Decimal(i["cost_per_pflop_hour"]) for i in confirmed]
    assert costs == sorted(costs)
    assert feasible[: len(confirmed)] == confirmed
    assert items.index(feasible[-1]) < min(items.index(i) for i in items if not i["feasible"])
    aliyun = next(
        i
        for i in items
        if i["provider"] == "阿里云" and i["name"].endswith("（包月预留）") and "A100" in i["gpu_model"]
    )
    assert Decimal(aliyun["price_per_gpu_hour"]).quantize(Decimal("0.01")) == Decimal("7.19")
    assert aliyun["price_per_gpu_hour"] == "7.191781"
    assert {i["scenario"] for i in items} == {"8×H100 一年训练"}


def test_offers_for_another_scenario_and_one_gpu_model(cli, demo_db_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = str(demo_db_path)
    added = cli("--db", db, "scenario", "add", "64 GPUs half a year", "--gpus", "64", "--months", "6")
    assert added.code == 0, added.err
    items = _json(cli, "--db", db, "offers", "--scenario", "64 GPUs half a year", "--gpu", "A100", "--json")
    assert items and {i["gpu_model"] for i in items} == {"A100 80GB SXM4"}
    assert all(i["scenario"] == "64 GPUs half a year" for i in items)
    yw = next(i for i in items if i["name"] == "8×A100 80GB SXM4 整机")
    assert yw["best_option"]["term"] == "monthly"  # 6 months: the annual prepay would waste half of it
    assert yw["total_cost"] == "4224000.00"  # 8 nodes × 88,000 × 6


def test_explain_shows_every_figure_and_the_negotiation(cli, demo_db_path: Path) -> None:  # type: ignore[no-untyped-def]
    data = _json(cli, "--db", str(demo_db_path), "explain", "3", "--json")
    keys = {f["key"] for f in data["figures"]}
    assert {
        "price_per_gpu_hour",
        "annualized_tco",
        "cost_per_pflop_hour",
        "mfu",
        "availability",
        "term_options",
    } <= keys
    terms = next(f for f in data["figures"] if f["key"] == "term_options")
    assert terms["inputs"][0].startswith("annual prepaid: 750,000.00 CNY")
    assert data["negotiation"]["batna"]["provider"] != "一万网络"
    target = data["negotiation"]["target_price"]
    assert target["currency"] == "CNY" and target["unit"] == "node_month"
    text = cli("--db", str(demo_db_path), "explain", "3").out
    assert "Cost per delivered PFLOP-hour" in text and "BATNA" in text and "claimed 45.0–52.0 %" in text


def test_calc_train_design_check_and_claimed_duration(cli, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    data = _json(
        cli,
        "--db",
        str(db_path),
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
        "100",
        "--claimed-days",
        "21",
        "--json",
    )
    assert data["wall_days"] == "229.67" and data["gpu_hours"] == Decimal(data["gpu_hours"]).to_eng_string()
    assert data["verdict"] == "impossible" and Decimal(data["implied_mfu"]) > 5
    by_params = _json(
        cli,
        "--db",
        str(db_path),
        "calc",
        "train",
        "--params",
        "7e9",
        "--tokens",
        "1e12",
        "--gpu",
        "A100",
        "--gpus",
        "8",
        "--json",
    )
    assert by_params["flops"] == "4.2E+22" and by_params["mfu_source"] == "default"


def test_calc_train_costs_a_run_under_an_offer(cli, demo_db_path: Path) -> None:  # type: ignore[no-untyped-def]
    data = _json(
        cli,
        "--db",
        str(demo_db_path),
        "calc",
        "train",
        "--flops",
        "3.14e23",
        "--gpus",
        "32",
        "--offer",
        "18",
        "--mfu",
        "50",
        "--json",
    )
    assert data["gpu_model"] == "H100 SXM5" and data["scaling_source"] == "default"
    assert data["cost"]["options"][0]["billed"].endswith("months") and data["cost"]["currency"] == "CNY"
    # a given MFU is whole-job: 3.14e23 ÷ (32 × 989e12 × 0.5) = 19,843,276 s = 229.67 days, no 0.85 on top
    assert data["scaling"] == "1" and data["wall_days"] == "229.67"


def test_calc_term_and_rent_vs_buy_design_checks(cli, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    term = _json(cli, "calc", "term", "--monthly", "88000", "--annual", "750000", "--currency", "CNY", "--json")
    assert term["cheapest"] == "annual" and term["saving_pct"] == "28.9773"
    assert term["options"][1]["per_month"] == "62500.00"
    rvb = _json(
        cli,
        "calc",
        "rent-vs-buy",
        "--capex",
        "2500000",
        "--opex-monthly",
        "19000",
        "--rent-monthly",
        "180000",
        "--residual",
        "0",  # the DESIGN check has no residual
        "--json",
    )
    assert rvb["breakeven_months"] == "15.53" and rvb["breakeven_month"] == 16
    assert len(rvb["series"]) == 37 and rvb["series"][16] == {"month": 16, "rent": "2880000.00", "own": "2804000.00"}
    assert rvb["npv_buy"] == "3184000.00" and rvb["cheaper"] == "buy"
    booked = _json(cli, "calc", "rent-vs-buy", "--capex", "2500000", "--opex-monthly", "19000", "--rent-monthly",
                   "180000", "--json")  # fmt: skip
    # no residual given: the resale at 36 months on the default curve, 2,500,000 × 25 % = 625,000
    assert booked["residual"] == "625000.00" and "on the resale curve (default)" in booked["residual_how"]
    assert booked["npv_buy"] == "2559000.00" and booked["breakeven_months"] == "15.53"  # 3,184,000 − 625,000
    lived = _json(cli, "calc", "rent-vs-buy", "--capex", "2500000", "--opex-monthly", "19000", "--rent-monthly",
                  "180000", "--depreciation-years", "5", "--json")  # fmt: skip
    # a useful life given: the book value after 36 of 60 months, 2,500,000 × 24/60 = 1,000,000
    assert lived["residual"] == "1000000.00" and "straight-line depreciation over 5 years" in lived["residual_how"]


def test_rent_vs_buy_with_an_offer_as_the_rent_side(cli, demo_db_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = str(demo_db_path)
    monthly = _json(
        cli,
        "--db",
        db,
        "calc",
        "rent-vs-buy",
        "--capex",
        "2500000",
        "--opex-monthly",
        "19000",
        "--offer",
        "1",
        "--utilization",
        "50",
        "--json",
    )
    assert monthly["rent_monthly"] == "180000.00" and "一万网络" in monthly["rent_source"]
    assert monthly["rent_paid_monthly"] == "180000.00"  # a monthly plan is a fixed bill, busy or idle
    hourly = _json(
        cli,
        "--db",
        db,
        "calc",
        "rent-vs-buy",
        "--capex",
        "2500000",
        "--opex-monthly",
        "19000",
        "--offer",
        "13",
        "--utilization",
        "50",
        "--json",
    )
    assert hourly["rent_monthly"] == "116800.00"  # 160 × 730 on demand, follows the use
    assert hourly["rent_fixed_monthly"] == "500.00"  # 1 TB egress at 0.5/GB: the same busy or idle
    assert hourly["rent_paid_monthly"] == "58900.00"  # 116,800 × 0.5 + 500
    assert "for 8 GPUs (1 node; --gpus sets the capacity the capex buys)" in hourly["rent_source"]


def _rent_buy(cli, db: Path, *more: str) -> dict:  # type: ignore[no-untyped-def,type-arg]
    return _json(cli, "--db", str(db), "calc", "rent-vs-buy", "--capex", "2500000", "--opex-monthly", "19000",
                 *more, "--json")  # fmt: skip


def test_rent_vs_buy_scales_only_what_is_billed_by_use(cli, demo_db_path: Path) -> None:  # type: ignore[no-untyped-def]
    r = _rent_buy(cli, demo_db_path, "--offer", "13", "--utilization", "60")
    assert r["rent_paid_monthly"] == "70580.00"  # 116,800 × 0.6 + 500 egress, not 117,300 × 0.6 = 70,380
    assert r["series"][36]["rent"] == "2540880.00"  # 36 × 70,580


def test_a_prepaid_term_is_paid_at_the_start_of_each_term(cli, demo_db_path: Path) -> None:  # type: ignore[no-untyped-def]
    r = _rent_buy(cli, demo_db_path, "--offer", "3", "--discount-rate", "8")
    assert r["rent_upfront"] == [{"month": m, "amount": "750000.00"} for m in (0, 12, 24)]
    assert [r["series"][m]["rent"] for m in (0, 11, 12, 35)] == ["750000.00", "750000.00", "1500000.00", "2250000.00"]
    # 750,000 × (1 + 1.0066…^−12 + 1.0066…^−24), computed by hand: 750,000 × 2.7759578 = 2,081,968.37
    v = Decimal(1) / (1 + Decimal("0.08") / 12)
    assert abs(Decimal(r["npv_rent"]) - 750000 * (1 + v**12 + v**24)) < Decimal("0.01")


def test_rent_is_for_the_capacity_the_capex_buys(cli, demo_db_path: Path) -> None:  # type: ignore[no-untyped-def]
    two = _rent_buy(cli, demo_db_path, "--offer", "13", "--gpus", "16")
    assert two["rent_monthly"] == "233600.00" and "for 16 GPUs (2 nodes)" in two["rent_source"]  # 2 × 116,800
    refused = cli("--db", str(demo_db_path), "calc", "rent-vs-buy", "--capex", "350000", "--opex-monthly", "3000",
                  "--offer", "13", "--currency", "USD")  # fmt: skip
    assert refused.code == 2 and "the offer is costed in CNY" in refused.err


def test_scenarios_add_list_show_and_default(cli, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = str(db_path)
    listed = _json(cli, "--db", db, "scenario", "list", "--json")
    assert [s["name"] for s in listed] == ["8 GPUs for 12 months"] and listed[0]["default"]
    made = _json(
        cli,
        "--db",
        db,
        "scenario",
        "add",
        "GPT-3",
        "--gpus",
        "32",
        "--months",
        "3",
        "--gpu",
        "h100-sxm5-80gb",
        "--flops",
        "3.14e23",
        "--utilization",
        "90",
        "--default",
        "--json",
    )
    assert made["gpu_model"] == "H100 SXM5" and made["default"] and made["train_flops"] == "3.14E+23"
    shown = _json(cli, "--db", db, "scenario", "show", "--json")
    assert shown["name"] == "GPT-3"
    dup = cli("--db", db, "scenario", "add", "GPT-3", "--gpus", "1", "--months", "1")
    assert dup.code == 2 and "already exists" in dup.err


def test_fx_rates_convert_a_usd_offer(cli, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = str(db_path)
    opened = open_database(db)
    with opened.db.write() as session:
        lambda_ = Provider(name="Lambda", kind=ProviderKind.GPU_CLOUD)
        session.add(lambda_)
        session.flush()
        gpu = session.exec(select(GpuModel).where(GpuModel.key == "h100-sxm5")).one()
        o = Offer(
            provider_id=lambda_.id,
            gpu_model_id=gpu.id,
            name="gpu_8x_h100_sxm5",
            form_factor=FormFactor.SXM,
            gpus_per_node=8,
            billing_basis=BillingBasis.ON_DEMAND,
        )
        session.add(o)
        session.flush()
        r = QuoteRevision(offer_id=o.id, seq=1, quoted_at=datetime(2026, 11, 1, tzinfo=UTC), mover=Mover.LIST)
        session.add(r)
        session.flush()
        session.add(
            RevisionPrice(
                revision_id=r.id, term_months=0, unit=PriceUnit.NODE_HOUR, amount=Decimal("23.92"), currency="USD"
            )
        )
    opened.db.dispose()
    items = _json(cli, "--db", db, "offers", "--json")
    assert items[0]["rank"] is None and "no USD→CNY exchange rate" in items[0]["not_compared"]
    explain = cli("--db", db, "explain", str(items[0]["id"]))
    assert explain.code == 2 and "fx add USD CNY" in explain.err
    assert cli("--db", db, "fx", "add", "USD", "CNY", "7.1234", "--date", "2026-11-01", "--source", "PBOC").code == 0
    [item] = _json(cli, "--db", db, "offers", "--json")
    assert item["price_per_gpu_hour"] == "21.298966"  # 23.92 ÷ 8 × 7.1234 = 2.99 × 7.1234, exact
    assert item["quoted_price_per_gpu_hour"] == {"amount": "2.99", "currency": "USD"}
    assert "1 USD = 7.1234 CNY on 2026-11-01 (PBOC)" in item["fx"]
    assert _json(cli, "--db", db, "fx", "list", "--json")[0]["rate"] == "7.1234"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["calc", "train", "--flops", "1e23", "--gpu", "H100", "--gpus", "0"], "'--gpus': must be at least 1"),
        (
            ["calc", "train", "--flops", "1e23", "--gpu", "H100", "--gpus", "8", "--mfu", "120"],
            "--mfu: must be at most 100 %",
        ),
        (["calc", "train", "--flops", "-5", "--gpu", "H100", "--gpus", "8"], "--flops: must be at least 1"),
        (["calc", "train", "--gpu", "H100", "--gpus", "8"], "--flops: give the FLOPs, or both the parameters and"),
        (["calc", "term", "--monthly", "-88000"], "--monthly: must not be negative"),
        (["calc", "train", "--flops", "1e23", "--gpu", "H100", "--gpus", "8", "--mfu", "40%"], None),
        (
            [
                "calc",
                "rent-vs-buy",
                "--capex",
                "1",
                "--opex-monthly",
                "1",
                "--rent-monthly",
                "2",
                "--horizon-months",
                "99999999",
            ],
            "'--horizon-months': must be at most 120",
        ),
        (["calc", "term", "--monthly", "abc"], "is not a number"),
        (["calc", "rent-vs-buy", "--capex", "-1", "--opex-monthly", "1", "--rent-monthly", "2"], "--capex"),
        (["calc", "rent-vs-buy", "--capex", "1", "--opex-monthly", "1"], "--rent-monthly AMOUNT or --offer ID"),
        (["scenario", "add", "x", "--gpus", "0", "--months", "1"], "Invalid value for '--gpus': must be at least 1"),
        (["scenario", "add", "x", "--gpus", "8", "--months", "1", "--utilization", "150"], "--utilization"),
        (["scenario", "add", "x", "--gpus", "1,2", "--months", "1"], "'1,2' has commas that do not separate thousands"),
        (["scenario", "add", "x", "--gpus", "9" * 30, "--months", "1"], "'--gpus': must be at most 1,000,000"),
        (["calc", "term", "--monthly", "9e9999999"], "out of range"),
        (["calc", "term", "--monthly", "1.234,5"], "decimal comma"),
        (["offers", "--gpu", "H1000"], "closest matches: H100 SXM5"),
        (["offers", "--scenario", "nope"], "no scenario named 'nope'"),
        (["explain", "999"], "no priced offer with id 999"),
        (["fx", "add", "USD", "CNY", "0", "--date", "2026-01-01", "--source", "x"], "more than zero"),
    ],
)
def test_bad_flags_exit_2_with_a_clear_message(cli, db_path: Path, args: list[str], message: str | None) -> None:  # type: ignore[no-untyped-def]
    result = cli("--db", str(db_path), *args)
    if message is None:  # accepted: a ratio written as a percentage, as everywhere
        assert result.code == 0, result.err
        return
    assert result.code == 2, result.out
    assert message in result.err and "Traceback" not in result.err


def test_every_option_of_the_current_round_has_its_savings_and_target(  # type: ignore[no-untyped-def]
    cli, demo_db_path: Path, tmp_path: Path
) -> None:
    rounds = tmp_path / "negotiation.csv"
    rounds.write_text(
        "provider,offer,round,mover,quoted_at,price,unit,currency,term_months,prepay\n"
        "一万网络,8×A100 80GB SXM4 整机,2,provider,2026-12-01 10:00+08:00,80000,node_month,CNY,1,\n"
        "一万网络,8×A100 80GB SXM4 整机,2,provider,2026-12-01 10:00+08:00,700000,term_total,CNY,12,yes\n",
        encoding="utf-8",
    )
    assert cli("--db", str(demo_db_path), "import", str(rounds)).code == 0
    data = _json(cli, "--db", str(demo_db_path), "explain", "3", "--json")
    options = {o["unit"]: o for o in data["negotiation"]["options"]}
    # against the same option of the list round: (88,000 − 80,000) ÷ 88,000 and (750,000 − 700,000) ÷ 750,000
    assert options["node_month"]["savings_vs_list_pct"] == "9.0909"
    assert options["term_total"]["savings_vs_list_pct"] == "6.6667"
    assert options["node_month"]["current"] == "80000.00" and options["term_total"]["current"] == "700000.00"
    # the targets tie the same total: the annual one is 12 × the monthly one, to the cent each rounded down
    monthly, annual = Decimal(options["node_month"]["target_price"]), Decimal(options["term_total"]["target_price"])
    assert abs(annual - 12 * monthly) < Decimal("0.12")


def test_calc_term_gives_the_present_value_saving_beside_the_nominal_one(cli) -> None:  # type: ignore[no-untyped-def]
    t = _json(cli, "calc", "term", "--monthly", "88000", "--annual", "750000", "--discount-rate", "8%", "--json")
    assert t["saving_pct"] == "28.9773" and t["horizon_months"] == 12
    # by hand: 88,000 at the start of each of 12 months, v = 1 ÷ (1 + 0.08 ÷ 12): 88,000 × Σ v^k (k = 0…11)
    v = Decimal(1) / (1 + Decimal("0.08") / 12)
    monthly = 88000 * sum(v**k for k in range(12))
    assert abs(Decimal(t["pv_saving_pct"]) - (monthly - 750000) / monthly * 100) < Decimal("0.0001")
    assert t["pv_saving_pct"].startswith("26.35")


def test_explain_shows_a_foreign_priced_offer_at_plus_and_minus_5_percent_fx(  # type: ignore[no-untyped-def]
    cli, demo_db_path: Path, tmp_path: Path
) -> None:
    files = {
        "providers.csv": "name,kind\nLambda,gpu_cloud\n",
        "offers.csv": "provider,offer,gpu,gpus_per_node,billing\nLambda,8×H100 od,H100 SXM5,8,on_demand\n",
        "negotiation.csv": "provider,offer,round,mover,quoted_at,price,unit,currency,term_months\n"
        "Lambda,8×H100 od,1,list,2026-11-02,2.99,gpu_hour,USD,0\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    db = str(demo_db_path)
    assert cli("--db", db, "import", *(str(tmp_path / n) for n in files)).code == 0
    assert cli("--db", db, "fx", "add", "USD", "CNY", "7.1234", "--date", "2026-11-02", "--source", "PBOC").code == 0
    offers = _json(cli, "--db", db, "offers", "--json")
    lam = next(o for o in offers if o["provider"] == "Lambda")
    moved = _json(cli, "--db", db, "explain", str(lam["id"]), "--json")["negotiation"]["fx_sensitivity"]
    # every amount is in USD, so the CNY figure moves with the rate: × 0.95 and × 1.05
    base = Decimal(lam["cost_per_pflop_hour"])
    assert [m["shift"] for m in moved] == ["0.95", "1.05"]
    for m in moved:
        assert abs(Decimal(m["cost_per_pflop_hour"]) - base * Decimal(m["shift"])) < Decimal("0.00001")
    assert _json(cli, "--db", db, "explain", "18", "--json")["negotiation"]["fx_sensitivity"] == []  # all CNY
