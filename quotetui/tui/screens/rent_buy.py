"""Rent vs buy with live inputs: the two cumulative-cost curves and the break-even month.

It follows the active scenario: the rent offer is costed for it (its GPUs, its currency), and the utilisation
starts from the scenario's share of hours in use (again whenever the scenario changes). Typing recalculates in
a worker a moment after the last key (:mod:`quotetui.tui.screens.calculator`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Header, Input, Static

from quotetui.domain.economics.exact import dec
from quotetui.domain.economics.rentbuy import breakeven_words, utilisation_words
from quotetui.domain.entities import ID, OWNING_PARTS, RENT_BUY
from quotetui.domain.enums import Tone
from quotetui.domain.errors import BadInput, FieldErrors, unnamed
from quotetui.domain.fields import parse_value, shown_value, title_of
from quotetui.language import N_, _
from quotetui.language.lists import clauses, labelled, listed, quoted
from quotetui.tui.safe import Text
from quotetui.tui.screens.calculator import CalculatorScreen, NumberInput
from quotetui.tui.tones import STYLE
from quotetui.tui.widgets.chart import Chart, Line
from quotetui.tui.widgets.footer import KeysFooter
from quotetui.tui.widgets.said import Said
from quotetui.tui.workers import background

if TYPE_CHECKING:
    from quotetui.domain.economics.inputs import ScenarioInput
    from quotetui.services.market_view import MarketView
    from quotetui.services.rent_buy import RentBuyAnswer

START = {"capex": "2500000", "opex_monthly": "19000", "rent_monthly": "180000", "utilisation": "100"}
"""Typed starting values when no purchase option is recorded: the DESIGN check (250万, 1.9万 a month, 18万)."""
STARTED_WITH = N_(
    "The inputs start from a worked example (capex 2,500,000, opex 19,000 and rent 180,000 a month): type "
    "yours, or an offer's id to rent it as it is quoted."
)
FIELDS = (
    ("purchase", N_("Purchase option (name or #)")),
    *((name, RENT_BUY.field(name).label) for name in ("capex", "capex_vat_rate", "capex_special_invoice")),
    *((name, RENT_BUY.field(name).label) for name in ("opex_monthly", *OWNING_PARTS)),
    ("rent_monthly", RENT_BUY.field("rent_monthly").label),
    ("offer", N_("…or rent offer # (overrides)")),
    *((name, RENT_BUY.field(name).label) for name in
      ("gpus", "utilisation", "residual", "depreciation_years", "discount_rate", "horizon_months")),
)  # fmt: skip
"""Each input and its label, in English (marked ``N_`` where declared: the fields' in ``entities.py``); shown
with ``_()``."""
LABELS = dict(FIELDS)
TEXT_FIELDS = frozenset({"purchase"})  # a name or an id; every other field is a number
SHORT = {"offer": N_("rent offer #")}
"""How a message names an input whose label starts with other words (``…or rent offer #``)."""


def names() -> dict[str, str]:
    """How the service's messages name the inputs: as this screen labels them, in the language in use."""
    return {name: f"“{_(SHORT[name]) if name in SHORT else title_of(label)}”" for name, label in FIELDS}


def sentence(words: str) -> str:
    """Words (a clause in the language in use) as a sentence: its first letter upper case, its full stop."""
    return _("{sentence}.").format(sentence=words[:1].upper() + words[1:])


class RentBuyScreen(CalculatorScreen):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+l", "reset", N_("Reset inputs"), id="reset-inputs")]

    _followed: tuple[object, ...] | None = None  # the scenario the inputs were last filled from

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="calculator"):
            with VerticalScroll(id="calc-inputs"):
                yield Said(N_("Rent vs buy"), classes="dialog-title")
                yield Static("", id="rb-scenario")
                for name, label in FIELDS:
                    yield Said(label, classes="form-label")
                    kind = Input if name in TEXT_FIELDS else NumberInput
                    yield kind(START.get(name, ""), id=f"rb-{name}", classes="form-input")
            with VerticalScroll(id="calc-results"):
                yield Static(id="rb-result")
                yield Chart(id="rb-chart")
                yield Static(id="rb-notes")
        yield KeysFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.prefill()

    @background(group="rent-buy-prefill")
    def prefill(self) -> None:
        """Start from the first recorded purchase option (its parts, ranges at their middle), if there is one."""
        db = self.qapp.database
        if db is None:
            return
        from quotetui.services.rent_buy import recorded_purchase

        terms = recorded_purchase(db)
        if terms is not None:
            self.app.call_from_thread(self._prefilled, terms.name)

    def _prefilled(self, name: str) -> None:
        with self.prevent(Input.Changed):  # one calculation for it all, at once
            for field in ("capex", "opex_monthly"):
                self.query_one(f"#rb-{field}", Input).value = ""
            self.query_one("#rb-purchase", Input).value = name
        self.notify(_("Started from {name}: typed values override its parts.").format(name=quoted(name)), timeout=5)
        self.schedule(now=True)

    def show_market(self, market: MarketView) -> None:
        s = market.scenario
        followed = (s.name, s.utilisation)
        if followed != self._followed:
            with self.prevent(Input.Changed):
                self._follow(s)
            self._followed = followed
        self.schedule(now=True)

    def _follow(self, s: ScenarioInput) -> None:
        """The inputs the scenario gives: its share of hours in use."""
        field = RENT_BUY.field("utilisation")  # a share typed as a percentage, as every input takes it
        self.query_one("#rb-utilisation", Input).value = str(shown_value(field, s.utilisation, percent=True))
        self._say_scenario(s)

    def _say_scenario(self, s: ScenarioInput) -> None:
        self.query_one("#rb-scenario", Static).update(
            Text(
                _("Scenario: {scenario} (s switches). {started}").format(scenario=s.name, started=_(STARTED_WITH)),
                style=STYLE[Tone.MUTED],
            )
        )

    def speak(self) -> None:
        """A language switch: the scenario's line (the labels are :class:`Said`; the results are worked out again
        when the market is read again, in the new language)."""
        market = self.qapp.market
        if market is not None:
            self._say_scenario(market.scenario)

    def action_reset(self) -> None:
        for name in LABELS:
            self.query_one(f"#rb-{name}", Input).value = START.get(name, "")
        market = self.qapp.market
        if market is not None:
            self._follow(market.scenario)
        self.prefill()

    @on(Input.Changed)
    def _changed(self) -> None:
        self.schedule()

    def inputs(self) -> dict[str, Any] | None:
        values = {name: self.query_one(f"#rb-{name}", Input).value.strip() or None for name in LABELS}
        market = self.qapp.market
        return {
            "typed": values,
            "db": self.qapp.database,
            "scenario": market.scenario.name if market else None,
            "home": market.scenario.home_currency if market else None,
        }

    def compute(self, values: dict[str, Any]) -> RentBuyAnswer:
        from quotetui.services.rent_buy import calc_rent_vs_buy

        typed = dict(values["typed"])
        offer, purchase = typed.pop("offer"), typed.pop("purchase")
        try:
            offer_id = parse_value(ID, offer) if offer else None
        except BadInput as exc:
            raise FieldErrors({"offer": unnamed(str(exc))}) from None
        if offer_id is not None:
            typed["rent_monthly"] = None
        return calc_rent_vs_buy(
            values["db"],
            typed,
            offer_id=offer_id,
            scenario=values["scenario"],
            currency=None if offer_id or purchase else values["home"],
            purchase=purchase,
            names=names(),
        )

    def show_problem(self, exc: Exception) -> None:
        if isinstance(exc, FieldErrors):
            words = clauses(
                labelled(_(LABELS[name]) if name in LABELS else name, message) for name, message in exc.errors.items()
            )
        else:
            words = str(exc)
        self.query_one("#rb-result", Static).update(Text(f"⚠ {words}", style=STYLE[Tone.ERROR]))
        self.query_one("#rb-notes", Static).update("")
        self.query_one("#rb-chart", Chart).clear()  # the curves of inputs that no longer hold would mislead

    def show(self, answer: RentBuyAnswer) -> None:
        r = answer.result
        cur = r.inputs.currency
        self.query_one("#rb-notes", Static).update(Text("\n".join(answer.notes), style=STYLE[Tone.MUTED]))
        text = Text()
        words = breakeven_words(r)
        text.append(sentence(words) + "\n", style=f"bold {STYLE[Tone.SUCCESS]}" if r.breakeven_months else "bold")
        text.append(sentence(utilisation_words(r)) + "\n")
        if answer.owning.left_out:
            parts = listed(_(part) for part in answer.owning.left_out)  # declared N_ (``ownership.py``)
            text.append(
                "≥ " + _("Owning leaves out {parts} (not given).").format(parts=parts) + "\n", style=STYLE[Tone.WARNING]
            )
        text.append(sentence(answer.npv_words))
        self.query_one("#rb-result", Static).update(text)
        series = [p.month for p in r.series]
        self.query_one("#rb-chart", Chart).lines(
            [
                Line(_("rent (cumulative)"), series, [dec(p.rent, 0) for p in r.series]),
                Line(_("own (cumulative)"), series, [dec(p.own, 0) for p in r.series]),
            ],
            title=_("Cumulative cost ({currency}); red: break-even").format(currency=cur),
            xlabel=_("month"),
            vline=dec(r.breakeven_months, 2) if r.breakeven_months is not None else None,
            money=True,
        )
