"""Issue 29's reproduction, end to end through the command line, with every figure worked out by hand first.

Four providers, four H100 offers of 16 nodes × 8 GPUs on demand per GPU-hour, NVSwitch; 128 GPUs for 12 months
(8,760 hours), InfiniBand NDR required:
- A 21 /GPU-h, 30 % off from 128 GPUs: 16 nodes = 128 × 21 × 0.7 × 8,760 = 16,482,816; below the tier a node
  is 8 × 21 × 8,760 = 1,471,680;
- B 20 flat: a node 8 × 20 × 8,760 = 1,401,600;
- C 19.5 and a 200,000 setup fee once: n nodes = 200,000 + n × 1,366,560;
- D 14, scale-out network not stated (?): a node 981,120 — never in the headline award, only "if confirmed".
Cheapest confirmed: A 16 = 16,482,816. At most 60 % (76 GPUs, 9 nodes each; A's tier out of reach): C 9 =
200,000 + 9 × 1,366,560 = 12,499,040, and B 7 = 7 × 1,401,600 = 9,811,200: 22,310,240. At least 2 providers:
A 16 + B 1 = 17,884,416, one node (B's) beyond the need; without it the best is C 15 + B 1 = 200,000 +
20,498,400 + 1,401,600 = 22,100,000.
"""

from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path

from tests.conftest import Cli

A16 = 16_482_816
B_NODE, C_NODE, C_FEE, D_NODE = 1_401_600, 1_366_560, 200_000, 981_120


def _market(cli: Cli, db: Path) -> None:
    def ok(*args: str) -> None:
        done = cli("--db", str(db), *args)
        assert done.code == 0, (args, done.err)

    for name in "ABCD":
        ok("provider", "add", "--name", name)
    common = ("--gpu", "H100", "--gpus-per-node", "8", "--nodes-available", "16", "--intra-fabric", "nvswitch",
              "--billing-basis", "on_demand", "--unit", "gpu_hour", "--term-months", "0")  # fmt: skip
    for name, price, net in (("A", "21", "infiniband_ndr"), ("B", "20", "infiniband_ndr"),
                             ("C", "19.5", "infiniband_ndr"), ("D", "14", "unknown")):  # fmt: skip
        ok("offer", "add", "--provider", name, "--name", f"{name} 16x8", *common, "--inter-fabric", net,
           "--amount", price)  # fmt: skip
    ok("discount", "add", "1", "--kind", "volume", "--rate", "30", "--min-gpus", "128")
    ok("extra", "add", "3", "--kind", "setup_fee", "--basis", "one_off", "--amount", "200000")
    ok("rfq", "new", "R", "--gpu", "H100 SXM5", "--gpus", "128", "--months", "12", "--start", "2027-01-01",
       "--inter-fabric", "infiniband_ndr")  # fmt: skip


def _split(s: dict) -> list[tuple[int, int]]:  # type: ignore[type-arg]
    return [(a["offer_id"], a["nodes"]) for a in s["allocations"]]


def test_the_issue_reproduction_gives_the_true_optimum(cli: Cli, tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    _market(cli, db)
    done = cli("--db", str(db), "award", "R", "--include-market", "--json")
    assert done.code == 0, done.err
    result = json.loads(done.out)
    assert result["candidates"] == 3 and result["candidates_with_questions"] == 1
    cheapest, capped, two = result["scenarios"]
    assert _split(cheapest) == [(1, 16)] and cheapest["total_cost"] == f"{A16}.00" == "16482816.00"
    assert _split(capped) == [(2, 7), (3, 9)]
    assert capped["total_cost"] == f"{7 * B_NODE + 9 * C_NODE + C_FEE}.00" == "22310240.00"
    assert _split(two) == [(1, 16), (2, 1)] and two["total_cost"] == f"{A16 + B_NODE}.00"
    assert two["beyond_need_nodes"] == 1
    lean = two["without_beyond_need"]
    assert _split(lean) == [(2, 1), (3, 15)] and lean["total_cost"] == f"{B_NODE + 15 * C_NODE + C_FEE}.00"
    assert lean["total_cost"] == "22100000.00"
    for s in result["scenarios"]:  # no premium below zero; D never in the headline
        assert float(s["premium"]) >= 0 and 4 not in {a["offer_id"] for a in s["allocations"]}
    maybe = result["if_confirmed"]
    assert _split(maybe[0]) == [(4, 16)] and maybe[0]["total_cost"] == f"{16 * D_NODE}.00"
    assert [q["offer_id"] for q in result["questions"]] == [4]
    assert result["questions"][0]["lines"] == [{"line": "Scale-out network: infiniband ndr or better",
                                                "why": "Scale-out network not stated"}]  # fmt: skip


def test_every_award_figure_is_the_figure_explain_gives(cli: Cli, tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    _market(cli, db)
    result = json.loads(cli("--db", str(db), "award", "R", "--include-market", "--json").out)
    seen = set()
    for s in result["scenarios"] + result["if_confirmed"]:
        for shown in (s, s["without_beyond_need"]):
            for a in shown["allocations"] if shown else ():
                key = (a["offer_id"], a["gpus"])
                if key in seen:
                    continue
                seen.add(key)
                name = f"award {key[0]} {key[1]}"
                made = cli("--db", str(db), "scenario", "add", name, "--gpus", str(a["gpus"]), "--months", "12")
                assert made.code == 0, made.err
                explained = json.loads(cli("--db", str(db), "explain", str(a["offer_id"]), "-s", name, "--json").out)
                assert explained["total_cost"] == a["total_cost"], (a, explained["total_cost"])
                assert explained["cost_per_pflop_hour"] == a["cost_per_pflop_hour"]
                assert explained["best_option"]["term"] == a["way_to_buy"]
                assert explained["lower_bound"] == a["lower_bound"]
    assert len(seen) >= 6


def test_the_award_says_what_it_buys_beyond_the_need_and_what_to_ask(cli: Cli, tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    _market(cli, db)
    done = cli("--db", str(db), "award", "R", "--include-market")
    assert done.code == 0, done.err
    text = " ".join(done.out.split())
    assert "among 3 confirmed candidates (1 more with questions open)" in text
    assert "#1 A 16 nodes (128 GPUs); #2 B 1 node (8 GPUs); +1 node beyond the need" in text
    assert "without buying beyond the need: #2 B 1 node (8 GPUs); #3 C 15 nodes (120 GPUs) = 22,100,000.00 CNY" in text
    assert "If confirmed" in text and "Ask before awarding: #4 D (D 16x8): Scale-out network" in text


def test_the_least_cost_per_delivered_pflop_hour(cli: Cli, tmp_path: Path) -> None:
    """`--minimise pflop-hour`: every offer here is an H100 at the default 40 % MFU and 99 % availability, so
    A's 16 nodes (14.70 a GPU-hour after its tier) are also the least per PFLOP-hour: 16,482,816 ÷ (128 GPUs ×
    8,760 h × 989 TFLOPS × 0.4 × 0.99 ÷ 1000 = 439,142.58432 PFLOP-hours) = 37.5341 CNY. Every other scenario
    costs more per PFLOP-hour, and its premium says by how much."""
    from decimal import Decimal

    db = tmp_path / "r.db"
    _market(cli, db)
    done = cli("--db", str(db), "award", "R", "--include-market", "--minimise", "pflop-hour", "--json")
    assert done.code == 0, done.err
    result = json.loads(done.out)
    assert result["minimise"] == "pflop_hour"
    best, capped, two = result["scenarios"]
    assert best["scenario"] == "least per PFLOP-hour" and _split(best) == [(1, 16)]
    assert round(Decimal(best["cost_per_pflop_hour"]), 4) == Decimal("37.5341")
    assert Decimal(best["premium"]) == 0
    for s in (capped, two):
        assert Decimal(s["premium"]) == Decimal(s["cost_per_pflop_hour"]) - Decimal(best["cost_per_pflop_hour"]) > 0
    text = cli("--db", str(db), "award", "R", "--include-market", "--minimise", "pflop-hour").out
    assert "least per PFLOP-hour" in text and "risk premium /PFLOP-h" in text
    bad = cli("--db", str(db), "award", "R", "--include-market", "--minimise", "speed")
    assert bad.code == 2 and "--minimise" in bad.err and "pflop_hour" in bad.err


def test_the_award_sheet_carries_the_same_caveats(cli: Cli, tmp_path: Path) -> None:
    from decimal import Decimal

    from openpyxl import load_workbook

    from quotetui.services.rfq_sheets import AWARD_SHEET

    db = tmp_path / "r.db"
    _market(cli, db)
    out = tmp_path / "award.xlsx"
    assert cli("--db", str(db), "award", "R", "--include-market", "--out", str(out)).code == 0
    rows = [r for r in load_workbook(out)[AWARD_SHEET].iter_rows(values_only=True) if r[0]]
    scenario = {r[0]: r for r in rows if r[1] in ("yes", "no")}
    assert Decimal(str(scenario["cheapest"][2])) == A16
    two = scenario["at least 2 providers"]
    assert Decimal(str(two[2])) == A16 + B_NODE and two[7] == "+1 node beyond the need"
    lean = scenario["at least 2 providers, without buying beyond the need"]
    assert Decimal(str(lean[2])) == 22_100_000 and not lean[7]
    assert Decimal(str(scenario["if confirmed: cheapest"][2])) == 16 * D_NODE
    assert any(str(r[0]).startswith("#4 D (D 16x8): Scale-out network") for r in rows)
    ways = {(r[0], r[1]): r[7] for r in rows if isinstance(r[1], int)}
    assert ways[("cheapest", 1)] == "on-demand"


def test_a_5000_gpu_award_on_the_10k_benchmark_market_is_the_cheapest(cli: Cli, tmp_path: Path) -> None:
    """Found by a hostile pass: on the 10,000-offer benchmark market, with every compliant offer a candidate, the
    cheapest 5,000-GPU split came out as one offer's 625 nodes (323,190,000.00) though #1171 2 + #6475 64 + #6547
    616 nodes cost 323,189,928.72 (each line checked with `explain`), and "at least 2 providers" showed a premium
    of -71.28: HiGHS worked on figures divided by a whole offer's cost at its cap, so its absolute tolerances hid
    differences of cents. The optimiser now scales by one node's cost. (The award itself now leaves rejected and
    expired offers out, which changes that market's candidates: the domain is called here as it was then.)"""
    from benchmarks.market import build
    from quotetui.domain.sourcing.award import Need, optimise, scenarios
    from quotetui.services.award import candidate_of
    from quotetui.services.database import open_database
    from quotetui.services.rfq import fit_rfq

    path = tmp_path / "m10k.db"
    opened = open_database(str(path), load_demo_if_new=False)
    build(opened.db, 10_000)
    opened.db.dispose()
    made = cli("--db", str(path), "rfq", "new", "n5000", "--gpu", "H100 SXM5,H800 SXM5", "--gpus", "5000",
               "--months", "12", "--start", "2027-01-01")  # fmt: skip
    assert made.code == 0, made.err
    db = open_database(str(path), load_demo_if_new=False).db
    try:
        fitted = fit_rfq(db, "n5000")
    finally:
        db.dispose()
    req, need = fitted.view.requirement, Need(5000)
    candidates = [
        c for f in fitted.view.offers if f.compliant
        for c in (candidate_of(need, fitted.inputs[f.offer_id], req, fitted.fx, fitted.assumptions),)
        if not isinstance(c, str)
    ]  # fmt: skip
    cheapest = optimise(need, candidates)
    assert cheapest.total_cost is not None and cheapest.total_cost <= F("323189928.72")
    for _, award in scenarios(need, candidates):
        assert award.total_cost is not None and award.total_cost >= cheapest.total_cost


def test_offers_off_the_table_or_not_firm_are_never_in_the_headline(cli: Cli, tmp_path: Path) -> None:
    """A rejected or an expired offer is left out, and so is one that cannot be costed (no EUR→CNY rate), each
    named with why; a lapsed quote and estimated figures are questions like a ? line: only "if confirmed"."""
    db = tmp_path / "r.db"
    _market(cli, db)

    def ok(*args: str) -> None:
        done = cli("--db", str(db), *args)
        assert done.code == 0, (args, done.err)

    common = ("--gpu", "H100", "--gpus-per-node", "8", "--nodes-available", "16", "--intra-fabric", "nvswitch",
              "--inter-fabric", "infiniband_ndr", "--billing-basis", "on_demand", "--unit", "gpu_hour",
              "--term-months", "0")  # fmt: skip
    ok("offer", "add", "--provider", "A", "--name", "rejected", *common, "--amount", "5", "--status", "rejected")
    ok("offer", "add", "--provider", "B", "--name", "expired", *common, "--amount", "5", "--status", "expired")
    ok("offer", "add", "--provider", "C", "--name", "lapsed", *common, "--amount", "6", "--valid-until", "2020-01-01")
    ok("offer", "add", "--provider", "D", "--name", "estimate", *common, "--amount", "7", "--is-estimate")
    ok("offer", "add", "--provider", "D", "--name", "in euros", *common, "--amount", "1", "--currency", "EUR")
    ok("offer", "add", "--provider", "A", "--name", "draft", *common, "--amount", "8", "--status", "draft")
    done = cli("--db", str(db), "award", "R", "--include-market", "--json")
    assert done.code == 0, done.err
    result = json.loads(done.out)
    left = {x["offer"]: x["why"] for x in result["left_out"]}
    assert left["rejected"] == "rejected" and left["expired"] == "expired"
    assert left["in euros"].startswith("not costed:") and "EUR" in left["in euros"]
    assert _split(result["scenarios"][0]) == [(1, 16)]  # still A: none of the new ones is confirmed
    asked = {q["offer"]: q["lines"] for q in result["questions"]}  # the offers the awards if confirmed use
    assert {"line": "Quote", "why": "lapsed on 2020-01-01: ask to renew it"} in asked["lapsed"]
    assert {"line": "Quote", "why": "the figures are estimates: ask for a firm quote"} in asked["estimate"]
    compared = json.loads(cli("--db", str(db), "rfq", "show", "R", "--json").out)["offers"]
    draft = next(o for o in compared if o["offer"] == "draft")
    assert draft["quote_questions"] == [{"line": "Quote", "why": "a draft, not quoted yet: ask for their quote"}]
    assert draft["rank"] is not None and not draft["confirmed"]
    text = cli("--db", str(db), "award", "R", "--include-market").out
    assert "Not in the award: #5 A (rejected): rejected; #6 B (expired): expired" in text
    shown = json.loads(cli("--db", str(db), "rfq", "show", "R", "--json").out)
    ranks = {o["offer"]: (o["rank"], o["confirmed"], o["closed"]) for o in shown["offers"]}
    assert ranks["rejected"] == (None, False, "rejected") and ranks["lapsed"][1] is False


def test_a_premium_over_a_lower_bound_says_it_is_rough(cli: Cli, tmp_path: Path) -> None:
    """A's platform fee has no amount: A's cost is a lower bound (≥), so is the cheapest award's total, and
    every premium measured against it is marked rough (~ on screen, premium_rough in JSON)."""
    db = tmp_path / "r.db"
    _market(cli, db)
    assert cli("--db", str(db), "extra", "add", "1", "--kind", "platform_fee", "--basis", "per_month").code == 0
    result = json.loads(cli("--db", str(db), "award", "R", "--include-market", "--json").out)
    cheapest, capped, two = result["scenarios"]
    assert cheapest["lower_bound"] and cheapest["total_cost"] == f"{A16}.00"
    assert not cheapest["premium_rough"] and cheapest["premium"] == "0.00"  # its own premium is exactly 0
    assert not capped["lower_bound"] and capped["premium_rough"] and two["premium_rough"]
    text = " ".join(cli("--db", str(db), "award", "R", "--include-market").out.split())
    assert "≥ 16,482,816.00 CNY 0.00 CNY ≥ 37.53 CNY" in text and "~ 5,827,424.00 CNY" in text
    # at least 2 providers buys A's 16 nodes (≥) and one of B: the split without it is firm, the gap rough
    assert "= 22,100,000.00 CNY (~ 4,215,584.00 CNY more)" in text
