"""Issue 31, point 1: a signed contract changes only by an explicit, dated amendment. From its effective day the
amended terms hold — invoices are checked against the charge in force on each day, acceptance judges the amended
terms — and new GPUs with no charge stated are costed by the engine (volume tiers included), never scaled.

Figures worked by hand before the code ran. Demo offer #1 (一万网络 8×H100 SXM5 整机): 180,000 CNY a node-month,
monthly, stock not stated. A 10 % volume discount from 32 GPUs is added. Signed for 16 GPUs (2 nodes) from
2027-01-01 for 12 months: 2 × 180,000 = 360,000 a month (16 < 32: no discount).
Amended to 32 GPUs from 2027-03-01: 4 × 180,000 × 0.9 = 648,000 a month (scaling the old charge: 720,000).
An invoice for 2027-02-15 … 2027-03-14: 14/28 of February at 360,000 = 180,000 plus 14/31 of March at 648,000
= 292,645.1613 → 472,645.16.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import Cli, dump, execute, sql

START = ("--start", "2027-01-01", "--term-months", "12")


def _signed(cli: Cli, db: str, gpus: str = "16") -> int:
    added = cli("--db", db, "discount", "add", "1", "--kind", "volume", "--rate", "10", "--min-gpus", "32")
    assert added.code == 0, added.err
    signed = cli("--db", db, "contracts", "add", "--offer", "1", *START, "--gpus", gpus, "--json")
    assert signed.code == 0, signed.err
    return int(json.loads(signed.out)["id"])


def test_new_gpus_are_costed_by_the_engine_and_invoices_follow_the_charge_of_each_day(
    cli: Cli, demo_db_path: Path
) -> None:
    db = str(demo_db_path)
    cid = _signed(cli, db)
    assert json.loads(cli("--db", db, "contracts", "show", str(cid), "--json").out)["monthly_charge"]["amount"] == (
        "360000.00"
    )
    amended = cli("--db", db, "contracts", "amend", str(cid), "--effective", "2027-03-01", "--gpus", "32",
                  "--reason", "Scale-out to 4 nodes, agreed by email on 2027-02-20")  # fmt: skip
    assert amended.code == 0, amended.err
    assert "Amendment 1 of contract #1, from 2027-03-01: GPUs 16 → 32; nodes 2 → 4; discounts — → volume" in (
        amended.out
    )
    assert "monthly charge 360,000.00 CNY → 648,000.00 CNY" in amended.out  # 4 × 180,000 × 0.9: not × 2
    before = json.loads(cli("--db", db, "contracts", "show", str(cid), "--on", "2027-02-28", "--json").out)
    assert before["gpus"] == 16 and before["monthly_charge"]["amount"] == "360000.00"  # not in force yet
    view = json.loads(cli("--db", db, "contracts", "show", str(cid), "--on", "2027-03-01", "--json").out)
    assert view["gpus"] == 32 and view["monthly_charge"]["amount"] == "648000.00"
    assert view["agreed"]["sold"]["nodes"] == 4
    assert [d["rate"] for d in view["agreed"]["discounts"]] == ["0.100000"]  # the charge's discounts, as amended
    [amendment] = view["amendments"]
    assert amendment["effective"] == "2027-03-01" and amendment["changes"]["gpus"] == [16, 32]
    assert amendment["changes"]["monthly_charge"] == ["360000.000000", "648000.000000"]
    billed = cli("--db", db, "contracts", "invoice", "add", str(cid), "--from", "2027-02-15", "--to", "2027-03-14",
                 "--amount", "472645.16", "--currency", "CNY")  # fmt: skip
    assert billed.code == 0, billed.err
    assert "matches" in billed.out or "OFF" not in billed.out, billed.out
    [invoice] = json.loads(cli("--db", db, "contracts", "show", str(cid), "--json").out)["invoices"]
    assert invoice["expected"] == "472645.16" and invoice["off"] is False
    # acceptance judges the terms in force on its day: two nodes until March, four from then
    for day, nodes in (("2027-02-28", 2), ("2027-03-01", 4)):
        shown = cli("--db", db, "acceptance", "show", "--contract", str(cid), "--on", day, "--json")
        assert json.loads(shown.out)["nodes"] == nodes, shown.err
    text = cli("--db", db, "contracts", "show", str(cid)).out
    assert "Amendments (1):" in text and "Scale-out to 4 nodes, agreed by email on 2027-02-20" in text


def test_the_discounts_shown_are_those_of_the_charge_in_force_on_the_day(cli: Cli, demo_db_path: Path) -> None:
    """The 10 % volume discount comes with the 32 GPUs from 2027-03-01: before then the contract's 360,000 a month
    carries no discount, so none is shown (it showed the amendment's a month early), and the amendment to come says
    it brings one; from 2027-03-01 it is in force. In Chinese the discount reads in words (it read as stored)."""
    db = str(demo_db_path)
    cid = str(_signed(cli, db))
    assert cli("--db", db, "contracts", "amend", cid, "--effective", "2027-03-01", "--gpus", "32",
               "--reason", "Scale-out").code == 0  # fmt: skip
    before = cli("--db", db, "contracts", "show", cid, "--on", "2027-02-28").out
    assert "discounts: " not in before and "monthly charge 360,000.00 CNY" in before
    coming = "from 2027-03-01 (amendment 1): 32 GPUs; monthly charge 648,000.00 CNY; discounts — → volume discount 10 %"
    assert coming in before
    assert (
        json.loads(cli("--db", db, "contracts", "show", cid, "--on", "2027-02-28", "--json").out)["agreed"]["discounts"]
        == []
    )
    after = cli("--db", db, "contracts", "show", cid, "--on", "2027-03-01").out
    assert "\n  discounts: volume discount 10 %\n" in after and "monthly charge 648,000.00 CNY" in after
    zh = cli("--db", db, "--lang", "zh-CN", "contracts", "show", cid, "--on", "2027-02-28").out
    assert "折扣 — → 批量折扣 10%" in zh and "折扣：" not in zh
    zh = cli("--db", db, "--lang", "zh-CN", "contracts", "show", cid, "--on", "2027-03-01").out
    assert "折扣：批量折扣 10%" in zh


def test_an_amendment_recorded_with_the_discounts_labels_alone_still_reads_by_its_day(
    cli: Cli, demo_db_path: Path
) -> None:
    """An amendment recorded before amendments kept the discounts' records holds their labels joined by "; ": the
    days before it show the discounts it replaced, as stored."""
    db = str(demo_db_path)
    cid = str(_signed(cli, db))
    assert cli("--db", db, "contracts", "amend", cid, "--effective", "2027-03-01", "--gpus", "32",
               "--reason", "Scale-out").code == 0  # fmt: skip
    labels = ["term discount 5 %; prepay discount 2 %", "volume discount 10 %"]
    old = json.dumps({"gpus": [16, 32], "discounts": labels})
    execute(demo_db_path, f"UPDATE contract_amendment SET changes = '{old}'")
    before = cli("--db", db, "contracts", "show", cid, "--on", "2027-02-28").out
    assert "\n  discounts: term discount 5 %; prepay discount 2 %\n" in before
    assert "discounts term discount 5 %; prepay discount 2 % → volume discount 10 %" in before


def test_a_stated_charge_a_swap_and_a_longer_term_are_recorded_before_and_after(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    cid = _signed(cli, db)
    amended = cli("--db", db, "contracts", "amend", str(cid), "--effective", "2027-04-01", "--term-months", "24",
                  "--monthly-charge", "300000", "--gpu", "H800", "--notice-days", "60", "--by", "王经理",
                  "--reason", "H800 instead of H100 at a lower price, two years")  # fmt: skip
    assert amended.code == 0, amended.err
    view = json.loads(cli("--db", db, "contracts", "show", str(cid), "--json").out)
    assert (view["end"], view["term_months"], view["notice_deadline"]) == ("2029-01-01", 24, "2028-11-02")
    assert view["agreed"]["sold"]["gpu_name"] == "H800 SXM5"
    changes = view["amendments"][0]["changes"]
    assert changes["gpu"] == ["H100 SXM5", "H800 SXM5"] and changes["end"] == ["2028-01-01", "2029-01-01"]
    assert view["amendments"][0]["recorded_by"] == "王经理"
    # March is billed at the signed charge, April at the amended one
    for start, end, amount in (("2027-03-01", "2027-03-31", "360000.00"), ("2027-04-01", "2027-04-30", "300000.00")):
        added = cli("--db", db, "contracts", "invoice", "add", str(cid), "--from", start, "--to", end,
                    "--amount", amount, "--currency", "CNY", "--json")  # fmt: skip
        assert added.code == 0, added.err
    assert [i["off"] for i in json.loads(cli("--db", db, "contracts", "show", str(cid), "--json").out)["invoices"]] == [
        False,
        False,
    ]


def test_a_bad_amendment_changes_nothing_and_says_why(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    cid = str(_signed(cli, db))
    first = cli("--db", db, "contracts", "amend", cid, "--effective", "2027-06-01", "--reason", "r", "--gpus", "24")
    assert first.code == 0, first.err
    before = dump(demo_db_path)
    cases = {
        ("--effective", "2028-02-01", "--gpus", "8"): "--effective: 2028-02-01 is outside the contract's term",
        ("--effective", "2027-05-01", "--gpus", "8"): "amendment 1 is in force from 2027-06-01",
        ("--effective", "2027-07-01", "--gpus", "24"): "already has these terms: nothing to amend",
        (
            "--effective",
            "2027-07-01",
        ): "an amendment changes at least one term",
        ("--effective", "2027-07-01", "--gpus", "0"): "--gpus",
        ("--effective", "2027-07-01", "--gpu", "H999 Ultra"): "--gpu",
        ("--effective", "2027-07-01", "--notice-days", "400"): "longer than the 12-month term",
        ("--effective", "2027-07-01", "--term-months", "5"): "before it is in force",
        ("--effective", "2027-07-01", "--monthly-charge", "-5"): "--monthly-charge",
    }
    for args, said in cases.items():
        result = cli("--db", db, "contracts", "amend", cid, *args, "--reason", "x")
        assert result.code == 2, (args, result.out)
        assert said in result.err, (args, result.err)
    blank = cli("--db", db, "contracts", "amend", cid, "--effective", "2027-07-01", "--gpus", "8", "--reason", " ")
    assert blank.code == 2 and "--reason" in blank.err
    missing = cli("--db", db, "contracts", "amend", "99", "--effective", "2027-07-01", "--gpus", "8", "--reason", "x")
    assert missing.code == 2 and "no contract #99" in missing.err
    assert dump(demo_db_path) == before


def test_an_offer_with_a_stated_stock_refuses_an_amendment_beyond_it(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    assert cli("--db", db, "offer", "edit", "1", "--nodes-available", "3").code == 0
    cid = str(_signed(cli, db))
    result = cli("--db", db, "contracts", "amend", cid, "--effective", "2027-03-01", "--gpus", "32", "--reason", "x")
    assert result.code == 2 and "32 GPUs, but the offer stated 3 nodes × 8 = 24 GPUs" in result.err
    assert sql(demo_db_path, "SELECT gpu_count FROM contract")[0][0] == 16


def test_new_gpus_are_costed_on_the_terms_signed_not_the_offer_as_edited_since(cli: Cli, demo_db_path: Path) -> None:
    """A 50 % discount added to the offer after signing, and its node size edited to 4, change nothing: 32 GPUs
    are still 4 nodes of 8 at 180,000 × 0.9 = 648,000 a month."""
    db = str(demo_db_path)
    cid = str(_signed(cli, db))
    assert cli("--db", db, "discount", "add", "1", "--kind", "negotiated", "--rate", "50").code == 0
    assert cli("--db", db, "offer", "edit", "1", "--gpus-per-node", "4").code == 0
    amended = cli("--db", db, "contracts", "amend", cid, "--effective", "2027-03-01", "--gpus", "32", "--reason", "x")
    assert amended.code == 0, amended.err
    assert "nodes 2 → 4" in amended.out and "monthly charge 360,000.00 CNY → 648,000.00 CNY" in amended.out
    agreed = json.loads(cli("--db", db, "contracts", "show", cid, "--on", "2027-03-01", "--json").out)["agreed"]
    assert [d["label"] for d in agreed["discounts"]] == ["volume discount 10 %"]  # in force from the amendment


def test_a_shorter_term_never_leaves_an_invoice_outside_it(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    cid = str(_signed(cli, db))
    billed = cli("--db", db, "contracts", "invoice", "add", cid, "--from", "2027-07-01", "--to", "2027-07-31",
                 "--amount", "360000", "--currency", "CNY")  # fmt: skip
    assert billed.code == 0, billed.err
    short = cli("--db", db, "contracts", "amend", cid, "--effective", "2027-05-01", "--term-months", "5",
                "--reason", "shorten")  # fmt: skip
    assert short.code == 2 and "invoice #1 (2027-07-01 – 2027-07-31)" in short.err, short.err
    assert cli("--db", db, "contracts", "amend", cid, "--effective", "2027-05-01", "--term-months", "7",
               "--reason", "shorten").code == 0  # fmt: skip


def test_an_amendment_after_the_acceptance_leaves_what_was_accepted_as_it_was(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    from tests.conftest import probe_bundle

    db = str(demo_db_path)
    clean = sorted((Path(__file__).parent.parent / "imports" / "samples" / "h100-clean").iterdir())
    bundle = probe_bundle(tmp_path, "node01", clean)
    assert cli("--db", db, "bench", "import", str(bundle), "--offer", "9").code == 0
    signed = cli("--db", db, "contracts", "add", "--offer", "9", "--start", "2026-06-01", "--term-months", "12",
                 "--json")  # fmt: skip
    cid = str(json.loads(signed.out)["id"])
    accepted = cli("--db", db, "acceptance", "accept", "--contract", cid, "--on", "2026-06-03", "--json")
    assert accepted.code == 0, accepted.err
    items = json.loads(accepted.out)["items"]
    swap = cli("--db", db, "contracts", "amend", cid, "--effective", "2026-08-01", "--gpu", "A100-80GB",
               "--reason", "A100 instead")  # fmt: skip
    assert swap.code == 0, swap.err
    state = json.loads(cli("--db", db, "acceptance", "show", "--contract", cid, "--json").out)
    assert state["items"] == items and state["accepted_on"] == "2026-06-03"  # judged as it was accepted
    assert "(gpu name H100 SXM5 → A100 80GB SXM4)" in state["amended_since_acceptance"]
    assert "not covered by the acceptance of 2026-06-03" in state["amended_since_acceptance"]


def test_an_amendment_from_a_past_day_says_which_invoices_it_checks_again(cli: Cli, demo_db_path: Path) -> None:
    """March was invoiced at 360,000 and matched; a charge of 300,000 from 1 March makes it 60,000 over."""
    db = str(demo_db_path)
    cid = str(_signed(cli, db))
    billed = cli("--db", db, "contracts", "invoice", "add", cid, "--from", "2027-03-01", "--to", "2027-03-31",
                 "--amount", "360000", "--currency", "CNY")  # fmt: skip
    assert billed.code == 0, billed.err
    amended = cli("--db", db, "contracts", "amend", cid, "--effective", "2027-03-01", "--monthly-charge", "300000",
                  "--reason", "price cut, backdated")  # fmt: skip
    assert amended.code == 0, amended.err
    assert (
        "note: invoice #1 was expected at 360,000.00 CNY, now at 300,000.00 CNY (OFF by +60,000.00 CNY)" in amended.err
    )


def test_new_gpus_are_costed_with_the_hours_and_rates_of_the_signing(cli: Cli, demo_db_path: Path) -> None:
    """Hours: 2.35 CNY a GPU-hour, 8 GPUs a node, 730 hours: 8 × 2.35 × 730 = 13,724 a node-month. The hours
    are set to 720 after signing; 16 GPUs are still 2 × 13,724 = 27,448 (not 27,072).
    Rates: offer #1 with a 100 USD a node-month extra and 1 USD = 7 CNY: signed for 16 GPUs, 2 × 180,000 +
    2 × 700 = 361,400. The rate is replaced by 8 after signing; 32 GPUs: compute 4 × 180,000 × 0.9 = 648,000,
    extras 4 × 700 = 2,800, together 650,800 (not 651,200)."""
    db = str(demo_db_path)
    hourly = cli("--db", db, "offer", "add", "--provider", "一万网络", "--name", "hourly H100", "--gpu", "H100",
                 "--gpus-per-node", "8", "--billing-basis", "monthly", "--amount", "2.35", "--unit", "gpu_hour",
                 "--term-months", "1", "--json")  # fmt: skip
    assert hourly.code == 0, hourly.err
    offer = str(json.loads(hourly.out)["id"])
    signed = cli("--db", db, "contracts", "add", "--offer", offer, *START, "--gpus", "8", "--json")
    assert json.loads(signed.out)["monthly_charge"]["amount"] == "13724.00"
    assert cli("--db", db, "settings", "set", "--hours-per-month", "720").code == 0
    cid = str(json.loads(signed.out)["id"])
    more = cli("--db", db, "contracts", "amend", cid, "--effective", "2027-03-01", "--gpus", "16", "--reason", "x")
    assert "monthly charge 13,724.00 CNY → 27,448.00 CNY" in more.out, more.out + more.err

    assert cli("--db", db, "fx", "add", "USD", "CNY", "7", "--date", "2026-12-01", "--source", "bank").code == 0
    extra = cli("--db", db, "extra", "add", "1", "--kind", "support", "--basis", "per_node_month", "--amount", "100",
                "--currency", "USD")  # fmt: skip
    assert extra.code == 0, extra.err
    cid = str(_signed(cli, db))
    shown = json.loads(cli("--db", db, "contracts", "show", cid, "--json").out)
    assert shown["monthly_charge"]["amount"] == "361400.00"
    assert cli("--db", db, "fx", "add", "USD", "CNY", "8", "--date", "2026-12-01", "--source", "bank2").code == 0
    scaled = cli("--db", db, "contracts", "amend", cid, "--effective", "2027-03-01", "--gpus", "32", "--reason", "x")
    assert "monthly charge 361,400.00 CNY → 650,800.00 CNY" in scaled.out, scaled.out + scaled.err
    [(snapshot,)] = sql(demo_db_path, f"SELECT snapshot FROM contract WHERE id = {cid}")
    kept = json.loads(snapshot) if isinstance(snapshot, str) else snapshot
    assert (kept["monthly_compute"], kept["monthly_extras"]) == ("648000.000000", "2800.000000")
