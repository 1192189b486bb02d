"""Quotes as providers write them: "¥95,000 per node-month on a 12-month term, 5 % off for annual prepay" is
a prepaid year at 12 × 95,000 × 0.95 = 1,083,000, whether or not the price was typed with a 1-month term."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import Cli

NAME = "8×H100 as written"
OFFER = f"provider,offer,gpu,gpus_per_node,billing\n一万网络,{NAME},H100 SXM5,8,monthly\n"
ROUNDS = "provider,offer,round,mover,quoted_at,price,unit,currency,term_months\n"
DISCOUNTS = "provider,offer,kind,rate,min_term_months,requires_prepay\n"


def _offer(cli: Cli, db: Path, tmp_path: Path, rounds: str, discounts: str) -> dict:  # type: ignore[type-arg]
    files = {"offers.csv": OFFER, "negotiation.csv": ROUNDS + rounds, "discounts.csv": DISCOUNTS + discounts}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    result = cli("--db", str(db), "import", *(str(tmp_path / n) for n in files))
    assert result.code == 0, result.err
    ranked = json.loads(cli("--db", str(db), "offers", "--json").out)  # the default scenario: 8 GPUs, 12 months
    return next(o for o in ranked if o["name"] == NAME)


@pytest.mark.parametrize("requires_prepay", ["yes", ""])  # a prepay discount needs prepaying either way
def test_a_prepay_discount_on_a_quoted_annual_price_is_applied(
    cli: Cli, demo_db_path: Path, tmp_path: Path, requires_prepay: str
) -> None:
    o = _offer(cli, demo_db_path, tmp_path,
               f"一万网络,{NAME},1,provider,2026-11-02 10:00+08:00,95000,node_month,CNY,12\n",
               f"一万网络,{NAME},prepay,5%,12,{requires_prepay}\n")  # fmt: skip
    assert o["total_cost"] == "1083000.00"  # 12 × 95,000 × 0.95; without the discount 1,140,000
    assert o["best_option"]["term_months"] == 12 and o["best_option"]["total"] == "1083000.00"


def test_the_prepaid_variant_takes_the_terms_own_price_not_the_monthly_one(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    o = _offer(cli, demo_db_path, tmp_path,
               f"一万网络,{NAME},1,provider,2026-11-02 10:00+08:00,100000,node_month,CNY,1\n"
               f"一万网络,{NAME},1,provider,2026-11-02 10:00+08:00,95000,node_month,CNY,12\n",
               f"一万网络,{NAME},prepay,5%,12,yes\n")  # fmt: skip
    # monthly 1,200,000; annual 1,140,000; annual prepaid 95,000 × 12 × 0.95 = 1,083,000 (not 100,000 × 12 × 0.95)
    assert o["total_cost"] == "1083000.00"


def test_a_term_discount_on_a_monthly_price_still_implies_the_term(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    o = _offer(cli, demo_db_path, tmp_path,
               f"一万网络,{NAME},1,provider,2026-11-02 10:00+08:00,100000,node_month,CNY,1\n",
               f"一万网络,{NAME},term,10%,12,\n")  # fmt: skip
    assert o["total_cost"] == "1080000.00"  # 12 × 100,000 × 0.90


@pytest.mark.parametrize("term_needs_prepay", ["", "yes"])
def test_a_term_discount_and_a_prepay_discount_both_apply_to_a_prepaid_year(
    cli: Cli, demo_db_path: Path, tmp_path: Path, term_needs_prepay: str
) -> None:
    o = _offer(cli, demo_db_path, tmp_path,
               f"一万网络,{NAME},1,provider,2026-11-02 10:00+08:00,95000,node_month,CNY,12\n",
               f"一万网络,{NAME},term,5%,12,{term_needs_prepay}\n"
               f"一万网络,{NAME},prepay,5%,12,yes\n")  # fmt: skip
    # prepaid, the year meets both conditions: 12 × 95,000 × 0.95 × 0.95 = 1,028,850
    assert o["total_cost"] == "1028850.00"


def test_a_short_need_on_a_yearly_term_shows_what_it_commits_to(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    assert cli("--db", str(demo_db_path), "scenario", "add", "half a year", "--gpus", "8", "--months", "6").code == 0
    _offer(cli, demo_db_path, tmp_path,
           f"一万网络,{NAME},1,provider,2026-11-02 10:00+08:00,95000,node_month,CNY,12\n", "")  # fmt: skip
    ranked = json.loads(cli("--db", str(demo_db_path), "offers", "--json", "--scenario", "half a year").out)
    o = next(x for x in ranked if x["name"] == NAME)
    # 6 months of need on a 12-month term: 12 × 95,000 committed, 2 × that a year of need
    assert (o["committed_total"], o["billed_months"], o["annualized_tco"]) == ("1140000.00", 12, "2280000.00")
    explained = cli("--db", str(demo_db_path), "explain", str(o["id"]), "--scenario", "half a year").out
    assert "committed in all: 1,140,000.00 CNY for the 6 months of need (12 months billed: whole terms)" in explained


def _ranked(cli: Cli, db: Path, scenario: str) -> dict[int, dict]:  # type: ignore[type-arg]
    result = cli("--db", str(db), "offers", "--json", "--scenario", scenario)
    assert result.code == 0, result.err
    return {o["id"]: o for o in json.loads(result.out)}


def test_a_need_of_13_months_mixes_an_annual_term_and_a_month(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    assert cli("--db", db, "scenario", "add", "13 months", "--gpus", "8", "--months", "13").code == 0
    two = _ranked(cli, demo_db_path, "13 months")[2]
    # #2: 120,000 a node-month (the high end of 8–12万), 15 % off a year prepaid. 13 monthly terms: 1,560,000;
    # two prepaid years: 2 × 12 × 102,000 = 2,448,000; a prepaid year then one month: 1,224,000 + 120,000
    assert two["total_cost"] == "1344000.00"
    best = two["best_option"]
    assert best["term"] == "1 × annual prepaid · term discount + 1 × monthly" and best["billed_months"] == 13
    assert [(m["term_months"], m["months_covered"], m["compute"]) for m in best["mixed"]] == [
        (12, 12, "1224000.00"),
        (1, 1, "120000.00"),
    ]
    assert two["annualized_tco"] == "1240615.384615"  # 1,344,000 × 12 ÷ 13
    totals = {o["term"]: o["total"] for o in two["term_options"]}
    assert totals["monthly"] == "1560000.00" and totals["annual prepaid · term discount"] == "2448000.00"
    shown = cli("--db", db, "explain", "2", "--scenario", "13 months").out
    assert "months 1–12: committed in 12-month terms: 12 months paid for 12 used" in shown
    assert "month 13: committed in 1-month terms" in shown and "1,224,000.00 CNY + 120,000.00 CNY" in shown
    table = cli("--db", db, "offers", "--scenario", "13 months").out
    assert "12mp+1m" in table
    year = _ranked(cli, demo_db_path, "8×H100 一年训练")[2]  # 12 months: the prepaid year alone, no mix
    assert year["best_option"]["mixed"] == [] and year["total_cost"] == "1224000.00"


def test_an_on_demand_tail_follows_the_utilisation(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    db = str(demo_db_path)
    _offer(cli, demo_db_path, tmp_path,
           f"一万网络,{NAME},1,provider,2026-11-02 10:00+08:00,20,gpu_hour,CNY,0\n"
           f"一万网络,{NAME},1,provider,2026-11-02 10:00+08:00,600000,term_total,CNY,6\n", "")  # fmt: skip
    assert cli("--db", db, "scenario", "add", "7 at half", "--gpus", "8", "--months", "7", "--utilization",
               "50").code == 0  # fmt: skip
    o = next(o for o in _ranked(cli, demo_db_path, "7 at half").values() if o["name"] == NAME)
    # on demand all 7 months: 20 × 8 × 730 × 0.5 × 7 = 408,800; the 6-month term alone ×2 = 1,200,000;
    # the term then one month on demand at half use: 600,000 + 20 × 8 × 730 × 0.5 = 658,400 (costlier than
    # on demand at half use, so on demand wins)
    assert o["total_cost"] == "408800.00"
    totals = {t["term"]: t["total"] for t in o["term_options"]}
    assert totals == {"on-demand": "408800.00", "1 × half-year + on-demand for 1 month": "658400.00",
                      "half-year": "1200000.00"}  # fmt: skip


def test_rent_vs_buy_pays_mixed_terms_as_each_part_bills(cli: Cli, demo_db_path: Path) -> None:
    r = json.loads(cli("--db", str(demo_db_path), "calc", "rent-vs-buy", "--capex", "2500000", "--opex-monthly",
                       "19000", "--offer", "2", "--horizon-months", "13", "--json").out)  # fmt: skip
    # one node of #2 for 13 months: the prepaid year at signing (12 × 102,000), the 13th month's bill of
    # 120,000 spread over the 13 months as a fixed monthly charge
    assert r["rent_upfront"] == [{"month": 0, "amount": "1224000.00"}]
    assert r["rent_monthly"] == "9230.769231" and r["series"][13]["rent"] == "1344000.00"
    assert "1 × annual prepaid · term discount + 1 × monthly" in r["rent_source"]
