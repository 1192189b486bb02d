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
               f"一万网络,{NAME},prepay,0.05,12,{requires_prepay}\n")  # fmt: skip
    assert o["total_cost"] == "1083000.00"  # 12 × 95,000 × 0.95; without the discount 1,140,000
    assert o["best_option"]["term_months"] == 12 and o["best_option"]["total"] == "1083000"


def test_the_prepaid_variant_takes_the_terms_own_price_not_the_monthly_one(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    o = _offer(cli, demo_db_path, tmp_path,
               f"一万网络,{NAME},1,provider,2026-11-02 10:00+08:00,100000,node_month,CNY,1\n"
               f"一万网络,{NAME},1,provider,2026-11-02 10:00+08:00,95000,node_month,CNY,12\n",
               f"一万网络,{NAME},prepay,0.05,12,yes\n")  # fmt: skip
    # monthly 1,200,000; annual 1,140,000; annual prepaid 95,000 × 12 × 0.95 = 1,083,000 (not 100,000 × 12 × 0.95)
    assert o["total_cost"] == "1083000.00"


def test_a_term_discount_on_a_monthly_price_still_implies_the_term(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    o = _offer(cli, demo_db_path, tmp_path,
               f"一万网络,{NAME},1,provider,2026-11-02 10:00+08:00,100000,node_month,CNY,1\n",
               f"一万网络,{NAME},term,0.10,12,\n")  # fmt: skip
    assert o["total_cost"] == "1080000.00"  # 12 × 100,000 × 0.90


@pytest.mark.parametrize("term_needs_prepay", ["", "yes"])
def test_a_term_discount_and_a_prepay_discount_both_apply_to_a_prepaid_year(
    cli: Cli, demo_db_path: Path, tmp_path: Path, term_needs_prepay: str
) -> None:
    o = _offer(cli, demo_db_path, tmp_path,
               f"一万网络,{NAME},1,provider,2026-11-02 10:00+08:00,95000,node_month,CNY,12\n",
               f"一万网络,{NAME},term,0.05,12,{term_needs_prepay}\n"
               f"一万网络,{NAME},prepay,0.05,12,yes\n")  # fmt: skip
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
