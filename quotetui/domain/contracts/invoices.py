"""An invoice against the agreed price: the expected amount for its period and whether it is off.

The expected amount is the agreed monthly charge times the period's length in the contract's months (each
day counts as 1/length of the contract month it falls in). For a contract starting 1 January, 1-31 January is
one month and 1-15 January 15/31; for one starting 31 January, 28 February-30 March is one month.
The expected amount is rounded to the currency's minor unit (half-even, the engine's one rounding rule);
an invoice is off when it differs from that by more than the contract's tolerance (default 0: to the cent).

A payment date is settled when paid invoices cover every day of the period it pays for (``dates.billing_periods``)
and none of them is short of its check's expected amount there (below it by more than the tolerance; one above it,
or equal, is not short); some paid invoice over its period, but short or leaving days uncovered, makes it part paid
(``dates.PartPaid``): :func:`payments_paid`, the one rule ``contracts due``, ``contracts show`` and the TUI follow.
A short invoice whose period meets several payment periods is short once: its shortfall is shared among them by
each one's part of its expected amount (:func:`apportioned`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction

from quotetui.domain.contracts.charges import Charge, charged, period_months
from quotetui.domain.contracts.dates import PartPaid
from quotetui.domain.currency import minor_units
from quotetui.domain.economics.exact import dec
from quotetui.language import _


@dataclass(frozen=True, slots=True)
class InvoiceCheck:
    expected: Decimal
    variance: Decimal  # invoiced − expected
    tolerance: Decimal
    months: Fraction

    @property
    def off(self) -> bool:
        return abs(self.variance) > self.tolerance

    @property
    def short_by(self) -> Decimal:
        """What the invoice falls short of the expected amount, where it is off below it (0: not short)."""
        return -self.variance if self.off and self.variance < 0 else Decimal(0)


def check_invoice(
    amount: Decimal,
    start: date,
    end: date,
    monthly: Fraction | Sequence[Charge],
    tolerance: Decimal,
    currency: str,
    anchor: date | None = None,
) -> InvoiceCheck:
    """``monthly``: the agreed monthly charge, or the charges in force over time (``amendments.charges_of``: an
    amended contract's)."""
    span = period_months(start, end, anchor)
    expected = dec(expected_exact(start, end, monthly, anchor), minor_units(currency))
    return InvoiceCheck(expected, amount - expected, tolerance, span)


def expected_exact(
    start: date, end: date, monthly: Fraction | Sequence[Charge], anchor: date | None = None
) -> Fraction:
    """What the inclusive period [``start``, ``end``] is expected to cost, exactly (before rounding): the agreed
    ``monthly`` charge (or the charges in force over time) times its contract months (:func:`check_invoice`)."""
    if isinstance(monthly, Fraction):
        return monthly * period_months(start, end, anchor)
    return charged(monthly, start, end, anchor or start)


def apportioned(
    short: Decimal,
    start: date,
    end: date,
    periods: Sequence[tuple[date, date]],
    monthly: Fraction | Sequence[Charge],
    anchor: date | None,
    currency: str,
) -> list[Decimal]:
    """An invoice's shortfall ``short`` (its check's ``short_by``) over [``start``, ``end``], shared among the
    payment ``periods`` (inclusive) by each one's part of the invoice's expected amount (:func:`expected_exact` of
    the invoice's days inside it), to the currency's minor unit, the remainder going to the largest fractions
    (the earliest of equal ones): one per period, 0 where the invoice does not meet it. The parts sum to ``short``
    when the periods hold all the invoice's days; a part outside every period keeps its share, said on none."""
    whole = expected_exact(start, end, monthly, anchor)
    if not short or whole <= 0:
        return [Decimal(0)] * len(periods)
    parts = [
        expected_exact(max(start, a), min(end, b), monthly, anchor) if start <= b and end >= a else Fraction(0)
        for a, b in periods
    ]
    weights = [*parts, whole - sum(parts, Fraction(0))]  # the last: the invoice's days outside every period
    places = minor_units(currency)
    exact = [Fraction(short) * 10**places * w / whole for w in weights]  # in minor units
    units = [int(x) for x in exact]  # floored (each is >= 0)
    for i in sorted(range(len(exact)), key=lambda i: (units[i] - exact[i], i))[: round(sum(exact)) - sum(units)]:
        units[i] += 1
    return [Decimal(n).scaleb(-places) for n in units[:-1]]


def payments_paid(
    periods: Sequence[tuple[date, date]],
    paid: Sequence[tuple[date, date, InvoiceCheck]],
    monthly: Fraction | Sequence[Charge],
    anchor: date | None,
    currency: str,
) -> list[tuple[bool, PartPaid | None]]:
    """How each payment date, by the period it pays for ([first, last], inclusive: ``dates.billing_periods``),
    stands against the ``paid`` invoices (each its period, inclusive, and its check against the charge ``monthly``
    of the contract starting on ``anchor``): (settled, part paid). Settled: they cover every day of the period and
    are short of nothing there; part paid: some cover a day of it, but are short there, or leave days uncovered
    (a short invoice is short on each period by its share of its shortfall, :func:`apportioned`, so the parts
    said add up to its shortfall once); neither: unpaid."""
    shorts = [Decimal(0)] * len(periods)
    for a, b, check in paid:
        if check.short_by:
            parts = apportioned(check.short_by, a, b, periods, monthly, anchor, currency)
            shorts = [s + p for s, p in zip(shorts, parts, strict=True)]
    return [_payment_paid(a, b, paid, short, currency) for (a, b), short in zip(periods, shorts, strict=True)]


def _payment_paid(
    first: date, last: date, paid: Sequence[tuple[date, date, InvoiceCheck]], short: Decimal, currency: str
) -> tuple[bool, PartPaid | None]:
    """One payment date of :func:`payments_paid`, ``short``: what the paid invoices are short of there."""
    over = [(max(a, first), min(b, last)) for a, b, _check in paid if a <= last and b >= first]
    if not over:
        return False, None
    covered, reach = 0, first - timedelta(days=1)  # days covered, counted once each, up to ``reach``
    for a, b in sorted(over):
        if b > reach:
            covered += (b - max(a, reach + timedelta(days=1))).days + 1
            reach = b
    uncovered = (last - first).days + 1 - covered
    if not short and not uncovered:
        return True, None
    return False, PartPaid(short, uncovered, currency)


def currency_refused(contract_currency: str, code: str) -> str | None:
    """Why an invoice in ``code`` cannot be a contract's in ``contract_currency`` (None: it can): the one rule of an
    invoice's currency, its contract's (it is checked against the contract's charge, which no rate converts), asked
    where one is entered and where a stored one is read."""
    if code == contract_currency:
        return None
    return _("the contract is in {currency}; an invoice in {code} cannot be checked against it").format(
        currency=contract_currency, code=code
    )


__all__ = [
    "InvoiceCheck",
    "apportioned",
    "check_invoice",
    "currency_refused",
    "expected_exact",
    "payments_paid",
    "period_months",
]
