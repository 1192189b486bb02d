"""Calendar arithmetic of a contract: month-end safe terms, notice deadlines, payment dates, key dates.

A term of N months starting on day D ends on day D of the N-th month after (the last day of that month
when it has no day D: 31 January + 1 month = 28 or 29 February). Months are always counted from the start,
never chained, so a contract starting 31 January bills on 28/29 February, 31 March, 30 April …
``end_date`` is the day the term runs out: service covers [start, end) and a renewal begins on it. A contract
that renews by itself runs on past it, term after term of its renewal months, counted from the start (never
chained either): :func:`terms_to` gives the signed term and every renewal begun or certain on a day, so the
payments, the next notice deadline and the next renewal follow the contract after its signed end.
"""

from __future__ import annotations

import calendar
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from quotetui.domain.economics.display import money_text
from quotetui.domain.enums import BillingCadence
from quotetui.domain.errors import BadInput
from quotetui.language import N_, _, ngettext
from quotetui.language.dates import day_text
from quotetui.language.lists import aside, clauses, labelled, listed

CADENCE_MONTHS = {
    BillingCadence.MONTHLY: 1,
    BillingCadence.QUARTERLY: 3,
    BillingCadence.HALF_YEARLY: 6,
    BillingCadence.ANNUALLY: 12,
}
SOON_DAYS = 30
LATER_DAYS = 90

NOTICE_DEADLINE = N_("notice deadline")
ENDS = N_("ends")
RENEWS = N_("renews")
PAYMENT = N_("payment")
QUOTE_EXPIRES = N_("quote expires")
"""The kinds of key date (:attr:`KeyDate.kind`): stored in no table, but compared, exported as codes
(``--json``, the calendar's UIDs) and so English; each is its own word's message id (:attr:`KeyDate.word`)."""


def add_months(day: date, months: int) -> date:
    """``day`` plus ``months`` calendar months, clamped to the end of the target month."""
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    last = calendar.monthrange(year, month + 1)[1]
    return date(year, month + 1, min(day.day, last))


def term_end(start: date, term_months: int) -> date:
    if term_months <= 0:
        raise BadInput(_("the term must be at least one month, not {months}").format(months=term_months))
    return add_months(start, term_months)


def notice_deadline(end: date, notice_days: int | None) -> date | None:
    """The last day to give notice: ``notice_days`` before the end (None: no notice period), as
    :func:`last_notice_day` counts it."""
    if notice_days is None:
        return None
    if notice_days < 0:
        raise BadInput(_("the notice period cannot be negative ({days} days)").format(days=notice_days))
    return last_notice_day(end, notice_days)


def last_notice_day(end: date, notice_days: int | None) -> date:
    """The last day notice stops the renewal at ``end``: ``notice_days`` before it, and never ``end`` itself (the
    renewal begins that day, so notice given then is too late): with no notice period, the term's last day. The
    one rule of when a renewal becomes certain (:func:`terms_to`) and of which notice stops it
    (``amendments.renews_at``)."""
    return end - timedelta(days=max(notice_days or 0, 1))


def payment_dates(start: date, end: date, cadence: BillingCadence) -> Iterator[date]:
    """The days a bill falls due: the start, then every cadence after it while the term runs."""
    if cadence is BillingCadence.UPFRONT:
        yield start
        return
    step = CADENCE_MONTHS[cadence]
    k = 0
    while (day := add_months(start, k * step)) < end:
        yield day
        k += 1


@dataclass(frozen=True, slots=True)
class Term:
    """One term of a contract: the signed one (``renewal`` 0) or its ``renewal``-th renewal; service covers
    [start, end)."""

    start: date
    end: date
    renewal: int = 0


def terms_to(
    start: date,
    end: date,
    renewal_months: int | None,
    auto_renew: bool,
    on: date,
    notice_days: int | None = None,
    term_months: int | None = None,
    renews: Callable[[date], bool] | None = None,
) -> list[Term]:
    """The signed term, then each renewal of an auto-renewing contract that has begun or is certain on ``on``:
    certain once the notice deadline before it (:func:`last_notice_day` before the term's end) has passed. The last term
    listed is the first whose renewal can still be stopped, so its notice deadline is the next one to act on.
    The k-th renewal ends ``term_months`` + k × ``renewal_months`` months after the start (counted from the
    start, never chained: a term from 31 August renews to the last day of February, then back to the 31st). A
    contract that does not renew by itself (or states no renewal term) has its signed term alone; ``renews``: whether
    it renews at a term's end, where an amendment changed it (notice given)."""
    terms = [Term(start, end)]
    if not auto_renew or renewal_months is None or renewal_months < 1:
        return terms
    months = term_months if term_months is not None else _months_between(start, end)
    while last_notice_day(terms[-1].end, notice_days) < on:
        if renews is not None and not renews(terms[-1].end):
            break  # notice was given: it ends there
        k = len(terms)
        terms.append(Term(terms[-1].end, add_months(start, months + k * renewal_months), k))
    return terms


def _months_between(start: date, end: date) -> int:
    """The whole months from ``start`` to ``end`` (a term's length when it is not given)."""
    return (end.year - start.year) * 12 + end.month - start.month


def term_payments(terms: list[Term], cadence: BillingCadence) -> Iterator[date]:
    """The days a bill falls due over ``terms``: counted from the signed start while the terms run (never
    chained); billed upfront, each term's start."""
    if cadence is BillingCadence.UPFRONT:
        yield from (t.start for t in terms)
        return
    yield from payment_dates(terms[0].start, terms[-1].end, cadence)


def billing_periods(terms: list[Term], cadence: BillingCadence) -> Iterator[tuple[date, date]]:
    """Each payment date over ``terms`` (:func:`term_payments`) with the last day of the period it pays for: from
    that date to the day before the next one, or before the last term's end (inclusive days, as an invoice's)."""
    days = list(term_payments(terms, cadence))
    for day, after in zip(days, [*days[1:], terms[-1].end], strict=True):
        yield day, max(day, after - timedelta(days=1))


@dataclass(frozen=True, slots=True)
class PartPaid:
    """A payment date that paid invoices settle in part (``invoices.payments_paid``): what they fall short of the
    invoice check's expected amounts, and the days of its period no paid invoice covers."""

    short_by: Decimal
    days_uncovered: int
    currency: str

    @property
    def words(self) -> str:
        """What is short, in the language in use: ``short by 79,999.00 CNY, 3 days with no paid invoice``."""
        parts = (
            [_("short by {amount}").format(amount=money_text(self.short_by, self.currency))] if self.short_by else []
        )
        if self.days_uncovered:
            days = ngettext("{n} day with no paid invoice", "{n} days with no paid invoice", self.days_uncovered)
            parts.append(days.format(n=f"{self.days_uncovered:,}"))
        return listed(parts)

    @property
    def said(self) -> str:
        """``part paid: short by 79,999.00 CNY`` (a payment date's detail)."""
        return labelled(_("part paid"), self.words)


@dataclass(frozen=True, slots=True)
class KeyDate:
    day: date
    kind: str  # notice deadline | ends | renews | payment | quote expires (English: a code; ``word`` shows it)
    subject: str  # "contract SG-2026-01 (一万网络 8×H100)" or "offer #8 …" (in the language in use)
    contract_id: int | None = None
    offer_id: int | None = None
    detail: str = ""  # in the language in use
    settled: bool = False  # a payment whose period paid invoices cover in full, short of nothing
    part_paid: PartPaid | None = None  # a payment some paid invoice covers, short of what is expected

    def days_left(self, today: date) -> int:
        return (self.day - today).days

    @property
    def word(self) -> str:
        """The kind of date as people read it, in the language in use (``notice deadline``)."""
        return _(self.kind) if self.kind else ""

    @property
    def said(self) -> str:
        """The kind of date before what it is about, in the language in use: ``payment: contract #1 (一万网络
        8×H100)``, ``付款：合同 #1（一万网络 8×H100）`` (every list of key dates, the calendar file)."""
        return labelled(self.word, self.subject)

    def told(self, text: str, detail: str | None = None) -> str:
        """``text`` (the date's :attr:`word` or :attr:`said`) with the date's detail after it (or ``detail``,
        what a list says of it instead), where it has one: ``notice deadline — else it renews …``,
        ``通知截止日，否则将于……续约`` (every list of key dates)."""
        detail = self.detail if detail is None else detail
        return _("{date} — {detail}").format(date=text, detail=detail) if detail else text

    @property
    def uid(self) -> str:
        """Stable across exports: the same date of the same thing keeps its UID, so calendars update."""
        owner = f"contract-{self.contract_id}" if self.contract_id is not None else f"offer-{self.offer_id}"
        return f"{owner}-{self.kind.replace(' ', '-')}-{self.day.isoformat()}@quotetui"


OVERDUE_NAMED = 3
"""How many overdue payment dates :func:`overdue_words` names (the oldest); the rest are counted."""


def overdue_payments(dates: Iterable[KeyDate], today: date) -> list[KeyDate]:
    """The payment dates that have passed (before ``today``) and are not settled (``invoices.payments_paid``: paid
    invoices cover their whole period, short of nothing), oldest first, those part paid among them: the one rule of
    an overdue payment, which ``contracts due``, ``contracts show`` and the TUI's contract all ask."""
    return sorted((k for k in dates if k.kind == PAYMENT and not k.settled and k.day < today), key=lambda k: k.day)


def overdue_words(overdue: Sequence[KeyDate]) -> str:
    """Overdue payment dates (:func:`overdue_payments`, oldest first) in words, in the language in use: how many
    have no paid invoice, and the oldest :data:`OVERDUE_NAMED` of them; then how many are part paid, each with what
    is short: ``7 payment dates passed with no paid invoice (2026-06-01, 2026-07-01, 2026-08-01 and 4 more); 1
    payment date passed part paid (2026-02-28: short by 79,999.00 CNY)``."""
    unpaid = [k.day for k in overdue if k.part_paid is None]
    part = [k for k in overdue if k.part_paid is not None]
    said = []
    if unpaid:
        none = ngettext(
            "{n} payment date passed with no paid invoice", "{n} payment dates passed with no paid invoice", len(unpaid)
        )
        said.append(
            aside(
                none.format(n=f"{len(unpaid):,}"),
                _named(listed(day_text(d) for d in unpaid[:OVERDUE_NAMED]), len(unpaid)),
            )
        )
    if part:
        some = ngettext("{n} payment date passed part paid", "{n} payment dates passed part paid", len(part))
        each = clauses(labelled(day_text(k.day), k.part_paid.words) for k in part[:OVERDUE_NAMED] if k.part_paid)
        said.append(aside(some.format(n=f"{len(part):,}"), _named(each, len(part))))
    return clauses(said)


def _named(named: str, n: int) -> str:
    """The oldest :data:`OVERDUE_NAMED` named, the rest counted: ``2026-06-01, 2026-07-01, 2026-08-01 and 4 more``."""
    return _("{days} and {n} more").format(days=named, n=f"{n - OVERDUE_NAMED:,}") if n > OVERDUE_NAMED else named


@dataclass(frozen=True, slots=True)
class Grouped:
    overdue: list[KeyDate]
    soon: list[KeyDate]  # within 30 days
    later: list[KeyDate]  # within 31-90 days


def group(dates: list[KeyDate], today: date, within: int = LATER_DAYS) -> Grouped:
    """Overdue (before today), within 30 days (today included), and 31 to ``within`` days."""
    ordered = sorted(dates, key=lambda k: (k.day, k.kind, k.subject))
    return Grouped(
        [k for k in ordered if k.day < today],
        [k for k in ordered if 0 <= k.days_left(today) <= min(SOON_DAYS, within)],
        [k for k in ordered if SOON_DAYS < k.days_left(today) <= within],
    )
