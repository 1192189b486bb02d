"""An invoice against the agreed price: the expected amount for its period and whether it is off.

The expected amount is the agreed monthly charge times the period's length in the contract's months (each
day counts as 1/length of the contract month it falls in). For a contract starting 1 January, 1-31 January is
one month and 1-15 January 15/31; for one starting 31 January, 28 February-30 March is one month.
The expected amount is rounded to the currency's minor unit (half-even, the engine's one rounding rule);
an invoice is off when it differs from that by more than the contract's tolerance (default 0: to the cent).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction

from quotetui.domain.contracts.dates import add_months
from quotetui.domain.currency import minor_units
from quotetui.domain.economics.exact import dec


def period_months(start: date, end: date, anchor: date | None = None) -> Fraction:
    """Months in the inclusive period [start, end], measured in the contract's own months: each day counts
    as 1/length of the contract month it falls in (months run from ``anchor``, the contract's start, so a
    contract starting 31 January has months 31 Jan–27 Feb, 28 Feb–30 Mar, 31 Mar–29 Apr …)."""
    anchor = anchor or start
    stop = end + timedelta(days=1)
    k = (start.year - anchor.year) * 12 + start.month - anchor.month - 1
    while add_months(anchor, k + 1) <= start:
        k += 1
    total = Fraction(0)
    while add_months(anchor, k) < stop:
        lo, hi = add_months(anchor, k), add_months(anchor, k + 1)
        days = (min(hi, stop) - max(lo, start)).days
        if days > 0:
            total += Fraction(days, (hi - lo).days)
        k += 1
    return total


@dataclass(frozen=True, slots=True)
class InvoiceCheck:
    expected: Decimal
    variance: Decimal  # invoiced − expected
    tolerance: Decimal
    months: Fraction

    @property
    def off(self) -> bool:
        return abs(self.variance) > self.tolerance


def check_invoice(
    amount: Decimal,
    start: date,
    end: date,
    monthly: Fraction,
    tolerance: Decimal,
    currency: str,
    anchor: date | None = None,
) -> InvoiceCheck:
    span = period_months(start, end, anchor)
    expected = dec(monthly * span, minor_units(currency))
    return InvoiceCheck(expected, amount - expected, tolerance, span)
