"""Issue 30 on the demo market, through the CLI: each expected figure worked by hand in the test."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import Cli


def _json(cli: Cli, *args: str) -> dict:  # type: ignore[type-arg]
    result = cli(*args, "--json")
    assert result.code == 0, result.err
    return json.loads(result.out)  # type: ignore[no-any-return]


def test_demo_2_at_85000_already_beats_the_batna_through_its_annual_prepay(cli: Cli, demo_db_path: Path) -> None:
    """Point 4. #2 at 85,000 a node-month with 15 % off for annual prepay: 12 × 85,000 × 0.85 = 867,000 for the
    default scenario (8 GPUs, a year), below the BATNA #18's 960,000 (12 × 80,000; same GPU, default MFU 40 %
    and 99 % availability, so totals compare directly). It already beats it, up to 960,000 ÷ 10.2 =
    94,117.64 a node-month; the monthly option alone would need 79,999.99."""
    db = str(demo_db_path)
    assert cli("--db", db, "round", "add", "2", "--amount", "85000", "--amount-high", "85000").code == 0
    e = _json(cli, "--db", db, "explain", "2")
    assert e["total_cost"] == "867000.00"
    n = e["negotiation"]
    assert n["batna"]["id"] == 18
    t = n["target_price"]
    assert t["already_beats_batna"] is True and t["amount"] == "94117.64"
    assert t["way_to_buy"] == "annual prepaid · term discount"
    monthly = next(o for o in n["options"] if o["term_months"] == 1)
    assert monthly["target_price"] == "79999.99" and monthly["already_beats_batna"] is False
    brief = cli("--db", db, "brief", "2")
    assert brief.code == 0, brief.err
    assert "already beats the BATNA bought as annual prepaid · term discount" in brief.out


def test_an_unstated_network_is_a_question_ranked_after_the_confirmed(cli: Cli, demo_db_path: Path) -> None:
    """Point 6. #5 is 4×A100 per node with no scale-out network stated: 8 GPUs are 2 nodes, so it is "?" —
    ranked after the 16 confirmed offers (17?), before the blocked ones, with the question to ask."""
    db = str(demo_db_path)
    rows = _json_list(cli, "--db", db, "offers")
    five = next(o for o in rows if o["id"] == 5)
    assert five["rank"] == 17 and five["feasible"] is True
    assert five["questions"] == ["2 nodes and the scale-out network is not stated: which fabric joins them?"]
    confirmed = [o["rank"] for o in rows if o["feasible"] and not o["questions"]]
    assert confirmed == list(range(1, 17))
    table = cli("--db", db, "offers").out
    assert "\n17?   5  一万网络 4×A100" in table
    assert "? #5: 2 nodes and the scale-out network is not stated: which fabric joins them?" in table
    assert "· ask: 2 nodes and the scale-out network is not stated" in cli("--db", db, "explain", "5").out


def _json_list(cli: Cli, *args: str) -> list[dict]:  # type: ignore[type-arg]
    result = cli(*args, "--json")
    assert result.code == 0, result.err
    return json.loads(result.out)  # type: ignore[no-any-return]
