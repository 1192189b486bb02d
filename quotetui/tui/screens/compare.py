"""Pinned offers side by side; the better value in each row is highlighted."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Footer, Header, Label

from quotetui.domain.economics.evaluate import Evaluation
from quotetui.domain.economics.exact import dec, pct
from quotetui.tui.offer_rows import at, table_row
from quotetui.tui.safe import Text, plain
from quotetui.tui.screens.base import MarketScreen

if TYPE_CHECKING:
    from quotetui.services.market_view import MarketView, OfferRow

Figure = tuple[str, Callable[[Evaluation], Fraction], Callable[[Fraction], str], str]  # label, value, text, better

FIGURES: list[Figure] = [
    ("Cost per delivered PFLOP-hour", lambda e: e.cost_per_pflop_hour, lambda v: f"{dec(v, 2):,}", "low"),
    ("Effective price per GPU-hour", lambda e: e.price_per_gpu_hour, lambda v: f"{dec(v, 2):,}", "low"),
    ("All-in cost per used GPU-hour", lambda e: e.cost_per_gpu_hour, lambda v: f"{dec(v, 2):,}", "low"),
    ("Annualised TCO", lambda e: e.annualised_tco, lambda v: f"{dec(v, 0):,}", "low"),
    ("Monthly cost", lambda e: e.best.monthly, lambda v: f"{dec(v, 0):,}", "low"),
    ("Total for the scenario", lambda e: e.best.total, lambda v: f"{dec(v, 0):,}", "low"),
    ("MFU used", lambda e: e.effective_mfu, lambda v: f"{pct(v, 1)} %", "high"),
    ("Availability", lambda e: e.availability.value, lambda v: f"{pct(v, 3)} %", "high"),
    ("Downtime hours a year", lambda e: e.downtime_hours_per_year, lambda v: f"{dec(v, 1):,}", "low"),
]


class CompareScreen(MarketScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("x", "clear_pins", "Unpin all", id="unpin-all"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Label(id="compare-title")
        yield DataTable(id="compare", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        super().on_mount()
        self.watch(self.app, "pinned", lambda _: self._redraw(), init=False)

    def set_loading(self, loading: bool) -> None:
        self.query_one(DataTable).loading = loading

    def show_market(self, market: MarketView) -> None:
        self._redraw()

    def _redraw(self) -> None:
        market = self.qapp.market
        table = self.query_one(DataTable)
        table.clear(columns=True)
        title = self.query_one("#compare-title", Label)
        rows = [r for p in self.qapp.pinned if market and (r := market.row(p)) is not None]
        if market is None or not rows:
            offers, pin, compare = self.key("offers", "o"), self.key("pin", "space"), self.key("compare", "c")
            hint = f"Nothing pinned yet: in the offers table ({offers}) press {pin} on up to 4 offers, then {compare}."
            title.update(plain(hint))
            return
        cur = market.scenario.home_currency
        title.update(
            plain(
                f"{len(rows)} pinned offers for scenario {market.scenario.name!r}; amounts in {cur}; "
                "best in each row in green"
            )
        )
        table.add_column("", key="figure")
        for r in rows:
            table.add_column(Text(f"#{r.offer.id} {r.offer.provider}"), key=str(r.offer.id))
        self._facts(table, rows)
        for label, value, text, better in FIGURES:
            values = [value(r.evaluation) if r.evaluation else None for r in rows]
            known = [v for v in values if v is not None]
            best = (min(known) if better == "low" else max(known)) if len(set(known)) > 1 else None
            cells = [
                Text("—", style="dim")
                if v is None
                else Text(text(v), style="bold green" if v == best else "", justify="right")
                for v in values
            ]
            table.add_row(Text(label), *cells)

    def _facts(self, table: DataTable, rows: list[OfferRow]) -> None:
        formatted = [table_row(r).cells for r in rows]
        for label, key in (
            ("Offer", "name"),
            ("GPU", "gpu"),
            ("Configuration", "config"),
            ("Quoted price", "price"),
            ("Billing", "billing"),
            ("Status", "status"),
            ("Valid until", "valid_until"),
            ("Verification", "verification"),
        ):
            table.add_row(Text(label), *(Text(cells[at(key)]) for cells in formatted))
        options = (Text(r.evaluation.best.label if r.evaluation else "—") for r in rows)
        table.add_row(Text("Cheapest way to buy"), *options)
        table.add_row(
            Text("Feasible"),
            *(
                Text("no: " + "; ".join(r.evaluation.feasibility.blocking), style="red")
                if r.evaluation and not r.evaluation.feasibility.ok
                else (Text("yes") if r.evaluation else Text(r.problem or "", style="yellow"))
                for r in rows
            ),
        )
        table.add_row(Text("Flags"), *(Text(", ".join(r.flags) or "—") for r in rows))

    def action_clear_pins(self) -> None:
        self.qapp.pinned = ()
