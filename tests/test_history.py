"""Issue 31, point 7: the audit trail. Every change to an offer, its rounds and terms, a contract (amendments,
incidents, invoices, waivers) and the settings records who (the OS user, or the database role on PostgreSQL),
when, from which front end or file, and each value before and after; `quotetui history` shows it; a refused
write records nothing."""

from __future__ import annotations

import getpass
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.conftest import BACKEND, Cli, sql

H100 = "8×H100 SXM5 整机"


def _who(db: Path) -> str:
    return str(sql(db, "SELECT current_user")[0][0]) if BACKEND == "postgres" else getpass.getuser()


def _history(cli: Cli, db: Path, *args: str) -> list[dict]:  # type: ignore[type-arg]
    shown = cli("--db", str(db), "history", *args, "--json")
    assert shown.code == 0, shown.err
    return json.loads(shown.out)


def test_an_edit_records_who_when_where_and_each_value_before_and_after(cli: Cli, demo_db_path: Path) -> None:
    began = datetime.now(UTC) - timedelta(seconds=1)
    edited = cli("--db", str(demo_db_path), "offer", "edit", "1", "--region", "乌兰察布", "--nodes-available", "4")
    assert edited.code == 0, edited.err
    last = _history(cli, demo_db_path, "1")[-1]
    assert last["action"] == "changed" and last["entity"] == "offer" and last["row_id"] == 1
    assert last["changes"] == {"region": ["深圳 / 北京 / 上海", "乌兰察布"], "nodes_available": [None, 4]}
    assert last["who"] == _who(demo_db_path) and last["via"] == "cli: quotetui offer edit"
    assert began <= datetime.fromisoformat(last["at"]) <= datetime.now(UTC) + timedelta(seconds=1)
    text = cli("--db", str(demo_db_path), "history", "1").out
    assert "  changed offer 8×H100 SXM5 整机 #1\n    Nodes on offer: — → 4\n" in text  # the field's title
    assert '    Region: "深圳 / 北京 / 上海" → "乌兰察布"\n' in text  # text in quotes, in full
    assert f"{_who(demo_db_path)} via quotetui offer edit\n" in text


def test_the_history_shows_stored_values_in_words_and_its_json_as_stored(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    assert cli("--db", db, "offer", "edit", "1", "--status", "negotiating", "--no-bare-metal").code == 0
    last = _history(cli, demo_db_path, "1")[-1]
    assert last["via"] == "cli: quotetui offer edit" and last["changes"]["status"] == ["quoted", "negotiating"]
    zh = cli("--db", db, "--lang", "zh-CN", "history", "1").out
    assert "经由 quotetui offer edit\n  已修改报价 8×H100 SXM5 整机 #1\n" in zh
    assert "    状态：已报价 → 议价中\n" in zh and "    裸金属：是 → 否\n" in zh  # a code and a yes/no in words
    assert "（演示市场数据）\n" in zh  # the fixture's stored origin: "api: the demo market" (or "cli: …")
    assert "    计价单位：每节点月\n" in zh and "    供应商：#1\n" in zh and "    每节点 GPU 数：8\n" in zh
    en = cli("--db", db, "history", "1").out
    assert "    Status: quoted → negotiating\n" in en and " (the demo market)\n" in en


def test_an_import_is_recorded_with_its_file(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    offers = tmp_path / "一万 offers.csv"
    row = f"一万网络,{H100},H100 SXM5,8,monthly,乌兰察布"
    offers.write_text(f"provider,offer,gpu,gpus_per_node,billing,region\n{row}\n", encoding="utf-8")
    assert cli("--db", str(demo_db_path), "import", str(offers)).code == 0
    last = _history(cli, demo_db_path, "1")[-1]
    assert last["via"] == f"cli: quotetui import: import {offers}"
    assert last["changes"] == {"region": ["深圳 / 北京 / 上海", "乌兰察布"]}


def test_a_refused_write_records_nothing(cli: Cli, demo_db_path: Path) -> None:
    before = sql(demo_db_path, "SELECT count(*) FROM change_log")
    refused = cli("--db", str(demo_db_path), "offer", "edit", "1", "--region", "x", "--gpus-per-node", "0")
    assert refused.code == 2
    assert sql(demo_db_path, "SELECT count(*) FROM change_log") == before


def test_a_contract_keeps_its_whole_story(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    signed = cli("--db", db, "contracts", "add", "--offer", "9", "--start", "2026-06-01", "--term-months", "12",
                 "--json")  # fmt: skip
    assert signed.code == 0, signed.err
    cid = str(json.loads(signed.out)["id"])
    steps = [
        ("contracts", "amend", cid, "--effective", "2026-08-01", "--gpus", "16", "--monthly-charge", "300000",
         "--reason", "a second node"),
        ("contracts", "incident", "add", cid, "--start", "2026-07-02T08:00+08:00", "--end", "2026-07-02T10:00+08:00",
         "--description", "IB link down"),
        ("contracts", "invoice", "add", cid, "--from", "2026-06-01", "--to", "2026-06-30", "--amount", "1",
         "--currency", "CNY"),
    ]  # fmt: skip
    for step in steps:
        result = cli("--db", db, *step)
        assert result.code == 0, (step, result.err)
    story = _history(cli, demo_db_path, "--contract", cid)
    assert [(c["action"], c["entity"]) for c in story] == [
        ("added", "contract"),
        ("added", "contract_amendment"),
        ("changed", "contract"),
        ("added", "incident"),
        ("added", "invoice"),
    ]
    assert story[2]["changes"]["gpu_count"] == [8, 16]
    assert story[2]["changes"]["snapshot.monthly_charge"][1] == "300000.000000"
    assert [c["via"] for c in story] == [
        "cli: quotetui contracts add",
        "cli: quotetui contracts amend",
        "cli: quotetui contracts amend",
        "cli: quotetui contracts incident add",
        "cli: quotetui contracts invoice add",
    ]
    offer = _history(cli, demo_db_path, "9")  # the offer's history holds its contracts' too
    assert {c["entity"] for c in offer} >= {"offer", "contract", "contract_amendment", "incident", "invoice"}


def test_settings_changes_are_recorded(cli: Cli, demo_db_path: Path) -> None:
    assert cli("--db", str(demo_db_path), "settings", "set", "--default-mfu", "35").code == 0
    assert cli("--db", str(demo_db_path), "settings", "set", "--default-mfu", "45").code == 0
    changes = [c["changes"] for c in _history(cli, demo_db_path, "--settings")]
    assert changes[-1] == {"value": ["0.35", "0.45"]}
    assert cli("--db", str(demo_db_path), "history", "--settings").out.count("assumption.default_mfu") >= 2


def test_history_asks_for_one_subject_and_names_an_unknown_one(cli: Cli, demo_db_path: Path) -> None:
    for args, said in (
        ((), "name one offer"),
        (("1", "--settings"), "name one offer"),
        (("999",), "no offer #999"),
        (("--contract", "5"), "no contract #5"),
        (("-1",), ""),
    ):
        result = cli("--db", str(demo_db_path), "history", *args)
        assert result.code == 2 and said in result.err, (args, result.err)


def test_the_trail_survives_an_export_and_an_import(cli: Cli, demo_db_path: Path, new_db, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from openpyxl import load_workbook

    db = str(demo_db_path)
    assert cli("--db", db, "offer", "edit", "1", "--region", "乌兰察布").code == 0
    from quotetui.domain.economics.billing import EXTRA_BASES

    long = "x" * 490  # every kind and basis an extra can take, and discounts: a contract whose snapshot is larger
    pairs = [(k.value, b.value) for k, bases in EXTRA_BASES.items() for b in bases]  # than a cell, kept leaf by leaf
    for n, (kind, basis) in enumerate(pairs):
        extra = cli("--db", db, "extra", "add", "1", "--kind", kind, "--basis", basis, "--amount", str(n + 1),
                    "--description", f"{n} {long}")  # fmt: skip
        assert extra.code == 0, extra.err
    for gpus in range(100, 1300, 100):
        discount = cli("--db", db, "discount", "add", "1", "--kind", "volume", "--rate", "2", "--min-gpus", str(gpus),
                       "--description", f"{gpus} {long}")  # fmt: skip
        assert discount.code == 0, discount.err
    assert cli("--db", db, "contracts", "add", "--offer", "1", "--start", "2027-01-01", "--term-months", "12").code == 0
    [(snapshot,)] = sql(demo_db_path, "SELECT snapshot FROM contract ORDER BY id DESC LIMIT 1")
    assert len(str(snapshot)) > 32_767  # more than a spreadsheet cell holds
    book = tmp_path / "market.xlsx"
    assert cli("--db", db, "export", str(book)).code == 0
    fresh = new_db("fresh.db")
    imported = cli("--db", str(fresh), "import", str(book), "--json")
    assert imported.code == 0, imported.err
    counts = json.loads(imported.out)["counts"]["history"]
    source = _history(cli, demo_db_path, "1")
    [(new_id,)] = sql(fresh, f"SELECT id FROM offer WHERE name = '{H100}'")
    kept = _history(cli, fresh, str(new_id))
    edit = next(c for c in kept if c["via"] == "cli: quotetui offer edit")
    original = next(c for c in source if c["via"] == "cli: quotetui offer edit")
    assert edit["changes"] == {"region": ["深圳 / 北京 / 上海", "乌兰察布"]} and edit["at"] == original["at"]
    assert edit["who"] == original["who"] and edit["row_id"] is None  # ids do not survive an import
    assert edit["imported"].startswith(f"imported from {book.name} by ")  # not an event of this database
    signed = next(c for c in kept if c["entity"] == "contract")
    mine = next(c for c in source if c["entity"] == "contract")
    ids = {"offer_id", "revision_id"}  # ids of the source database would name other rows here: left out
    assert signed["changes"] == {k: v for k, v in mine["changes"].items() if k not in ids}
    assert f"snapshot.extras.{len(pairs) - 1}.label" in signed["changes"]
    assert counts["added"] == sql(demo_db_path, "SELECT count(*) FROM change_log")[0][0]
    own = [c for c in kept if c["via"].startswith("cli: quotetui import: import ")]
    assert own and all(c["imported"] is None for c in own)  # the import's own changes are this database's
    text = cli("--db", str(fresh), "history", str(new_id)).out
    assert f"(imported from {book.name} by " in text
    again = cli("--db", str(fresh), "import", str(book), "--json")
    assert json.loads(again.out)["counts"]["history"]["added"] == 0  # an entry on record is not added twice
    back = tmp_path / "back.xlsx"  # the trail goes out and comes back: its own entries are not added again
    assert cli("--db", str(fresh), "export", str(back)).code == 0
    before = sql(demo_db_path, "SELECT count(*) FROM change_log")[0][0]
    returned = json.loads(cli("--db", db, "import", str(back), "--json").out)["counts"]["history"]
    assert returned["unchanged"] >= before  # every entry of the source was recognised as its own

    wb = load_workbook(book)
    sheet = wb["History"]
    header = [c.value for c in sheet[1]]
    sheet.cell(2, header.index("after") + 1).value = "{not json"
    broken = tmp_path / "broken.xlsx"
    wb.save(broken)
    count = sql(fresh, "SELECT count(*) FROM change_log")
    refused = cli("--db", str(fresh), "import", str(broken))
    assert refused.code == 2 and "History" in refused.err and "row 2" in refused.err and "not JSON" in refused.err
    assert sql(fresh, "SELECT count(*) FROM change_log") == count


def test_a_value_never_passes_for_an_entry_of_its_own(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    forged = "ok\n2026-12-05 07:40:00  cfo via cli: quotetui contracts amend\n  changed contract #1: x → y"
    assert cli("--db", db, "offer", "edit", "1", "--notes", forged).code in (0, 2)
    assert cli("--db", db, "contracts", "add", "--offer", "1", "--start", "2027-01-01", "--term-months", "12").code == 0
    amended = cli("--db", db, "contracts", "amend", "1", "--effective", "2027-02-01", "--notice-days", "20",
                  "--reason", forged)  # fmt: skip
    assert amended.code == 0, amended.err
    text = cli("--db", db, "history", "1").out
    assert not any(line.startswith("2026-12-05 07:40:00") for line in text.splitlines())
    fake = "ok, recorded_by mallory, changes.notice_days.1 999"  # fields faked inside a value stay inside its quotes
    amended = cli("--db", db, "contracts", "amend", "1", "--effective", "2027-03-01", "--notice-days", "21",
                  "--reason", fake)  # fmt: skip
    assert amended.code == 0, amended.err
    lines = cli("--db", db, "history", "--contract", "1").out.splitlines()
    assert f'    What was agreed, and why: "{fake}"' in lines and '    Agreed by: "mallory"' not in lines


def test_an_imported_entry_joins_a_contract_only_on_its_own_offer(  # type: ignore[no-untyped-def]
    cli: Cli, demo_db_path: Path, new_db, tmp_path: Path
) -> None:
    from openpyxl import load_workbook

    db = str(demo_db_path)
    start = ("--start", "2027-01-01", "--term-months", "12", "--reference", "REF-1")
    assert cli("--db", db, "contracts", "add", "--offer", "1", *start).code == 0
    book = tmp_path / "a.xlsx"
    assert cli("--db", db, "export", str(book)).code == 0
    other = new_db("other.db")
    assert cli("--db", str(other), "import", str(book)).code == 0
    [(two,)] = sql(other, "SELECT id FROM offer WHERE name = '8×H100 SXM5 整机（官网价）'")
    mine = cli("--db", str(other), "contracts", "add", "--offer", str(two), *start, "--json")  # same reference
    assert mine.code == 0, mine.err
    cid = str(json.loads(mine.out)["id"])
    own = _history(cli, other, "--contract", cid)
    assert cli("--db", str(other), "import", str(book)).code == 0
    assert _history(cli, other, "--contract", cid) == own  # REF-1 of another offer is not this contract
    [(one,)] = sql(other, f"SELECT id FROM offer WHERE name = '{H100}'")
    theirs = [c for c in _history(cli, other, str(one)) if c["entity"] == "contract"]
    assert theirs and all(c["contract_id"] is None and "(contract REF-1)" in c["subject"] for c in theirs)

    wb = load_workbook(book)
    sheet = wb["History"]
    header = [c.value for c in sheet[1]]
    sheet.append([c.value for c in sheet[2]])  # one value of entry 1 twice, another after
    sheet.cell(sheet.max_row, header.index("after") + 1).value = '"forged"'
    forged = tmp_path / "forged.xlsx"
    wb.save(forged)
    refused = cli("--db", str(new_db("third.db")), "import", str(forged))
    assert refused.code == 2 and "is on another row of entry" in refused.err, refused.err


@pytest.mark.parametrize(
    ("stored", "english", "chinese"),
    [
        ("cli: quotetui demo: the demo market", "quotetui demo (the demo market)", "quotetui demo（演示市场数据）"),
        ("cli: quotetui import: import a.csv b.xlsx", "quotetui import (import of a.csv b.xlsx)",
         "quotetui import（导入 a.csv b.xlsx）"),
        ("tui", "the TUI", "TUI"),
        ("another tool: its words", "another tool: its words", "another tool: its words"),  # not ours: as stored
    ],
)  # fmt: skip
def test_where_a_change_came_from_in_words(stored: str, english: str, chinese: str) -> None:
    from quotetui import language
    from quotetui.store.audit import via_words

    try:
        assert via_words(stored) == english
        language.use("zh-CN")
        assert via_words(stored) == chinese
    finally:
        language.use("en")
