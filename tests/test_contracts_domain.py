"""Contract arithmetic: month ends, leap years, notice deadlines, availability across months, credit
boundaries, invoice proration and tolerance."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from fractions import Fraction

import pytest

from quotetui.domain.contracts.dates import KeyDate, add_months, group, notice_deadline, payment_dates, term_end
from quotetui.domain.contracts.invoices import check_invoice, period_months
from quotetui.domain.contracts.sla import Outage, Tier, credit_rate, months, share
from quotetui.domain.enums import BillingCadence
from quotetui.domain.errors import BadInput


def test_a_term_starting_on_31_january_ends_on_the_last_day_of_february() -> None:
    assert term_end(date(2026, 1, 31), 1) == date(2026, 2, 28)
    assert term_end(date(2028, 1, 31), 1) == date(2028, 2, 29)  # leap year
    assert term_end(date(2026, 1, 31), 2) == date(2026, 3, 31)  # counted from the start, not chained
    assert term_end(date(2026, 1, 31), 12) == date(2027, 1, 31)
    days = list(payment_dates(date(2026, 1, 31), date(2026, 6, 30), BillingCadence.MONTHLY))
    assert days == [date(2026, 1, 31), date(2026, 2, 28), date(2026, 3, 31), date(2026, 4, 30), date(2026, 5, 31)]


def test_leap_days() -> None:
    assert add_months(date(2028, 2, 29), 12) == date(2029, 2, 28)
    assert add_months(date(2028, 2, 29), 48) == date(2032, 2, 29)
    assert add_months(date(2027, 12, 31), 2) == date(2028, 2, 29)
    assert add_months(date(2026, 11, 30), -1) == date(2026, 10, 30)


def test_payment_cadences() -> None:
    start, end = date(2026, 1, 31), date(2027, 1, 31)
    assert len(list(payment_dates(start, end, BillingCadence.MONTHLY))) == 12
    assert list(payment_dates(start, end, BillingCadence.QUARTERLY)) == [
        date(2026, 1, 31),
        date(2026, 4, 30),
        date(2026, 7, 31),
        date(2026, 10, 31),
    ]
    assert list(payment_dates(start, end, BillingCadence.UPFRONT)) == [start]
    assert list(payment_dates(start, end, BillingCadence.ANNUALLY)) == [start]


def test_notice_deadline_across_a_year_end() -> None:
    assert notice_deadline(date(2027, 1, 15), 30) == date(2026, 12, 16)
    assert notice_deadline(date(2027, 1, 1), 1) == date(2026, 12, 31)
    assert notice_deadline(date(2027, 1, 1), None) is None
    with pytest.raises(BadInput, match="cannot be negative"):
        notice_deadline(date(2027, 1, 1), -3)
    with pytest.raises(BadInput, match="at least one month"):
        term_end(date(2027, 1, 1), 0)


def test_grouping_by_urgency() -> None:
    today = date(2026, 12, 20)
    dates = [
        KeyDate(date(2026, 12, 19), "payment", "a"),
        KeyDate(today, "notice deadline", "b"),
        KeyDate(date(2027, 1, 19), "ends", "c"),  # 30 days: still "soon"
        KeyDate(date(2027, 1, 20), "ends", "d"),  # 31 days
        KeyDate(date(2027, 3, 20), "ends", "e"),  # 90 days
        KeyDate(date(2027, 3, 21), "ends", "f"),  # 91: beyond the horizon
    ]
    g = group(dates, today)
    assert [k.subject for k in g.overdue] == ["a"]
    assert [k.subject for k in g.soon] == ["b", "c"]
    assert [k.subject for k in g.later] == ["d", "e"]
    assert g.overdue[0].days_left(today) == -1


def _utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)  # type: ignore[misc]


def test_an_incident_spanning_two_months_is_split_and_weighted_by_capacity() -> None:
    outage = Outage(1, _utc(2026, 2, 27, 20), _utc(2026, 3, 1, 4), share(8, None, 8, 16))
    tiers = [Tier(Fraction(999, 1000), Fraction(1, 10)), Tier(Fraction(99, 100), Fraction(1, 4))]
    result = months(date(2026, 1, 31), date(2027, 1, 31), [outage], tiers, Fraction(204000), _utc(2026, 3, 31))
    jan, feb, mar = result
    assert jan.hours == 24 and jan.downtime_hours == 0 and jan.fee == Fraction(204000, 31)  # one day of January
    assert feb.hours == 28 * 24 and feb.downtime_hours == 14  # 28 h × half the GPUs
    assert feb.availability == 1 - Fraction(14, 672)  # 97.92 %
    assert feb.credit_rate == Fraction(1, 4) and feb.credit == 51000
    assert mar.downtime_hours == 2 and mar.credit_rate == Fraction(1, 10)  # 99.73 % < 99.9 %
    assert feb.incidents == mar.incidents == (1,)


def test_credits_exactly_at_the_schedule_boundaries() -> None:
    tiers = [Tier(Fraction(999, 1000), Fraction(1, 10)), Tier(Fraction(99, 100), Fraction(1, 4))]
    assert credit_rate(Fraction(999, 1000), tiers) == 0  # exactly 99.9 %: not below it
    assert credit_rate(Fraction(999, 1000) - Fraction(1, 10**9), tiers) == Fraction(1, 10)
    assert credit_rate(Fraction(99, 100), tiers) == Fraction(1, 10)  # exactly 99 %: only the first tier
    assert credit_rate(Fraction(99, 100) - Fraction(1, 10**9), tiers) == Fraction(1, 4)
    assert credit_rate(Fraction(1, 2), []) == 0


def test_an_open_incident_counts_until_now() -> None:
    outage = Outage(3, _utc(2026, 4, 30, 12), None, Fraction(1))
    [apr] = months(date(2026, 4, 1), date(2026, 5, 1), [outage], [], Fraction(30000), _utc(2026, 4, 30, 18))
    assert apr.downtime_hours == 6 and apr.hours == 29 * 24 + 18  # the month so far, the outage until now
    assert apr.fee == 30000  # the whole month's fee: it is owed for the month


def test_overlapping_incidents_never_take_out_more_than_the_whole_capacity() -> None:
    june = (date(2026, 6, 1), date(2026, 7, 1))  # 720 contract hours
    now = _utc(2026, 7, 1)
    tiers = [Tier(Fraction(99, 100), Fraction(1, 10))]
    # one outage recorded twice, shifted: 10:00-20:00 and 15:00-01:00 are 15 hours down, not 20
    twice = [Outage(1, _utc(2026, 6, 5, 10), _utc(2026, 6, 5, 20), Fraction(1)),
             Outage(2, _utc(2026, 6, 5, 15), _utc(2026, 6, 6, 1), Fraction(1))]  # fmt: skip
    [m] = months(*june, twice, tiers, Fraction(72000), now)
    assert (m.downtime_hours, m.availability, m.incidents) == (15, 1 - Fraction(15, 720), (1, 2))
    # a quarter of the GPUs down 0-10 h, all of them 5-15 h: 5 × 1/4 + 10 × 1 = 11.25 hours, not 12.5
    partial = [Outage(3, _utc(2026, 6, 9, 0), _utc(2026, 6, 9, 10), Fraction(1, 4)),
               Outage(4, _utc(2026, 6, 9, 5), _utc(2026, 6, 9, 15), Fraction(1))]  # fmt: skip
    [m] = months(*june, partial, tiers, Fraction(72000), now)
    assert m.downtime_hours == Fraction(45, 4)
    # the whole month down, recorded twice: availability 0 %, never -100 %
    whole = [Outage(n, _utc(2026, 6, 1), _utc(2026, 7, 1), Fraction(1)) for n in (5, 6)]
    [m] = months(*june, whole, tiers, Fraction(72000), now)
    assert (m.availability, m.credit) == (0, 7200)
    # two partial incidents on different GPUs still add: 2 + 3 of 16 GPUs down for the same 8 hours
    apart = [Outage(7, _utc(2026, 6, 20, 0), _utc(2026, 6, 20, 8), Fraction(2, 16)),
             Outage(8, _utc(2026, 6, 20, 0), _utc(2026, 6, 20, 8), Fraction(3, 16))]  # fmt: skip
    [m] = months(*june, apart, tiers, Fraction(72000), now)
    assert m.downtime_hours == Fraction(5, 2)


def test_invoice_periods_and_the_one_cent_tolerance() -> None:
    assert period_months(date(2026, 1, 1), date(2026, 1, 31)) == 1
    assert period_months(date(2026, 1, 31), date(2026, 2, 27)) == 1  # to the day before 28 February
    assert period_months(date(2026, 1, 1), date(2026, 1, 15)) == Fraction(15, 31)
    assert period_months(date(2026, 1, 1), date(2026, 3, 31)) == 3
    # in the months of a contract starting 31 January: 28 February to 30 March is its second month
    assert period_months(date(2026, 2, 28), date(2026, 3, 30), anchor=date(2026, 1, 31)) == 1
    assert period_months(date(2026, 2, 1), date(2026, 2, 28), anchor=date(2026, 1, 31)) == Fraction(27, 28) + Fraction(
        1, 31
    )
    monthly = Fraction(204000)
    exact = check_invoice(Decimal("204000.00"), date(2026, 1, 1), date(2026, 1, 31), monthly, Decimal(0), "CNY")
    assert not exact.off and exact.variance == 0
    cent = check_invoice(Decimal("204000.01"), date(2026, 1, 1), date(2026, 1, 31), monthly, Decimal(0), "CNY")
    assert cent.off and cent.variance == Decimal("0.01")
    inside = check_invoice(Decimal("204000.01"), date(2026, 1, 1), date(2026, 1, 31), monthly, Decimal("0.01"), "CNY")
    assert not inside.off
    outside = check_invoice(Decimal("203999.98"), date(2026, 1, 1), date(2026, 1, 31), monthly, Decimal("0.01"), "CNY")
    assert outside.off and outside.variance == Decimal("-0.02")
    half = check_invoice(Decimal("98709.68"), date(2026, 1, 1), date(2026, 1, 15), monthly, Decimal(0), "CNY")
    assert half.expected == Decimal("98709.68") and not half.off  # 204,000 × 15/31, to the cent


def test_renewals_are_counted_from_the_signed_end_never_chained() -> None:
    """A monthly renewal of a term ending 31 January ends 28 February, 31 March, 30 April: each counted from
    the signed end, so a short month never shortens the ones after it; a contract that does not renew keeps
    its signed term however late it is asked."""
    from quotetui.domain.contracts.dates import Term, term_payments, terms_to
    from quotetui.domain.enums import BillingCadence

    start, end = date(2026, 1, 31), date(2027, 1, 31)
    assert terms_to(start, end, 1, True, date(2027, 4, 1)) == [
        Term(start, end),
        Term(end, date(2027, 2, 28), 1),
        Term(date(2027, 2, 28), date(2027, 3, 31), 2),
        Term(date(2027, 3, 31), date(2027, 4, 30), 3),
    ]
    assert terms_to(start, end, 12, True, date(2027, 1, 30)) == [Term(start, end)]  # not yet renewed
    assert terms_to(start, end, 12, False, date(2030, 1, 1)) == [Term(start, end)]
    assert terms_to(start, end, None, True, date(2030, 1, 1)) == [Term(start, end)]  # no renewal term stated
    renewed = terms_to(start, end, 12, True, date(2027, 1, 31))  # the renewal day itself: the renewal runs
    assert renewed[-1] == Term(end, date(2028, 1, 31), 1)
    assert list(term_payments(renewed, BillingCadence.UPFRONT)) == [start, end]  # each term paid at its start
    assert list(term_payments(renewed, BillingCadence.QUARTERLY))[-2:] == [date(2027, 7, 31), date(2027, 10, 31)]


def test_notice_given_late_ends_the_contract_at_the_following_end() -> None:
    """Notice in force by a renewal's deadline stops that renewal; given after it (2027-01-10, the deadline
    2027-01-01), the renewal of 2027-01-31 still happens and the contract ends on 2028-01-31."""
    from types import SimpleNamespace

    from quotetui.domain.contracts.amendments import Amendment, contract_terms
    from quotetui.domain.contracts.dates import Term

    c = SimpleNamespace(start_date=date(2026, 1, 31), end_date=date(2027, 1, 31), term_months=12, auto_renew=False,
                        renewal_term_months=12, notice_days=30)  # fmt: skip
    late = [Amendment(1, date(2027, 1, 10), "notice", "me", {"auto_renew": [True, False]})]
    assert contract_terms(c, date(2029, 1, 1), late)[-1] == Term(date(2027, 1, 31), date(2028, 1, 31), 1)
    in_time = [Amendment(1, date(2026, 12, 1), "notice", "me", {"auto_renew": [True, False]})]
    assert contract_terms(c, date(2029, 1, 1), in_time) == [Term(date(2026, 1, 31), date(2027, 1, 31))]
