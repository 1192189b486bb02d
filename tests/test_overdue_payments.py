"""An overdue payment is one rule (``dates.overdue_payments``): a payment date that has passed with no paid invoice
covering it. ``contracts due``, ``contracts show`` (its text and ``--json``) and the TUI's contract screen ask it
and say it in the same words (``dates.overdue_words``: how many, and the oldest three).

Worked by hand: demo offer #1 signed for 16 GPUs from 2026-06-01 for 12 months, billed monthly on the 1st: the
payment dates are 2026-06-01, 07-01, …, 2027-05-01 (12). On 2026-12-06 the seven from 2026-06-01 to 2026-12-01 have
passed; none has a paid invoice, so all seven are overdue and the oldest named are 06-01, 07-01 and 08-01 ("and 4
more"). A paid invoice for 2026-06-01 – 2026-06-30 settles the first: six are left, from 07-01. On 2026-11-30 (the
TUI's today) 2026-12-01 has not come: six are overdue, 06-01 … 11-01.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from quotetui.domain.contracts.dates import ENDS, PAYMENT, KeyDate, overdue_payments, overdue_words
from quotetui.language import use
from tests.conftest import Cli

SIGN = ("contracts", "add", "--offer", "1", "--start", "2026-06-01", "--term-months", "12", "--gpus", "16")
SEVEN = "7 payment dates passed with no paid invoice (2026-06-01, 2026-07-01, 2026-08-01 and 4 more)"
SIX_FROM_JULY = "6 payment dates passed with no paid invoice (2026-07-01, 2026-08-01, 2026-09-01 and 3 more)"


def _payments(paid: set[str]) -> list[KeyDate]:
    days = [date(2026, m, 1) for m in range(6, 13)] + [date(2027, m, 1) for m in range(1, 6)]
    dates = [KeyDate(d, PAYMENT, "contract #1", 1, 1, settled=d.isoformat() in paid) for d in days]
    return [*dates, KeyDate(date(2027, 6, 1), ENDS, "contract #1", 1, 1)]


def test_a_payment_date_is_overdue_once_passed_with_no_paid_invoice() -> None:
    overdue = overdue_payments(_payments({"2026-07-01"}), date(2026, 12, 6))
    assert [k.day.isoformat() for k in overdue] == [
        "2026-06-01", "2026-08-01", "2026-09-01", "2026-10-01", "2026-11-01", "2026-12-01"
    ]  # fmt: skip
    # the day itself has not passed; an end is no payment
    assert [k.day.isoformat() for k in overdue_payments(_payments(set()), date(2026, 7, 1))] == ["2026-06-01"]
    assert overdue_payments(_payments(set()), date(2026, 6, 1)) == []
    assert len(overdue_payments(_payments(set()), date(2027, 7, 1))) == 12


def test_overdue_words_count_them_and_name_the_oldest_three() -> None:
    assert overdue_words([date(2026, 6, 1)]) == "1 payment date passed with no paid invoice (2026-06-01)"
    days = [date(2026, m, 1) for m in (6, 7, 8)]
    assert overdue_words(days) == "3 payment dates passed with no paid invoice (2026-06-01, 2026-07-01, 2026-08-01)"
    use("zh-CN")
    try:
        assert overdue_words([*days, date(2026, 9, 1)]) == (
            "4 个付款日已过，尚无已付发票（2026年6月1日、2026年7月1日、2026年8月1日，另有 1 个）"
        )
    finally:
        use("en")


def test_due_show_and_its_json_say_the_same_overdue_payments(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    assert cli("--db", db, *SIGN).code == 0
    on = ("--on", "2026-12-06")
    due = json.loads(cli("--db", db, "contracts", "due", *on, "--json").out)
    [unpaid] = due["overdue"]  # one reminder for the contract, on its oldest
    assert (unpaid["date"], unpaid["kind"], unpaid["detail"]) == ("2026-06-01", "payment", SEVEN)
    shown = cli("--db", db, "contracts", "show", "1", *on).out
    assert f"\nOverdue: {SEVEN}\nKey dates from 2026-12-06 (6):\n" in shown
    view = json.loads(cli("--db", db, "contracts", "show", "1", *on, "--json").out)
    assert view["overdue_payments"] == [f"2026-{m:02}-01" for m in range(6, 13)]

    paid = cli("--db", db, "contracts", "invoice", "add", "1", "--from", "2026-06-01", "--to", "2026-06-30",
               "--amount", "360000", "--currency", "CNY", "--paid")  # fmt: skip
    assert paid.code == 0, paid.err
    [unpaid] = json.loads(cli("--db", db, "contracts", "due", *on, "--json").out)["overdue"]
    assert (unpaid["date"], unpaid["detail"]) == ("2026-07-01", SIX_FROM_JULY)
    assert f"Overdue: {SIX_FROM_JULY}" in cli("--db", db, "contracts", "show", "1", *on).out
    zh = cli("--db", db, "--lang", "zh-CN", "contracts", "show", "1", *on).out
    assert "已逾期：6 个付款日已过，尚无已付发票（2026年7月1日、2026年8月1日、2026年9月1日，另有 3 个）" in zh
    # before the first payment date has passed, nothing is overdue and nothing is said
    early = cli("--db", db, "contracts", "show", "1", "--on", "2026-06-01")
    assert "Overdue" not in early.out
    assert (
        json.loads(cli("--db", db, "contracts", "show", "1", "--on", "2026-06-01", "--json").out)["overdue_payments"]
        == []
    )


async def test_the_contract_screen_says_them_and_marks_the_row(cli: Cli, demo_db_path: Path) -> None:
    from quotetui.tui.screens.contract_detail import ContractDetailScreen
    from tests.test_tui import RecordingApp, settle, text_of

    assert cli("--db", str(demo_db_path), *SIGN).code == 0
    app = RecordingApp(str(demo_db_path))  # today: 2026-11-30
    async with app.run_test(size=(150, 50)) as pilot:
        await settle(pilot)
        app.push_screen(ContractDetailScreen(1))
        await settle(pilot)
        body = text_of(app, "#contract-body")
        said = "6 payment dates passed with no paid invoice (2026-06-01, 2026-07-01, 2026-08-01 and 3 more)"
        assert f"Overdue: {said}" in body
        # the key dates go a month back: the last payment date passed is marked, the next one is not
        rows = {line.split()[0]: line.rstrip() for line in body.splitlines() if line.startswith("2026-")}
        assert "2026-10-01" not in rows
        assert rows["2026-11-01"].split(maxsplit=2)[1:] == ["-29", "payment — overdue"]
        assert rows["2026-12-01"].split(maxsplit=2)[1:] == ["1", "payment"]
