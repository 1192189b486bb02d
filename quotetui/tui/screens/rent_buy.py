"""Rent vs buy with live inputs: the two cumulative-cost curves and the break-even month."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Header, Input, Label, Static
from textual_plotext import PlotextPlot

from quotetui.domain.economics.exact import ceil, dec
from quotetui.domain.economics.rentbuy import RentBuyResult, utilisation_words
from quotetui.domain.entities import ID, RENT_BUY
from quotetui.domain.errors import QuotetuiError
from quotetui.domain.fields import parse_value
from quotetui.services.forms import problem_text
from quotetui.tui.safe import Text
from quotetui.tui.screens.base import MarketScreen

if TYPE_CHECKING:
    from quotetui.services.market_view import MarketView

FIELDS = tuple(
    (name, "…or rent from offer # (overrides)" if name == "offer" else RENT_BUY.field(name).label, start)
    for name, start in (
        ("capex", "2500000"),
        ("opex_monthly", "19000"),
        ("rent_monthly", "180000"),
        ("offer", ""),
        ("gpus", ""),
        ("utilisation", "1"),
        ("residual", "0"),
        ("discount_rate", "0"),
        ("horizon_months", "36"),
    )
)


class RentBuyScreen(MarketScreen):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+r", "reset", "Reset inputs", id="reset-inputs")]

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="calculator"):
            with VerticalScroll(id="calc-inputs"):
                yield Label("Rent vs buy", classes="dialog-title")
                for name, label, value in FIELDS:
                    yield Label(label, classes="form-label")
                    yield Input(value, id=f"rb-{name}", classes="form-input")
            with Vertical(id="calc-results"):
                yield Static(id="rb-result")
                yield PlotextPlot(id="rb-chart")
        yield Footer()

    def on_mount(self) -> None:
        super().on_mount()
        self.prefill()

    @work(thread=True)
    def prefill(self) -> None:
        """Start from the recorded purchase option (the middle of its ranges), if there is one."""
        db = self.qapp.database
        if db is None:
            return
        from quotetui.services.calc import purchase_defaults

        defaults = purchase_defaults(db)
        self.app.call_from_thread(self._prefilled, defaults)

    def _prefilled(self, defaults: dict[str, str]) -> None:
        for name in ("capex", "opex_monthly", "horizon_months", "gpus"):
            if name in defaults:
                self.query_one(f"#rb-{name}", Input).value = defaults[name]
        if "name" in defaults:
            self.notify(f"Started from {defaults['name']!r} (middle of its ranges).", timeout=5)
        self.recalculate()

    def show_market(self, market: MarketView) -> None:
        if self.qapp.database is not None and not self.query_one("#rb-capex", Input).value:
            self.prefill()
        self.recalculate()

    def action_reset(self) -> None:
        for name, _, value in FIELDS:
            self.query_one(f"#rb-{name}", Input).value = value

    @on(Input.Changed)
    def recalculate(self) -> None:
        from quotetui.services.calc import calc_rent_vs_buy

        values = {name: self.query_one(f"#rb-{name}", Input).value.strip() for name, _, _ in FIELDS}
        offer = values.pop("offer")
        try:
            offer_id = parse_value(ID, offer) if offer else None
            result, note = calc_rent_vs_buy(
                self.qapp.database,
                capex=values["capex"] or "0",
                opex_monthly=values["opex_monthly"] or "0",
                rent_monthly=None if offer else values["rent_monthly"],
                offer_id=offer_id,
                scenario=self.qapp.market.scenario.name if self.qapp.market else None,
                residual=values["residual"] or "0",
                discount_rate=values["discount_rate"] or "0",
                horizon_months=values["horizon_months"] or "36",
                utilisation=values["utilisation"] or "1",
                currency=None if offer or not self.qapp.market else self.qapp.market.scenario.home_currency,
                gpus=values["gpus"] or None,
            )
        except QuotetuiError as exc:
            self.query_one("#rb-result", Static).update(Text(f"⚠ {problem_text(exc, RENT_BUY)}", style="bold red"))
            return
        self._show(result, note)

    def _show(self, r: RentBuyResult, note: str | None) -> None:
        cur = r.inputs.currency
        text = Text()
        if note:
            text.append(note + "\n", style="dim")
        if r.breakeven_months is None:
            text.append(f"Renting stays cheaper for all {r.inputs.horizon_months} months.\n", style="bold")
        else:
            text.append(f"Break-even after {dec(r.breakeven_months, 2)} months", style="bold green")
            text.append(f" (owning is ahead from month {ceil(r.breakeven_months)}).\n")
        words = utilisation_words(r)
        text.append(words[0].upper() + words[1:] + ".\n")
        text.append(
            f"NPV over {r.inputs.horizon_months} months: rent {dec(r.npv_rent, 0):,} {cur} · "
            f"buy {dec(r.npv_buy, 0):,} {cur} → {r.cheaper} is cheaper."
        )
        self.query_one("#rb-result", Static).update(text)
        plot = self.query_one("#rb-chart", PlotextPlot)
        plt = plot.plt
        plt.clear_data()
        plt.clear_figure()
        months = [p.month for p in r.series]
        plt.plot(months, [float(dec(p.rent, 0)) for p in r.series], label="rent (cumulative)")  # chart pixels only
        plt.plot(months, [float(dec(p.own, 0)) for p in r.series], label="own (cumulative)")
        if r.breakeven_months is not None:
            plt.vline(float(dec(r.breakeven_months, 2)), "red")
        plt.title(f"Cumulative cost ({cur}); red: break-even")
        plt.xlabel("month")
        plot.refresh()
