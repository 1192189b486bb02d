"""The training-run planner with live inputs: wall time and cost on each offer of a GPU model."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Header, Input, Label, Select, Static
from textual_plotext import PlotextPlot

from quotetui.domain.economics.exact import dec, pct, sci
from quotetui.domain.entities import TRAIN
from quotetui.domain.errors import QuotetuiError
from quotetui.services.forms import problem_text
from quotetui.tui.safe import Table, Text, plain
from quotetui.tui.screens.base import MarketScreen

if TYPE_CHECKING:
    from quotetui.services.calc import OfferRun
    from quotetui.services.market_view import MarketView

FIELDS = tuple(
    (name, TRAIN.field(name).label, start)
    for name, start in (
        ("flops", "3.14e23"),
        ("params", ""),
        ("tokens", ""),
        ("gpus", "32"),
        ("mfu", ""),
        ("scaling", ""),
    )
)
SHOWN = 12


class TrainingScreen(MarketScreen):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+r", "reset", "Reset inputs", id="reset-training")]

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="calculator"):
            with VerticalScroll(id="calc-inputs"):
                yield Label("Training run", classes="dialog-title")
                yield Label("GPU model", classes="form-label")
                yield Select([], prompt="GPU model", id="tr-gpu", classes="form-input")
                for name, label, value in FIELDS:
                    yield Label(label, classes="form-label")
                    yield Input(value, id=f"tr-{name}", classes="form-input")
            with Vertical(id="calc-results"):
                yield Static(id="tr-result")
                yield PlotextPlot(id="tr-chart")
        yield Footer()

    def show_market(self, market: MarketView) -> None:
        select = self.query_one("#tr-gpu", Select)
        gpus = sorted({e.offer.gpu.name for e in market.evaluations})
        current = select.value
        select.set_options([(plain(g), g) for g in gpus])
        if current in gpus:
            select.value = current
        elif gpus:
            wanted = market.scenario.gpu.name if market.scenario.gpu else "H100 SXM5"
            select.value = wanted if wanted in gpus else gpus[0]
        self.recalculate()

    def action_reset(self) -> None:
        for name, _, value in FIELDS:
            self.query_one(f"#tr-{name}", Input).value = value

    @on(Input.Changed)
    @on(Select.Changed)
    def recalculate(self) -> None:
        market = self.qapp.market
        gpu = self.query_one("#tr-gpu", Select).value
        if market is None or market.fx is None or gpu is Select.NULL:
            return
        from quotetui.services.calc import training_runs

        values = {name: self.query_one(f"#tr-{name}", Input).value.strip() or None for name, _, _ in FIELDS}
        offers = [e.offer for e in market.evaluations if e.offer.gpu.name == gpu]
        try:
            runs, skipped = training_runs(
                offers,
                gpus=values["gpus"] or "",
                flops=values["flops"] if not values["params"] else None,
                params=values["params"],
                tokens=values["tokens"],
                mfu=values["mfu"],
                scaling=values["scaling"],
                fx=market.fx,
                currency=market.scenario.home_currency,
                assumptions=market.assumptions,
            )
        except QuotetuiError as exc:
            self.query_one("#tr-result", Static).update(Text(f"⚠ {problem_text(exc, TRAIN)}", style="bold red"))
            return
        self._show(runs, len(skipped), market.scenario.home_currency)

    def _show(self, runs: list[OfferRun], skipped: int, currency: str) -> None:
        if not runs:
            self.query_one("#tr-result", Static).update(Text("No offer of this GPU can run it.", style="yellow"))
            return
        first = runs[0].plan
        table = Table(
            box=None,
            pad_edge=False,
            expand=True,
            title=f"{sci(first.flops)} FLOPs on {first.gpus} × {first.gpu.name}: cheapest first "
            f"({currency}){f'; {skipped} offers cannot run it' if skipped else ''}",
            title_justify="left",
            title_style="bold",
        )
        table.add_column("offer", overflow="ellipsis", no_wrap=True, ratio=1)
        for name, width in (("days", 7), ("MFU", 7), ("scaling", 7), ("cost", 12), ("billed", 16)):
            table.add_column(name, justify="left" if name == "billed" else "right", no_wrap=True, min_width=width)
        for run in runs[:SHOWN]:
            c = run.cheapest
            table.add_row(
                f"#{run.offer.id} {run.offer.provider} {run.offer.name}",
                f"{dec(run.plan.wall_days, 1):,}",
                f"{pct(run.plan.mfu.value, 1)} {run.plan.mfu.source[0]}",
                f"{dec(run.plan.scaling.value, 2)}",
                f"{dec(c.total, 0):,}" if c else "—",
                c.billed if c else "",
            )
        self.query_one("#tr-result", Static).update(table)
        plot = self.query_one("#tr-chart", PlotextPlot)
        plt = plot.plt
        plt.clear_data()
        plt.clear_figure()
        shown = [(r, c) for r in runs[:SHOWN] if (c := r.cheapest) is not None]
        plt.bar([f"#{r.offer.id}" for r, _ in shown], [float(dec(c.total, 0)) for _, c in shown])  # chart pixels only
        plt.title(f"Cost of the run per offer ({currency})")
        plot.refresh()
