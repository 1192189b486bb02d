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


def _unpaid(*days: date) -> list[KeyDate]:
    return [KeyDate(d, PAYMENT, "contract #1", 1, 1) for d in days]


def test_overdue_words_count_them_and_name_the_oldest_three() -> None:
    assert overdue_words(_unpaid(date(2026, 6, 1))) == "1 payment date passed with no paid invoice (2026-06-01)"
    days = [date(2026, m, 1) for m in (6, 7, 8)]
    said = "3 payment dates passed with no paid invoice (2026-06-01, 2026-07-01, 2026-08-01)"
    assert overdue_words(_unpaid(*days)) == said
    use("zh-CN")
    try:
        assert overdue_words(_unpaid(*days, date(2026, 9, 1))) == (
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
        # their days as `contracts due` and the contracts list say them (days_away), not a bare -29
        assert rows["2026-11-01"].split(maxsplit=1)[1].split() == ["29", "days", "ago", "payment", "—", "overdue"]
        assert rows["2026-12-01"].split(maxsplit=1)[1].split() == ["in", "1", "day", "payment"]


# A payment date is settled only when paid invoices cover its whole billing period (from it to the day before the
# next payment date, or the end) and none of them is short of the invoice check's expected amount; some paid invoice
# over it, but short or leaving days uncovered, makes it part paid (``invoices.payments_paid``).
#
# Worked by hand, demo offer 18 (80,000.00 CNY a node-month, 8 GPUs = one node) signed from 2026-01-31 for 6
# months, billed monthly: payment dates 01-31, 02-28, 03-31 …; 02-28 pays for 02-28 – 03-30, one contract month
# (80,000.00 CNY expected). A paid invoice of 1.00 CNY for it is short by 79,999.00 CNY. Demo offer 14 (85,000.00
# CNY a node-month) from 2026-01-15 for 3 months, billed quarterly: 01-15 pays for 01-15 – 04-14, 90 days (17 in
# January, 28 in February, 31 in March, 14 in April); a paid invoice for 01-15 – 02-14 (31 days, 85,000.00 CNY,
# exact) leaves 59 days uncovered. A second for 02-15 – 04-14 (two contract months: 170,000.00 CNY) covers the rest.

MONTHLY = ("contracts", "add", "--offer", "18", "--start", "2026-01-31", "--term-months", "6", "--gpus", "8")
QUARTERLY = ("contracts", "add", "--offer", "14", "--start", "2026-01-15", "--term-months", "3", "--auto-renew",
             "--notice-days", "30", "--billing", "quarterly", "--gpus", "8")  # fmt: skip
ON = ("--on", "2026-03-01")


def _invoice(cli: Cli, db: str, contract: int, first: str, last: str, amount: str, *paid: str) -> None:
    done = cli("--db", db, "contracts", "invoice", "add", str(contract), "--from", first, "--to", last,
               "--amount", amount, "--currency", "CNY", *paid)  # fmt: skip
    assert done.code == 0, done.err


def _show(cli: Cli, db: str, contract: int) -> dict:  # type: ignore[type-arg]
    return json.loads(cli("--db", db, "contracts", "show", str(contract), *ON, "--json").out)


def test_a_paid_invoice_short_of_the_expected_amount_part_pays_its_date(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    assert cli("--db", db, *MONTHLY).code == 0
    _invoice(
        cli,
        db,
        1,
        "2026-01-31",
        "2026-02-27",
        "80000",
    )  # not paid: settles nothing
    _invoice(cli, db, 1, "2026-02-28", "2026-03-30", "1", "--paid")
    view = _show(cli, db, 1)
    assert view["overdue_payments"] == ["2026-01-31", "2026-02-28"]  # part paid is still overdue
    assert view["part_paid_payments"] == [{"date": "2026-02-28", "short_by": "79999.00", "days_uncovered": 0}]
    said = (
        "1 payment date passed with no paid invoice (2026-01-31); "
        "1 payment date passed part paid (2026-02-28: short by 79,999.00 CNY)"
    )
    assert f"\nOverdue: {said}\n" in cli("--db", db, "contracts", "show", "1", *ON).out
    [line] = json.loads(cli("--db", db, "contracts", "due", *ON, "--json").out)["overdue"]
    assert (line["date"], line["detail"]) == ("2026-01-31", said)
    zh = cli("--db", db, "--lang", "zh-CN", "contracts", "show", "1", *ON).out
    assert (
        "已逾期：1 个付款日已过，尚无已付发票（2026年1月31日）；"
        "1 个付款日已过，仅部分付款（2026年2月28日：少付 79,999.00 CNY）"
    ) in zh
    # a paid invoice a cent over what is expected is short of nothing: 03-31 (for 03-31 – 04-29) is settled
    _invoice(cli, db, 1, "2026-03-31", "2026-04-29", "80000.01", "--paid")
    later = json.loads(cli("--db", db, "contracts", "show", "1", "--on", "2026-05-01", "--json").out)
    assert later["overdue_payments"] == ["2026-01-31", "2026-02-28", "2026-04-30"]


def test_a_quarterly_payment_needs_its_whole_quarter_covered(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    assert cli("--db", db, *QUARTERLY).code == 0
    _invoice(cli, db, 1, "2026-01-15", "2026-02-14", "85000", "--paid")  # one month of the quarter, exact
    view = _show(cli, db, 1)
    assert view["overdue_payments"] == ["2026-01-15"]
    assert view["part_paid_payments"] == [{"date": "2026-01-15", "short_by": "0.00", "days_uncovered": 59}]
    said = "1 payment date passed part paid (2026-01-15: 59 days with no paid invoice)"
    assert f"\nOverdue: {said}\n" in cli("--db", db, "contracts", "show", "1", *ON).out
    zh = cli("--db", db, "--lang", "zh-CN", "contracts", "due", *ON).out
    assert "1 个付款日已过，仅部分付款（2026年1月15日：59 天尚无已付发票）" in zh
    _invoice(cli, db, 1, "2026-02-15", "2026-04-14", "170000", "--paid")  # the rest: two paid invoices cover it
    view = _show(cli, db, 1)
    assert (view["overdue_payments"], view["part_paid_payments"]) == ([], [])
    assert "Overdue" not in cli("--db", db, "contracts", "show", "1", *ON).out
    assert json.loads(cli("--db", db, "contracts", "due", *ON, "--json").out)["overdue"] == []


def test_payment_paid_counts_overlapping_invoices_once() -> None:
    from decimal import Decimal
    from fractions import Fraction

    from quotetui.domain.contracts.dates import PartPaid
    from quotetui.domain.contracts.invoices import InvoiceCheck, payments_paid

    exact = InvoiceCheck(Decimal("100.00"), Decimal(0), Decimal(0), Fraction(1))
    short = InvoiceCheck(Decimal("100.00"), Decimal("-0.02"), Decimal("0.01"), Fraction(1))  # beyond the tolerance
    within = InvoiceCheck(Decimal("100.00"), Decimal("-0.01"), Decimal("0.01"), Fraction(1))  # within it: not short
    first, last = date(2026, 1, 15), date(2026, 4, 14)  # 90 days

    def paid(*invoices: tuple[date, date, InvoiceCheck]) -> tuple[bool, PartPaid | None]:
        [one] = payments_paid([(first, last)], list(invoices), Fraction(100), first, "CNY")
        return one

    # 01-15..02-14 (31 days) and 02-01..02-20 (20 days, 14 of them already covered): 37 days covered, 53 not
    assert paid((date(2026, 1, 15), date(2026, 2, 14), exact), (date(2026, 2, 1), date(2026, 2, 20), within)) == (
        False,
        PartPaid(Decimal(0), 53, "CNY"),
    )
    assert paid((date(2026, 1, 1), date(2026, 4, 30), within)) == (True, None)
    assert paid((first, last, short)) == (False, PartPaid(Decimal("0.02"), 0, "CNY"))
    assert paid((date(2026, 4, 15), date(2026, 5, 14), exact)) == (False, None)
    words = PartPaid(Decimal("0.02"), 1, "CNY")
    assert words.said == "part paid: short by 0.02 CNY, 1 day with no paid invoice"
    use("zh-CN")
    try:
        assert words.said == "部分付款：少付 0.02 CNY、1 天尚无已付发票"
    finally:
        use("en")


def test_spent_is_invoiced_to_the_view_s_day_and_paid_is_said_beside_it(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    assert cli("--db", db, *MONTHLY).code == 0
    _invoice(cli, db, 1, "2026-01-31", "2026-02-27", "80000", "--paid")
    _invoice(cli, db, 1, "2026-02-28", "2026-03-30", "80000")  # begun by 03-01, not paid
    _invoice(cli, db, 1, "2026-06-30", "2026-07-30", "80000")  # July's: not spent yet on 03-01
    view = _show(cli, db, 1)
    assert (view["spend_to_date"], view["invoiced_to_date"], view["paid_to_date"]) == (
        "240000.00",  # every invoice recorded, as this key always meant
        "160000.00",
        "80000.00",
    )
    text = cli("--db", db, "contracts", "show", "1", *ON).out
    assert "\n  spent 160,000.00 CNY to date (80,000.00 CNY paid)\n" in text
    zh = cli("--db", db, "--lang", "zh-CN", "contracts", "show", "1", *ON).out
    assert "\n  截至当日已消费 160,000.00 CNY（已付 80,000.00 CNY）\n" in zh
    early = cli("--db", db, "contracts", "show", "1", "--on", "2026-02-01").out
    assert "\n  spent 80,000.00 CNY to date (80,000.00 CNY paid)\n" in early


# One short invoice over two payment periods is short once: its shortfall is shared by each period's part of its
# expected amount (``invoices.apportioned``). Worked by hand, demo offer 18 (80,000.00 CNY a node-month) from
# 2026-01-01 for 3 months, billed monthly (periods 01-01 – 01-31, 02-01 – 02-28, 03-01 – 03-31). Invoice 2, paid,
# for 01-15 – 02-14: 17 of January's 31 days (80,000 × 17/31 = 43,870.967…) and 14 of February's 28 (40,000.00),
# expected 83,870.97; 79,000.00 is short by 4,870.97. January's part: 43,870.967… / 83,870.967… = 34/65, so
# 4,870.97 × 34/65 = 2,547.892…; February's 31/65: 2,323.078…. To the cent: 2,547.89 + 2,323.07 leaves one cent,
# given to the larger remainder (0.008 against 0.002): February's, 2,323.08. 2,547.89 + 2,323.08 = 4,870.97.
# Invoices 1 (01-01 – 01-14: 80,000 × 14/31 = 36,129.03) and 3 (02-15 – 02-28: 40,000.00) are exact.


def test_a_short_invoice_over_two_payment_dates_is_short_once_shared_between_them(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    assert cli("--db", db, "contracts", "add", "--offer", "18", "--start", "2026-01-01", "--term-months", "3").code == 0
    _invoice(cli, db, 1, "2026-01-01", "2026-01-14", "36129.03", "--paid")
    _invoice(cli, db, 1, "2026-01-15", "2026-02-14", "79000", "--paid")
    _invoice(cli, db, 1, "2026-02-15", "2026-02-28", "40000", "--paid")
    on = ("--on", "2026-03-05")
    view = json.loads(cli("--db", db, "contracts", "show", "1", *on, "--json").out)
    assert view["part_paid_payments"] == [
        {"date": "2026-01-01", "short_by": "2547.89", "days_uncovered": 0},
        {"date": "2026-02-01", "short_by": "2323.08", "days_uncovered": 0},
    ]
    said = (
        "1 payment date passed with no paid invoice (2026-03-01); 2 payment dates passed part paid "
        "(2026-01-01: short by 2,547.89 CNY; 2026-02-01: short by 2,323.08 CNY)"
    )
    assert f"\nOverdue: {said}\n" in cli("--db", db, "contracts", "show", "1", *on).out
    zh = cli("--db", db, "--lang", "zh-CN", "contracts", "due", *on).out
    assert "2 个付款日已过，仅部分付款（2026年1月1日：少付 2,547.89 CNY；2026年2月1日：少付 2,323.08 CNY）" in zh


def test_a_shortfall_is_shared_to_the_cent_and_days_outside_every_period_keep_their_share() -> None:
    from decimal import Decimal
    from fractions import Fraction

    from quotetui.domain.contracts.invoices import apportioned

    months = [(date(2026, 1, 1), date(2026, 1, 31)), (date(2026, 2, 1), date(2026, 2, 28)),
              (date(2026, 3, 1), date(2026, 3, 31))]  # fmt: skip
    start = date(2026, 1, 1)
    # three whole months, 0.10 short: 3.33… cents each; the cent left goes to the earliest of equal remainders
    assert apportioned(Decimal("0.10"), start, date(2026, 3, 31), months, Fraction(100), start, "CNY") == [
        Decimal("0.04"),
        Decimal("0.03"),
        Decimal("0.03"),
    ]
    # December 2025 and January 2026, 1.00 short: January's half is 0.50; December's, in no period, is said on none
    assert apportioned(Decimal("1.00"), date(2025, 12, 1), date(2026, 1, 31), months, Fraction(100), start, "CNY") == [
        Decimal("0.50"),
        Decimal(0),
        Decimal(0),
    ]
    # in yen (no minor unit): 100 short over January (31 days of 31) and 1-14 February (14 of 28): 2/3 and 1/3
    assert apportioned(Decimal(100), start, date(2026, 2, 14), months, Fraction(300), start, "JPY") == [
        Decimal(67),
        Decimal(33),
        Decimal(0),
    ]
