"""Pinned offers side by side; the better value in each row is highlighted.

As many offers as the width allows are shown at once (two at 80 columns, three at 100, all four from 120); the
others are a page away (``]`` / ``[`` or →/←), and a line above the table says which are shown ("offers 1–2 of
4 →"). The best value in a row is the best among all pinned offers, not only those on the page.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Header, Label

from quotetui.domain.economics.caveats import Caveats, figure_text
from quotetui.domain.economics.display import grouped
from quotetui.domain.economics.evaluate import Evaluation
from quotetui.domain.economics.exact import share_text
from quotetui.domain.enums import Tone
from quotetui.language import N_, _, ngettext
from quotetui.language.cells import width as cells
from quotetui.language.lists import listed, quoted
from quotetui.tui.offer_rows import at, cells_of, flags_of, pending_of
from quotetui.tui.safe import Text, plain
from quotetui.tui.screens.base import MarketScreen
from quotetui.tui.tones import STYLE
from quotetui.tui.widgets.footer import KeysFooter

if TYPE_CHECKING:
    from quotetui.services.market_view import MarketView, OfferRow

Figure = tuple[str, Callable[[Evaluation], Fraction], str, str]  # label (English, ``N_``), value, kind, better


FIGURES: list[Figure] = [
    (N_("Cost per delivered PFLOP-hour"), lambda e: e.cost_per_pflop_hour, "cost", "low"),
    (N_("Effective price per GPU-hour"), lambda e: e.price_per_gpu_hour, "price", "low"),
    (N_("All-in cost per used GPU-hour"), lambda e: e.cost_per_gpu_hour, "cost", "low"),
    (N_("Annualised TCO"), lambda e: e.annualised_tco, "cost", "low"),
    (N_("Monthly cost"), lambda e: e.best.monthly, "cost", "low"),
    (N_("Total for the scenario"), lambda e: e.best.total, "cost", "low"),
    (N_("MFU used"), lambda e: e.effective_mfu, "share1", "high"),
    (N_("Availability"), lambda e: e.availability.value, "share3", "high"),
    (N_("Downtime hours a year"), lambda e: e.downtime_hours_per_year, "hours", "low"),
]
"""Each figure and how it reads: a cost with every caveat's mark (``caveats.figure_text``), a price with all but
the lower bound (it leaves nothing out), shares and hours as they are."""


def figure_cell(kind: str, value: Fraction, caveats: Caveats) -> str:
    if kind == "cost":
        return figure_text(value, caveats, money=True)
    if kind == "price":
        return figure_text(value, caveats.of_price, money=True)
    if kind.startswith("share"):  # as every share is written: no needless zeros (99 %, 99.95 %)
        return share_text(value, int(kind[-1]))
    return f"{grouped(value, 1)}"


FACTS = [
    (N_("Offer"), "name"),
    (N_("GPU"), "gpu"),
    (N_("Configuration"), "config"),
    (N_("Quoted price"), "price"),
    (N_("Billing"), "billing"),
    (N_("Status"), "status"),
    (N_("Valid until"), "valid_until"),
    (N_("Verification"), "verification"),
]
"""The rows of facts above the figures: each one's name (English, ``N_``) and the offers table's column it shows."""
CHEAPEST, FEASIBLE, FLAGS = N_("Cheapest way to buy"), N_("Feasible"), N_("Flags")


def label_width() -> int:
    """The first column: the longest figure's name, in cells, in the language in use."""
    return max(cells(_(label)) for label, *_rest in FIGURES)


MIN_OFFER_WIDTH, MAX_OFFER_WIDTH = 19, 40
"""An offer's column: never so narrow that a price or a date is cut, never wider than its text needs."""
PADDING = 2  # a DataTable cell's padding, one cell each side
SCROLLBAR = 2


def page_size(width: int, offers: int) -> tuple[int, int]:
    """How many offers fit ``width`` columns side by side, and each one's column width."""
    room = max(0, width - SCROLLBAR - label_width() - PADDING)
    fit = max(1, min(offers, room // (MIN_OFFER_WIDTH + PADDING)))
    return fit, max(MIN_OFFER_WIDTH, min(MAX_OFFER_WIDTH, room // fit - PADDING))


def page_hint(first: int, shown: int, total: int) -> str:
    """``offers 1–2 of 4 →``: which pinned offers are on screen, and on which side the others are."""
    last = first + shown
    if shown == 1:
        where = _("offer {n} of {total}").format(n=first + 1, total=total)
    else:
        where = _("offers {first}–{last} of {total}").format(first=first + 1, last=last, total=total)
    before = "← " if first > 0 else ""
    after = " →" if last < total else ""
    keys = "  " + _("(] next, [ previous)") if shown < total else ""
    return f"{before}{where}{after}{keys}"


"""Feasible, a question open, blocked."""


class CompareScreen(MarketScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("x", "clear_pins", N_("Unpin all"), id="unpin-all"),
        Binding(
            "left_square_bracket,left", "page(-1)", N_("Previous"), key_display="[", priority=True, id="compare-prev"
        ),
        Binding("right_square_bracket,right", "page(1)", N_("Next"), key_display="]", priority=True, id="compare-next"),
    ]

    first = 0
    """The index, among the pinned offers, of the first one shown."""
    per_page = 1
    pinned_count = 0
    fitted: tuple[int, int] = (0, 0)
    """What the table was last drawn with: offers a page and each one's column width."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Label(id="compare-title")
        yield Label(id="compare-page")
        yield DataTable(id="compare", cursor_type="row", zebra_stripes=True)
        yield KeysFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.watch(self.app, "pinned", lambda _: self._redraw(), init=False)

    def on_resize(self, event: events.Resize) -> None:
        if self.qapp.market is not None and page_size(event.size.width, self.pinned_count) != self.fitted:
            self._redraw()  # another number of offers fits, or the same ones fit wider

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "page":
            if self.pinned_count <= self.per_page:
                return False  # everything is in view: no paging keys in the footer, ←/→ go to the table
            step = parameters[0] if parameters else 1
            more = self.first + self.per_page < self.pinned_count if step == 1 else self.first > 0
            return True if more else None  # shown, dimmed, at either end
        return True

    def action_page(self, step: int) -> None:
        if step > 0 and self.first + self.per_page < self.pinned_count:
            self.first += self.per_page
        elif step < 0 and self.first > 0:
            self.first = max(0, self.first - self.per_page)
        else:
            return
        self._redraw()

    def set_loading(self, loading: bool) -> None:
        self.query_one(DataTable).loading = loading

    def show_market(self, market: MarketView) -> None:
        self._redraw()

    def _redraw(self) -> None:
        market = self.qapp.market
        table = self.query_one(DataTable)
        table.clear(columns=True)
        title = self.query_one("#compare-title", Label)
        hint = self.query_one("#compare-page", Label)
        rows = [r for p in self.qapp.pinned if market and (r := market.row(p)) is not None]
        self.pinned_count = len(rows)
        self.fitted = page_size(self.size.width or self.app.size.width, len(rows))
        self.per_page, width = self.fitted
        self.first = min(self.first, max(0, len(rows) - 1)) // self.per_page * self.per_page
        hint.display = len(rows) > self.per_page
        self.refresh_bindings()
        if market is None or not rows:
            offers, pin, compare = self.key("offers", "o"), self.key("pin", "space"), self.key("compare", "c")
            hint = _(
                "Nothing pinned yet: in the offers table ({offers}) press {pin} on up to 4 offers, then {compare}."
            )
            title.update(plain(hint.format(offers=offers, pin=pin, compare=compare)))
            return
        hint.update(plain(page_hint(self.first, min(self.per_page, len(rows) - self.first), len(rows))))
        cur = market.scenario.home_currency
        title.update(
            plain(
                ngettext(
                    "{n} pinned offer for scenario {scenario}; amounts in {currency}; best in each row in green",
                    "{n} pinned offers for scenario {scenario}; amounts in {currency}; best in each row in green",
                    len(rows),
                ).format(n=f"{len(rows):,}", scenario=quoted(market.scenario.name), currency=cur)
            )
        )
        shown = slice(self.first, self.first + self.per_page)
        table.add_column("", key="figure", width=label_width())
        for r in rows[shown]:
            table.add_column(Text(f"#{r.offer.id} {r.offer.provider}"), key=str(r.offer.id), width=width)
        self._facts(table, rows[shown])
        for label, value, kind, better in FIGURES:
            values = [value(r.evaluation) if r.evaluation else None for r in rows]
            known = [v for v in values if v is not None]
            best = (min(known) if better == "low" else max(known)) if len(set(known)) > 1 else None
            cells = [
                Text("—", style=STYLE[Tone.MUTED], justify="right")
                if v is None
                else Text(
                    figure_cell(kind, v, r.caveats),
                    style=f"bold {STYLE[Tone.SUCCESS]}" if v == best else "",
                    justify="right",
                )
                for v, r in zip(values[shown], rows[shown], strict=True)
            ]
            table.add_row(Text(_(label)), *cells)

    def _facts(self, table: DataTable, rows: list[OfferRow]) -> None:
        market = self.qapp.market
        pending = pending_of(market) if market is not None else None
        formatted = [cells_of(r, pending) for r in rows]
        for label, key in FACTS:
            shown = (_broken(cells[at(key)]) if key == "price" else cells[at(key)] for cells in formatted)
            table.add_row(Text(_(label)), *(Text(c) for c in shown), height=None)  # wraps
        options = (Text(r.evaluation.best.shown if r.evaluation else "—") for r in rows)
        table.add_row(Text(_(CHEAPEST)), *options, height=None)
        table.add_row(
            Text(_(FEASIBLE)),
            *(
                Text(r.evaluation.feasibility.words, style=STYLE[r.evaluation.feasibility.tone])
                if r.evaluation
                else Text(r.problem or "", style=STYLE[Tone.WARNING])
                for r in rows
            ),
            height=None,
        )
        flags = (listed(flags_of(r, pending)) or "—" for r in rows)
        table.add_row(Text(_(FLAGS)), *(Text(f) for f in flags), height=None)

    def action_clear_pins(self) -> None:
        self.qapp.pinned = ()


def _broken(price: str) -> str:
    """A quoted price on two lines, the amount (or range) above its currency and unit, so a narrow column
    never cuts a number in the middle ("80,000.00–120,000.0" / "0 CNY/node-mo")."""
    amount, _space, unit = price.rpartition(" ")
    return f"{amount}\n{unit}" if amount else price
