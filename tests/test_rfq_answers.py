"""Answers to an RFQ read back (issue 17, point 2): `quotetui import` recognises a filled response workbook,
writes the provider's offer, its prices as a new round and its SLA through the importer's own rules, records
where they came from and marks the invitation answered; an answer to another revision, from a provider not
asked, to an RFQ not on record, a file read twice, or a bad cell is refused and nothing changes."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

from quotetui.io.rfq_workbook import ANSWER_FIELDS, ANSWER_SHEET, FIRST_ANSWER_ROW, IDENTITY_CELLS, RFQ_SHEET
from tests.conftest import BACKEND, Cli, execute, sql

NEED = ("--gpu", "H100 SXM5", "--gpus", "64", "--months", "12", "--start", "2027-01-01", "--inter-fabric",
        "infiniband_ndr")  # fmt: skip
ROWS: list[dict[str, Any]] = [
    {"name": "HGX H100 集群", "gpu": "H100 SXM5", "gpus_per_node": 8, "nodes_available": 10,
     "billing_basis": "reserved", "valid_until": "2026-12-10", "intra_fabric": "nvswitch",
     "inter_fabric": "infiniband_ndr", "region": "上海", "amount": 95000, "unit": "node_month", "currency": "CNY",
     "term_months": 12, "prepay": "yes", "availability": "99.9", "replacement_hours": 4},
    {"name": "HGX H100 集群", "amount": 110000, "unit": "node_month", "currency": "CNY", "term_months": 1},
]  # fmt: skip


def _stored(value: object) -> Decimal:
    """An exact column's value as read by raw SQL: scaled integers (6 places) on SQLite, NUMERIC on PostgreSQL."""
    return Decimal(value) / 10**6 if BACKEND == "sqlite" else Decimal(str(value))  # type: ignore[arg-type]


def _sent(cli: Cli, db: Path, out: Path) -> Path:
    assert cli("--db", str(db), "rfq", "new", "H100 64", *NEED).code == 0
    done = cli("--db", str(db), "rfq", "send", "H100 64", "-p", "阿里云", "-p", "腾讯云", "--out", str(out), "--json")
    assert done.code == 0, done.err
    return Path(json.loads(done.out)["sent"][0]["workbook"])  # 阿里云's


def _filled(book_path: Path, to: Path, rows: list[dict[str, Any]] = ROWS, **identity: Any) -> Path:
    book = load_workbook(book_path)
    sheet = book[ANSWER_SHEET]
    for i, row in enumerate(rows):
        for j, f in enumerate(ANSWER_FIELDS):
            if f.name in row:
                sheet.cell(FIRST_ANSWER_ROW + i, j + 1, row[f.name])
    for key, value in identity.items():
        book[RFQ_SHEET][IDENTITY_CELLS[key]] = value
    book.save(to)
    return to


def _state(cli: Cli, db: Path) -> dict[str, str]:
    shown = json.loads(cli("--db", str(db), "rfq", "show", "H100 64", "--json").out)
    return {i["provider"]: i["state"] for i in shown["invites"]}


def test_an_answer_is_read_as_the_providers_offer_round_and_sla(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    answer = _filled(_sent(cli, demo_db_path, tmp_path), tmp_path / "answer.xlsx")
    db = str(demo_db_path)
    done = cli("--db", db, "import", str(answer), "--as-of", "2026-12-03")
    assert done.code == 0, done.err
    assert "offers: 1 added" in done.out and "revisions: 1 added" in done.out and "SLA: 1 added" in done.out
    assert "阿里云 / HGX H100 集群: the quote expires in 7 days (2026-12-10)" in done.out + done.err
    (offer_id,) = sql(demo_db_path, "SELECT o.id FROM offer o JOIN provider p ON p.id = o.provider_id "
                      "WHERE p.name = '阿里云' AND o.name = 'HGX H100 集群'")[0]  # fmt: skip
    query = f"SELECT seq, mover, quoted_at FROM quote_revision WHERE offer_id = {offer_id}"
    rounds = [(seq, mover, str(when)[:10]) for seq, mover, when in sql(demo_db_path, query)]
    assert rounds == [(1, "provider", "2026-12-03")]  # a day on either backend (text on SQLite, a datetime on PG)
    prices = sql(demo_db_path, "SELECT term_months, amount, prepay FROM revision_price p JOIN quote_revision r ON "
                 f"r.id = p.revision_id WHERE r.offer_id = {offer_id} ORDER BY term_months")  # fmt: skip
    assert [(t, _stored(a), bool(pp)) for t, a, pp in prices] == [(1, 110_000, False), (12, 95_000, True)]
    sla = sql(demo_db_path, f"SELECT availability, replacement_hours FROM sla_term WHERE offer_id = {offer_id}")
    assert [(_stored(a), h) for a, h in sla] == [(Decimal("0.999"), 4)]
    assert _state(cli, demo_db_path) == {"阿里云": "answered", "腾讯云": "sent"}
    shown = json.loads(cli("--db", db, "rfq", "show", "H100 64", "--json").out)
    first = shown["offers"][0]
    assert (first["offer_id"], first["answered"], first["compliant"], first["rank"]) == (offer_id, True, True, 1)
    assert first["figures"]["term_total"] == f"{8 * 95_000 * 12}.00"  # 64 GPUs: 8 nodes, the prepaid year
    provenance = sql(demo_db_path, "SELECT revision, file_name, length(sha256) FROM rfq_answer")
    assert provenance == [(1, "answer.xlsx", 64)]
    # the answer is a candidate by itself, on the day it was read (its quote lapses after 2026-12-10, a fixed day)
    award = json.loads(cli("--db", db, "award", "H100 64", "--on", "2026-12-03", "--json").out)
    cheapest = award["scenarios"][0]
    assert [(a["offer_id"], a["nodes"]) for a in cheapest["allocations"]] == [(offer_id, 8)]
    assert cheapest["total_cost"] == f"{8 * 95_000 * 12}.00"  # the prepaid year: 95,000 a node-month


def test_the_same_file_is_not_read_twice(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    answer = _filled(_sent(cli, demo_db_path, tmp_path), tmp_path / "answer.xlsx")
    assert cli("--db", str(demo_db_path), "import", str(answer)).code == 0
    again = cli("--db", str(demo_db_path), "import", str(answer))
    assert again.code == 2 and "this very answer was read on" in again.err
    assert sql(demo_db_path, "SELECT COUNT(*) FROM rfq_answer") == [(1,)]


@pytest.mark.parametrize(
    ("identity", "says"),
    [
        ({"provider": "华为云"}, "RFQ 'H100 64' was not sent to '华为云'"),
        ({"provider": "腾讯云"}, "not the one on the workbook sent to '腾讯云'"),  # 阿里云's, passed off as 腾讯云's
        ({"reference": "0123456789abcdef"}, "the reference (cell B8)"),
        ({"provider": "算力云"}, "was not sent to '算力云'"),
        ({"revision": 2}, "answers revision 2 of RFQ 'H100 64', which is at revision 1 now"),
        ({"rfq_id": 99}, "answers RFQ #99 'H100 64', which is not on record"),
        ({"rfq": "another"}, "which is not on record"),
        ({"rfq_id": "one"}, "are not as `quotetui rfq send` wrote them"),
    ],
)
def test_a_wrong_answer_is_refused_and_nothing_changes(
    cli: Cli, demo_db_path: Path, tmp_path: Path, identity: dict[str, Any], says: str
) -> None:
    answer = _filled(_sent(cli, demo_db_path, tmp_path), tmp_path / "answer.xlsx", **identity)
    offers = sql(demo_db_path, "SELECT COUNT(*) FROM offer")
    done = cli("--db", str(demo_db_path), "import", str(answer))
    assert done.code == 2 and says in done.err, done.err
    assert sql(demo_db_path, "SELECT COUNT(*) FROM offer") == offers
    assert sql(demo_db_path, "SELECT COUNT(*) FROM rfq_answer") == [(0,)]
    assert _state(cli, demo_db_path) == {"阿里云": "sent", "腾讯云": "sent"}


def test_an_answer_to_a_requirement_changed_since_is_refused(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    answer = _filled(_sent(cli, demo_db_path, tmp_path), tmp_path / "answer.xlsx")
    assert cli("--db", str(demo_db_path), "rfq", "edit", "H100 64", "--gpus", "128").code == 0  # revised since sent
    done = cli("--db", str(demo_db_path), "import", str(answer))
    assert done.code == 2 and "answers revision 1 of RFQ 'H100 64', which is at revision 2 now" in done.err


@pytest.mark.parametrize(
    ("rows", "says"),
    [
        ([{**ROWS[0], "amount": "abc"}], "row 3 › column 'Price / 价格' (M)"),  # the answer sheet's own column
        ([{**ROWS[0], "gpus_per_node": 0}], "row 3"),
        ([ROWS[0], {**ROWS[1], "name": "HGX H100 集群", "gpu": "A100"}], "every row of an offer must agree"),
        ([], "no row filled in"),
        ([{**ROWS[0], "term_months": 12}, {**ROWS[0], "amount": 1}], "row 4"),  # the same option twice
    ],
)
def test_a_bad_answer_row_names_its_row_and_nothing_changes(
    cli: Cli, demo_db_path: Path, tmp_path: Path, rows: list[dict[str, Any]], says: str
) -> None:
    answer = _filled(_sent(cli, demo_db_path, tmp_path), tmp_path / "answer.xlsx", rows)
    offers = sql(demo_db_path, "SELECT COUNT(*) FROM offer")
    done = cli("--db", str(demo_db_path), "import", str(answer))
    assert done.code == 2 and says in done.err and "Answer 报价" in done.err, done.err
    assert sql(demo_db_path, "SELECT COUNT(*) FROM offer") == offers
    assert _state(cli, demo_db_path)["阿里云"] == "sent"


def test_a_second_answer_updates_the_offer_and_adds_a_round(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    book = _sent(cli, demo_db_path, tmp_path)
    assert cli("--db", str(demo_db_path), "import", str(_filled(book, tmp_path / "a1.xlsx"))).code == 0
    lower = [{**ROWS[0], "amount": 90000, "nodes_available": 12}]
    done = cli("--db", str(demo_db_path), "import", str(_filled(book, tmp_path / "a2.xlsx", lower)))
    assert done.code == 0, done.err
    assert "offers: 0 added, 1 changed" in done.out and "revisions: 1 added" in done.out
    rounds = sql(demo_db_path, "SELECT r.seq FROM quote_revision r JOIN offer o ON o.id = r.offer_id "
                 "WHERE o.name = 'HGX H100 集群' ORDER BY r.seq")  # fmt: skip
    assert rounds == [(1,), (2,)]
    assert sql(demo_db_path, "SELECT nodes_available FROM offer WHERE name = 'HGX H100 集群'") == [(12,)]


def test_the_same_answer_saved_again_is_not_read_twice(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    answer = _filled(_sent(cli, demo_db_path, tmp_path), tmp_path / "answer.xlsx")
    assert cli("--db", str(demo_db_path), "import", str(answer)).code == 0
    book = load_workbook(answer)
    book.save(tmp_path / "saved again.xlsx")  # other bytes, the same answer
    again = cli("--db", str(demo_db_path), "import", str(tmp_path / "saved again.xlsx"))
    assert again.code == 2 and "this very answer was read on" in again.err
    assert sql(demo_db_path, "SELECT COUNT(*) FROM rfq_answer") == [(1,)]


def _terms(book_path: Path, sheet_title: str, rows: list[list[Any]]) -> None:
    """Rows written on a discounts or extras sheet, under its headers (the offer's name first)."""
    book = load_workbook(book_path)
    for i, row in enumerate(rows):
        for j, value in enumerate(row):
            book[sheet_title].cell(FIRST_ANSWER_ROW + i, j + 1, value)
    book.save(book_path)


def test_discounts_and_extras_come_in_with_the_answer(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    from quotetui.io.rfq_workbook import DISCOUNT_SHEET, EXTRA_SHEET

    answer = _filled(_sent(cli, demo_db_path, tmp_path), tmp_path / "answer.xlsx")
    # kind, rate, min term, min GPUs, prepay, description / kind, basis, amount, currency, refundable, description
    _terms(answer, DISCOUNT_SHEET, [["HGX H100 集群", "volume", "10%", None, 64, "no", "64 GPUs or more"]])
    _terms(answer, EXTRA_SHEET, [["HGX H100 集群", "setup_fee", "one_off", 20000, "CNY", "no", "racking"]])
    done = cli("--db", str(demo_db_path), "import", str(answer), "--as-of", "2026-12-03")
    assert done.code == 0, done.err
    assert "discounts: 1 added" in done.out and "extra costs: 1 added" in done.out
    shown = json.loads(cli("--db", str(demo_db_path), "rfq", "show", "H100 64", "--json").out)
    figures = shown["offers"][0]["figures"]
    # 64 GPUs = 8 nodes for 12 months at 95,000 a node-month, 10 % off for 64 GPUs or more, plus 20,000 once
    assert figures["term_total"] == f"{8 * 95_000 * 12 * 9 // 10 + 20_000}.00"


def test_a_bad_discount_names_the_discounts_sheet_and_its_column(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    from quotetui.io.rfq_workbook import DISCOUNT_SHEET

    answer = _filled(_sent(cli, demo_db_path, tmp_path), tmp_path / "answer.xlsx")
    _terms(answer, DISCOUNT_SHEET, [["HGX H100 集群", "bribe", "10%"]])
    done = cli("--db", str(demo_db_path), "import", str(answer))
    assert done.code == 2 and "Discounts 折扣 › row 3 › column 'Kind / 类型' (B)" in done.err, done.err
    assert sql(demo_db_path, "SELECT COUNT(*) FROM rfq_answer") == [(0,)]


def test_an_extra_charged_on_a_basis_its_kind_is_not_is_refused(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    from quotetui.io.rfq_workbook import EXTRA_SHEET

    answer = _filled(_sent(cli, demo_db_path, tmp_path), tmp_path / "answer.xlsx")
    _terms(answer, EXTRA_SHEET, [["HGX H100 集群", "egress", "per_tb_month", 500, "CNY", "no", "per TB out"]])
    done = cli("--db", str(demo_db_path), "import", str(answer))
    assert done.code == 2, done.err
    assert "row 3 › column 'Charged / 计费' (C): per tb month bills per TB stored a month" in done.err, done.err
    assert sql(demo_db_path, "SELECT COUNT(*) FROM rfq_answer") == [(0,)]


def test_a_row_without_an_offer_name_is_one_problem_told_once(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    """The name cell feeds the offer, its round and its SLA: it was reported three times, the same line."""
    nameless = [{k: v for k, v in ROWS[0].items() if k != "name"}]
    answer = _filled(_sent(cli, demo_db_path, tmp_path), tmp_path / "answer.xlsx", nameless)
    refused = cli("--db", str(demo_db_path), "import", str(answer))
    assert refused.code == 2 and "1 problem; nothing was imported" in refused.err, refused.err
    assert refused.err.count("required") == 1


def test_a_second_answer_repeating_a_stored_extra_is_read(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    """A provider answers again with a copy of its first answer, whose setup fee an older version stored "per month"
    (a pair refused since): the row changes nothing of the stored extra, so the answer is read, the extra kept as
    stored with a warning on its row; the same pair at a new amount enters a figure, and is refused."""
    from quotetui.io.rfq_workbook import EXTRA_SHEET

    book = _sent(cli, demo_db_path, tmp_path)
    first = _filled(book, tmp_path / "a1.xlsx")
    _terms(first, EXTRA_SHEET, [["HGX H100 集群", "setup_fee", "one_off", 20000, "CNY", "no", "racking"]])
    assert cli("--db", str(demo_db_path), "import", str(first)).code == 0
    execute(demo_db_path, "UPDATE extra_cost SET basis = 'per_month' WHERE description = 'racking'")  # as before
    stored = sql(demo_db_path, "SELECT * FROM extra_cost WHERE description = 'racking'")
    lower = [{**ROWS[0], "amount": 90000}]
    second = _filled(book, tmp_path / "a2.xlsx", lower)
    _terms(second, EXTRA_SHEET, [["HGX H100 集群", "setup_fee", "per_month", 20000, "CNY", "no", "racking"]])
    done = cli("--db", str(demo_db_path), "import", str(second))
    assert done.code == 0, done.err
    assert "revisions: 1 added" in done.out and "extra costs: 0 added, 0 changed, 1 unchanged" in done.out
    assert (
        "a2.xlsx › Extras 附加费用 › row 3 › column 'Charged / 计费' (C): the stored extra cost is kept as it is (this "
        "row changes nothing), but per month bills a flat fee a month: setup fee is charged one off"
    ) in done.err, done.err
    assert sql(demo_db_path, "SELECT * FROM extra_cost WHERE description = 'racking'") == stored
    third = _filled(book, tmp_path / "a3.xlsx", [{**ROWS[0], "amount": 85000}])
    _terms(third, EXTRA_SHEET, [["HGX H100 集群", "setup_fee", "per_month", 15000, "CNY", "no", "racking"]])
    refused = cli("--db", str(demo_db_path), "import", str(third))
    assert refused.code == 2
    assert (
        "a3.xlsx › Extras 附加费用 › row 3 › column 'Charged / 计费' (C): this row changes column 'Amount (empty: "
        "charged, price unknown) / 金额' (D) of the stored extra cost, but per month bills a flat fee a month: setup "
        "fee is charged one off; correct column 'Charged / 计费' (C) too, or leave the row as exported"
    ) in refused.err, refused.err
    assert sql(demo_db_path, "SELECT * FROM extra_cost WHERE description = 'racking'") == stored
