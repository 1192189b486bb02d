"""The quotetui Textual application.

The database is opened and the market computed in a worker, so the first frame never waits for data.
Screens watch :attr:`QuotetuiApp.market` (everything the engine computed for the active scenario) and
redraw when it changes; after any edit the app reloads it, so every figure follows the data and the
active scenario.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Iterable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.notifications import SeverityLevel
from textual.reactive import reactive
from textual.screen import ModalScreen, Screen

from quotetui.domain.errors import QuotetuiError
from quotetui.domain.text import visible
from quotetui.domain.timeutil import utcnow
from quotetui.tui.commands import MarketCommands
from quotetui.tui.dialogs.error import ErrorDialog
from quotetui.tui.dialogs.scenario_picker import ScenarioPicker
from quotetui.tui.screens.compare import CompareScreen
from quotetui.tui.screens.dashboard import DashboardScreen
from quotetui.tui.screens.help import HelpScreen
from quotetui.tui.screens.offers import OffersScreen
from quotetui.tui.titles import fit_sub_title, sub_title_room
from quotetui.tui.workers import ReportsWorkerErrors, background

if TYPE_CHECKING:
    from quotetui.services.market_view import MarketView
    from quotetui.store.engine import Database
    from quotetui.tui.widgets.virtual_table import TableRow

MAX_PINS = 4


def _screen(module: str, name: str) -> Screen:
    """Import a calculator screen only when it is first shown (charts pull in plotext)."""
    from importlib import import_module

    return getattr(import_module(f"quotetui.tui.screens.{module}"), name)()


class QuotetuiApp(ReportsWorkerErrors, App[None]):
    TITLE = "quotetui"
    SUB_TITLE = "opening the database…"
    CSS_PATH = Path(__file__).with_name("app.tcss")  # absolute, so subclasses elsewhere find it
    MODES: ClassVar = {
        "dashboard": DashboardScreen,
        "offers": OffersScreen,
        "compare": CompareScreen,
        "contracts": lambda: _screen("contracts", "ContractsScreen"),
        "rentbuy": lambda: _screen("rent_buy", "RentBuyScreen"),
        "training": lambda: _screen("training", "TrainingScreen"),
    }
    DEFAULT_MODE: ClassVar[str] = "dashboard"
    COMMANDS: ClassVar = App.COMMANDS | {MarketCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "switch_mode('dashboard')", "Dashboard", id="dashboard"),
        Binding("o", "switch_mode('offers')", "Offers", id="offers"),
        Binding("c", "switch_mode('compare')", "Compare", id="compare"),
        Binding("r", "switch_mode('contracts')", "Contracts", show=False, id="contracts"),
        Binding("b", "switch_mode('rentbuy')", "Rent/buy", show=False, id="rent-buy"),
        Binding("t", "switch_mode('training')", "Training", show=False, id="training"),
        Binding("s", "pick_scenario", "Scenario", id="scenario"),
        Binding("f1,question_mark", "help", "Help", id="help"),
        Binding("ctrl+t", "toggle_dark", "Light/dark", show=False, id="theme"),
        Binding("ctrl+e", "export", "Export to Excel", show=False, id="export"),
        Binding("ctrl+o", "import", "Import files", show=False, id="import"),
        Binding("f5,ctrl+r", "refresh", "Refresh", show=False, id="refresh"),
        Binding("q", "quit", "Quit", id="quit"),
    ]

    market: reactive[MarketView | None] = reactive(None, always_update=True)
    pinned: reactive[tuple[int, ...]] = reactive(())
    scenario_name: reactive[str | None] = reactive(None)
    loading: reactive[bool] = reactive(True)

    def __init__(self, db: str | None = None, *, today: date | None = None) -> None:
        super().__init__()
        self.db_arg = db
        self.today = today or utcnow().date()
        self.database: Database | None = None
        from quotetui.tui.preferences import load_preferences

        self.preferences = load_preferences()  # theme, keymap: applied on mount; a problem is a notification

    POLL_SECONDS = 3.0
    """How often the app asks the database whether another program changed it."""

    def on_mount(self) -> None:
        from quotetui.tui.preferences import apply_preferences

        apply_preferences(self, self.preferences)
        self.call_after_refresh(self.reload)  # the first frame is drawn before the loading worker competes with it
        self.set_interval(self.POLL_SECONDS, self._poll)

    def action_refresh(self) -> None:
        """Read everything again now (F5): what another program changed appears."""
        self.reload()

    def _poll(self) -> None:
        if self.database is not None and self.market is not None and not self.loading:
            self._check_version(self.market.data_version)

    @background(group="poll")
    def _check_version(self, seen: int) -> None:
        """Another program's write (the CLI, an import, another buyer on the server) reloads the market."""
        assert self.database is not None
        try:
            current = self.database.data_version()
        except Exception:  # the database went away for a moment: the next poll tries again
            return
        if current != seen:
            self.call_from_thread(self._changed_elsewhere)

    def _changed_elsewhere(self) -> None:
        if not self.loading:
            self.notify("The data was changed by another program; the figures are read again.", timeout=5)
            self.reload()

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Every notification is plain text (a message quotes names and file names, which may hold ``[/]`` or
        control characters), without the database URL's password; ``markup`` is ignored on purpose."""
        super().notify(
            visible(self.secret_free(str(message))),
            title=visible(title),
            severity=severity,
            timeout=timeout,
            markup=False,
        )

    _title_parts: tuple[str, str] | None = None  # the database and the scenario in the app's sub-title

    def format_title(self, title: str, sub_title: str) -> Content:
        parts = self._title_parts
        if parts is not None and sub_title == f"{parts[0]} · scenario: {parts[1]}":  # the path shortens first
            sub_title = fit_sub_title(*parts, sub_title_room(self.size.width, title))
        return super().format_title(visible(title), visible(self.secret_free(sub_title)))

    def on_resize(self, event: events.Resize) -> None:
        self.mutate_reactive(App.sub_title)  # every header fits its sub-title to the new width

    # -- data ----------------------------------------------------------------------------------------
    _generation = 0  # bumped by every reload: a slower, older load's results are dropped
    PAINT_WAIT_SECONDS = 2.0
    """How long the loading worker waits for the offers to be painted before it computes the cards."""

    def reload(self) -> None:
        """Recompute the market for the active scenario (after an edit or a scenario switch)."""
        self.loading = True
        self._generation += 1
        self._load(self.scenario_name, self._generation)

    @background(group="market")
    def _load(self, scenario: str | None, generation: int) -> None:
        """Two steps: the ranked offers are shown as soon as they are computed, then the dashboard's cards
        (claims, findings, contracts), once the offers are on the screen. The collector is paused meanwhile
        (bulk objects that all live on) and what survives is frozen out of later collections."""
        import gc

        from textual.worker import get_current_worker

        from quotetui.domain.gc_pause import gc_paused

        gc.unfreeze()  # the previous load's objects may be collected again (its view is being replaced)
        worker = get_current_worker()
        with gc_paused():
            first = self._load_offers(scenario, generation)
            if first is not None and not worker.is_cancelled:  # cancelled: a newer load replaces this one
                self._wait_for_paint()
                self._load_cards(first, generation)
                if not worker.is_cancelled:
                    self._make_figure_keys(first, generation)
        gc.freeze()  # what this load made lives on: later collections need not walk it

    def _load_offers(self, scenario: str | None, generation: int) -> MarketView | None:
        from quotetui.services.database import open_database
        from quotetui.services.market_view import load_offers_view

        try:
            if self.database is None:
                opened = open_database(self.db_arg)
                self.database = opened.db
                for message in opened.messages:
                    self.call_from_thread(self.notify, message, title="Database", timeout=10)
            view = load_offers_view(self.database, scenario, on=self.today)
        except QuotetuiError as exc:
            self.call_from_thread(self._failed, str(exc))
            return None
        except Exception as exc:  # a bug: show the details rather than a dead screen
            self.call_from_thread(self._broken, "Loading the market failed", exc)
            return None
        try:
            self.call_from_thread(self._loaded, view, generation, self._offer_rows(view))
        except Exception as exc:
            self.call_from_thread(self.show_error, "Showing the market failed", exc)
            return None
        return view

    def _wait_for_paint(self) -> None:
        """Let the UI thread draw the offers before the cards' work competes with it for the interpreter."""
        import threading

        painted = threading.Event()
        self.call_from_thread(self.call_after_refresh, painted.set)
        painted.wait(self.PAINT_WAIT_SECONDS)

    def _load_cards(self, first: MarketView, generation: int) -> None:
        from quotetui.services.market_view import complete_market_view

        assert self.database is not None
        try:
            view = complete_market_view(self.database, first)
        except Exception as exc:  # the offers stay usable; the cards say what went wrong
            self.call_from_thread(self._cards_failed, first, generation, exc)
            return
        try:
            self.call_from_thread(self._loaded, view, generation, self._offer_rows(view))
        except Exception as exc:
            self.call_from_thread(self.show_error, "Showing the market failed", exc)

    @staticmethod
    def _offer_rows(view: MarketView) -> tuple[MarketView, list[TableRow]]:
        from quotetui.tui.offer_rows import pending_of, table_rows

        return view, table_rows(view.rows, pending_of(view))

    _offer_table: tuple[MarketView, list[TableRow]] | None = None
    _figure_keys: tuple[object, dict[str, dict[int, int | None]]] | None = None  # per ranking: see figure_keys

    def figure_keys(self, view: MarketView, column: str) -> dict[int, int | None]:
        """Offer id → its exact place by a figure column (``offer_rows.FIGURES``) for ``view``'s ranking: made
        by the loading worker after the cards, or here, once, when a sort asks for it sooner."""
        from quotetui.tui.offer_rows import figure_keys

        ranking = view.ranking
        if self._figure_keys is None or self._figure_keys[0] is not ranking:
            self._figure_keys = (ranking, {})
        made = self._figure_keys[1]
        if column not in made:
            made[column] = figure_keys(view.rows, column)
        return made[column]

    def _make_figure_keys(self, view: MarketView, generation: int) -> None:
        """In the worker: every figure column's sort places, so that no sort computes them on the UI thread."""
        from quotetui.tui.offer_rows import FIGURES, figure_keys

        made = {key: figure_keys(view.rows, key) for key in FIGURES}
        self.call_from_thread(self._figure_keys_made, view, generation, made)

    def _figure_keys_made(self, view: MarketView, generation: int, made: dict[str, dict[int, int | None]]) -> None:
        if generation == self._generation:
            if self._figure_keys is None or self._figure_keys[0] is not view.ranking:
                self._figure_keys = (view.ranking, {})
            self._figure_keys[1].update(made)

    def offer_table(self, view: MarketView) -> list[TableRow]:
        """The offers table's rows for ``view``: made by the loading worker, or here when it did not."""
        if self._offer_table is None or self._offer_table[0] is not view:
            self._offer_table = self._offer_rows(view)
        return self._offer_table[1]

    def _loaded(
        self, view: MarketView, generation: int, table: tuple[MarketView, list[TableRow]] | None = None
    ) -> None:
        assert self.database is not None
        if generation != self._generation:  # a later reload is under way: its view wins
            return
        if table is not None:
            self._offer_table = table
        self.pinned = tuple(p for p in self.pinned if view.row(p) is not None)
        self.loading = False
        self._title_parts = (self.database.target.label, view.scenario.name)
        self.sub_title = f"{self.database.target.label} · scenario: {view.scenario.name}"
        self.market = view

    def _cards_failed(self, first: MarketView, generation: int, exc: BaseException) -> None:
        """The offers are shown; the claims, findings and contracts could not be computed: the cards say so
        (F5 tries again), and the error is shown as any other."""
        if generation != self._generation:
            return
        reason = str(exc) if isinstance(exc, QuotetuiError) else f"{type(exc).__name__}: {exc}"
        from dataclasses import replace

        self.market = replace(first, cards_failed=self.secret_free(reason))  # a new view: its rows say "unknown"
        if isinstance(exc, QuotetuiError):
            self.notify(str(exc), title="Checking claims and findings", severity="error", timeout=10)
        else:
            self.show_error("Checking claims and findings failed", exc)

    def _broken(self, title: str, exc: BaseException) -> None:
        """The market could not be computed (a bug): say so in the title as well as in the dialog, so the
        screens do not look as if they were still loading; F5 tries again."""
        self.loading = False
        self.sub_title = "the market could not be computed (F5 tries again)"
        self.show_error(title, exc)

    def _failed(self, message: str) -> None:
        self.loading = False
        self.sub_title = "no database"
        self.notify(self.secret_free(message), title="Cannot open the database", severity="error", timeout=30)

    def secret_free(self, text: str) -> str:
        """``text`` without the password of the database URL (``--db``, ``$QUOTETUI_DB`` or the config file)."""
        import os

        from quotetui.domain.redact import scrub, url_secrets

        given = self.db_arg or os.environ.get("QUOTETUI_DB") or self.preferences.database
        return scrub(text, url_secrets(given)) if given else text

    def show_error(self, title: str, exc: BaseException) -> None:
        details = self.secret_free("".join(traceback.format_exception(exc)))
        self.push_screen(ErrorDialog(title, self.secret_free(f"{type(exc).__name__}: {exc}"), details))

    def write_in_background(self, title: str, action: Callable[[], object], then: Callable[[object], None]) -> None:
        """Run a write from a screen (a delete) in a worker, so a lock held by another program never freezes
        the screen; ``then`` gets what it returned, on the UI thread. A user error is a notification titled
        ``title``, a bug the error dialog. The worker is the app's: leaving the screen does not lose it."""
        self._write_worker(title, action, then)

    @background(group="write", exclusive=False)  # two writes both run (the database queues them)
    def _write_worker(self, title: str, action: Callable[[], object], then: Callable[[object], None]) -> None:
        try:
            result = action()
        except QuotetuiError as exc:
            self.call_from_thread(self.notify, str(exc), title=title, severity="error", timeout=10)
            return
        except Exception as exc:
            self.call_from_thread(self.show_error, f"{title} failed", exc)
            return
        self.call_from_thread(then, result)

    # -- pins ----------------------------------------------------------------------------------------
    def toggle_pin(self, offer_id: int) -> None:
        if offer_id in self.pinned:
            self.pinned = tuple(p for p in self.pinned if p != offer_id)
        elif len(self.pinned) >= MAX_PINS:
            self.notify(f"At most {MAX_PINS} offers can be pinned; unpin one first.", severity="warning")
        else:
            self.pinned = (*self.pinned, offer_id)

    # -- actions -------------------------------------------------------------------------------------
    def action_pick_scenario(self) -> None:
        if self.database is None:
            return

        def chosen(name: str | None) -> None:
            if name is not None and (self.market is None or name != self.market.scenario.name):
                self.scenario_name = name
                self.reload()

        self.push_screen(ScenarioPicker(self.database, self.market.scenario.name if self.market else None), chosen)

    def scenario_saved(self, was: str | None, now: str) -> None:
        """A scenario was added or edited (the picker's n and e): the market is read again; the active one's
        figures follow its new values (and its new name)."""
        if self.market is not None and was == self.market.scenario.name:
            self.scenario_name = now
        self.reload()

    async def action_switch_mode(self, mode: str) -> None:
        """A mode's key shows that mode's own screen, also from a screen opened over it (`o` on an offer opened
        from the offers table shows the table again; it did nothing). A dialog on top is left alone."""
        if mode != self.current_mode:
            self.switch_mode(mode)
            return
        while len(self.screen_stack) > 1 and not isinstance(self.screen, ModalScreen):
            self.pop_screen()

    def action_help(self) -> None:
        self.push_screen(HelpScreen(self.screen))

    def action_toggle_dark(self) -> None:
        from quotetui.tui.preferences import toggled_theme

        self.theme = toggled_theme(self.theme, self.preferences.theme)

    def open_offer(self, offer_id: int) -> None:
        from quotetui.tui.screens.offer_detail import OfferDetailScreen

        self.push_screen(OfferDetailScreen(offer_id))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        now = f" (now: {self.market.scenario.name})" if self.market is not None else ""
        yield SystemCommand(
            "Switch scenario", f"Compare every offer for another workload{now}", self.action_pick_scenario
        )
        yield SystemCommand(
            "Export to Excel…", "The comparison workbook for this scenario, live formulas (Ctrl+E)", self.action_export
        )
        yield SystemCommand(
            "Import spreadsheets…",
            "Offers, rounds, SLAs, claims, FX rates, price lists; dry run first (Ctrl+O)",
            self.action_import,
        )
        yield SystemCommand(
            "Contracts", "Signed deals: key dates, SLA credits, invoices (r)", lambda: self.switch_mode("contracts")
        )
        yield SystemCommand("FX rates…", "The dated exchange rates: n adds one, e edits one", self.action_fx_rates)
        yield SystemCommand(
            "Settings…",
            "Hours a month, default MFU and availability, time zone, discount rate, net of VAT",
            self.action_settings,
        )
        yield SystemCommand("New offer", "Record an offer from a provider", self.action_new_offer)
        yield SystemCommand("New provider", "Add a provider", self.action_new_provider)
        yield SystemCommand(
            "Rent vs buy", "Break-even of owning against renting (b)", lambda: self.switch_mode("rentbuy")
        )
        yield SystemCommand(
            "Training-run planner",
            "Wall time and cost of a run on each offer (t)",
            lambda: self.switch_mode("training"),
        )

    def action_settings(self) -> None:
        """The assumptions every figure rests on, as a form; saving them recomputes every screen."""
        from quotetui.services.settings import save_settings_form, settings_form
        from quotetui.tui.dialogs.form import FormScreen

        db = self.database
        if db is not None:
            self.push_screen(FormScreen(lambda: settings_form(db), lambda raw, _: save_settings_form(db, raw)),
                             self._edited)  # fmt: skip

    def action_fx_rates(self) -> None:
        from quotetui.tui.dialogs.fx_rates import FxRatesDialog

        if self.database is not None:
            self.push_screen(FxRatesDialog(self.database, self.today))

    def action_new_offer(self) -> None:
        from quotetui.tui.dialogs.forms import offer_form

        if self.database is not None:
            self.push_screen(offer_form(self.database), self._edited)

    def action_new_provider(self) -> None:
        from quotetui.tui.dialogs.forms import provider_form

        if self.database is not None:
            self.push_screen(provider_form(self.database), self._edited)

    def action_export(self) -> None:
        from quotetui.tui.dialogs.transfer import ExportDialog

        if self.database is None or self.market is None:
            return

        def done(path: Path | None) -> None:
            if path is not None:
                self.notify(f"Wrote {path}", title="Export", timeout=10)

        dialog = ExportDialog(self.database, self.market.scenario.name, self.pinned, self.today)
        self.push_screen(dialog, done)

    def action_import(self) -> None:
        from quotetui.tui.dialogs.transfer import ImportDialog

        if self.database is None:
            return

        def done(report: object) -> None:
            if report is not None:
                counts = getattr(report, "counts", {})
                summary = "; ".join(f"{name}: {c}" for name, c in counts.items() if c.added or c.changed)
                self.notify(summary or "nothing changed", title="Imported", timeout=10)
                self.reload()

        self.push_screen(ImportDialog(self.database, self.today), done)

    def _edited(self, result: object) -> None:
        if result is not None:
            self.reload()


def run_tui(db: str | None = None) -> None:
    app = QuotetuiApp(db)
    app.run()
    if app.return_code:  # the app ended on an error (Textual printed it): the exit status says so too
        raise SystemExit(app.return_code)
