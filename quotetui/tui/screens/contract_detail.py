"""One contract: its terms and snapshot, amendments, key dates, availability and credits by month, incidents,
invoices. ``m`` records an amendment, ``i`` an incident, ``v`` an invoice; the figures follow at once."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, ClassVar

from rich.console import Group, RenderableType
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Header, Static

from quotetui.domain.economics.display import money_number, stored_text, with_sign
from quotetui.domain.economics.exact import dec, percent_text
from quotetui.domain.economics.inputs import stored_label_shown
from quotetui.domain.economics.units import UNIT_WORDS
from quotetui.domain.enums import Tone
from quotetui.domain.errors import QuotetuiError
from quotetui.domain.timeutil import local_text, utcnow
from quotetui.language import N_, NP_, _
from quotetui.language.dates import day_text, days_away
from quotetui.language.lists import clauses, labelled, listed
from quotetui.tui.safe import Table, Text
from quotetui.tui.tones import STYLE
from quotetui.tui.widgets.detail_tables import acceptance_table
from quotetui.tui.widgets.footer import KeysFooter
from quotetui.tui.workers import ReportsWorkerErrors, background

if TYPE_CHECKING:
    from quotetui.services.acceptance import Acceptance
    from quotetui.services.contract_view import ContractView
    from quotetui.tui.host import MarketApp


def _table(title: str, *columns: str) -> Table:
    """A table titled ``title`` (as given) whose headers ``columns`` are declared ``N_`` and shown with ``_()``."""
    table = Table(title=title, title_justify="left", title_style="bold", box=None, pad_edge=False)
    for name in columns:
        table.add_column(_(name), overflow="fold")
    return table


def render_acceptance(state: Acceptance) -> RenderableType:
    if state.accepted_on is not None:
        title = _("Acceptance: accepted on {day}").format(day=day_text(state.accepted_on))
    elif state.blocking:
        title = _("Acceptance (a accepts, w waives an item): blocked by {items}").format(
            items=listed(i.title for i in state.blocking)
        )
    else:
        title = _("Acceptance (a accepts): nothing blocks")
    table = acceptance_table(title, state.items)
    notes = [_("{n} recorded after the acceptance, not part of what it rests on: {logs}").format(
        n=len(state.after), logs=clauses(state.after))] if state.after else []  # fmt: skip
    notes += [state.amended] if state.amended else []
    return Group(table, *(Text(n, style=STYLE[Tone.MUTED]) for n in notes)) if notes else table


def render(v: ContractView, today: date) -> RenderableType:
    c, cur = v.contract, v.contract.currency

    def money(amount: Decimal) -> str:
        return stored_text(amount, cur)

    terms = Text()
    terms.append(labelled(v.title, f"{v.provider} {v.offer}") + "\n", style="bold")
    terms.append(
        _("{gpus} GPUs from {start} to {end} ({months} months), billed {cadence}").format(
            gpus=v.in_force.gpus,  # an amendment still to come is said as coming, below
            start=day_text(c.start_date),
            end=day_text(c.end_date),
            months=c.term_months,
            cadence=c.billing_cadence.spaced,  # its word, as every listing shows it
        )
        + "\n"
    )
    if v.term_said:
        terms.append(v.term_said + "\n")
    signed = c.snapshot.get("option", {})  # the way to buy as signed, stored in English
    option = stored_label_shown(signed.get("label", ""), signed.get("term_months", 0), bool(signed.get("prepay")))
    terms.append(
        _("agreed price {price} {currency} {unit} ({option}); monthly charge {monthly} {currency}").format(
            price=money(c.price),
            currency=cur,
            unit=_(UNIT_WORDS[c.price_unit]),
            option=option,
            monthly=money_number(v.monthly_charge, 2),
        )
        + "\n"
    )
    if v.discounts_said:  # those of the charge in force; an amendment's to come is said with it, below
        terms.append(v.discounts_said + "\n")
    for line in v.coming_words(lambda x: f"{money_number(x, 2)} {cur}"):
        terms.append(line + "\n", style=STYLE[Tone.WARNING])
    if v.notice_said:
        terms.append(v.notice_said + "\n")
    terms.append(v.spent_said(lambda x: f"{money(x)} {cur}") + "\n")  # invoiced to the view's day, paid of it
    if c.early_termination:
        terms.append(_("early termination: {terms}").format(terms=c.early_termination) + "\n")
    sla = c.snapshot.get("sla") or {}
    credits = listed(
        _("below {availability}: {credit}").format(availability=percent_text(_f(b), 2), credit=percent_text(_f(r), 1))
        for b, r in sla.get("credits", [])
    )
    terms.append(
        _("SLA credits: {credits}").format(credits=credits or _("none agreed")) + "\n", style=STYLE[Tone.MUTED]
    )

    if v.overdue_said:  # every payment date passed with no paid invoice, the older ones too
        terms.append(labelled(_("Overdue"), v.overdue_said) + "\n", style=STYLE[Tone.ERROR])

    dates = _table(_("Key dates"), N_("date"), N_("days"), N_("what"))
    overdue = set(v.overdue)
    for k in sorted(v.dates, key=lambda k: (k.day, k.kind)):
        left = k.days_left(today)
        if left < -31:  # a month of history; older dates (a renewed contract's earlier terms) are not shown
            continue
        late = k in overdue
        what = k.told(k.word, _("overdue") if late else None)
        dates.add_row(k.day.isoformat(), days_away(left), Text(what, style=STYLE[Tone.ERROR] if late else ""))
    # none (an ended contract's): said as `contracts show` says it, not by an empty table's header
    key_dates: RenderableType = dates if dates.row_count else Text(_("Key dates: none to come"), style="bold")

    months = _table(
        _("Availability and credits by month"),
        N_("month"),
        N_("available"),
        N_("downtime h"),
        N_("credit"),
        N_("incidents"),
    )
    for m in v.months:
        style = STYLE[Tone.ERROR] if m.credit_rate else ""
        months.add_row(
            m.month.isoformat()[:7],
            Text(percent_text(m.availability, 3), style=style),
            f"{dec(m.downtime_hours, 2)}",
            Text(f"{percent_text(m.credit_rate, 1)} = {money_number(m.credit, 2)}", style=style),
            listed(f"#{i}" for i in m.incidents),
        )
    incidents = _table(
        _("Incidents (i adds one)"),
        "#",
        NP_("time", "from"),
        N_("to"),
        N_("affected"),
        N_("what"),
        N_("claimed"),
        N_("received"),
    )
    for i in v.incidents:
        incidents.add_row(
            str(i.id),
            local_text(i.started_at, v.time_zone),
            local_text(i.ended_at, v.time_zone) if i.ended_at else _("ongoing"),
            i.affected,  # GPUs or nodes, as declared
            i.description,
            _("yes") if i.credit_claimed else _("no"),
            money(i.credit_received) if i.credit_received is not None else "",
        )
    invoices = _table(
        _("Invoices (v adds one)"), "#", N_("period"), N_("amount"), N_("expected"), N_("difference"), N_("paid")
    )
    for line in v.invoices:
        bill, off = line.invoice, line.check.off
        invoices.add_row(
            str(bill.id),
            f"{bill.period_start.isoformat()} – {bill.period_end.isoformat()}",
            money(bill.amount),
            money(line.check.expected),
            Text(
                with_sign(line.check.variance, money),
                style=STYLE[Tone.ERROR] if off else STYLE[Tone.SUCCESS],
            ),
            _("yes") if bill.paid else _("no"),
        )
    owed = Text(
        _("credits owed {owed} {currency}, received {received}").format(
            owed=money_number(v.credits_owed, 2), currency=cur, received=money(v.credits_received)
        ),
        style="bold",
    )
    amended = _table(
        _("Amendments (m records one)"), "#", NP_("in effect", "from"), N_("agreed by"), N_("changed"), N_("why")
    )
    for a in v.amendments:
        amended.add_row(str(a.seq), a.effective.isoformat(), a.recorded_by,
                        a.summary(lambda x: stored_text(Decimal(x), cur)), a.reason)  # fmt: skip
    return Group(terms, amended, Text(""), key_dates, Text(""), months, owed, Text(""), incidents, Text(""), invoices)


def _f(text: str) -> Fraction:
    return Fraction(text)


class ContractDetailScreen(ReportsWorkerErrors, Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", N_("Back")),
        Binding("m", "amend", N_("Amend"), id="amend-contract"),
        Binding("i", "incident", N_("Incident"), id="add-incident"),
        Binding("v", "invoice", N_("Invoice"), id="add-invoice"),
        Binding("a", "accept", N_("Accept"), id="accept-contract"),
        Binding("w", "waive", N_("Waive item"), id="waive-item"),
    ]

    def __init__(self, contract_id: int) -> None:
        super().__init__()
        self.contract_id = contract_id
        self.view: ContractView | None = None
        self.acceptance: Acceptance | None = None

    @property
    def qapp(self) -> MarketApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="contract"):
            yield Static(id="contract-body")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#contract").loading = True
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)
        self.load()

    def speak(self) -> None:
        """A language switch: the contract is read and drawn again in the new language."""
        self.load()

    def _theme_changed(self, _: object) -> None:
        """The tones' colours follow the theme (``tui/tones.py``): the contract is drawn again."""
        if getattr(self, "view", None) is not None:
            self._show(self.view, self.acceptance)

    @background(group="contract")
    def load(self) -> None:
        from quotetui.services.acceptance import contract_acceptance
        from quotetui.services.contract_view import load_contracts

        database = self.qapp.database
        if database is None:
            return
        now = datetime.combine(self.qapp.today, utcnow().time(), tzinfo=UTC)
        try:
            views = load_contracts(database, now, self.contract_id)
            state = contract_acceptance(database, self.contract_id) if views else None
        except QuotetuiError as exc:
            self.app.call_from_thread(self._failed, str(exc))
            return
        if views:
            self.app.call_from_thread(self._show, views[0], state)
        else:  # deleted meanwhile, or never there
            self.app.call_from_thread(self._failed, _("no contract #{id}").format(id=self.contract_id))

    def _failed(self, message: str) -> None:
        """Nothing to show: say why, where the contract would be, and stop the loading indicator."""
        self.query_one("#contract").loading = False
        self.query_one("#contract-body", Static).update(Text(message, style=STYLE[Tone.ERROR]))
        self.notify(message, severity="error")

    def _show(self, view: ContractView, state: Acceptance | None = None) -> None:
        self.view, self.acceptance = view, state
        self.query_one("#contract").loading = False
        reference = view.contract.reference  # its title; without one: "contract #id" (``ContractView.title``)
        self.sub_title = (
            _("contract #{id}").format(id=view.id)
            if not reference or reference == f"contract #{view.id}"
            else _("contract #{id} {title}").format(id=view.id, title=reference)
        )
        body = render(view, self.qapp.today)
        if state is not None:
            body = Group(body, Text(""), render_acceptance(state))
        self.query_one("#contract-body", Static).update(body)

    def action_waive(self) -> None:
        """A written waiver of one item that blocks acceptance."""
        from quotetui.services.contract_forms import save_waiver, waiver_form
        from quotetui.tui.dialogs.form_screen import FormScreen

        db, state, today = self.qapp.database, self.acceptance, self.qapp.today
        if db is None or state is None:
            return
        try:
            spec = waiver_form(state, today)
        except QuotetuiError as exc:
            self.notify(str(exc), severity="warning")
            return
        self.app.push_screen(
            FormScreen(spec, lambda raw, _: save_waiver(db, self.contract_id, raw, today)), self._saved
        )

    @background(group="contract-accept")
    def action_accept(self) -> None:
        """Accept the contract today; refused, naming what blocks, while an item fails or is missing."""
        from quotetui.services.acceptance import accept

        database = self.qapp.database
        if database is None:
            return
        try:
            accept(database, self.contract_id, self.qapp.today, self.qapp.today)
        except QuotetuiError as exc:
            self.app.call_from_thread(self.notify, str(exc), severity="error", timeout=12)
            return
        self.app.call_from_thread(self.notify, _("contract #{id} accepted").format(id=self.contract_id))
        self.app.call_from_thread(self.load)

    def _saved(self, result: object) -> None:
        if result is not None:
            self.qapp.reload()
            self.load()

    def action_amend(self) -> None:
        """A dated amendment of the terms both parties agreed (``contracts amend``)."""
        from quotetui.services.contract_forms import amendment_form, save_amendment
        from quotetui.tui.dialogs.form_screen import FormScreen

        db = self.qapp.database
        if db is None or self.view is None:
            return
        spec = amendment_form(self.view.contract, self.qapp.today)
        form = FormScreen(
            spec,
            lambda raw, _: save_amendment(db, self.contract_id, raw),
            lambda _raw, seq: _("amendment {seq} of contract #{id} recorded").format(seq=seq, id=self.contract_id),
        )
        self.app.push_screen(form, self._saved)

    def action_incident(self) -> None:
        from quotetui.services.contract_forms import incident_form, save_incident
        from quotetui.tui.dialogs.form_screen import FormScreen

        db = self.qapp.database
        if db is None or self.view is None:
            return
        spec = incident_form(self.view.contract)
        self.app.push_screen(FormScreen(spec, lambda raw, _: save_incident(db, self.contract_id, raw)), self._saved)

    def action_invoice(self) -> None:
        from quotetui.services.contract_forms import invoice_form, save_invoice
        from quotetui.tui.dialogs.form_screen import FormScreen

        db = self.qapp.database
        if db is None or self.view is None:
            return
        spec = invoice_form(self.view.contract)
        self.app.push_screen(FormScreen(spec, lambda raw, _: save_invoice(db, self.contract_id, raw)), self._saved)
