"""Contracts: every signed deal with its charge, spend against commitment, SLA credits and invoice checks,
and below it the key dates by urgency. Enter opens a contract."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Header, Static

from quotetui.domain.economics.display import money_number, stored_text
from quotetui.domain.economics.exact import percent_text
from quotetui.domain.enums import Tone
from quotetui.language import N_, _, ngettext
from quotetui.language.dates import days_away
from quotetui.tui.safe import Text
from quotetui.tui.screens.base import MarketScreen
from quotetui.tui.tones import STYLE
from quotetui.tui.widgets.footer import KeysFooter
from quotetui.tui.widgets.virtual_table import Column, TableRow, VirtualTable

if TYPE_CHECKING:
    from quotetui.domain.contracts.dates import KeyDate
    from quotetui.services.contract_view import ContractView
    from quotetui.services.market_view import MarketView

COLUMNS = [  # headers declared N_, shown with _() (``shown_columns``)
    Column("id", N_("ID"), "right", 3),
    Column("contract", N_("Contract"), max_width=14),
    Column("provider", N_("Provider"), max_width=8),
    Column("offer", N_("Offer"), max_width=16),
    Column("ends", N_("Ends"), max_width=12),
    Column("notice", N_("Notice by"), max_width=10),
    Column("gpus", N_("GPUs"), "right", 4),
    Column("monthly", N_("Monthly"), "right", 12),
    Column("spent", N_("Spent / committed"), "right", 22),
    Column("availability", N_("Avail."), "right", 8),
    Column("credits", N_("Credits"), "right", 10),
    Column("invoices", N_("Off"), "right", 3),
]
GROUP_TITLES = {"overdue": N_("Overdue"), "within_30_days": N_("Within 30 days")}
LATER = N_("Within 31–90 days")


def shown_columns(columns: list[Column]) -> list[Column]:
    """``columns`` with their headers (declared ``N_``) in the language in use; their keys stay English."""
    return [replace(c, label=_(c.label)) for c in columns]


def _money(amount: object, currency: str) -> str:
    return stored_text(amount, currency)  # type: ignore[arg-type]


def contract_cells(v: ContractView) -> list[str]:
    c = v.contract
    spent = _money(v.invoiced, c.currency)  # to the view's day (``ContractView.invoiced``)
    if c.committed_spend is not None:
        spent += f" / {_money(c.committed_spend, c.currency)}"
    last = v.months[-1] if v.months else None
    return [
        str(v.id),
        v.title,
        v.provider,
        v.offer,
        v.running.end.isoformat() + (" ↻" if c.auto_renew else ""),  # the running term's: a renewal's
        v.notice_by.isoformat() if v.notice_by else "",
        str(v.in_force.gpus),  # in force today: an amendment to come changes nothing yet
        money_number(v.monthly_charge, 2),
        spent,
        percent_text(last.availability, 2) if last else "",
        money_number(v.credits_owed, 2),
        str(len(v.invoices_off)),
    ]


DATE_COLUMNS = [
    Column("when", N_("When"), max_width=18),
    Column("date", N_("Date"), max_width=10),
    Column("days", N_("Days"), "right", 13),  # as ``contracts due`` says them (``days_away``)
    Column("what", N_("What"), max_width=160, fill=True),  # clipped to the screen, never inside a figure
]


def key_date_rows(m: MarketView) -> tuple[list[KeyDate], list[TableRow]]:
    """The key dates by urgency, one row each, drawn only when on screen: 500 contracts have thousands of
    dates within 90 days, which one laid-out table would redraw whole on every resize."""
    dates: list[KeyDate] = []
    rows: list[TableRow] = []
    for group, items in m.due.items():
        style = Tone.ERROR if group == "overdue" else Tone.WARNING if group == "within_30_days" else ""
        title = _(GROUP_TITLES.get(group, LATER))
        for k in items:
            what = k.told(k.said)
            left = k.days_left(m.on)
            rows.append(
                TableRow(
                    len(dates), [title, k.day.isoformat(), days_away(left), what], [len(dates)], what.lower(), style
                )
            )
            dates.append(k)
    return dates, rows


class ContractsScreen(MarketScreen):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "open", N_("Open"), show=False)]
    _dates: Sequence[KeyDate] = ()  # the key dates' rows, in order (set by show_market)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="contracts-hint")
        yield VirtualTable(id="contracts")
        yield Static(id="key-dates-title")
        yield VirtualTable(id="key-dates")
        yield KeysFooter()

    def set_loading(self, loading: bool) -> None:
        self.query_one("#contracts", VirtualTable).loading = loading

    def show_market(self, m: MarketView) -> None:
        table = self.query_one("#contracts", VirtualTable)
        table.loading = not m.cards_ready and m.cards_failed is None  # the contracts come after the offers
        if not m.cards_ready:
            why = m.cards_failed
            again = self.key("refresh", "f5")
            if why:
                text = _("The contracts could not be loaded ({key} tries again): {why}").format(key=again, why=why)
            else:
                text = _("Loading contracts…")
            self.query_one("#contracts-hint", Static).update(
                Text(text, style=STYLE[Tone.ERROR] if why else STYLE[Tone.MUTED])
            )
            return
        rows = [TableRow(v.id, contract_cells(v), [v.id], v.title.lower()) for v in m.contracts]
        self.query_one("#contracts", VirtualTable).set_data(shown_columns(COLUMNS), rows)
        n = len(m.contracts)
        hint = (
            ngettext(
                "{n} contract; Enter opens one (incidents, invoices).",
                "{n} contracts; Enter opens one (incidents, invoices).",
                n,
            ).format(n=f"{n:,}")
            if m.contracts
            else _("No contracts yet: open an offer and press S to sign it.")
        )
        self.query_one("#contracts-hint", Static).update(Text(hint, style=STYLE[Tone.MUTED]))
        self._dates, rows = key_date_rows(m)
        due = len(rows)
        title = (
            ngettext("Key dates: {n} date within 90 days", "Key dates: {n} dates within 90 days", due).format(
                n=f"{due:,}"
            )
            if due
            else _("Key dates: nothing due in 90 days")
        )
        self.query_one("#key-dates-title", Static).update(Text(title, style="bold"))
        self.query_one("#key-dates", VirtualTable).set_data(shown_columns(DATE_COLUMNS), rows)

    @on(VirtualTable.Selected)
    def _open(self, event: VirtualTable.Selected) -> None:
        """Enter opens a contract; on a key date, what the date belongs to (its contract, or the offer whose
        quote expires)."""
        from quotetui.tui.screens.contract_detail import ContractDetailScreen
        from quotetui.tui.screens.offer_detail import OfferDetailScreen

        if event.table.id == "contracts":
            self.app.push_screen(ContractDetailScreen(event.key))
            return
        k = self._dates[event.key]
        if k.contract_id is not None:
            self.app.push_screen(ContractDetailScreen(k.contract_id))
        elif k.offer_id is not None:
            self.app.push_screen(OfferDetailScreen(k.offer_id))
