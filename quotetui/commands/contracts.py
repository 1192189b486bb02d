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
from quotetui.domain.economics.display import with_sign
from quotetui.domain.entities import AS_OF, CONTRACT, ID, INCIDENT, INVOICE
from quotetui.domain.enums import BillingCadence, ExtraBasis, InterFabric, IntraFabric, PriceUnit
from quotetui.domain.fields import Field
from quotetui.domain.text import one_line
from quotetui.language import N_, NP_, _, ngettext
from quotetui.language.cells import width
from quotetui.language.dates import day_text, days_away, month_text
from quotetui.language.lists import aside, clauses, labelled, listed

if TYPE_CHECKING:
    from quotetui.domain.contracts.amendments import InForce
    from quotetui.services.contract_view import ContractView

app = typer.Typer(help="Contracts: key dates and notice deadlines, SLA incidents and credits, invoices.")
incident_app = typer.Typer(help="SLA incidents: outages and the credits they earn.", no_args_is_help=True)
invoice_app = typer.Typer(help="Invoices, checked against the agreed price.", no_args_is_help=True)
app.add_typer(incident_app, name="incident")
app.add_typer(invoice_app, name="invoice")

OnOpt = Annotated[date | None, flag(AS_OF, "--on", help="As of this day (default: today, UTC).")]
WITHIN = Field("within", N_("Within"), "int", minimum=Decimal(1), maximum=Decimal(36500), unit="days")
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
            flags = _("{first} and {second}").format(first=given[0], second=given[1]) if len(given) > 1 else given[0]
            raise typer.BadParameter(
                ngettext(
                    "{flags} before `{command}` would be ignored: put it after it (`quotetui contracts {command} "
                    "{given} …`)",
                    "{flags} before `{command}` would be ignored: put them after it (`quotetui contracts {command} "
                    "{given} …`)",
                    len(given),
                ).format(flags=flags, command=ctx.invoked_subcommand, given=" ".join(given))
            )
        return
    from quotetui.services.contract_view import load_contracts

    _day, now = _as_of(on)
    views = load_contracts(open_db(ctx), now)
    if as_json:
        print_json([v.to_json() for v in views])
        return
    if not views:
        say(_("No contracts yet: `quotetui contracts add --offer ID --start DATE --term-months N`."))
        return
    table(
        [
            N_("id"),
            N_("contract"),
            N_("provider / offer"),
            N_("start"),
            N_("ends"),
            N_("notice by"),
            N_("GPUs"),
            NP_("monthly charge", "monthly"),
            N_("spent"),
            N_("credits"),
            N_("off"),
        ],
        [_row(v) for v in views],
        right=frozenset({"id", "GPUs", "monthly", "spent", "credits", "off"}),
        widths={"provider / offer": 40, "contract": 20},
    )


def _row(v: ContractView) -> list[str]:
    c = v.contract
    spent = money(v.invoiced, c.currency) + (
        f" / {money(c.committed_spend, c.currency)}" if c.committed_spend is not None else ""
    )
    return [
        str(v.id),
        v.title,
        f"{v.provider} {v.offer}",
        c.start_date.isoformat(),
        v.running.end.isoformat() + (" ↻" if c.auto_renew else ""),  # the running term's: a renewal's
        v.notice_by.isoformat() if v.notice_by else "",
        str(v.in_force.gpus),
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
    billing: Annotated[BillingCadence, flag(C("billing"), "--billing")] = BillingCadence.MONTHLY,
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
        say(_("warning: {problem}").format(problem=view.unconfirmed_stock), err=True)
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
            help="At the end of its term: {AtTermEnd}; ends records notice given.",
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
        say(_("warning: {problem}").format(problem=view.unconfirmed_stock), err=True)
    cur = view.contract.currency
    for line in view.invoices:  # an amendment in force from a past day re-checks the invoices after it: said
        was = before.get(line.invoice.id)
        if was is not None and was.expected != line.check.expected:
            note = _("note: invoice #{id} was expected at {was}, now at {now} ({verdict})")
            say(note.format(id=line.invoice.id, was=money(was.expected, cur), now=money(line.check.expected, cur),
                            verdict=_verdict(line.check.off, line.check.variance, cur)), err=True)  # fmt: skip
    if as_json:
        print_json(view.to_json())
        return
    said = _("Amendment {seq} of contract #{id}, from {day}: {changes}")
    say(said.format(seq=amendment.seq, id=contract, day=day_text(amendment.effective),
                    changes=amendment.summary(lambda x: money(Decimal(x), view.contract.currency))))  # fmt: skip
    _show(view, today)


def _show(v: ContractView, today: date) -> None:
    """What ``contracts show`` promises: the terms, the key dates to come, availability and credits by month,
    every incident and every invoice; an empty section says so."""
    from quotetui.domain.timeutil import local_text

    c, cur = v.contract, v.contract.currency
    if c.reference:
        heading = _("Contract #{id} {reference}: {provider} {offer}")
    else:
        heading = _("Contract #{id}: {provider} {offer}")
    say(heading.format(id=v.id, reference=c.reference, provider=v.provider, offer=v.offer))
    now = v.in_force  # an amendment still to come is said as coming, below
    gpus = ngettext("{n} GPU", "{n} GPUs", now.gpus).format(n=f"{now.gpus:,}")
    months = ngettext("{n} month", "{n} months", c.term_months).format(n=f"{c.term_months:,}")
    start, end = day_text(c.start_date), day_text(c.end_date)
    if c.signed_date:
        term = _("{gpus}, {start} → {end} ({months}), signed {signed}").format(
            gpus=gpus, start=start, end=end, months=months, signed=day_text(c.signed_date)
        )
    else:
        term = _("{gpus}, {start} → {end} ({months})").format(gpus=gpus, start=start, end=end, months=months)
    say(f"  {term}")
    if v.term_said:
        say(f"  {v.term_said}")
    if c.accepted_on:
        accepted = _("accepted on {day} (quotetui acceptance show --contract {id})")
    else:
        accepted = _("not accepted yet (quotetui acceptance show --contract {id})")
    say("  " + accepted.format(day=day_text(c.accepted_on) if c.accepted_on else "", id=v.id))
    from quotetui.domain.economics.inputs import stored_label_shown

    signed = c.snapshot.get("option", {})  # as signed (the engine's English label, stored: compared)
    option = stored_label_shown(signed["label"], signed["term_months"], signed["prepay"]) if signed.get("label") else ""
    how = _(" ({option}, round {round})").format(option=option, round=c.snapshot.get("round")) if option else ""
    price = _("price {amount} {per_unit}{how}; monthly charge {charge}; {billed}")
    billed = _("billed {cadence}").format(cadence=c.billing_cadence.spaced)  # its word, as the TUI says it
    say("  " + price.format(amount=money(c.price, cur), per_unit=_(PER_UNIT[c.price_unit]), how=how,
                            charge=money(v.monthly_charge, cur), billed=billed))  # fmt: skip
    for line in _agreed_lines(c.snapshot, cur, now, v.discounts_said) + v.coming_words(lambda x: money(x, cur)):
        say(f"  {line}")
    if v.notice_said:
        say(f"  {v.notice_said}")
    say("  " + v.spent_said(lambda x: money(x, cur)))
    if v.amendments:
        say(_("Amendments ({n}):").format(n=len(v.amendments)))
    for a in v.amendments:
        changed = a.summary(lambda x: money(Decimal(x), cur))
        agreed = _("{seq}. from {day}, agreed by {who}: {changes}")
        say("  " + agreed.format(seq=a.seq, day=day_text(a.effective), who=a.recorded_by, changes=changed))
        say(f"     {one_line(a.reason)}")
    if v.overdue_said:  # past payment dates, before the dates to come
        say(labelled(_("Overdue"), v.overdue_said))
    upcoming = sorted((k for k in v.dates if k.day >= today), key=lambda k: k.day)
    if upcoming:
        say(_("Key dates from {day} ({n}):").format(day=day_text(today), n=len(upcoming)))
    else:
        say(_("Key dates: none to come"))
    for k in upcoming[:KEY_DATES_SHOWN]:
        say(f"  {k.day.isoformat()} {labelled(k.word, k.detail) if k.detail else k.word}")
    if len(upcoming) > KEY_DATES_SHOWN:
        more = _("… and {n} more (`quotetui contracts due --within DAYS`)")
        say("  " + more.format(n=len(upcoming) - KEY_DATES_SHOWN))
    hit = [m for m in v.months if m.incidents]
    if hit:
        say(_("Availability and credits by month (months with an incident, {zone}):").format(zone=v.time_zone))
    else:
        so_far = ngettext(
            "Availability: no downtime recorded ({n} month so far)",
            "Availability: no downtime recorded ({n} months so far)",
            v.months_served,
        )
        say(so_far.format(n=f"{v.months_served:,}"))
    for m in hit:
        month = _("{month}: {availability} available, credit {rate} = {credit}")
        say("  " + month.format(month=month_text(m.month), availability=percent(m.availability, 3),
                                rate=percent(m.credit_rate), credit=money(m.credit, cur)))  # fmt: skip
    if hit:
        owed = _("credits owed {owed}, received {received}")
        say("  " + owed.format(owed=money(v.credits_owed, cur), received=money(v.credits_received, cur)))
    say(_("Incidents ({n}):").format(n=len(v.incidents)) if v.incidents else _("Incidents: none"))
    for i in v.incidents:
        end = local_text(i.ended_at, v.time_zone) if i.ended_at else _("still open")
        start = local_text(i.started_at, v.time_zone)
        incident = _("#{id} {start} → {end}, {scope}: {description} ({credit})")
        say("  " + incident.format(id=i.id, start=start, end=end, scope=i.affected, description=one_line(i.description),
                                   credit=i.credit_words(lambda x: money(x, cur))))  # fmt: skip
    say(_("Invoices ({n}):").format(n=len(v.invoices)) if v.invoices else _("Invoices: none"))
    for line in v.invoices:
        i = line.invoice
        invoice = _("#{id} {first} – {last}: {amount} (expected {expected}) {verdict}, {paid}")
        say("  " + invoice.format(id=i.id, first=day_text(i.period_start), last=day_text(i.period_end),
                                  amount=money(i.amount, cur), expected=money(line.check.expected, cur),
                                  verdict=_verdict(line.check.off, line.check.variance, cur),
                                  paid=_("paid") if i.paid else _("unpaid")))  # fmt: skip


def _verdict(off: bool, variance: Decimal, currency: str) -> str:
    """An invoice against the amount expected: ``OFF by +1,000.00`` or ``matches``."""
    return (
        _("OFF by {amount}").format(amount=with_sign(variance, lambda a: money(a, currency))) if off else _("matches")
    )


PER_UNIT = {
    PriceUnit.GPU_HOUR: N_("a gpu-hour"),
    PriceUnit.NODE_HOUR: N_("a node-hour"),
    PriceUnit.GPU_MONTH: N_("a gpu-month"),
    PriceUnit.NODE_MONTH: N_("a node-month"),
    PriceUnit.TERM_TOTAL: N_("a term-total"),
}
"""What a contract's price is for, after its amount (``price 2.50 a gpu-hour``): English message ids."""
KEY_DATES_SHOWN = 6
"""How many key dates to come ``contracts show`` lists (``contracts due`` lists them all)."""


def _agreed_lines(snapshot: dict[str, Any], currency: str, now: InForce, discounts: str | None) -> list[str]:
    """What was sold (the nodes and the model ``now`` in force), the SLA, the discounts ``now`` in force and the
    extras the contract kept when it was signed (its snapshot)."""
    out = []
    sla = snapshot.get("sla") or {}
    if sla:
        parts = (
            [_("{share} availability").format(share=percent(Decimal(sla["availability"]), 3))]
            if sla.get("availability")
            else []
        )
        parts += [
            _("{rate} credit below {share}").format(rate=percent(Decimal(credit)), share=percent(Decimal(below), 3))
            for below, credit in sla["credits"]
        ]
        out.append(
            _("SLA: {terms}").format(terms=clauses(parts)) if parts else _("SLA: no availability or credits stated")
        )
    sold = snapshot.get("sold")
    if sold:  # what acceptance judges against, whatever the offer says now
        gbps = (
            _(" ({gbps} Gb/s a GPU)").format(gbps=sold["inter_gbps_per_gpu"]) if sold.get("inter_gbps_per_gpu") else ""
        )
        nodes = now.nodes or int(sold["nodes"])
        said = ngettext(
            "sold: {gpu}, {n} node of {per_node} GPUs; {intra} in a node, {inter} across{gbps}",
            "sold: {gpu}, {n} nodes of {per_node} GPUs; {intra} in a node, {inter} across{gbps}",
            nodes,
        )
        out.append(said.format(gpu=now.gpu or sold["gpu_name"], n=f"{nodes:,}", per_node=sold["gpus_per_node"],
                               intra=IntraFabric(sold["intra_fabric"]).shown,
                               inter=InterFabric(sold["inter_fabric"]).shown, gbps=gbps))  # fmt: skip
        sample = sold.get("sample")
        if sample:  # the nodes acceptance checks, as the contract states
            share = (
                _("{share} of the nodes").format(share=percent(Decimal(sample["share"]))) if sample.get("share") else ""
            )
            least = ""
            if sample.get("at_least"):
                k = int(sample["at_least"])
                least = ngettext("at least {n} node", "at least {n} nodes", k).format(n=f"{k:,}")
            said = _("acceptance checks a sample: {sample}")
            out.append(said.format(sample=listed(p for p in (share, least) if p)))
    from quotetui.domain.economics.inputs import ExtraTerm

    if discounts:  # those of the charge in force (``ContractView.discounts_said``): an amendment's to come
        out.append(discounts)
    extras = [
        f"{ExtraTerm.stored_words(x['label'])} {money(Decimal(x['amount']), x['currency'])} "
        f"{ExtraBasis(x['basis']).spaced}"
        for x in snapshot.get("extras", [])
    ]
    if extras:
        out.append(_("extras: {extras}").format(extras=clauses(extras)))
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
        raise BadInput(_("no contract #{id}").format(id=contract))
    if as_json:
        print_json(views[0].to_json())
        return
    _show(views[0], today)


GROUP_NAMES = {"overdue": N_("Overdue"), "within_30_days": N_("Within 30 days")}


@app.command("due")
def due(
    ctx: typer.Context,
    within: Annotated[int, flag(WITHIN, "--within", help="How far ahead.", metavar="DAYS")] = 90,
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
        label = _(GROUP_NAMES[name]) if name in GROUP_NAMES else _("Within 31–{days} days").format(days=within)
        say(aside(label, f"{len(items)}"))
        for k in items:
            left = k.days_left(today)
            when = days_away(left)
            when = " " * (13 - width(when)) + when  # to the right, in terminal cells
            say(f"  {k.day.isoformat()} {when}  {k.told(k.said)}")


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

    _day, now = _as_of(on)
    dates = key_dates(open_db(ctx), now)
    written = write_calendar(out, dates, now, force=force)
    said = ngettext("Wrote {path} ({n} event).", "Wrote {path} ({n} events).", len(dates))
    say(said.format(path=written, n=f"{len(dates):,}"))


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
    said = _("incident #{id} recorded on contract #{contract}; see `quotetui contracts show {contract}`")
    say(said.format(id=incident.id, contract=contract))


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
    [shown] = [i for i in view.incidents if i.id == row.id]
    credit = shown.credit_words(lambda x: money(x, view.contract.currency))
    say(_("incident #{id}: {credit}").format(id=row.id, credit=credit))


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
    verdict = _verdict(line.check.off, line.check.variance, invoice.currency)
    said = _("invoice #{id}: {amount}, expected {expected}: {verdict}")
    say(said.format(id=invoice.id, amount=money(invoice.amount, invoice.currency),
                    expected=money(line.check.expected, invoice.currency), verdict=verdict))  # fmt: skip


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="contracts")
