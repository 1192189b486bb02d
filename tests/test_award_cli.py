"""`quotetui award` (issue 17 point 4, issue 29) on the demo market: the three scenarios' splits and totals,
computed by hand from the demo's quotes, the risk premium of each constraint, infeasible scenarios saying why,
and bad flags refused. Neither demo offer states its stock or an SLA, so both lines are questions (?): the
headline award has no candidate and every figure below is the award "if confirmed".

The two offers that meet the RFQ below (H100, InfiniBand NDR, 99.5 % SLA or not stated):
#2 一万网络 quotes 80,000–120,000 CNY a node-month, costed at the high end, 15 % off for a prepaid year:
102,000 × 12 = 1,224,000 CNY a node for the year; #9 天下数据 220,000–250,000, no discount: 250,000 × 12 =
3,000,000 CNY. Nodes of 8 GPUs, stock not stated (any number)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import Cli

NODE_2, NODE_9 = 1_224_000, 3_000_000
NEED = ("--gpu", "H100 SXM5,H800 SXM5", "--gpus", "256", "--months", "12", "--start", "2027-01-01",
        "--min-availability", "99.5", "--inter-fabric", "infiniband_ndr")  # fmt: skip


def _award(cli: Cli, db: Path, *flags: str, job: str | None = None) -> dict:  # type: ignore[type-arg]
    new = cli("--db", str(db), "rfq", "new", "H100 256", *NEED, *(("--job-gpus", job) if job else ()))
    assert new.code == 0, new.err
    done = cli("--db", str(db), "award", "H100 256", "--include-market", *flags, "--json")
    assert done.code == 0, done.err
    result = json.loads(done.out)
    assert result["candidates"] == 0 and result["candidates_with_questions"] == 2
    assert all(not s["feasible"] and "confirmed" in s["reason"] for s in result["scenarios"])
    return {s["scenario"]: s for s in result["if_confirmed"]}


def _split(s: dict) -> list[tuple[int, int, int]]:  # type: ignore[type-arg]
    return [(a["offer_id"], a["nodes"], a["gpus"]) for a in s["allocations"]]


def test_three_scenarios_by_hand(cli: Cli, demo_db_path: Path) -> None:
    found = _award(cli, demo_db_path)
    cheapest, shared, two = found["cheapest"], found["at most 60 % per provider"], found["at least 2 providers"]
    assert _split(cheapest) == [(2, 32, 256)] and cheapest["total_cost"] == f"{32 * NODE_2}.00"
    # 60 % of 256 is 153.6: at most 19 nodes (152 GPUs) from one provider, the other 104 GPUs (13 nodes) from #9
    assert _split(shared) == [(2, 19, 152), (9, 13, 104)]
    assert shared["total_cost"] == f"{19 * NODE_2 + 13 * NODE_9}.00"
    assert shared["premium"] == f"{19 * NODE_2 + 13 * NODE_9 - 32 * NODE_2}.00"
    assert _split(two) == [(2, 31, 248), (9, 1, 8)] and two["total_cost"] == f"{31 * NODE_2 + NODE_9}.00"
    assert all(s["feasible"] and s["gpus"] == 256 for s in found.values())


def test_a_job_that_must_stay_in_one_offer_changes_the_split(cli: Cli, demo_db_path: Path) -> None:
    found = _award(cli, demo_db_path, job="64")  # 4 jobs of 64 GPUs, each inside one offer
    assert _split(found["cheapest"]) == [(2, 32, 256)]
    # 19 nodes of #2 hold only 2 jobs (152 // 64): #9 must hold 2 (16 nodes), and #2 the other 2 (16 nodes)
    assert _split(found["at most 60 % per provider"]) == [(2, 16, 128), (9, 16, 128)]
    assert found["at most 60 % per provider"]["total_cost"] == f"{16 * NODE_2 + 16 * NODE_9}.00"
    # every provider counted carries part of the need, here a job: one node of #9 would hold none, so #9 hosts
    # one job (8 nodes) and #2 the other three (24 nodes): 24 × 1,224,000 + 8 × 3,000,000 = 53,376,000
    two = found["at least 2 providers"]
    assert _split(two) == [(2, 24, 192), (9, 8, 64)] and two["total_cost"] == "53376000.00"
    assert two["beyond_need_nodes"] == 0 and two["without_beyond_need"] is None


def test_an_infeasible_scenario_says_which_constraint_binds(cli: Cli, demo_db_path: Path) -> None:
    found = _award(cli, demo_db_path, "--max-share", "30%", "--min-providers", "3", "--budget", "40000000")
    assert found["cheapest"]["feasible"] and found["cheapest"]["total_cost"] == f"{32 * NODE_2}.00"
    shared = found["at most 30 % per provider"]
    assert not shared["feasible"] and shared["allocations"] == [] and shared["total_cost"] is None
    assert "30 %" in shared["reason"] or "share" in shared["reason"], shared["reason"]
    three = found["at least 3 providers"]
    assert not three["feasible"] and "provider" in three["reason"], three["reason"]


def test_the_budget_binds_the_risk_scenarios(cli: Cli, demo_db_path: Path) -> None:
    found = _award(cli, demo_db_path, "--budget", "40000000")  # the cheapest is 39,168,000; two providers 40,944,000
    assert found["cheapest"]["feasible"]
    two = found["at least 2 providers"]
    assert not two["feasible"] and "budget" in two["reason"], two["reason"]


@pytest.mark.parametrize(
    ("flags", "named"),
    [
        (("--max-share", "0"), "--max-share"),
        (("--max-share", "150"), "--max-share"),
        (("--min-providers", "0"), "--min-providers"),
        (("--budget", "-5"), "--budget"),
    ],
)
def test_bad_constraints_are_refused_by_flag(cli: Cli, demo_db_path: Path, flags: tuple[str, ...], named: str) -> None:
    assert cli("--db", str(demo_db_path), "rfq", "new", "H100 256", *NEED).code == 0
    done = cli("--db", str(demo_db_path), "award", "H100 256", "--include-market", *flags)
    assert done.code == 2 and named in done.err, done.err


def test_without_answers_or_the_market_there_is_nothing_to_award(cli: Cli, demo_db_path: Path) -> None:
    assert cli("--db", str(demo_db_path), "rfq", "new", "H100 256", *NEED).code == 0
    done = cli("--db", str(demo_db_path), "award", "H100 256")
    assert done.code == 2 and "--include-market" in done.err
    missing = cli("--db", str(demo_db_path), "award", "nope", "--include-market")
    assert missing.code == 2 and "no RFQ named 'nope'" in missing.err


def test_the_comparison_and_the_award_as_a_workbook(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    from decimal import Decimal

    from openpyxl import load_workbook

    from quotetui.services.rfq_sheets import AWARD_SHEET, COMPARISON_SHEET

    assert cli("--db", str(demo_db_path), "rfq", "new", "H100 256", *NEED).code == 0
    out = tmp_path / "award.xlsx"
    done = cli("--db", str(demo_db_path), "award", "H100 256", "--include-market", "--out", str(out))
    assert done.code == 0 and "Wrote the comparison and the award" in done.out, done.err
    book = load_workbook(out)
    comparison = {row[0]: row[1:] for row in book[COMPARISON_SHEET].iter_rows(min_row=3, values_only=True) if row[0]}
    assert comparison["line / 项目"][:2] == ("#2 一万网络", "#9 天下数据")
    assert comparison["rank / 排名"][:2] == ("1 if confirmed", "2 if confirmed")  # stock and SLA not stated (?)
    assert comparison["whole need, whole term (CNY)"][:2] == (32 * NODE_2, 32 * NODE_9)
    rows = [row for row in book[AWARD_SHEET].iter_rows(values_only=True) if row[0]]
    scenarios = {r[0]: r for r in rows if r[1] in ("yes", "no")}
    assert [scenarios[label][1] for label in ("cheapest", "at most 60 % per provider", "at least 2 providers")] == [
        "no", "no", "no"
    ]  # fmt: skip
    assert [(r[0], r[1], Decimal(str(r[2]))) for label, r in scenarios.items() if label.startswith("if conf")] == [
        ("if confirmed: cheapest", "yes", 32 * NODE_2),
        ("if confirmed: at most 60 % per provider", "yes", 19 * NODE_2 + 13 * NODE_9),
        ("if confirmed: at least 2 providers", "yes", 31 * NODE_2 + NODE_9),
    ]
    asked = [r[0] for r in rows if str(r[0]).startswith("#")]
    assert asked[0].startswith("#2 一万网络") and "GPUs: 256? stock not stated" in asked[0]
    again = cli("--db", str(demo_db_path), "award", "H100 256", "--include-market", "--out", str(out))
    assert again.code == 2 and "--force" in again.err
    shown = cli("--db", str(demo_db_path), "rfq", "show", "H100 256", "--out", str(tmp_path / "cmp.xlsx"))
    assert shown.code == 0 and load_workbook(tmp_path / "cmp.xlsx").sheetnames == [COMPARISON_SHEET]
    wrong = cli("--db", str(demo_db_path), "rfq", "show", "H100 256", "--out", str(tmp_path / "cmp.txt"))
    assert wrong.code == 2 and ".xlsx" in wrong.err


def test_a_comparison_with_nothing_to_compare_says_so_and_what_was_asked(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    from openpyxl import load_workbook

    from quotetui.services.rfq_sheets import COMPARISON_SHEET

    made = cli("--db", str(demo_db_path), "rfq", "new", "GB200 64", "--gpu", "GB200", "--gpus", "64", "--months",
               "12", "--start", "2027-01-01")  # fmt: skip
    assert made.code == 0, made.err
    out = tmp_path / "z.xlsx"
    assert cli("--db", str(demo_db_path), "rfq", "show", "GB200 64", "--out", str(out)).code == 0
    cells = [row for row in load_workbook(out)[COMPARISON_SHEET].iter_rows(min_row=3, values_only=True) if row[0]]
    assert cells[0][0] == "No answer yet, and no offer on record of GB200."
    lines = {row[0]: row[1] for row in cells[1:]}
    assert lines["GPU models / 可接受型号"] == "GB200" and lines["GPUs / 需求GPU数"] == "64"
