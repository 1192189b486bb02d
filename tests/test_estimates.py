"""A figure says what it rests on: demo #3 is costed at its annual prepaid price, which the seed article marks
as an estimate, so its figures are estimates although its monthly headline is not; a cost the scenario incurs
that an offer does not price (egress, storage, a fee on request) makes its figures lower bounds (≥)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import Cli, execute


def _offers(cli: Cli, db: Path) -> dict[int, dict]:  # type: ignore[type-arg]
    return {o["id"]: o for o in json.loads(cli("--db", str(db), "offers", "--json").out)}


def test_figures_costed_at_an_estimated_price_are_marked(cli: Cli, demo_db_path: Path) -> None:
    offers = _offers(cli, demo_db_path)
    three = offers[3]
    assert three["best_option"]["term"] == "annual prepaid"
    assert three["quoted_price"]["is_estimate"] is False  # the monthly headline is quoted
    assert three["is_estimate"] is True
    assert three["estimates"] == ["the annual prepaid price it is costed at is an estimate"]
    assert offers[2]["is_estimate"] is False and offers[2]["estimates"] == []


def test_an_estimated_round_or_offer_marks_its_figures(cli: Cli, demo_db_path: Path) -> None:
    execute(demo_db_path, "UPDATE quote_revision SET is_estimate = TRUE WHERE offer_id = 2")
    execute(demo_db_path, "UPDATE offer SET is_estimate = TRUE WHERE id = 18")
    offers = _offers(cli, demo_db_path)
    assert offers[2]["estimates"] == ["the current round's figures are marked as estimates"]
    assert offers[18]["estimates"] == ["the offer is marked as an estimate"]


def test_a_cost_the_offer_does_not_price_makes_its_figures_a_lower_bound(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    # the default scenario moves 1 TB a month out and stores 10 TB; #2 prices neither
    two = _offers(cli, demo_db_path)[2]
    assert two["lower_bound"] is True
    assert two["unknown_costs"] == [
        "egress: 1 TB a month in the scenario, not priced by the offer",
        "storage: 10 TB in the scenario, not priced by the offer",
    ]
    table = cli("--db", str(demo_db_path), "offers").out
    assert "≥ 1,224,000" in table and "do not price a cost of the scenario" in table
    explained = cli("--db", str(demo_db_path), "explain", "2").out
    assert "Total for the scenario = ≥ 1,224,000.00 CNY" in explained
    # the provider includes both: recorded as charges of 0, the figures are what they say
    extras = tmp_path / "extra costs.csv"
    extras.write_text("provider,offer,kind,basis,amount,currency\n"
                      "一万网络,8×H100 SXM5 整机（官网价）,egress,per_gb,0,CNY\n"
                      "一万网络,8×H100 SXM5 整机（官网价）,storage,per_tb_month,0,CNY\n", encoding="utf-8")  # fmt: skip
    assert cli("--db", str(demo_db_path), "import", str(extras)).code == 0
    two = _offers(cli, demo_db_path)[2]
    assert two["lower_bound"] is False and two["unknown_costs"] == [] and two["total_cost"] == "1224000.00"
    assert "Total for the scenario = 1,224,000.00 CNY" in cli("--db", str(demo_db_path), "explain", "2").out
