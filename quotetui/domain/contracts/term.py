"""What belongs to a contract's term: an incident starts in it, an invoice bills days of it.

The term is [start, end) (``dates.py``): service begins at midnight on the first day, in the user's time zone,
as the SLA months do (``sla.py``), and ``end`` is the day a renewal would begin, so the last day billed is the
day before it. An outage before service began or after the term ran out earns no credit under this contract,
and an invoice for days outside it cannot be checked against the agreed price: both are refused, naming the
field and the term's date they conflict with. Each function returns ``{field name: message}``, as the
entities' rules do, for the services to raise as ``FieldErrors`` (the form shows it in place, the CLI names
the flag, exit 2).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from quotetui.domain.contracts.sla import day_start
from quotetui.domain.timeutil import local_text
from quotetui.language import _


def incident_in_term(started_at: datetime, start: date, end: date, zone: str = "UTC") -> dict[str, str]:
    """An incident starts on or after the term's first midnight and before the term runs out (it may go on
    past the end: only its hours inside the term count)."""
    shown = local_text(started_at, zone)
    if started_at < day_start(start, zone):
        return {
            "started_at": _("{day} is before the contract's term starts ({start})").format(
                day=shown, start=start.isoformat()
            )
        }
    if started_at >= day_start(end, zone):
        last = (end - timedelta(days=1)).isoformat()
        return {
            "started_at": _("{day} is after the contract's term ends (last day {last})").format(day=shown, last=last)
        }
    return {}


def invoice_in_term(period_start: date, period_end: date, start: date, end: date) -> dict[str, str]:
    """An invoice bills days of the term: from its first day to its last (the day before ``end``)."""
    last = end - timedelta(days=1)
    problems = {}
    if period_start < start:
        problems["period_start"] = _("{day} is before the contract's term starts ({start})").format(
            day=period_start.isoformat(), start=start
        )
    elif period_start > last:
        problems["period_start"] = _("{day} is after the contract's term ends (last day {last})").format(
            day=period_start.isoformat(), last=last
        )
    if period_end > last and "period_start" not in problems:
        problems["period_end"] = _("{day} is after the contract's term ends (last day {last})").format(
            day=period_end.isoformat(), last=last
        )
    return problems


def invoice_overlaps(
    period_start: date, period_end: date, others: list[tuple[int | None, date, date]]
) -> dict[str, str]:
    """A day of the term is billed once: an invoice whose period shares a day with another of the contract's
    (``others``: id, first and last day) would count that spend twice. The earliest such invoice is named."""
    clashes = sorted((s, e, i) for i, s, e in others if s <= period_end and period_start <= e)
    if not clashes:
        return {}
    s, e, i = clashes[0]
    return {
        "period_start": _(
            "{first} – {last} overlaps invoice #{id} ({other_first} – {other_last}): a day is billed once; correct "
            "that invoice instead"
        ).format(
            first=period_start.isoformat(),
            last=period_end.isoformat(),
            id=i,
            other_first=s.isoformat(),
            other_last=e.isoformat(),
        )
    }
