"""An invoice against the agreed price: the expected amount for its period and whether it is off.

The expected amount is the agreed monthly charge times the period's length in the contract's months (each
day counts as 1/length of the contract month it falls in). For a contract starting 1 January, 1-31 January is
one month and 1-15 January 15/31; for one starting 31 January, 28 February-30 March is one month.
The expected amount is rounded to the currency's minor unit (half-even, the engine's one rounding rule);
an invoice is off when it differs from that by more than the contract's tolerance (default 0: to the cent).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction

from quotetui.domain.contracts.charges import Charge, charged, period_months
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


def currency_refused(contract_currency: str, code: str) -> str | None:
    """Why an invoice in ``code`` cannot be a contract's in ``contract_currency`` (None: it can): the one rule of an
    invoice's currency, its contract's (it is checked against the contract's charge, which no rate converts), asked
    where one is entered and where a stored one is read."""
    if code == contract_currency:
        return None
    return _("the contract is in {currency}; an invoice in {code} cannot be checked against it").format(
        currency=contract_currency, code=code
    )


__all__ = ["InvoiceCheck", "check_invoice", "currency_refused", "period_months"]
