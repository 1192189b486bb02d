"""Availability achieved in each calendar month of a contract and the credit owed under its SLA schedule.

Downtime is weighted by the share of capacity an incident takes out: 2 of 16 GPUs down for 10 hours is
1.25 hours of full outage; overlapping incidents add up to at most the whole capacity. A month counts only
the hours the contract runs in it. The credit is the schedule's deepest tier the month falls *strictly*
below (exactly 99.9 % earns nothing under "below 99.9 %"), as a share of that month's fee. The month in
progress counts its hours so far (availability to date).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from fractions import Fraction
from itertools import pairwise

from quotetui.domain.contracts.charges import Charge
from quotetui.domain.contracts.dates import add_months


@dataclass(frozen=True, slots=True)
class Outage:
    id: int
    started_at: datetime
    ended_at: datetime | None  # None: still open, counted up to ``now``
    share: Fraction  # of the contract's capacity, 0 < share <= 1


@dataclass(frozen=True, slots=True)
class Tier:
    below: Fraction
    credit: Fraction


@dataclass(frozen=True, slots=True)
class MonthAvailability:
    month: date  # the first day of the calendar month
    hours: Fraction  # contract hours in the month
    downtime_hours: Fraction  # weighted by capacity share
    availability: Fraction
    credit_rate: Fraction
    fee: Fraction  # the month's fee (prorated for a part month)
    incidents: tuple[int, ...]

    @property
    def credit(self) -> Fraction:
        return self.credit_rate * self.fee


def share(affected_gpus: int | None, affected_nodes: int | None, gpus_per_node: int, gpu_count: int) -> Fraction:
    """The share of the contract's capacity an incident takes out (no figure: all of it)."""
    if affected_gpus is not None:
        return min(Fraction(affected_gpus, gpu_count), Fraction(1))
    if affected_nodes is not None:
        return min(Fraction(affected_nodes * gpus_per_node, gpu_count), Fraction(1))
    return Fraction(1)


def credit_rate(availability: Fraction, tiers: list[Tier]) -> Fraction:
    owed = [t.credit for t in tiers if availability < t.below]
    return max(owed, default=Fraction(0))


def day_start(day: date, zone: str = "UTC") -> datetime:
    """Midnight starting ``day`` in the time zone ``zone``, in UTC (SLA months run from local midnight)."""
    if zone == "UTC":
        return datetime.combine(day, time(), tzinfo=UTC)
    from zoneinfo import ZoneInfo

    return datetime.combine(day, time(), tzinfo=ZoneInfo(zone)).astimezone(UTC)


def _hours(a: datetime, b: datetime) -> Fraction:
    delta = b - a
    return Fraction(delta.days * 86400 + delta.seconds, 3600) + Fraction(delta.microseconds, 3_600_000_000)


def _downtime(lo: datetime, hi: datetime, outages: list[Outage], now: datetime) -> tuple[Fraction, list[int]]:
    """Capacity-weighted hours down between ``lo`` and ``hi``. Incidents that overlap add their shares, but
    never beyond the whole capacity: two incidents recorded for one outage (or a full outage during a partial
    one) cannot take out more than every GPU, so availability never goes below zero."""
    spans = [(max(lo, o.started_at), min(hi, o.ended_at or now), o) for o in outages]
    spans = [(a, b, o) for a, b, o in spans if b > a]
    edges = sorted({t for a, b, _ in spans for t in (a, b)})
    down = Fraction(0)
    for a, b in pairwise(edges):
        taken = sum((o.share for s, e, o in spans if s <= a and b <= e), Fraction(0))
        down += _hours(a, b) * min(taken, Fraction(1))
    return down, [o.id for _, _, o in spans]


def _fee(starts: list[tuple[datetime, Fraction]], lo: datetime, hi: datetime) -> Fraction:
    """The monthly charges in force over [lo, hi), each times its hours there."""
    total = Fraction(0)
    for i, (since, monthly) in enumerate(starts):
        until = starts[i + 1][0] if i + 1 < len(starts) else hi
        a, b = max(lo, since if i else lo), min(hi, until)
        if b > a:
            total += monthly * _hours(a, b)
    return total


def months_served(start: date, end: date, on: date) -> int:
    """The months of service begun by ``on`` (the day itself served), counted from ``start`` as the term's months
    are (``dates.add_months``: 31 January, 28 February, 31 March …) and never past the term's ``end``: a 6-month
    term has served 6 months once it has run out, however long ago."""
    served = 0
    while (day := add_months(start, served)) <= on and day < end:
        served += 1
    return served


def months(
    start: date,
    end: date,
    outages: list[Outage],
    tiers: list[Tier],
    monthly_fee: Fraction | Sequence[Charge],
    now: datetime,
    zone: str = "UTC",
) -> list[MonthAvailability]:
    """Every calendar month from the contract's start to ``now`` (or its end), with its availability; months
    and days run from midnight in ``zone`` (the user's time zone). ``monthly_fee``: the agreed monthly charge,
    or the charges in force over time (an amended contract's: each hour at the charge of its day)."""
    charges = [Charge(start, monthly_fee)] if isinstance(monthly_fee, Fraction) else list(monthly_fee)
    starts = [(day_start(c.since, zone), c.monthly) for c in charges]
    result = []
    first = start.replace(day=1)
    stop = min(day_start(end, zone), now)
    month = first
    while day_start(month, zone) < stop:
        following = add_months(month, 1)
        lo = max(day_start(month, zone), day_start(start, zone))
        hi = min(day_start(following, zone), day_start(end, zone), now)
        if hi <= lo:
            month = following
            continue
        hours = _hours(lo, hi)
        down, hit = _downtime(lo, hi, outages, now)
        availability = 1 - down / hours
        # the month's hours (a DST month has 743 or 745)
        whole = _hours(day_start(month, zone), day_start(following, zone))
        fee = _fee(starts, lo, min(day_start(following, zone), day_start(end, zone))) / whole
        result.append(
            MonthAvailability(month, hours, down, availability, credit_rate(availability, tiers), fee, tuple(hit))
        )
        month = following
    return result
