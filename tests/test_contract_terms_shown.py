"""A contract as a buyer reads it (a hostile review of the demo, 2026-12-06): the terms in force on the day shown,
an amendment still to come said as coming; an incident's scope as declared; the notice and spend lines under the
terms, not under the amendments; the billing cadence 结算周期 apart from the billing basis 计费方式; the default who
of a waiver as a word; an incident's credit in a sentence; a contract's history by its fields' titles.

Figures worked by hand. Demo offer #1 (一万网络 8×H100 SXM5 整机): 180,000 CNY a node-month, monthly. Signed for
16 GPUs (2 nodes) from 2026-06-01 for 12 months: 2 × 180,000 = 360,000 a month. Amended from 2027-01-01 to
8 GPUs (1 node): 180,000 a month. On 2026-12-06 the contract still has 16 GPUs at 360,000; on 2027-01-01, 8 at
180,000. An incident on 2026-11-02, 00:00–06:00 UTC, on 1 node of 2: 6 h × ½ = 3 h down of November's 720 h,
99.583 % available.
"""

from __future__ import annotations

import json
from pathlib import Path

from babel.messages.pofile import read_po
from rich.console import Console

from quotetui import language
from quotetui.language import LOCALE_DIR, NP_, _
from quotetui.tui.screens.contract_detail import ContractDetailScreen
from quotetui.tui.widgets.virtual_table import VirtualTable
from tests.conftest import Cli, sql
from tests.test_tui import RecordingApp, settle, text_of

BEFORE, AFTER = "2026-12-06", "2027-01-01"


def _signed_and_amended(cli: Cli, db: str) -> None:
    for args in (
        ("contracts", "add", "--offer", "1", "--start", "2026-06-01", "--term-months", "12", "--gpus", "16",
         "--notice-days", "30", "--auto-renew", "--committed", "4000000"),
        ("contracts", "amend", "1", "--effective", AFTER, "--gpus", "8", "--reason", "one node from January"),
        ("contracts", "incident", "add", "1", "--start", "2026-11-02T00:00Z", "--end", "2026-11-02T06:00Z",
         "--description", "node 2 down", "--nodes", "1"),
    ):  # fmt: skip
        done = cli("--db", db, *args)
        assert done.code == 0, done.err


def test_the_terms_shown_are_those_in_force_and_an_amendment_to_come_is_said_as_coming(
    cli: Cli, demo_db_path: Path
) -> None:
    db = str(demo_db_path)
    _signed_and_amended(cli, db)
    before = cli("--db", db, "contracts", "show", "1", "--on", BEFORE).out.splitlines()
    assert before[1] == "  16 GPUs, 2026-06-01 → 2027-06-01 (12 months)"
    assert "; monthly charge 360,000.00 CNY; billed monthly" in before[3]
    assert "  sold: H100 SXM5, 2 nodes of 8 GPUs; NVSwitch in a node, IB HDR across" in before
    assert "  from 2027-01-01 (amendment 1): 8 GPUs; monthly charge 180,000.00 CNY" in before
    after = cli("--db", db, "contracts", "show", "1", "--on", AFTER).out.splitlines()
    assert after[1] == "  8 GPUs, 2026-06-01 → 2027-06-01 (12 months)"
    assert "; monthly charge 180,000.00 CNY; billed monthly" in after[3]
    assert "  sold: H100 SXM5, 1 node of 8 GPUs; NVSwitch in a node, IB HDR across" in after
    assert not any("(amendment 1):" in line for line in after)  # in force: no longer to come
    # the listing and --json follow the same day
    listed = cli("--db", db, "contracts", "--on", BEFORE).out.splitlines()[1].split()
    assert listed[listed.index("360,000.00") - 1] == "16"
    assert "180,000.00" in cli("--db", db, "contracts", "--on", AFTER).out
    shown = json.loads(cli("--db", db, "contracts", "show", "1", "--on", BEFORE, "--json").out)
    assert (shown["gpus"], shown["monthly_charge"]["amount"]) == (16, "360000.00")
    # the invoices are checked by the same rule: December at 360,000, January at 180,000
    for first, last, amount in (("2026-12-01", "2026-12-31", "360000"), ("2027-01-01", "2027-01-31", "180000")):
        billed = cli("--db", db, "contracts", "invoice", "add", "1", "--from", first, "--to", last, "--amount", amount,
                     "--currency", "CNY", "--json")  # fmt: skip
        assert billed.code == 0, billed.err
    checked = json.loads(cli("--db", db, "contracts", "show", "1", "--json").out)["invoices"]
    assert [(i["expected"], i["off"]) for i in checked] == [("360000.00", False), ("180000.00", False)]
    zh = cli("--db", db, "--lang", "zh-CN", "contracts", "show", "1", "--on", BEFORE).out.splitlines()
    assert zh[1] == "  16 块 GPU，2026年6月1日 → 2027年6月1日（12 个月）"
    assert "  自 2027年1月1日起（第 1 次合同变更）：8 块 GPU；月费 180,000.00 CNY" in zh


def test_the_notice_and_spend_lines_sit_with_the_terms_and_an_incident_says_what_it_affected(
    cli: Cli, demo_db_path: Path
) -> None:
    db = str(demo_db_path)
    _signed_and_amended(cli, db)
    for lang, amendments, notice, spent, incident in (
        ("en", "Amendments (1):", "  notice by 2027-05-02 (30 days), else it auto-renews for 12 months",
         "  spent 0.00 CNY to date (0.00 CNY paid) of a committed 4,000,000.00 CNY (0.0 %)",
         "  #1 2026-11-02 00:00+00:00 → 2026-11-02 06:00+00:00, 1 node: node 2 down (credit not claimed)"),
        ("zh-CN", "合同变更（1）：", "  通知截止日 2027年5月2日（提前 30 天），否则自动续约 12 个月",
         "  截至当日已消费 0.00 CNY（已付 0.00 CNY），承诺消费额 4,000,000.00 CNY（0.0%）",
         "  #1 2026-11-02 00:00+00:00 → 2026-11-02 06:00+00:00，1 个节点：node 2 down（未申请赔付）"),
    ):  # fmt: skip
        lines = cli("--db", db, "--lang", lang, "contracts", "show", "1", "--on", BEFORE).out.splitlines()
        at = lines.index(amendments)
        assert lines.index(notice) < at and lines.index(spent) < at  # the terms' lines, before the amendments
        assert lines[at + 1].startswith("  1. ") and lines[at + 2] == "     one node from January"
        assert not lines[at + 3].startswith("  ")  # the next heading: nothing else under the amendments
        assert incident in lines


def test_a_contracts_billing_cadence_is_jiesuan_zhouqi_and_an_offers_billing_basis_jifei_fangshi(
    cli: Cli, demo_db_path: Path
) -> None:
    from quotetui.services.database import open_database
    from quotetui.services.offer_detail import load_offer_detail
    from quotetui.tui.widgets.detail_tables import contracts, spec

    db = str(demo_db_path)
    _signed_and_amended(cli, db)
    language.use("zh-CN")
    assert _(NP_("how often a contract is invoiced", "billing")) == "结算周期" and _("billing") == "计费方式"
    found = open_database(db)
    try:
        detail = load_offer_detail(found.db, 1)
    finally:
        found.db.dispose()
    console = Console(width=200, record=True)
    console.print(spec(detail))
    console.print(contracts(detail))
    shown = console.export_text()
    assert "计费方式" in shown and "结算周期" in shown and "计费周期" not in shown
    with open(Path(LOCALE_DIR) / "zh_CN" / "LC_MESSAGES" / "quotetui.po", "rb") as handle:
        said = [m.string for m in read_po(handle) if m.id]
    assert not [s for s in said if "计费周期" in str(s)]  # one word for the cadence: 结算周期
    glossary = (Path(__file__).parent.parent / "docs" / "GLOSSARY.zh-CN.md").read_text(encoding="utf-8")
    assert "| billing basis / billing cadence | 计费方式 / 结算周期 |" in glossary


def test_the_default_who_of_a_waiver_is_a_word_and_an_amendments_who_is_its_confirmer(
    cli: Cli, demo_db_path: Path
) -> None:
    db = str(demo_db_path)
    _signed_and_amended(cli, db)
    helped = cli("--lang", "zh-CN", "acceptance", "waive", "--help").out
    assert "风险承担人（默认：买方）。" in helped and "buyer" not in helped
    waived = cli("--db", db, "--lang", "zh-CN", "acceptance", "waive", "gemm", "--contract", "1", "--reason", "测试",
                 "--on", "2026-12-06")  # fmt: skip
    assert waived.code == 0, waived.err
    assert "      已由 买方 于 2026年12月6日豁免（原为缺失）：测试" in waived.out.splitlines()
    english = cli("--db", db, "acceptance", "show", "--contract", "1").out
    assert "      waived (missing) by buyer on 2026-12-06: 测试" in english.splitlines()
    assert sql(demo_db_path, "SELECT waived_by FROM acceptance_waiver") == [("buyer",)]  # stored as the code
    shown = json.loads(cli("--db", db, "acceptance", "show", "--contract", "1", "--json").out)
    assert [i["waiver"]["by"] for i in shown["items"] if i.get("waiver")] == ["buyer"]
    zh = cli("--db", db, "--lang", "zh-CN", "contracts", "show", "1").out
    assert "  1. 自 2027年1月1日起（确认人：" in zh and "议定" not in zh


def test_an_incidents_credit_reads_as_a_sentence(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    _signed_and_amended(cli, db)
    updated = cli("--db", db, "--lang", "zh-CN", "contracts", "incident", "update", "1", "--claimed", "--received",
                  "500")  # fmt: skip
    assert updated.out == "故障 #1：已申请赔付，已到账 500.00 CNY\n"
    shown = cli("--db", db, "contracts", "show", "1").out
    assert ", 1 node: node 2 down (credit claimed, 500.00 CNY received)" in shown
    again = cli("--db", db, "contracts", "incident", "update", "1", "--not-claimed")
    assert again.out == "incident #1: credit received 500.00 CNY\n"


def test_a_contracts_history_names_every_column_by_its_title(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    _signed_and_amended(cli, db)
    lines = cli("--db", db, "history", "--contract", "1").out.splitlines()
    for line in (
        '    First day of service: "2026-06-01"',
        '    Ends: "2027-06-01"',
        "    Billing: monthly",
        "    GPUs covered: 16",
        "    Agreed price: 180000",
        "    Price unit: node_month",
        "    Committed spend: 4000000",
        '    Notice by: "2027-05-02"',
        "    Amendment no.: 1",
        '    Agreed by: "' + sql(demo_db_path, "SELECT recorded_by FROM contract_amendment")[0][0] + '"',
        "    Nodes affected: 1",
        "    Credit claimed: no",
    ):
        assert line in lines, line
    zh = cli("--db", db, "--lang", "zh-CN", "history", "--contract", "1").out
    assert "    结算周期：按月" in zh.splitlines() and "    计价单位：每节点月" in zh.splitlines()
    raw = ("start_date", "end_date", "billing_cadence", "price:", "price_unit", "renewal_term_months",
           "notice_deadline", "gpu_count", "committed_spend", "recorded_by", "credit_claimed", "seq:")  # fmt: skip
    assert not [c for c in raw for line in lines if line.strip().startswith(c)]


async def test_the_tui_shows_the_terms_in_force_and_an_incidents_nodes_as_nodes(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    _signed_and_amended(cli, db)
    app = RecordingApp(db)  # today: 2026-11-30, before the amendment
    async with app.run_test(size=(150, 50)) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        [row] = app.screen.query_one("#contracts", VirtualTable).rows
        assert (row.cells[6], row.cells[7]) == ("16", "360,000.00")
        app.push_screen(ContractDetailScreen(1))
        await settle(pilot)
        body = text_of(app, "#contract-body")
        assert "16 GPUs from 2026-06-01 to 2027-06-01 (12 months), billed monthly" in body
        assert "monthly charge 360,000.00 CNY" in body
        assert "from 2027-01-01 (amendment 1): 8 GPUs; monthly charge 180,000.00 CNY" in body
        incidents = body[body.index("Incidents (i adds one)") :].splitlines()
        assert "affected" in incidents[1] and "GPUs" not in incidents[1]
        assert "1 node" in incidents[2] and "node 2 down" in incidents[2]


def test_an_incident_is_checked_against_the_gpus_in_force_on_its_day(cli: Cli, demo_db_path: Path) -> None:
    """16 GPUs until 2027-01-01, 8 from then: an outage of 12 GPUs in December is on record, one of 12 in January
    is more than the contract covers that day (8), and says so."""
    db = str(demo_db_path)
    _signed_and_amended(cli, db)
    december = ("contracts", "incident", "add", "1", "--start", "2026-12-10T00:00Z", "--end", "2026-12-10T02:00Z",
                "--description", "12 down", "--gpus", "12")  # fmt: skip
    assert cli("--db", db, *december).code == 0
    january = ("contracts", "incident", "add", "1", "--start", "2027-01-10T00:00Z", "--end", "2027-01-10T02:00Z",
               "--description", "12 down", "--gpus", "12")  # fmt: skip
    refused = cli("--db", db, *january)
    assert refused.code != 0 and "12 GPUs affected; the contract covers 8" in refused.err
    assert sql(demo_db_path, "SELECT count(*) FROM incident") == [(2,)]  # the first two; nothing of the refused


def test_acceptance_judges_the_machines_in_force_on_its_day(cli: Cli, demo_db_path: Path) -> None:
    """16 GPUs (2 nodes) until 2027-01-01, 8 (1 node) from then: checked, waived or accepted in December, the
    contract has 2 machines to deliver and its scale-out AllReduce is required (the review found 1 node and "not
    required" a month early, so a 2-node contract could be accepted without the test across its machines); from
    January, 1 node. Accepted in December, what was judged stays 2 nodes."""
    from datetime import date

    from quotetui.domain.verification.acceptance import Status
    from quotetui.services.acceptance import contract_acceptance
    from quotetui.services.database import open_database

    db = str(demo_db_path)
    _signed_and_amended(cli, db)
    opened = open_database(db)
    try:
        december = contract_acceptance(opened.db, 1, date(2026, 12, 6))
        january = contract_acceptance(opened.db, 1, date(2027, 1, 2))
    finally:
        opened.db.dispose()
    scale_out = {a.nodes: {i.key: i.status for i in a.items}["scale_out"] for a in (december, january)}
    assert scale_out == {2: Status.MISSING, 1: Status.NOT_REQUIRED}
    for item in ("inventory", "topology", "gemm", "allreduce", "burn", "scale-out", "ecc"):  # none has a log
        waived = cli("--db", db, "acceptance", "waive", item, "--contract", "1", "--reason", "x", "--on", "2026-12-06")
        assert waived.code == 0, waived.err  # scale-out too: missing in December, a waiver is what it takes
    accepted = cli("--db", db, "acceptance", "accept", "--contract", "1", "--on", "2026-12-06", "--json")
    assert accepted.code == 0, accepted.err
    assert json.loads(accepted.out)["nodes"] == 2
    [(kept,)] = sql(demo_db_path, "SELECT snapshot FROM contract")
    snapshot = kept if isinstance(kept, dict) else json.loads(str(kept))  # PostgreSQL reads JSON, SQLite text
    assert (snapshot["sold"]["nodes"], snapshot["accepted_sold"]["nodes"]) == (1, 2)  # as amended; as accepted


def test_an_item_with_nothing_to_waive_is_named_as_shown(cli: Cli, demo_db_path: Path) -> None:
    """One node sold: scale-out is not required, and waiving it says so by the item's name, not its code."""
    db = str(demo_db_path)
    signed = ("contracts", "add", "--offer", "1", "--start", "2026-06-01", "--term-months", "12", "--gpus", "8")
    assert cli("--db", db, *signed).code == 0
    for lang, said in (("en", "Scale-out AllReduce is not required on contract #1"), ("zh-CN", "机间 AllReduce")):
        waive = ("acceptance", "waive", "scale-out", "--contract", "1", "--reason", "x")
        refused = cli("--db", db, "--lang", lang, *waive)
        assert refused.code != 0 and said in refused.err and "scale_out" not in refused.err, refused.err


async def test_the_tui_contract_shows_the_discounts_in_force_as_the_cli_says_them(cli: Cli, demo_db_path: Path) -> None:
    """Demo offer #2 signed for 12 months keeps its term discount, 15 % (年付可享 85 折): ``contracts show`` and the
    TUI's contract say it alike; an amendment from 2026-12-20 to 32 GPUs says its count as "GPUs"/"GPU 数" beside
    "32 GPUs"/"32 块 GPU" (not 卡数)."""
    db = str(demo_db_path)
    for args in (
        ("contracts", "add", "--offer", "2", "--start", "2026-01-31", "--term-months", "12", "--gpus", "16"),
        ("contracts", "amend", "1", "--effective", "2026-12-20", "--gpus", "32", "--reason", "more"),
        ("contracts", "invoice", "add", "1", "--from", "2026-01-31", "--to", "2026-02-27", "--amount", "124000",
         "--currency", "CNY"),  # 204,000 expected for that month: 80,000 short
    ):  # fmt: skip
        assert (done := cli("--db", db, *args)).code == 0, done.err
    said = "discounts: term discount 15 % (年付可享 85 折)"
    assert f"  {said}" in cli("--db", db, "contracts", "show", "1", "--on", "2026-11-30").out.splitlines()
    app = RecordingApp(db)  # today: 2026-11-30
    async with app.run_test(size=(150, 50)) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        overdue = app.screen.query_one("#key-dates", VirtualTable).rows[0].cells
        assert overdue[1:3] == ["2026-01-31", "303 days ago"]  # as contracts due says it, not -303
        app.push_screen(ContractDetailScreen(1))
        await settle(pilot)
        body = text_of(app, "#contract-body")
        assert said in body.splitlines()
        assert "−80,000.00" in body  # signed as contracts show signs it
        assert "from 2026-12-20 (amendment 1): 32 GPUs; monthly charge 408,000.00 CNY" in body
    zh = cli("--db", db, "--lang", "zh-CN", "contracts", "show", "1", "--on", "2026-11-30").out.splitlines()
    assert "  折扣：期限折扣 15%（年付可享 85 折）" in zh
    assert "  自 2026年12月20日起（第 1 次合同变更）：32 块 GPU；月费 408,000.00 CNY" in zh
    assert any(line.startswith("  1. ") and "：GPU 数 16 → 32；节点 2 → 4；" in line for line in zh)
