"""An invoice against the agreed price: the expected amount for its period and whether it is off.

The expected amount is the agreed monthly charge times the period's length in the contract's months (each
day counts as 1/length of the contract month it falls in). For a contract starting 1 January, 1-31 January is
one month and 1-15 January 15/31; for one starting 31 January, 28 February-30 March is one month.
The expected amount is rounded to the currency's minor unit (half-even, the engine's one rounding rule);
an invoice is off when it differs from that by more than the contract's tolerance (default 0: to the cent).

A payment date is settled when paid invoices cover every day of the period it pays for (``dates.billing_periods``)
and none of them is short of its check's expected amount (below it by more than the tolerance; one above it, or
equal, is not short); some paid invoice over its period, but short or leaving days uncovered, makes it part paid
(``dates.PartPaid``): :func:`payment_paid`, the one rule ``contracts due``, ``contracts show`` and the TUI follow.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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
    exact = monthly * span if isinstance(monthly, Fraction) else charged(monthly, start, end, anchor or start)
    expected = dec(exact, minor_units(currency))
    return InvoiceCheck(expected, amount - expected, tolerance, span)


def payment_paid(
    first: date, last: date, paid: Iterable[tuple[date, date, InvoiceCheck]], currency: str
) -> tuple[bool, PartPaid | None]:
    """How the payment date whose period is [``first``, ``last``] (inclusive) stands against the ``paid`` invoices
    (each its period, inclusive, and its check): (settled, part paid). Settled: they cover every day of the period
    and those over it are short of nothing; part paid: some cover a day of it, but are short, or leave days
    uncovered (each short invoice counts in full on every payment date its period meets); neither: unpaid."""
    over = [(max(a, first), min(b, last), check) for a, b, check in paid if a <= last and b >= first]
    if not over:
        return False, None
    covered, reach = 0, first - timedelta(days=1)  # days covered, counted once each, up to ``reach``
    for a, b, _check in sorted(over, key=lambda x: x[0]):
        if b > reach:
            covered += (b - max(a, reach + timedelta(days=1))).days + 1
            reach = b
    uncovered = (last - first).days + 1 - covered
    short = sum((check.short_by for _a, _b, check in over), Decimal(0))
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


__all__ = ["InvoiceCheck", "check_invoice", "currency_refused", "payment_paid", "period_months"]
