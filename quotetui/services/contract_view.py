"""Contracts as the buyer follows them: key dates (grouped by urgency), availability and SLA credits per
month, invoices against the agreed price, spend against the commitment. Both front ends and the export
read these views."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from quotetui.domain.contracts.amendments import (
    TITLES,
    Amendment,
    InForce,
    charges_of,
    contract_terms,
    in_force,
    renews_at,
    term_on,
)
from quotetui.domain.contracts.charges import Charge
from quotetui.domain.contracts.dates import (
    ENDS,
    NOTICE_DEADLINE,
    PAYMENT,
    QUOTE_EXPIRES,
    RENEWS,
    KeyDate,
    PartPaid,
    Term,
    billing_periods,
    group,
    last_notice_day,
    notice_deadline,
    overdue_payments,
    overdue_words,
)
from quotetui.domain.contracts.invoices import InvoiceCheck, check_invoice, currency_refused, payments_paid
from quotetui.domain.contracts.sla import MonthAvailability, Outage, Tier, months, months_served, share
from quotetui.domain.economics.display import amount_text, stored_text
from quotetui.domain.economics.exact import dec, percent_text, q
from quotetui.domain.economics.inputs import DiscountTerm
from quotetui.domain.enums import shown_stored
from quotetui.domain.errors import BadInput, DatabaseProblem
from quotetui.domain.timeutil import as_utc
from quotetui.language import _, ngettext
from quotetui.language.dates import day_text
from quotetui.language.lists import aside, clauses
from quotetui.services.contract_rows import (
    ContractRow,
    IncidentRow,
    InvoiceRow,
    amendments_of,
    incidents_of,
    invoices_of,
    open_quotes,
    signed_contracts,
)
from quotetui.services.engine_inputs import load_assumptions_of
from quotetui.store.reader import Reader, reading

if TYPE_CHECKING:
    from quotetui.store.engine import Database


SAID_AS_TERMS = frozenset({"gpus", "nodes", "gpu", "monthly_charge"})
"""The terms an amendment to come is said by as they will be (``ContractView.coming_words``); the nodes follow
the GPUs. Any other term it changes is said before and after."""


@dataclass(frozen=True, slots=True)
class InvoiceLine:
    invoice: InvoiceRow
    check: InvoiceCheck


@dataclass(slots=True)
class ContractView:
    contract: ContractRow
    provider: str
    offer: str
    incidents: list[IncidentRow]
    invoices: list[InvoiceLine]
    months: list[MonthAvailability]
    dates: list[KeyDate] = field(default_factory=list)
    amendments: list[Amendment] = field(default_factory=list)
    time_zone: str = "UTC"  # the user's: months run from midnight there, incident times are shown there
    terms: list[Term] = field(default_factory=list)  # the signed term, its renewals begun or certain (terms_to)
    on: date | None = None  # the view's day

    @property
    def running(self) -> Term:
        """The term running on the view's day: the signed one, or the renewal an auto-renewing contract is in
        (the signed term still, once a contract that does not renew has ended)."""
        c = self.contract
        terms = self.terms or [Term(c.start_date, c.end_date)]
        on = self.on or terms[0].start
        return next((t for t in terms if t.start <= on < t.end), terms[0] if on < terms[0].start else terms[-1])

    def missed_notice(self, today: date) -> date | None:
        """The latest notice deadline already past whose renewal (or end) is still to come on ``today``: the one
        a buyer has missed and may still negotiate; None when there is none."""
        terms = self.terms or [self.running]
        missed = [d for t in terms if (d := self.notice_due(t)) is not None and d < today < t.end]
        return max(missed, default=None)

    def notice_due(self, term: Term) -> date | None:
        """The notice deadline of ``term`` (``running_notice``), where notice is left to give on the view's day: the
        term renews at its end as it stands on that deadline (``renews``: an amendment recorded to stop it by then,
        in force or still to come, leaves none to give), and no amendment in force on the view's day, past that
        deadline, has given notice since (too late for this renewal: it stops the next one). None: no notice
        period, or none to give."""
        deadline = running_notice(self.contract, term)
        if deadline is None or not self.renews(term.end):
            return None
        given = deadline < self._day and not term_on(self.amendments, "auto_renew", self.contract.auto_renew, self._day)
        return None if given else deadline

    @property
    def _day(self) -> date:
        """The view's day (the start, for a view made without one)."""
        return self.on or self.contract.start_date

    @property
    def notice_by(self) -> date | None:
        """The last day to give notice on the running term (the signed deadline until the first renewal); None once
        the contract has ended (``ended``), or where no notice is left to give (``notice_due``)."""
        return None if self.ended else self.notice_due(self.running)

    def renews(self, end: date) -> bool:
        """Whether the contract renews at a term's ``end``, as it stood on that renewal's notice deadline
        (``amendments.renews_at``)."""
        c = self.contract
        return renews_at(self.amendments, c.auto_renew, c.notice_days)(end)

    @property
    def ended(self) -> date | None:
        """The day the contract ended, when it has by the view's day: its last term ran out with no renewal after
        it (signed not to renew, or notice given by an amendment); None while it runs."""
        last = (self.terms or [self.running])[-1]
        on = self.on or self.contract.start_date
        return last.end if on >= last.end and not self.renews(last.end) else None

    @property
    def ended_by(self) -> Amendment | None:
        """The amendment that gave notice, when one ended the contract (``ended``): the last one of its renewal in
        force on the notice deadline of the term it ended; None when it ended as signed, or runs."""
        end = self.ended
        return None if end is None else self.stopped_by(end)

    def stopped_by(self, end: date) -> Amendment | None:
        """The amendment that gives notice to end at a term's ``end``: the last one of its renewal in force on that
        end's notice deadline (``dates.last_notice_day``), when it stops the renewal; None: none did."""
        deadline = last_notice_day(end, self.contract.notice_days)
        said = [a for a in self.amendments if "auto_renew" in a.changes and a.effective <= deadline]
        return said[-1] if said and not said[-1].changes["auto_renew"][1] else None

    @property
    def term_said(self) -> str | None:
        """The running term in words, in the language in use, as ``contracts show`` and the TUI's contract say it:
        the renewal running; once ended, the day it ended (and the amendment that gave notice); None: the signed
        term runs."""
        c = self.contract
        if end := self.ended:
            if (by := self.ended_by) is None:
                return _("ended on {day}").format(day=day_text(end))
            ended = _("ended on {day}: amendment {seq} (from {effective}) stopped its renewal")
            return ended.format(day=day_text(end), seq=by.seq, effective=day_text(by.effective))
        t = self.running
        if not t.renewal:
            return None
        renewed = ngettext(
            "renewed by itself ({n} time): the term running is {start} → {end} ({renewal})",
            "renewed by itself ({n} times): the term running is {start} → {end} ({renewal})",
            t.renewal,
        )
        return renewed.format(
            n=f"{t.renewal:,}", start=day_text(t.start), end=day_text(t.end), renewal=renewal_words(c)
        )

    @property
    def notice_said(self) -> str | None:
        """The notice to give on the running term, in words (in the language in use): by when, and the renewal
        (as it stands on that deadline) that follows without it; once an amendment in force gave it, that it did and
        the day the contract ends (after the renewal it came too late for); None: none to give (a contract that
        ends anyway, or has ended)."""
        if (deadline := self.notice_by) is None:
            running = self.running
            later = [t for t in self.terms or [running] if t.end >= running.end]
            given = next(((t, by) for t in later if (by := self.stopped_by(t.end)) is not None), None)
            if self.ended or given is None or given[1].effective > self._day:
                return None
            (term, by), effective = given, day_text(given[1].effective)
            if term.end == running.end:
                said = _("notice given (amendment {seq}, from {effective}): it ends on {day}")
                return said.format(seq=by.seq, effective=effective, day=day_text(term.end))
            said = _("notice given (amendment {seq}, from {effective}): it renews on {renews} and ends on {day}")
            return said.format(seq=by.seq, effective=effective, renews=day_text(running.end), day=day_text(term.end))
        days = self.contract.notice_days or 0
        notice = ngettext(
            "notice by {day} ({n} day), else it auto-renews for {renewal}",
            "notice by {day} ({n} days), else it auto-renews for {renewal}",
            days,
        )
        return notice.format(day=day_text(deadline), n=f"{days:,}", renewal=renewal_words(self.contract))

    @property
    def id(self) -> int:
        assert self.contract.id is not None
        return self.contract.id

    @property
    def title(self) -> str:
        """The contract's reference, else ``contract #3`` (in the language in use)."""
        return self.contract.reference or _("contract #{id}").format(id=self.id)

    @property
    def agreed_charge(self) -> Fraction:
        """The monthly charge as last agreed (an amendment's from its effective day, which may be to come)."""
        return q(self.contract.snapshot.get("monthly_charge", "0"))

    def terms_on(self, day: date) -> InForce:
        """The GPUs, nodes, GPU model, monthly charge and its discounts in force on ``day``
        (``amendments.in_force``)."""
        c = self.contract
        sold = (c.snapshot or {}).get("sold") or {}
        return in_force(self.amendments, day, c.gpu_count, sold, self.agreed_charge, c.snapshot.get("discounts"))

    @property
    def in_force(self) -> InForce:
        """The terms in force on the view's day: an amendment still to come changes none of them yet."""
        return self.terms_on(self.on or self.contract.start_date)

    @property
    def discounts_said(self) -> str | None:
        """The discounts of the charge in force on the view's day, in the language in use (``discounts: term
        discount 5% (…)``), as ``contracts show`` and the TUI's contract say them (an amendment's to come:
        ``coming_words``); None: none."""
        said = DiscountTerm.kept_words(self.in_force.discounts)
        return _("discounts: {discounts}").format(discounts=clauses(said)) if said else None

    @property
    def monthly_charge(self) -> Fraction:
        """The monthly charge in force on the view's day."""
        return self.in_force.monthly_charge

    @property
    def coming(self) -> list[Amendment]:
        """The amendments recorded but not yet in force on the view's day, in the order they take effect."""
        on = self.on or self.contract.start_date
        return [a for a in self.amendments if a.effective > on]

    def coming_words(self, money: Callable[[Fraction], str]) -> list[str]:
        """Each amendment still to come, as the terms it brings (``money`` shows a monthly charge), in the language
        in use: ``from 2027-01-01 (amendment 1): 16 GPUs; monthly charge 160,000.00 CNY``."""
        said = []
        for a in self.coming:
            then = self.terms_on(a.effective)
            gpus = ngettext("{n} GPU", "{n} GPUs", then.gpus).format(n=f"{then.gpus:,}")
            parts = [gpus] if "gpus" in a.changes else []
            if "gpu" in a.changes:
                parts.append(f"{_(TITLES['gpu'])} {then.gpu}")
            if "monthly_charge" in a.changes:
                parts.append(_("monthly charge {charge}").format(charge=money(then.monthly_charge)))
            rest = {k: v for k, v in a.changes.items() if k not in SAID_AS_TERMS}
            if rest:  # the other terms it changes, before and after
                parts.append(replace(a, changes=rest).summary(lambda x: money(q(x))))
            line = _("from {day} (amendment {seq}): {terms}")
            said.append(line.format(day=day_text(a.effective), seq=a.seq, terms=clauses(parts)))
        return said

    @property
    def overdue(self) -> list[KeyDate]:
        """The payment dates passed by the view's day and not settled (no paid invoice, or part paid), oldest first
        (``dates.overdue_payments``)."""
        return overdue_payments(self.dates, self.on or self.contract.start_date)

    @property
    def overdue_said(self) -> str | None:
        """The overdue payments in words (``dates.overdue_words``), as every list of them says it; None: none."""
        overdue = self.overdue
        return overdue_words(overdue) if overdue else None

    @property
    def months_served(self) -> int:
        """The months of service begun by the view's day, none past the end (``sla.months_served``): the
        availability "so far" counts these, not the calendar months its table lists."""
        terms = self.terms or [self.running]
        return months_served(terms[0].start, terms[-1].end, self.on or terms[0].start)

    @property
    def spend(self) -> Decimal:
        """Every invoice recorded, paid or not, whatever its period (JSON ``spend_to_date``, as ever)."""
        return sum((line.invoice.amount for line in self.invoices), Decimal(0))

    @property
    def invoiced(self) -> Decimal:
        """Invoiced to the view's day: the invoices whose period starts on or before it, paid or not (what a buyer
        counts against the committed spend)."""
        on = self.on or self.contract.start_date
        return sum((line.invoice.amount for line in self.invoices if line.invoice.period_start <= on), Decimal(0))

    def spent_said(self, money: Callable[[Decimal], str]) -> str:
        """What is invoiced to the view's day and paid of it, against the committed spend where there is one (with
        its share when that is not zero): the one sentence of ``contracts show`` and the TUI's contract screen
        (``money``: an amount with its currency)."""
        committed = self.contract.committed_spend
        words = {"amount": money(self.invoiced), "paid": money(self.paid)}
        if committed is None:
            return _("spent {amount} to date ({paid} paid)").format(**words)
        if not committed:
            return _("spent {amount} to date ({paid} paid) of a committed {committed}").format(
                committed=money(committed), **words
            )
        return _("spent {amount} to date ({paid} paid) of a committed {committed} ({share})").format(
            committed=money(committed), share=percent_text(q(self.invoiced) / q(committed), 1), **words
        )

    @property
    def paid(self) -> Decimal:
        """Of :attr:`invoiced`, what is recorded as paid (as recorded today: an invoice keeps no day it was paid)."""
        on = self.on or self.contract.start_date
        lines = self.invoices
        return sum((x.invoice.amount for x in lines if x.invoice.paid and x.invoice.period_start <= on), Decimal(0))

    @property
    def credits_owed(self) -> Fraction:
        return sum((m.credit for m in self.months), Fraction(0))

    @property
    def credits_received(self) -> Decimal:
        return sum((i.credit_received or Decimal(0) for i in self.incidents), Decimal(0))

    @property
    def invoices_off(self) -> list[InvoiceLine]:
        return [line for line in self.invoices if line.check.off]

    @property
    def unconfirmed_stock(self) -> str | None:
        """When the offer stated no stock and the contract takes more than one node: the commitment in words,
        so a contract far beyond anything the offer states is never recorded without a word."""
        sold = (self.contract.snapshot or {}).get("sold") or {}
        if not sold or sold.get("nodes_available") is not None:
            return None
        c = self.contract
        return unstated_stock(c.offer_id, _("contract #{id}").format(id=self.id), c.gpu_count,
                              int(sold.get("nodes") or 1), self.agreed_charge, c.currency)  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        c, cur = self.contract, self.contract.currency
        signed_notice = notice_deadline(c.end_date, c.notice_days)  # the rule: a row stored before it can differ
        return {
            "id": self.id,
            "reference": c.reference,
            "provider": self.provider,
            "offer": self.offer,
            "offer_id": c.offer_id,
            "signed": c.signed_date.isoformat() if c.signed_date else None,
            "start": c.start_date.isoformat(),
            "end": c.end_date.isoformat(),
            "term_months": c.term_months,
            "billing": c.billing_cadence.value,
            "gpus": self.in_force.gpus,  # in force on the view's day, as the charge (``amendments``: to come)
            "price": {"amount": amount_text(c.price, cur), "currency": cur, "unit": c.price_unit.value},
            "monthly_charge": {"amount": amount_text(self.monthly_charge, cur), "currency": cur},
            "committed_spend": None if c.committed_spend is None else amount_text(c.committed_spend, cur),
            "prepayment": None if c.prepayment is None else amount_text(c.prepayment, cur),
            "spend_to_date": amount_text(self.spend, cur),  # every invoice recorded, paid or not, any period
            "invoiced_to_date": amount_text(self.invoiced, cur),  # periods starting on or before the view's day
            "paid_to_date": amount_text(self.paid, cur),  # of those, recorded as paid (as recorded today)
            "auto_renew": c.auto_renew,
            "renewal_term_months": c.renewal_term_months,
            "notice_days": c.notice_days,
            "notice_deadline": None if signed_notice is None else signed_notice.isoformat(),
            "running_term": {  # the signed term, or the renewal running on the view's day
                "start": self.running.start.isoformat(),
                "end": self.running.end.isoformat(),
                "renewal": self.running.renewal,
                "notice_by": self.notice_by.isoformat() if self.notice_by else None,  # None: none to give (ended)
                "ended": self.ended.isoformat() if self.ended else None,  # the day it ended, by the view's day
                "ended_by_amendment": self.ended_by.seq if self.ended_by else None,  # the one that gave notice
            },
            "early_termination": c.early_termination,
            "accepted_on": c.accepted_on.isoformat() if c.accepted_on else None,
            "amendments": [a.to_json() for a in self.amendments],
            "agreed": {  # kept at signing, as amended since (``amendments``): edits to the offer change none of it
                "round": c.snapshot.get("round"),
                "sold": c.snapshot.get("sold"),  # None: signed before contracts kept it
                "option": c.snapshot.get("option"),
                "discounts": list(self.in_force.discounts),  # those of the charge in force, as "gpus"
                "extras": c.snapshot.get("extras", []),
                "sla": c.snapshot.get("sla") or None,
            },
            "months": [
                {
                    "month": m.month.isoformat()[:7],
                    "availability": str(dec(m.availability, 6)),
                    "downtime_hours": str(dec(m.downtime_hours, 4)),
                    "credit_rate": str(dec(m.credit_rate, 4)),
                    "credit": amount_text(m.credit, cur),
                    "incidents": list(m.incidents),
                }
                for m in self.months
            ],
            "credits_owed": amount_text(self.credits_owed, cur),
            "credits_received": amount_text(self.credits_received, cur),
            "incidents": [
                {
                    "id": i.id,
                    "started_at": as_utc(i.started_at).isoformat(),
                    "ended_at": as_utc(i.ended_at).isoformat() if i.ended_at else None,
                    "affected_gpus": i.affected_gpus,
                    "affected_nodes": i.affected_nodes,
                    "description": i.description,
                    "claimed": i.credit_claimed,
                    "received": None if i.credit_received is None else amount_text(i.credit_received, cur),
                }
                for i in self.incidents
            ],
            "invoices": [
                {
                    "id": line.invoice.id,
                    "period": [line.invoice.period_start.isoformat(), line.invoice.period_end.isoformat()],
                    "amount": amount_text(line.invoice.amount, cur),
                    "expected": amount_text(line.check.expected, cur),
                    "variance": amount_text(line.check.variance, cur),
                    "off": line.check.off,
                    "paid": line.invoice.paid,
                }
                for line in self.invoices
            ],
            "key_dates": [_date_json(k, None) for k in self.dates],
            "overdue_payments": [k.day.isoformat() for k in self.overdue],  # passed, not settled (part paid too)
            "part_paid_payments": [  # every payment date part paid, passed or to come
                {"date": k.day.isoformat(), **_part_paid_json(k.part_paid)} for k in self.dates if k.part_paid
            ],
        }


def unstated_stock(
    offer_id: int, subject: str, gpus: int, nodes: int, monthly: Fraction, currency: str, *, sentence: bool = False
) -> str | None:
    """What a commitment of more than one node on an offer whose stock is not stated says (None for one node), in
    the language in use; ``sentence``: as a sentence of its own (a capital, a full stop), as a question's detail."""
    if nodes <= 1:
        return None
    charge = f"{stored_text(dec(monthly, 2), currency)} {currency}"
    said = (
        _(
            "Offer #{id} does not state its stock: {subject} commits to {gpus} GPUs ({nodes} nodes) at {charge} a "
            "month; confirm the provider can deliver them."
        )
        if sentence
        else _(
            "offer #{id} does not state its stock: {subject} commits to {gpus} GPUs ({nodes} nodes) at {charge} a "
            "month; confirm the provider can deliver them"
        )
    )
    return said.format(id=offer_id, subject=subject, gpus=f"{gpus:,}", nodes=f"{nodes:,}", charge=charge)


def _date_json(k: KeyDate, today: date | None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "date": k.day.isoformat(),
        "kind": k.kind,
        "subject": k.subject,
        "contract_id": k.contract_id,
        "offer_id": k.offer_id,
        "detail": k.detail,
    }
    if today is not None:
        out["days_left"] = k.days_left(today)
    if k.part_paid is not None:
        out["part_paid"] = _part_paid_json(k.part_paid)
    return out


def _part_paid_json(p: PartPaid) -> dict[str, Any]:
    return {"short_by": amount_text(p.short_by, p.currency), "days_uncovered": p.days_uncovered}


def _tiers(c: ContractRow) -> list[Tier]:
    credits = (c.snapshot.get("sla") or {}).get("credits", [])
    return [Tier(q(below), q(credit)) for below, credit in credits]


def renewal_words(c: ContractRow) -> str:
    """How long a renewal runs, in words: "12 months", "1 month" (its own term when none is stated), in the
    language in use."""
    months = c.renewal_term_months or c.term_months
    return ngettext("{n} month", "{n} months", months).format(n=f"{months:,}")


def running_notice(c: ContractRow, term: Term) -> date | None:
    """The notice deadline of ``term``: the notice period before its end (``dates.notice_deadline``), the signed
    term's too (its stored deadline is this, but for a row stored before a 0-day notice fell on the day before
    the end)."""
    return notice_deadline(term.end, c.notice_days)


def _contract_dates(view: ContractView, subject: str, monthly: list[Charge]) -> list[KeyDate]:
    """Each term's notice deadline (where notice is left to give: ``ContractView.notice_due``) and its end (or
    renewal), and the payments over every term: an auto-renewing contract past its signed end goes on with the
    renewal it is in (``dates.terms_to``), each paid, part paid or not by the paid invoices
    (``invoices.payments_paid``, against the invoice check's expected amounts at the charges ``monthly``)."""
    c, terms = view.contract, view.terms
    assert c.id is not None
    found, renewal = [], renewal_words(c)
    for t in terms:
        deadline, renewing = view.notice_due(t), view.renews(t.end)
        if deadline is not None:  # notice left to give: the term renews without it
            what = _("else it renews for {renewal} on {day}").format(renewal=renewal, day=day_text(t.end))
            found.append(KeyDate(deadline, NOTICE_DEADLINE, subject, c.id, c.offer_id, what))
        if renewing:
            found.append(KeyDate(t.end, RENEWS, subject, c.id, c.offer_id, _("for {renewal}").format(renewal=renewal)))
        else:
            found.append(KeyDate(t.end, ENDS, subject, c.id, c.offer_id))
    paid = [(x.invoice.period_start, x.invoice.period_end, x.check) for x in view.invoices if x.invoice.paid]
    periods = list(billing_periods(terms, c.billing_cadence))
    for (day, _last), (settled, part) in zip(
        periods, payments_paid(periods, paid, monthly, c.start_date, c.currency), strict=True
    ):
        detail = _("paid") if settled else part.said if part else ""
        found.append(KeyDate(day, PAYMENT, subject, c.id, c.offer_id, detail, settled, part))
    return found


def _in_its_currency(invoice: InvoiceRow, currency: str) -> InvoiceRow:
    """``invoice``, which entry took in its contract's ``currency`` only (``invoices.currency_refused``); one in
    another that another program wrote is a database problem naming its row, never checked as if it were the
    contract's."""
    if refused := currency_refused(currency, invoice.currency):
        raise DatabaseProblem(
            _(
                "the database holds {value} in invoice #{id}, currency: {problem}; another program wrote it; correct "
                "it there, or restore a backup, and try again"
            ).format(value=shown_stored(invoice.currency), id=invoice.id, problem=refused)
        )
    return invoice


def load_contracts(db: Database, now: datetime, contract_id: int | None = None) -> list[ContractView]:
    """Every contract (or the one with ``contract_id``) as the buyer follows it, read as plain tuples in one
    snapshot (on SQLite without SQLAlchemy)."""
    with reading(db) as reader:
        return _load(reader, now, contract_id)


def _load(reader: Reader, now: datetime, contract_id: int | None) -> list[ContractView]:
    views = []
    zone = load_assumptions_of(reader).time_zone
    signed = signed_contracts(reader, contract_id)
    incidents = incidents_of(reader, contract_id) if signed else {}
    amended = amendments_of(reader, contract_id) if signed else {}
    invoices = invoices_of(reader, contract_id) if signed else {}
    for s in signed:
        c = s.contract
        bills = invoices.get(c.id, [])
        changes = amended.get(c.id, [])
        monthly = charges_of(c.start_date, q(c.snapshot.get("monthly_charge", "0")), changes)
        per_node = int((c.snapshot.get("sold") or {}).get("gpus_per_node") or s.gpus_per_node)  # as sold
        tolerance = Decimal(c.snapshot.get("invoice_tolerance", "0"))
        lines = [
            InvoiceLine(
                _in_its_currency(i, c.currency),
                check_invoice(i.amount, i.period_start, i.period_end, monthly, tolerance, c.currency, c.start_date),
            )
            for i in bills
        ]
        outages = [
            Outage(
                i.id,
                as_utc(i.started_at),
                as_utc(i.ended_at) if i.ended_at else None,
                share(
                    i.affected_gpus,
                    i.affected_nodes,
                    per_node,
                    int(term_on(changes, "gpus", c.gpu_count, as_utc(i.started_at).date())),  # GPUs then
                ),
            )
            for i in incidents.get(c.id, [])
        ]
        on = now.date()  # the day asked for (``--on``, the app's today): its terms, as its key dates
        terms = contract_terms(c, on, changes)
        availability = months(c.start_date, terms[-1].end, outages, _tiers(c), monthly, now, zone)
        view = ContractView(
            c,
            s.provider,
            s.offer,
            incidents.get(c.id, []),
            lines,
            availability,
            amendments=changes,
            time_zone=zone,
            terms=terms,
            on=on,
        )
        subject = aside(view.title, f"{s.provider} {s.offer}")
        view.dates = _contract_dates(view, subject, monthly)
        views.append(view)
    return views


def _quote_dates(reader: Reader) -> list[KeyDate]:
    """The valid-until day of every open quote."""
    subject = _("offer #{id} {provider} {name}")
    return [
        KeyDate(until, QUOTE_EXPIRES, subject.format(id=i, provider=provider, name=name), None, i)
        for i, provider, name, until in open_quotes(reader)
    ]


def key_dates(db: Database, now: datetime, views: list[ContractView] | None = None) -> list[KeyDate]:
    """Every key date: each contract's (``views``, when the caller holds them already), and the valid-until
    day of every open quote."""
    with reading(db) as reader:
        if views is None:
            views = _load(reader, now, None)
        return [k for v in views for k in v.dates] + _quote_dates(reader)


def _live(k: KeyDate, today: date, missed: dict[int, date | None]) -> bool:
    """Still something to act on: not a settled payment, not a past end or renewal, and of the past notice
    deadlines only the latest one whose renewal (or end) is still to come (``ContractView.missed_notice``)."""
    if k.kind == PAYMENT and k.settled:
        return False
    if k.day >= today:
        return True
    if k.kind in (ENDS, RENEWS):
        return False
    if k.kind != NOTICE_DEADLINE or k.contract_id is None:
        return True
    return k.day == missed.get(k.contract_id)


def _unpaid_once(dates: list[KeyDate], today: date) -> list[KeyDate]:
    """A contract's overdue payments (``dates.overdue_payments``) become one line (on its oldest), so a buyer who
    does not record invoices sees one reminder per contract, not one per month."""
    overdue = overdue_payments(dates, today)
    past: dict[int | None, list[KeyDate]] = {}
    for k in overdue:
        past.setdefault(k.contract_id, []).append(k)
    said = set(overdue)
    rest = [k for k in dates if k not in said]
    for items in past.values():
        first = items[0]
        detail = overdue_words(items)
        rest.append(KeyDate(first.day, PAYMENT, first.subject, first.contract_id, first.offer_id, detail))
    return rest


def due(
    db: Database, today: date, now: datetime, within: int = 90, views: list[ContractView] | None = None
) -> dict[str, list[KeyDate]]:
    """What needs doing: overdue (a missed notice deadline of a running contract, an unpaid bill, a lapsed
    open quote), within 30 days, within 31 to ``within`` days. ``views``: the contracts, if already loaded."""
    if within < 0:
        raise BadInput(_("--within takes a number of days from 0, not {days}").format(days=within))
    with reading(db):  # the contracts and the open quotes of one state of the database
        if views is None:
            views = load_contracts(db, now)
        missed = {v.id: v.missed_notice(today) for v in views}
        live = _unpaid_once([k for k in key_dates(db, now, views) if _live(k, today, missed)], today)
    g = group(live, today, within)
    return {"overdue": g.overdue, "within_30_days": g.soon, f"within_31_to_{within}_days": g.later}


def due_json(groups: dict[str, list[KeyDate]], today: date) -> dict[str, list[dict[str, Any]]]:
    return {name: [_date_json(k, today) for k in items] for name, items in groups.items()}
