"""A contract's monthly charge over time: as signed, then as each amendment sets it from its effective day.

Invoices and SLA credits are measured against the charge in force on each day of their period, so an
amendment that adds GPUs from 1 March changes nothing in February's invoice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from fractions import Fraction

from quotetui.domain.contracts.dates import add_months


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
class Charge:
    since: date  # the first day this monthly charge is in force
    monthly: Fraction


def in_force(charges: Sequence[Charge], day: date) -> Fraction:
    """The monthly charge on ``day``."""
    found = charges[0].monthly
    for c in charges:
        if c.since <= day:
            found = c.monthly
    return found


def pieces(charges: Sequence[Charge], first: date, last: date) -> list[tuple[date, date, Fraction]]:
    """[first, last] (inclusive days) cut where the charge changes: (from, to, monthly) each."""
    cuts = sorted({c.since for c in charges if first < c.since <= last})
    out = []
    lo = first
    for cut in [*cuts, last + timedelta(days=1)]:
        out.append((lo, cut - timedelta(days=1), in_force(charges, lo)))
        lo = cut
    return out


def charged(charges: Sequence[Charge], first: date, last: date, anchor: date) -> Fraction:
    """What the inclusive period [first, last] costs at the charges in force, in the contract's months (each
    day is 1/length of the contract month it falls in; ``period_months``)."""
    return sum((m * period_months(lo, hi, anchor) for lo, hi, m in pieces(charges, first, last)), Fraction(0))
