"""``quotetui contracts``: accept an offer, key dates and deadlines, the calendar, incidents, invoices."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from quotetui.commands.common import ForceFlag, JsonFlag, flag, flagged, id_arg, open_db, print_json, table
from quotetui.commands.output import money, percent, say
from quotetui.domain import entities as E
from quotetui.domain.entities import AS_OF, CONTRACT, ID, INCIDENT, INVOICE
from quotetui.domain.enums import BillingCadence
from quotetui.domain.fields import Field
from quotetui.domain.text import one_line
from quotetui.domain.wording import plural

if TYPE_CHECKING:
    from quotetui.services.contract_view import ContractView

app = typer.Typer(help="Contracts: key dates and notice deadlines, SLA incidents and credits, invoices.")
incident_app = typer.Typer(help="SLA incidents: outages and the credits they earn.", no_args_is_help=True)
invoice_app = typer.Typer(help="Invoices, checked against the agreed price.", no_args_is_help=True)
app.add_typer(incident_app, name="incident")
app.add_typer(invoice_app, name="invoice")

OnOpt = Annotated[date | None, flag(AS_OF, "--on", help="As of this day (default: today, UTC).")]
WITHIN = Field("within", "Within", "int", minimum=Decimal(1), maximum=Decimal(36500), unit="days")
INC, V = INCIDENT.field, INVOICE.field


def _as_of(day: date | None) -> tuple[date, datetime]:
    from quotetui.domain.timeutil import utcnow

    if day is None:
        now = utcnow()
        return now.date(), now
    return day, datetime.combine(day, time(23, 59, 59), tzinfo=UTC)


@app.callback(invoke_without_command=True)
def contracts(ctx: typer.Context, on: OnOpt = None, as_json: JsonFlag = False) -> None:
    """List the contracts: term, charge, spend against the commitment, availability and credits."""
    if ctx.invoked_subcommand is not None:
        given = [name for name, value in (("--on", on), ("--json", as_json)) if value]
        if given:  # they belong to the listing; a subcommand has its own (or none): never silently ignored
            raise typer.BadParameter(
                f"{' and '.join(given)} before `{ctx.invoked_subcommand}` would be ignored: put "
                f"{'them' if len(given) > 1 else 'it'} after it (`quotetui contracts {ctx.invoked_subcommand} "
                f"{' '.join(given)} …`)"
            )
        return
    from quotetui.services.contract_view import load_contracts

    _, now = _as_of(on)
    views = load_contracts(open_db(ctx), now)
    if as_json:
        print_json([v.to_json() for v in views])
        return
    if not views:
        say("No contracts yet: `quotetui contracts add --offer ID --start DATE --term-months N`.")
        return
    table(
        [
            "id",
            "contract",
            "provider / offer",
            "start",
            "ends",
            "notice by",
            "GPUs",
            "monthly",
            "spent",
            "credits",
            "off",
        ],
        [_row(v) for v in views],
        right=frozenset({"id", "GPUs", "monthly", "spent", "credits", "off"}),
        widths={"provider / offer": 40, "contract": 20},
    )


def _signed(amount: Decimal, currency: str) -> str:
    return ("+" if amount > 0 else "−" if amount < 0 else "") + money(abs(amount), currency)


def _row(v: ContractView) -> list[str]:
    c = v.contract
    spent = money(v.spend, c.currency) + (
        f" / {money(c.committed_spend, c.currency)}" if c.committed_spend is not None else ""
    )
    return [
        str(v.id),
        v.title,
        f"{v.provider} {v.offer}",
        c.start_date.isoformat(),
        v.running.end.isoformat() + (" ↻" if c.auto_renew else ""),  # the running term's: a renewal's
        v.notice_by.isoformat() if v.notice_by else "",
        str(c.gpu_count),
        money(v.monthly_charge, c.currency),
        spent,
        money(v.credits_owed, c.currency),
        str(len(v.invoices_off)),
    ]


C = CONTRACT.field
SampleOpt = Annotated[
    Decimal | None,
    flag(E.ACCEPTANCE_SAMPLE, "--acceptance-sample", help="Share of the nodes acceptance checks, e.g. 10."),
]
SampleMinOpt = Annotated[
    int | None,
    flag(
        E.ACCEPTANCE_SAMPLE_MIN,
        "--acceptance-sample-min",
        help="With a share: at least this many nodes; alone: check this many nodes.",
    ),
]
ADD_FLAGS = {
    "start": "--start",
    "term_months": "--term-months",
    "notice_days": "--notice-days",
    "renewal_months": "--renewal-months",
    "reference": "--reference",
    "signed": "--signed",
    "billing": "--billing",
    "gpus": "--gpus",
    "committed": "--committed",
    "prepayment": "--prepayment",
    "early_termination": "--early-termination",
    "tolerance": "--tolerance",
    "acceptance_sample": "--acceptance-sample",
    "acceptance_sample_min": "--acceptance-sample-min",
}
INCIDENT_FLAGS = {
    "started_at": "--start",
    "ended_at": "--end",
    "affected_gpus": "--gpus",
    "affected_nodes": "--nodes",
    "description": "--description",
    "received": "--received",
}
INVOICE_FLAGS = {
    "period_start": "--from",
    "period_end": "--to",
    "amount": "--amount",
    "currency": "--currency",
    "issued_on": "--issued",
    "reference": "--reference",
}


@app.command("add")
def add(
    ctx: typer.Context,
    offer: Annotated[int, flag(ID, "--offer", help="The offer accepted.", metavar="ID")],
    start: Annotated[date, flag(C("start"), "--start", help="First day of service.")],
    term_months: Annotated[int, flag(C("term_months"), "--term-months", help="Length of the term.")],
    revision: Annotated[
        int | None,
        flag(
            E.SEQ,
            "--revision",
            help="The round signed (default: the current one, the provider's latest; never our counter).",
        ),
    ] = None,
    notice_days: Annotated[int | None, flag(C("notice_days"), "--notice-days", help="Notice before the end.")] = None,
    auto_renew: Annotated[bool, typer.Option("--auto-renew", help="Renews unless notice is given.")] = False,
    renewal_months: Annotated[
        int | None, flag(C("renewal_months"), "--renewal-months", help="Renewal term (default: the term).")
    ] = None,
    reference: Annotated[
        str | None, flag(C("reference"), "--reference", help="The contract's reference.", metavar="TEXT")
    ] = None,
    signed: Annotated[date | None, flag(C("signed"), "--signed", help="Day it was signed.")] = None,
    billing: Annotated[
        BillingCadence, flag(C("billing"), "--billing", help="monthly, quarterly, half_yearly, annually or upfront.")
    ] = BillingCadence.MONTHLY,
    gpus: Annotated[int | None, flag(C("gpus"), "--gpus", help="GPUs covered (default: one node).")] = None,
    committed: Annotated[Decimal | None, flag(C("committed"), "--committed", help="Committed spend.")] = None,
    prepayment: Annotated[Decimal | None, flag(C("prepayment"), "--prepayment", help="Paid in advance.")] = None,
    early_termination: Annotated[
        str | None, flag(C("early_termination"), "--early-termination", help="Exit terms.", metavar="TEXT")
    ] = None,
    term_option: Annotated[
        int | None,
        flag(
            E.TERM_MONTHS,
            "--term-option",
            help="The price option signed (default: the cheapest for the term).",
            metavar="MONTHS",
        ),
    ] = None,
    tolerance: Annotated[
        Decimal, flag(C("tolerance"), "--tolerance", help="Invoice difference accepted (default 0).")
    ] = Decimal(0),
    acceptance_sample: SampleOpt = None,
    acceptance_sample_min: SampleMinOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """Accept an offer's round into a contract; it keeps the agreed price, discounts, extras and SLA."""
    from quotetui.services.contract_view import load_contracts
    from quotetui.services.contracts import accept_offer

    db = open_db(ctx)
    with flagged(ADD_FLAGS):
        contract = accept_offer(
            db,
            offer,
            start=start,
            term_months=term_months,
            revision=revision,
            notice_days=notice_days,
            auto_renew=auto_renew,
            renewal_months=renewal_months,
            reference=reference,
            signed=signed,
            billing=billing,
            gpus=gpus,
            committed=committed,
            prepayment=prepayment,
            early_termination=early_termination,
            term_option=term_option,
            tolerance=tolerance,
            acceptance_sample=acceptance_sample,
            acceptance_sample_min=acceptance_sample_min,
        )
    assert contract.id is not None
    today, now = _as_of(None)  # shown as `contracts show` shows it today
    [view] = load_contracts(db, now, contract.id)
    if view.unconfirmed_stock:  # on stderr: a script's JSON stays as it is
        say(f"warning: {view.unconfirmed_stock}", err=True)
    if as_json:
        print_json(view.to_json())
        return
    _show(view, today)


AMEND_FLAGS = {
    "effective": "--effective",
    "reason": "--reason",
    "by": "--by",
    "gpus": "--gpus",
    "monthly_charge": "--monthly-charge",
    "term_months": "--term-months",
    "notice_days": "--notice-days",
    "gpu": "--gpu",
    "acceptance_sample": "--acceptance-sample",
    "acceptance_sample_min": "--acceptance-sample-min",
    "at_end": "--at-end",
}
A = E.AMENDMENT.field


@app.command("amend")
def amend(
    ctx: typer.Context,
    contract: Annotated[int, id_arg()],
    effective: Annotated[date, flag(A("effective"), "--effective", help="The first day the new terms hold.")],
    reason: Annotated[str, flag(A("reason"), "--reason", help="What was agreed, and why.", metavar="TEXT")],
    by: Annotated[str | None, flag(A("by"), "--by", help="Who agreed it (default: you).", metavar="NAME")] = None,
    gpus: Annotated[int | None, flag(A("gpus"), "--gpus", help="GPUs covered from then.")] = None,
    monthly_charge: Annotated[
        Decimal | None,
        flag(
            A("monthly_charge"),
            "--monthly-charge",
            help="The monthly charge agreed from then (default with --gpus: the signed round's price for them).",
        ),
    ] = None,
    term_months: Annotated[
        int | None, flag(A("term_months"), "--term-months", help="The whole term, from the original start.")
    ] = None,
    notice_days: Annotated[int | None, flag(A("notice_days"), "--notice-days", help="Notice before the end.")] = None,
    gpu: Annotated[
        str | None, flag(A("gpu"), "--gpu", help="The GPU model delivered instead (a swap agreed).", metavar="MODEL")
    ] = None,
    acceptance_sample: SampleOpt = None,
    acceptance_sample_min: SampleMinOpt = None,
    at_end: Annotated[
        str | None,
        flag(
            A("at_end"),
            "--at-end",
            help="renews or ends at the end of its term: ends records notice given.",
            metavar="renews|ends",
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Amend a signed contract: a dated record of the terms both parties changed (each before and after); from its
    effective day invoices and credits follow the new charge, and acceptance judges the new terms."""
    from quotetui.services.amendments import amend_contract
    from quotetui.services.contract_view import load_contracts

    db = open_db(ctx)
    raw = {
        "effective": effective,
        "reason": reason,
        "by": by,
        "gpus": gpus,
        "monthly_charge": monthly_charge,
        "term_months": term_months,
        "notice_days": notice_days,
        "gpu": gpu,
        "acceptance_sample": acceptance_sample,
        "acceptance_sample_min": acceptance_sample_min,
        "at_end": at_end,
    }
    today, now = _as_of(None)
    before = {line.invoice.id: line.check for v in load_contracts(db, now, contract) for line in v.invoices}
    with flagged(AMEND_FLAGS):
        amendment = amend_contract(db, contract, raw)
    [view] = load_contracts(db, now, contract)
    if view.unconfirmed_stock:
        say(f"warning: {view.unconfirmed_stock}", err=True)
    cur = view.contract.currency
    for line in view.invoices:  # an amendment in force from a past day re-checks the invoices after it: said
        was = before.get(line.invoice.id)
        if was is not None and was.expected != line.check.expected:
            verdict = f"OFF by {_signed(line.check.variance, cur)}" if line.check.off else "matches"
            say(f"note: invoice #{line.invoice.id} was expected at {money(was.expected, cur)}, now at "
                f"{money(line.check.expected, cur)} ({verdict})", err=True)  # fmt: skip
    if as_json:
        print_json(view.to_json())
        return
    say(f"Amendment {amendment.seq} of contract #{contract}, from {amendment.effective.isoformat()}: "
        f"{amendment.summary(lambda x: money(Decimal(x), view.contract.currency))}")  # fmt: skip
    _show(view, today)


def _show(v: ContractView, today: date) -> None:
    """What ``contracts show`` promises: the terms, the key dates to come, availability and credits by month,
    every incident and every invoice; an empty section says so."""
    from quotetui.domain.timeutil import local_text
    from quotetui.services.contract_view import renewal_words

    c, cur = v.contract, v.contract.currency
    say(f"Contract #{v.id}{f' {c.reference}' if c.reference else ''}: {v.provider} {v.offer}")
    signed = f", signed {c.signed_date.isoformat()}" if c.signed_date else ""
    say(f"  {plural(c.gpu_count, 'GPU')}, {c.start_date.isoformat()} → {c.end_date.isoformat()} "
        f"({plural(c.term_months, 'month')}){signed}")  # fmt: skip
    if v.running.renewal:
        t = v.running
        say(f"  renewed by itself ({plural(t.renewal, 'time')}): the term running is {t.start.isoformat()} → "
            f"{t.end.isoformat()} ({renewal_words(c)})")  # fmt: skip
    accepted = f"accepted on {c.accepted_on.isoformat()}" if c.accepted_on else "not accepted yet"
    say(f"  {accepted} (quotetui acceptance show --contract {v.id})")
    option = c.snapshot.get("option", {}).get("label", "")
    how = f" ({option}, round {c.snapshot.get('round')})" if option else ""
    say(
        f"  price {money(c.price, cur)} a {c.price_unit.value.replace('_', '-')}{how}; "
        f"monthly charge {money(v.monthly_charge, cur)}; billed {c.billing_cadence.value.replace('_', '-')}"
    )
    for line in _agreed_lines(c.snapshot, cur):
        say(f"  {line}")
    if v.amendments:
        say(f"Amendments ({len(v.amendments)}):")
    for a in v.amendments:
        changed = a.summary(lambda x: money(Decimal(x), cur))
        say(f"  {a.seq}. from {a.effective.isoformat()}, agreed by {a.recorded_by}: {changed}")
        say(f"     {one_line(a.reason)}")
    if v.notice_by:
        renew = f"auto-renews for {renewal_words(c)}" if c.auto_renew else "ends"
        say(f"  notice by {v.notice_by.isoformat()} ({plural(c.notice_days or 0, 'day')}), else it {renew}")
    spent = f"spent {money(v.spend, cur)}"
    say(f"  {spent} of a committed {money(c.committed_spend, cur)}" if c.committed_spend is not None else f"  {spent}")
    upcoming = sorted((k for k in v.dates if k.day >= today), key=lambda k: k.day)
    say(f"Key dates from {today.isoformat()} ({len(upcoming)}):" if upcoming else "Key dates: none to come")
    for k in upcoming[:KEY_DATES_SHOWN]:
        say(f"  {k.day.isoformat()} {k.kind.replace('_', ' ')}{f': {k.detail}' if k.detail else ''}")
    if len(upcoming) > KEY_DATES_SHOWN:
        say(f"  … and {len(upcoming) - KEY_DATES_SHOWN} more (`quotetui contracts due --within DAYS`)")
    hit = [m for m in v.months if m.incidents]
    say(f"Availability and credits by month (months with an incident, {v.time_zone}):" if hit else
        f"Availability: no downtime recorded ({plural(len(v.months), 'month')} so far)")  # fmt: skip
    for m in hit:
        say(
            f"  {m.month.isoformat()[:7]}: {percent(m.availability, 3)} available, credit "
            f"{percent(m.credit_rate)} = {money(m.credit, cur)}"
        )
    if hit:
        say(f"  credits owed {money(v.credits_owed, cur)}, received {money(v.credits_received, cur)}")
    say(f"Incidents ({len(v.incidents)}):" if v.incidents else "Incidents: none")
    for i in v.incidents:
        end = local_text(i.ended_at, v.time_zone) if i.ended_at else "still open"
        scope = (
            plural(i.affected_gpus, "GPU")
            if i.affected_gpus
            else plural(i.affected_nodes, "node")
            if i.affected_nodes
            else "all GPUs"
        )
        credit = (
            f"credit received {money(i.credit_received, cur)}"
            if i.credit_received is not None
            else "credit claimed"
            if i.credit_claimed
            else "credit not claimed"
        )
        start = local_text(i.started_at, v.time_zone)
        say(f"  #{i.id} {start} → {end}, {scope}: {one_line(i.description)} ({credit})")
    say(f"Invoices ({len(v.invoices)}):" if v.invoices else "Invoices: none")
    for line in v.invoices:
        i = line.invoice
        verdict = f"OFF by {_signed(line.check.variance, cur)}" if line.check.off else "matches"
        paid = "paid" if i.paid else "unpaid"
        say(
            f"  #{i.id} {i.period_start.isoformat()} – {i.period_end.isoformat()}: {money(i.amount, cur)} "
            f"(expected {money(line.check.expected, cur)}) {verdict}, {paid}"
        )


KEY_DATES_SHOWN = 6
"""How many key dates to come ``contracts show`` lists (``contracts due`` lists them all)."""


def _agreed_lines(snapshot: dict[str, Any], currency: str) -> list[str]:
    """What was sold, the SLA, discounts and extras the contract kept when it was signed (its snapshot)."""
    out = []
    sla = snapshot.get("sla") or {}
    if sla:
        parts = [f"{percent(Decimal(sla['availability']), 3)} availability"] if sla.get("availability") else []
        parts += [
            f"{percent(Decimal(credit))} credit below {percent(Decimal(below), 3)}" for below, credit in sla["credits"]
        ]
        out.append("SLA: " + ("; ".join(parts) if parts else "no availability or credits stated"))
    sold = snapshot.get("sold")
    if sold:  # what acceptance judges against, whatever the offer says now
        gbps = f" ({sold['inter_gbps_per_gpu']} Gb/s a GPU)" if sold.get("inter_gbps_per_gpu") else ""
        out.append(
            f"sold: {sold['gpu_name']}, {plural(int(sold['nodes']), 'node')} of {sold['gpus_per_node']} GPUs; "
            f"{sold['intra_fabric'].replace('_', ' ')} in a node, {sold['inter_fabric'].replace('_', ' ')} across"
            f"{gbps}"
        )
        sample = sold.get("sample")
        if sample:  # the nodes acceptance checks, as the contract states
            share = f"{percent(Decimal(sample['share']))} of the nodes" if sample.get("share") else ""
            least = f"at least {plural(int(sample['at_least']), 'node')}" if sample.get("at_least") else ""
            out.append(f"acceptance checks a sample: {', '.join(p for p in (share, least) if p)}")
    discounts = [d["label"] for d in snapshot.get("discounts", [])]  # the label names the rate
    if discounts:
        out.append("discounts: " + "; ".join(discounts))
    extras = [
        f"{x['label']} {money(Decimal(x['amount']), x['currency'])} {x['basis'].replace('_', ' ')}"
        for x in snapshot.get("extras", [])
    ]
    if extras:
        out.append("extras: " + "; ".join(extras))
    return out


@app.command("show")
def show(
    ctx: typer.Context,
    contract: Annotated[int, id_arg()],
    on: OnOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """One contract: terms, key dates, availability and credits by month, incidents, invoices."""
    from quotetui.domain.errors import BadInput
    from quotetui.services.contract_view import load_contracts

    today, now = _as_of(on)
    views = load_contracts(open_db(ctx), now, contract)
    if not views:
        raise BadInput(f"no contract #{contract}")
    if as_json:
        print_json(views[0].to_json())
        return
    _show(views[0], today)


GROUP_NAMES = {"overdue": "Overdue", "within_30_days": "Within 30 days"}


@app.command("due")
def due(
    ctx: typer.Context,
    within: Annotated[int, flag(WITHIN, "--within", help="How far ahead (default 90).", metavar="DAYS")] = 90,
    on: OnOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """Key dates by urgency: overdue, within 30 days, within 31 to DAYS days, with days remaining."""
    from quotetui.services.contract_view import due as due_dates
    from quotetui.services.contract_view import due_json

    today, now = _as_of(on)
    groups = due_dates(open_db(ctx), today, now, within)
    if as_json:
        print_json(due_json(groups, today))
        return
    for name, items in groups.items():
        label = GROUP_NAMES.get(name) or f"Within 31–{within} days"
        say(f"{label} ({len(items)})")
        for k in items:
            left = k.days_left(today)
            when = (
                f"{plural(-left, 'day')} ago" if left < 0 else ("today" if left == 0 else f"in {plural(left, 'day')}")
            )
            detail = f" — {k.detail}" if k.detail else ""
            say(f"  {k.day.isoformat()} {when:>13}  {k.kind}: {k.subject}{detail}")


@app.command("ics")
def ics(
    ctx: typer.Context,
    out: Annotated[Path, typer.Argument(metavar="OUT.ics")],
    on: OnOpt = None,
    force: ForceFlag = False,
) -> None:
    """Write every key date as an all-day calendar event with a reminder (stable UIDs: re-import updates)."""
    from quotetui.io.calendar_ics import write_calendar
    from quotetui.services.contract_view import key_dates

    _, now = _as_of(on)
    dates = key_dates(open_db(ctx), now)
    say(f"Wrote {write_calendar(out, dates, now, force=force)} ({plural(len(dates), 'event')}).")


@incident_app.command("add")
def incident_add(
    ctx: typer.Context,
    contract: Annotated[int, id_arg("CONTRACT_ID")],
    start: Annotated[
        datetime, flag(INC("started_at"), "--start", help="ISO time with offset, e.g. 2026-03-01T08:00+08:00.")
    ],
    description: Annotated[str, flag(INC("description"), "--description", help="What happened.", metavar="TEXT")],
    end: Annotated[
        datetime | None, flag(INC("ended_at"), "--end", help="When service came back (empty: still down).")
    ] = None,
    gpus: Annotated[int | None, flag(INC("affected_gpus"), "--gpus", help="GPUs affected (default: all).")] = None,
    nodes: Annotated[int | None, flag(INC("affected_nodes"), "--nodes", help="Nodes affected.")] = None,
    claimed: Annotated[bool, typer.Option("--claimed", help="The credit has been claimed.")] = False,
    received: Annotated[Decimal | None, flag(INC("received"), "--received", help="Credit received.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Record an outage; the month's availability and the credit owed follow from it."""
    from quotetui.services.contracts import add_incident

    with flagged(INCIDENT_FLAGS):
        incident = add_incident(open_db(ctx), contract, start, end, description, gpus, nodes, claimed, received)
    if as_json:
        print_json({"id": incident.id, "contract_id": contract})
        return
    say(f"incident #{incident.id} recorded on contract #{contract}; see `quotetui contracts show {contract}`")


@incident_app.command("update")
def incident_update(
    ctx: typer.Context,
    incident: Annotated[int, id_arg("INCIDENT_ID")],
    end: Annotated[datetime | None, flag(INC("ended_at"), "--end", help="When service came back.")] = None,
    claimed: Annotated[bool | None, typer.Option("--claimed/--not-claimed", help="Credit claimed or not.")] = None,
    received: Annotated[Decimal | None, flag(INC("received"), "--received", help="Credit received.")] = None,
) -> None:
    """Close an incident, or record that its credit was claimed or received."""
    from quotetui.services.contract_view import load_contracts
    from quotetui.services.contracts import update_incident

    db = open_db(ctx)
    with flagged(INCIDENT_FLAGS):
        row = update_incident(db, incident, claimed=claimed, received=received, ended_at=end)
    [view] = load_contracts(db, _as_of(None)[1], row.contract_id)
    got = "nothing" if row.credit_received is None else money(row.credit_received, view.contract.currency)
    say(f"incident #{row.id}: credit claimed {'yes' if row.credit_claimed else 'no'}, received {got}")


@invoice_app.command("add")
def invoice_add(
    ctx: typer.Context,
    contract: Annotated[int, id_arg("CONTRACT_ID")],
    first: Annotated[date, flag(V("period_start"), "--from", help="First day billed.")],
    last: Annotated[date, flag(V("period_end"), "--to", help="Last day billed (inclusive).")],
    amount: Annotated[Decimal, flag(V("amount"), "--amount", help="The invoiced amount.")],
    currency: Annotated[str, flag(V("currency"), "--currency", help="ISO code; must be the contract's.")],
    issued: Annotated[date | None, flag(V("issued_on"), "--issued")] = None,
    reference: Annotated[str | None, flag(V("reference"), "--reference", metavar="TEXT")] = None,
    paid: Annotated[bool, typer.Option("--paid", help="Already paid.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Record an invoice; it is checked against the agreed monthly charge for its period."""
    from quotetui.domain.economics.display import amount_text
    from quotetui.services.contract_view import load_contracts
    from quotetui.services.contracts import add_invoice

    db = open_db(ctx)
    with flagged(INVOICE_FLAGS):
        invoice = add_invoice(
            db, contract, first, last, amount, currency, issued_on=issued, reference=reference, paid=paid
        )
    [view] = load_contracts(db, datetime.combine(last, time(), tzinfo=UTC), contract)
    line = next(x for x in view.invoices if x.invoice.id == invoice.id)
    if as_json:
        print_json(
            {
                "id": invoice.id,
                "expected": amount_text(line.check.expected, invoice.currency),
                "variance": amount_text(line.check.variance, invoice.currency),
                "off": line.check.off,
                "spend_to_date": amount_text(view.spend, invoice.currency),
                "committed_spend": None
                if view.contract.committed_spend is None
                else amount_text(view.contract.committed_spend, invoice.currency),
            }
        )
        return
    verdict = f"OFF by {_signed(line.check.variance, invoice.currency)}" if line.check.off else "matches"
    say(
        f"invoice #{invoice.id}: {money(invoice.amount, invoice.currency)}, "
        f"expected {money(line.check.expected, invoice.currency)}: {verdict}"
    )


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="contracts")
