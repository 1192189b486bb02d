"""One offer in tabs: Spec, Pricing, Negotiation, SLA, Benchmarks, Contract. Every figure comes from the
engine for the active scenario; rounds, discounts, extras and SLA are recorded from here."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, ClassVar

from rich.console import Group
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Header, Static, TabbedContent, TabPane

from quotetui.domain import entities as E
from quotetui.domain.economics.display import stored_text
from quotetui.domain.economics.exact import dec
from quotetui.domain.economics.explain import explain
from quotetui.domain.economics.negotiation import price_history
from quotetui.domain.economics.units import UNIT_WORDS
from quotetui.domain.enums import Mover, Tone, mover_word
from quotetui.domain.errors import QuotetuiError
from quotetui.domain.fields import Entity
from quotetui.domain.money import plain
from quotetui.domain.timeutil import local_day
from quotetui.language import N_, _, ngettext
from quotetui.language.lists import quoted
from quotetui.language.numbers import percent
from quotetui.services.market_view import MarketView
from quotetui.services.negotiation import Negotiation, negotiate_offer
from quotetui.services.offer_detail import OfferDetail, load_offer_detail
from quotetui.tui import safe
from quotetui.tui.safe import Text
from quotetui.tui.tones import STYLE
from quotetui.tui.widgets import detail_tables as render
from quotetui.tui.widgets.chart import Chart, Line
from quotetui.tui.widgets.footer import KeysFooter
from quotetui.tui.workers import ClosesOnTop, ReportsWorkerErrors, background

if TYPE_CHECKING:
    from quotetui.tui.host import MarketApp

TABS = ("spec", "pricing", "negotiation", "sla", "benchmarks", "contract")
TAB_KEYS: dict[str, frozenset[str]] = {
    "spec": frozenset({"edit"}),
    "pricing": frozenset({"discount", "extra"}),
    "negotiation": frozenset({"round('provider')", "round('counter')"}),
    "sla": frozenset({"sla"}),
    "benchmarks": frozenset({"bench"}),
    "contract": frozenset({"sign"}),
}
"""The keys the footer shows on each tab (every key works on every tab; the help lists them all): at 80
columns all of them at once would leave no room for Back and Help."""


def _round_items(d: OfferDetail) -> list[tuple[int, str]]:
    items = []
    for r in d.rounds:
        p = r.prices[0] if r.prices else None
        price = f"{stored_text(p.amount, p.currency)} {p.currency} {_(UNIT_WORDS[p.unit])}" if p else _("no price")
        day = local_day(r.revision.quoted_at, d.time_zone)
        round_n = _("round {n}").format(n=r.revision.seq)
        items.append((r.revision.id or 0, f"{round_n} · {mover_word(r.revision.mover)} · {day} · {price}"))
    return items


def _rate(rate: Decimal | None) -> str:
    return _("rate?") if rate is None else percent(plain(rate * 100))


def _discount_items(d: OfferDetail) -> list[tuple[int, str]]:
    return [(x.id or 0, f"{x.kind.spaced} · {_rate(x.rate)} · {x.description or ''}") for x in d.discounts]


def _extra_items(d: OfferDetail) -> list[tuple[int, str]]:
    return [
        (
            x.id or 0,
            f"{x.kind.spaced} · {x.basis.spaced} · "
            f"{stored_text(x.amount, x.currency) + ' ' + x.currency if x.amount is not None else '?'}"
            f" · {x.description or ''}",
        )
        for x in d.extras
    ]


MANAGED = {entity.key: entity for entity in (E.ROUND, E.DISCOUNT, E.EXTRA)}
"""What ``manage`` picks from, by the entity's key (each is deleted by ``editing.delete_fine_print``)."""
PICK_ITEMS = {E.ROUND.key: _round_items, E.DISCOUNT.key: _discount_items, E.EXTRA.key: _extra_items}
"""Each record of the kind as the pick dialog lists it: (id, words)."""
MANAGED_WORDS = (N_("Rounds"), N_("round"), N_("Discounts"), N_("discount"), N_("Extra costs"), N_("extra cost"))
"""The managed entities' sheets and records in words (``Entity.sheet``, ``Entity.one``), as the pick dialog and the
delete messages show them: the message ids their translations are found by."""
TAB_TITLES = {
    "spec": N_("1 Spec"),
    "pricing": N_("2 Pricing"),
    "negotiation": N_("3 Negotiation"),
    "sla": N_("4 SLA"),
    "benchmarks": N_("5 Benchmarks"),
    "contract": N_("6 Contract"),
}
"""The tabs' titles, by their pane's id (:data:`TABS`)."""
TAB_WORDS = (N_("Tab 1"), N_("Tab 2"), N_("Tab 3"), N_("Tab 4"), N_("Tab 5"), N_("Tab 6"))
"""The tab keys' descriptions (each its own message id: a binding is declared before any language is known)."""


class OfferDetailScreen(ClosesOnTop, ReportsWorkerErrors, Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", N_("Back")),
        Binding("1", "tab(0)", N_("Tabs"), key_display="1-6"),
        *(Binding(str(n + 1), f"tab({n})", TAB_WORDS[n], show=False) for n in range(1, 6)),
        Binding("a", "round('provider')", N_("Provider offer"), id="add-provider-round"),
        Binding("k", "round('counter')", N_("Our counter"), id="add-counter"),
        Binding("i", "discount", N_("Discount"), id="add-discount"),
        Binding("x", "extra", N_("Extra cost"), id="add-extra"),
        Binding("l", "sla", N_("SLA"), id="edit-sla"),
        Binding("e", "edit", N_("Edit offer"), id="edit-offer"),
        Binding("v", "bench", N_("Import logs"), id="import-logs"),
        Binding("S", "sign", N_("Sign contract"), id="sign-contract"),
        Binding("R", f"manage('{E.ROUND.key}')", N_("Rounds…"), show=False, id="manage-rounds"),
        Binding("I", f"manage('{E.DISCOUNT.key}')", N_("Discounts…"), show=False, id="manage-discounts"),
        Binding("X", f"manage('{E.EXTRA.key}')", N_("Extras…"), show=False, id="manage-extras"),
        Binding("P", "edit_provider", N_("Edit provider"), show=False, id="edit-provider"),
        Binding("space", "pin", N_("Pin"), show=False, id="pin"),
    ]

    def __init__(self, offer_id: int) -> None:
        super().__init__()
        self.offer_id = offer_id
        self.detail: OfferDetail | None = None
        self.position: Negotiation | None = None

    @property
    def qapp(self) -> MarketApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        yield Header()
        with TabbedContent(id="tabs"):
            with TabPane(safe.plain(_(TAB_TITLES["spec"])), id="spec"):
                yield VerticalScroll(Static(id="spec-body"))
            with TabPane(safe.plain(_(TAB_TITLES["pricing"])), id="pricing"):
                yield VerticalScroll(Static(id="fine-print"), Static(id="figures"))
            with TabPane(safe.plain(_(TAB_TITLES["negotiation"])), id="negotiation"), VerticalScroll():
                yield Static(id="position")
                yield Static(id="rounds")
                yield Chart(id="price-chart")
            with TabPane(safe.plain(_(TAB_TITLES["sla"])), id="sla"):
                yield VerticalScroll(Static(id="sla-body"))
            with TabPane(safe.plain(_(TAB_TITLES["benchmarks"])), id="benchmarks"):
                yield VerticalScroll(Static(id="benchmarks-body"))
            with TabPane(safe.plain(_(TAB_TITLES["contract"])), id="contract"):
                yield VerticalScroll(Static(id="contract-body"))
        yield KeysFooter()

    def speak(self) -> None:
        """A language switch: the tabs' titles (the offer is read again with the market, in the new language)."""
        tabs = self.query_one("#tabs", TabbedContent)
        for pane, title in TAB_TITLES.items():
            tabs.get_tab(pane).label = safe.plain(_(title))

    def on_mount(self) -> None:
        self.query_one("#tabs").loading = True
        self.watch(self.app, "market", self._market_changed, init=False)
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)
        self.load()

    def _theme_changed(self, _: object) -> None:
        """The tones' colours follow the theme (``tui/tones.py``): the offer is drawn again from what it holds."""
        if self.detail is not None:
            self._show(self.detail, self.position)

    @background(group="detail")
    def load(self) -> None:
        database, market = self.qapp.database, self.qapp.market
        if database is None:
            return
        try:
            detail = load_offer_detail(database, self.offer_id)
            position = None
            if market is not None and market.fx is not None:
                position = negotiate_offer(
                    database,
                    self.offer_id,
                    market.scenario,
                    market.evaluations,
                    market.fx,
                    market.on,
                    market.caveats,
                )
        except QuotetuiError as exc:
            self.app.call_from_thread(self.notify, str(exc), severity="error")
            self.app.call_from_thread(self._gone)
            return
        self.app.call_from_thread(self._show, detail, position)

    def _gone(self) -> None:
        """The offer no longer exists (deleted elsewhere): close this screen, or, if a form is open on top of
        it, leave the form (whose save will say so) and close this one when it is on top again."""
        self.close_with(None)

    def _market_changed(self, market: MarketView | None) -> None:
        if market is not None:
            self.load()

    def _show(self, detail: OfferDetail, position: Negotiation | None) -> None:
        self.detail, self.position = detail, position
        self.query_one("#tabs").loading = False
        market = self.qapp.market
        row = market.row(self.offer_id) if market else None
        e = position.evaluation if position else None
        self.query_one("#spec-body", Static).update(render.spec(detail))
        self.query_one("#fine-print", Static).update(render.fine_print(detail))
        if e is not None:
            caveats = row.caveats if row is not None else e.caveats
            self.query_one("#figures", Static).update(
                Group(
                    Text(
                        "\n" + _("Figures for scenario {scenario}").format(scenario=quoted(e.scenario.name)),
                        style="bold",
                    ),
                    *(Text(line, style=STYLE[Tone.WARNING]) for line in caveats.words(e.offer.id)),
                    render.figures(explain(e)),
                )
            )
        else:
            why = row.problem if row else _("no price recorded yet (a adds the provider's offer)")
            self.query_one("#figures", Static).update(
                Text("\n" + _("No figures: {why}").format(why=why), style=STYLE[Tone.WARNING])
            )
        lines = self.position.lines() if self.position else [_("No figures for this scenario yet.")]
        text = Text("\n".join(lines))
        text.append("\n\n" + _("a adds the provider's new offer, k our counter-offer") + "\n", style=STYLE[Tone.MUTED])
        self.query_one("#position", Static).update(text)
        self.query_one("#rounds", Static).update(render.rounds(detail))
        self._chart()
        downtime = _("{hours} hours a year").format(hours=dec(e.downtime_hours_per_year, 1)) if e else None
        self.query_one("#sla-body", Static).update(render.sla(detail, downtime))
        audits = row.claims if row else ()
        findings = list(row.findings) if row else []
        self.query_one("#benchmarks-body", Static).update(render.benchmarks(detail, list(audits), findings))
        self.query_one("#contract-body", Static).update(render.contracts(detail))
        self.sub_title = f"#{detail.offer.id} {detail.provider.name} — {detail.offer.name}"

    def _chart(self) -> None:
        chart = self.query_one("#price-chart", Chart)
        if self.position is None:
            chart.clear()
            return
        points = price_history(self.position.evaluation.offer, self.position.evaluation.assumptions)
        currency = points[0].option.currency if points else ""
        lines = [
            Line(mover_word(mover), [p.seq for p in mine], [dec(p.node_month, 2) for p in mine], marker)
            for mover, marker in (("list", "hd"), ("provider", "hd"), ("final", "hd"), ("counter", "x"))
            if (mine := [p for p in points if p.mover == mover])
        ]
        t = self.position.target
        target = t.node_month if t is not None and not t.already_beats and t.amount > 0 and points else None
        chart.lines(
            lines,
            title=_("Price per node-month over rounds ({currency}); red: target against the BATNA").format(
                currency=currency
            ),
            xlabel=_("round"),
            hline=dec(target, 2) if target is not None else None,
            money=True,
        )

    # -- actions -------------------------------------------------------------------------------------
    def action_tab(self, index: int) -> None:
        self.query_one(TabbedContent).active = TABS[index]

    def in_footer(self, binding: Binding) -> bool:
        """Whether the footer shows ``binding`` now: a tab's keys only on that tab (:mod:`..widgets.footer`)."""
        here = TAB_KEYS.get(self.query_one(TabbedContent).active, frozenset())
        return binding.action in here or all(binding.action not in keys for keys in TAB_KEYS.values())

    def on_tabbed_content_tab_activated(self) -> None:
        self.refresh_bindings()  # the footer shows the new tab's keys

    def _form_done(self, result: object) -> None:
        if result is not None:  # the form said what it saved
            self.qapp.reload()

    def action_round(self, mover: str) -> None:
        from quotetui.tui.dialogs.edit_forms import revision_form

        if self.qapp.database is not None:
            self.app.push_screen(revision_form(self.qapp.database, self.offer_id, Mover(mover)), self._form_done)

    def action_discount(self) -> None:
        from quotetui.tui.dialogs.edit_forms import discount_form

        if self.qapp.database is not None:
            self.app.push_screen(discount_form(self.qapp.database, self.offer_id), self._form_done)

    def action_extra(self) -> None:
        from quotetui.tui.dialogs.edit_forms import extra_form

        if self.qapp.database is not None:
            self.app.push_screen(extra_form(self.qapp.database, self.offer_id), self._form_done)

    def action_sla(self) -> None:
        from quotetui.tui.dialogs.edit_forms import sla_form

        if self.qapp.database is not None:
            self.app.push_screen(sla_form(self.qapp.database, self.offer_id), self._form_done)

    def action_edit(self) -> None:
        from quotetui.tui.dialogs.edit_forms import offer_form

        if self.qapp.database is not None:
            self.app.push_screen(offer_form(self.qapp.database, self.offer_id), self._form_done)

    def action_sign(self) -> None:
        """Accept this offer's current round into a contract (the offer becomes accepted)."""
        from quotetui.services.contract_forms import contract_form, save_contract
        from quotetui.tui.dialogs.form_screen import FormScreen

        db = self.qapp.database
        if db is None:
            return

        def done(contract_id: object) -> None:
            if isinstance(contract_id, int):
                self.qapp.reload()

        today = self.qapp.today
        form = FormScreen(
            lambda: contract_form(db, self.offer_id, today),  # read in the form's worker
            lambda raw, _: save_contract(db, self.offer_id, raw),
            lambda _saved, contract_id: _("contract #{id} signed; r shows the contracts").format(id=contract_id),
        )
        self.app.push_screen(form, done)

    def action_bench(self) -> None:
        """Raw logs from the trial machine become evidence; the findings update with the market."""
        from quotetui.tui.dialogs.bench import BenchImportDialog

        database = self.qapp.database
        if database is None or self.detail is None:
            return

        def done(report: object) -> None:
            if report is not None:
                added = len(getattr(report, "added", []))
                stored = len(getattr(report, "stored", []))
                said = ngettext(
                    "{n} log added, {already} already on record", "{n} logs added, {already} already on record", added
                ).format(n=f"{added:,}", already=stored - added)
                self.notify(said, title=_("Evidence"))
                self.qapp.reload()

        title = f"{self.detail.provider.name} {self.detail.offer.name}"
        self.app.push_screen(BenchImportDialog(database, self.offer_id, title), done)

    def action_pin(self) -> None:
        self.qapp.toggle_pin(self.offer_id)

    def action_edit_provider(self) -> None:
        from quotetui.tui.dialogs.edit_forms import provider_form

        if self.qapp.database is not None and self.detail is not None:
            self.app.push_screen(provider_form(self.qapp.database, self.detail.provider.id), self._form_done)

    def action_manage(self, what: str) -> None:
        """Pick a recorded round, discount or extra cost (``what``: its entity's key), then edit it or delete it
        (after confirming)."""
        from quotetui.tui.dialogs.pick import PickDialog

        d, db = self.detail, self.qapp.database
        if d is None or db is None:
            return
        entity = MANAGED[what]
        items = PICK_ITEMS[what](d)
        self.app.push_screen(PickDialog(_(entity.sheet), items), lambda choice: self._picked(entity, choice))

    def _picked(self, entity: Entity, choice: tuple[str, int] | None) -> None:
        from quotetui.services import editing
        from quotetui.tui.dialogs import edit_forms as forms
        from quotetui.tui.dialogs.confirm import ConfirmDialog

        db = self.qapp.database
        if choice is None or db is None:
            return
        action, row_id = choice
        if action == "edit":
            screen = {
                E.ROUND.key: lambda: forms.round_edit_form(db, row_id),
                E.DISCOUNT.key: lambda: forms.discount_form(db, self.offer_id, row_id),
                E.EXTRA.key: lambda: forms.extra_form(db, self.offer_id, row_id),
            }[entity.key]()
            self.app.push_screen(screen, self._form_done)
            return

        one = _(entity.one)  # "discount", "extra cost" (the entity's word, marked where it is declared)

        def deleted(_result: object) -> None:
            self.app.notify(_("Deleted the {what}.").format(what=one))
            self.qapp.reload()

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.app.notify(_("Deleting the {what}…").format(what=one), timeout=3)
                delete = lambda: editing.delete_fine_print(db, entity, row_id)  # noqa: E731
                self.qapp.write_in_background(_("Delete"), delete, deleted)

        self.app.push_screen(
            ConfirmDialog(_("Delete this {what}?").format(what=one), _("The figures are recomputed without it.")),
            confirmed,
        )
