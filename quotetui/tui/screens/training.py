"""The training-run planner with live inputs: wall time and cost on each offer of a GPU model.

It follows the active scenario: its GPU model, its GPUs and its training run (FLOPs, or parameters and
tokens) fill the inputs, again whenever the scenario changes; a scenario without a run keeps the run typed.
Typing recalculates in a worker a moment after the last key (:mod:`quotetui.tui.screens.calculator`).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

from rich.cells import cell_len
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Header, Input, Select, Static

from quotetui.domain.economics.display import grouped, money_number
from quotetui.domain.economics.exact import dec, percent_text, sci
from quotetui.domain.entities import TRAIN
from quotetui.domain.enums import Tone
from quotetui.language import N_, _, ngettext
from quotetui.services.form_spec import problem_text
from quotetui.tui.safe import Table, Text, plain
from quotetui.tui.screens.calculator import CalculatorScreen, NumberInput
from quotetui.tui.tones import STYLE
from quotetui.tui.widgets.chart import Chart
from quotetui.tui.widgets.footer import KeysFooter
from quotetui.tui.widgets.said import Said

if TYPE_CHECKING:
    from quotetui.domain.economics.inputs import ScenarioInput
    from quotetui.services.calc import OfferRun
    from quotetui.services.market_view import MarketView

FIELDS = tuple(  # each input, its label (English, marked N_ in ``entities.py``: shown with _()) and first value
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
GPU_MODEL = N_("GPU model")
SHOWN = 12
OFFER_MIN = 16
"""The offer column is never narrower than this: it names what every other column is about."""
COLUMNS = (
    (N_("cost"), 12),
    (N_("days"), 7),
    (N_("billed"), 16),
    (N_("MFU"), 7),
    (N_("scaling"), 7),
    (N_("MFU source"), 10),
)
"""The figures, most wanted first: a narrow terminal (80 columns) drops them from the end, never the offer. A
column's name is its key and, through ``_()``, its header."""
ORDER = ("days", "MFU", "MFU source", "scaling", "cost", "billed")


def fitting_columns(width: int) -> list[tuple[str, int]]:
    """The figure columns that fit beside the offer column in ``width`` cells, in their reading order."""
    room, kept = width - OFFER_MIN, set()
    for name, cells in COLUMNS:
        if cells + 2 <= room:  # one cell of padding each side
            room -= cells + 2
            kept.add(name)
    return [(name, dict(COLUMNS)[name]) for name in ORDER if name in kept]


def run_title(flops: Fraction, gpus: int, gpu: str, currency: str, skipped: int) -> str:
    """The results' title: the run, and how many offers cannot run it."""
    if not skipped:
        return _("{flops} FLOPs on {gpus} × {gpu}: cheapest first ({currency})").format(
            flops=sci(flops), gpus=gpus, gpu=gpu, currency=currency
        )
    return ngettext(
        "{flops} FLOPs on {gpus} × {gpu}: cheapest first ({currency}); {n} offer cannot run it",
        "{flops} FLOPs on {gpus} × {gpu}: cheapest first ({currency}); {n} offers cannot run it",
        skipped,
    ).format(flops=sci(flops), gpus=gpus, gpu=gpu, currency=currency, n=f"{skipped:,}")


class TrainingScreen(CalculatorScreen):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+l", "reset", N_("Reset inputs"), id="reset-training")]

    _followed: tuple[object, ...] | None = None  # the scenario the inputs were last filled from
    _shown: tuple[list[OfferRun], int, str] | None = None  # the last result, drawn again on a resize

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="calculator"):
            with VerticalScroll(id="calc-inputs"):
                yield Said(N_("Training run"), classes="dialog-title")
                yield Static("", id="tr-scenario")
                yield Said(GPU_MODEL, classes="form-label")
                yield Select([], prompt=_(GPU_MODEL), id="tr-gpu", classes="form-input")
                for name, label, value in FIELDS:
                    yield Said(label, classes="form-label")
                    yield NumberInput(value, id=f"tr-{name}", classes="form-input")
            with Vertical(id="calc-results"):
                yield Static(id="tr-result")
                yield Chart(id="tr-chart")
        yield KeysFooter()

    def speak(self) -> None:
        """A language switch: the GPU model's prompt and the scenario's line (the labels are :class:`Said`; the
        results are worked out again when the market is read again, in the new language)."""
        self.query_one("#tr-gpu", Select).prompt = _(GPU_MODEL)
        market = self.qapp.market
        if market is not None:
            self._say_scenario(market.scenario)

    def show_market(self, market: MarketView) -> None:
        with self.prevent(Input.Changed, Select.Changed):  # one calculation for it all, at once
            self._fill(market)
        self.schedule(now=True)

    def _fill(self, market: MarketView) -> None:
        select = self.query_one("#tr-gpu", Select)
        gpus = sorted({e.offer.gpu.name for e in market.evaluations})
        current = select.value
        select.set_options([(plain(g), g) for g in gpus])
        s = market.scenario
        wanted = s.gpu.name if s.gpu else None
        followed = (s.name, wanted, s.gpu_count, s.train_flops, s.train_params, s.train_tokens)
        if followed != self._followed:
            self._follow(s)
            current = wanted if wanted in gpus else current
            self._followed = followed
        if current in gpus:
            select.value = current
        elif gpus:
            select.value = wanted if wanted in gpus else "H100 SXM5" if "H100 SXM5" in gpus else gpus[0]

    def _follow(self, s: ScenarioInput) -> None:
        """The inputs the scenario gives: its GPUs and, if it has one, its training run."""
        self.query_one("#tr-gpus", Input).value = str(s.gpu_count)
        run: dict[str, Decimal | None] = {}  # no whole run in the scenario: the one typed stays
        if s.train_flops is not None:
            run = {"flops": s.train_flops, "params": None, "tokens": None}
        elif s.train_params is not None and s.train_tokens is not None:
            run = {"flops": None, "params": s.train_params, "tokens": s.train_tokens}
        for name, value in run.items():
            self.query_one(f"#tr-{name}", Input).value = "" if value is None else format(value.normalize(), "g")
        self._say_scenario(s)

    def _say_scenario(self, s: ScenarioInput) -> None:
        said = _("Scenario: {scenario} (s switches)").format(scenario=s.name)
        self.query_one("#tr-scenario", Static).update(Text(said, style=STYLE[Tone.MUTED]))

    def action_reset(self) -> None:
        for name, _label, value in FIELDS:
            self.query_one(f"#tr-{name}", Input).value = value
        market = self.qapp.market
        if market is not None:
            self._follow(market.scenario)

    @on(Input.Changed)
    @on(Select.Changed)
    def _changed(self) -> None:
        self.schedule()

    def inputs(self) -> dict[str, Any] | None:
        market = self.qapp.market
        gpu = self.query_one("#tr-gpu", Select).value
        if market is None or market.fx is None or gpu is Select.NULL:
            return None
        values = {name: self.query_one(f"#tr-{name}", Input).value.strip() or None for name, *_rest in FIELDS}
        offers = [e.offer for e in market.evaluations if e.offer.gpu.name == gpu]
        return {"typed": values, "offers": offers, "market": market}

    def compute(self, values: dict[str, Any]) -> tuple[list[OfferRun], int, str]:
        from quotetui.services.calc import training_runs

        typed, market = values["typed"], values["market"]
        runs, skipped = training_runs(
            values["offers"],
            gpus=typed["gpus"] or "",
            flops=typed["flops"] if not typed["params"] else None,
            params=typed["params"],
            tokens=typed["tokens"],
            mfu=typed["mfu"],
            scaling=typed["scaling"],
            fx=market.fx,
            currency=market.scenario.home_currency,
            assumptions=market.assumptions,
        )
        return runs, len(skipped), market.scenario.home_currency

    def show_problem(self, exc: Exception) -> None:
        self.query_one("#tr-result", Static).update(Text(f"⚠ {problem_text(exc, TRAIN)}", style=STYLE[Tone.ERROR]))
        self.query_one("#tr-chart", Chart).clear()  # the bars of inputs that no longer hold would mislead

    def show(self, result: tuple[list[OfferRun], int, str]) -> None:
        self._shown = result
        self._show(*result)

    def on_resize(self) -> None:
        if self._shown is not None:
            self.call_after_refresh(self._show, *self._shown)  # after the layout: the new width is known

    def _show(self, runs: list[OfferRun], skipped: int, currency: str) -> None:
        result = self.query_one("#tr-result", Static)
        if not runs:
            self.query_one("#tr-result", Static).update(
                Text(_("No offer of this GPU can run it."), style=STYLE[Tone.WARNING])
            )
            self.query_one("#tr-chart", Chart).clear()
            return
        first = runs[0].plan
        width = result.content_region.width or self.app.size.width - 36
        columns = fitting_columns(width)
        names = [f"#{run.offer.id} {run.offer.provider} {run.offer.name}" for run in runs[:SHOWN]]
        natural = max(OFFER_MIN, *(cell_len(n) for n in names)) + sum(cells + 2 for _, cells in columns)
        table = Table(
            box=None,
            pad_edge=False,
            expand=natural > width,  # squeeze the offer names only when they do not fit; wide: no gaps
            title=run_title(first.flops, first.gpus, first.gpu.name, currency, skipped),
            title_justify="left",
            title_style="bold",
        )
        table.add_column(_("offer"), overflow="ellipsis", no_wrap=True, ratio=1, min_width=OFFER_MIN)
        for name, cells in columns:
            justify = "left" if name in ("billed", "MFU source") else "right"  # words left, figures right
            table.add_column(_(name), justify=justify, no_wrap=True, min_width=cells)
        for name, run in zip(names, runs[:SHOWN], strict=True):
            c = run.cheapest
            figures = {
                "days": f"{grouped(run.plan.wall_days, 1)}",
                "MFU": percent_text(run.plan.mfu.value, 1),  # a share: 40.0 % (40.0% in Chinese)
                "MFU source": run.plan.mfu.source_word,
                "scaling": f"{dec(run.plan.scaling.value, 2)}",
                "cost": money_number(c.total, 2) if c else "—",
                "billed": c.billed if c else "",
            }
            table.add_row(name, *(figures[n] for n, _ in columns))
        result.update(table)
        shown = [(r, c) for r in runs[:SHOWN] if (c := r.cheapest) is not None]
        self.query_one("#tr-chart", Chart).bars(
            [f"#{r.offer.id}" for r, _ in shown],
            [dec(c.total, 0) for _, c in shown],
            title=_("Cost of the run per offer ({currency})").format(currency=currency),
            money=True,
        )
