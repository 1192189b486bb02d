"""The quotetui Textual application.

The database is opened and the market computed in a worker, so the first frame never waits for data.
Screens watch :attr:`QuotetuiApp.market` (everything the engine computed for the active scenario) and
redraw when it changes; after any edit the app reloads it, so every figure follows the data and the
active scenario.
"""

from __future__ import annotations

import contextlib
import threading
import traceback
from collections.abc import Callable, Iterable
from datetime import date
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import events
from textual.app import App, SystemCommand
from textual.binding import BindingType
from textual.content import Content
from textual.notifications import SeverityLevel
from textual.reactive import reactive
from textual.screen import ModalScreen, Screen

from quotetui.domain.errors import QuotetuiError
from quotetui.domain.text import visible
from quotetui.domain.timeutil import utcnow
from quotetui.language import N_, _
from quotetui.language.dates import day_text
from quotetui.language.lists import clauses, labelled
from quotetui.store.origin import set_front_end
from quotetui.tui.app_keys import APP_BINDINGS
from quotetui.tui.dialogs.error import ErrorDialog
from quotetui.tui.dialogs.scenario_picker import ScenarioPicker
from quotetui.tui.loading import LoadsMarket
from quotetui.tui.palette import MarketCommands, SaidSystemCommands
from quotetui.tui.screens.dashboard import DashboardScreen
from quotetui.tui.screens.help import HelpScreen
from quotetui.tui.screens.offers import OffersScreen
from quotetui.tui.titles import fit_sub_title, full_sub_title, sub_title_room
from quotetui.tui.tones import follow_theme
from quotetui.tui.workers import ReportsWorkerErrors, background

if TYPE_CHECKING:
    from quotetui.services.market_view import MarketView
    from quotetui.store.engine import Database

MAX_PINS = 4
_SAVING = threading.Lock()  # one write of the config file at a time (``QuotetuiApp._save_preference``)


def _screen(module: str, name: str) -> Screen:
    """Import a screen only when it is first shown (charts pull in plotext; Compare, the evaluations' module:
    none of it is needed for the first frame)."""
    from importlib import import_module

    return getattr(import_module(f"quotetui.tui.screens.{module}"), name)()


class QuotetuiApp(LoadsMarket, ReportsWorkerErrors, App[None]):
    TITLE = "quotetui"
    SUB_TITLE = N_("opening the database…")  # shown in the language in use (``__init__``)
    CSS_PATH = Path(__file__).with_name("app.tcss")  # absolute, so subclasses elsewhere find it
    MODES: ClassVar = {
        "dashboard": DashboardScreen,
        "offers": OffersScreen,
        "compare": lambda: _screen("compare", "CompareScreen"),
        "contracts": lambda: _screen("contracts", "ContractsScreen"),
        "rentbuy": lambda: _screen("rent_buy", "RentBuyScreen"),
        "training": lambda: _screen("training", "TrainingScreen"),
        "sourcing": lambda: _screen("sourcing", "SourcingScreen"),
    }
    DEFAULT_MODE: ClassVar[str] = "dashboard"
    COMMANDS: ClassVar = {SaidSystemCommands, MarketCommands}  # Textual's system commands, found in English too
    BINDINGS: ClassVar[list[BindingType]] = APP_BINDINGS

    market: reactive[MarketView | None] = reactive(None, always_update=True)
    pinned: reactive[tuple[int, ...]] = reactive(())
    scenario_name: reactive[str | None] = reactive(None)
    loading: reactive[bool] = reactive(True)

    def __init__(self, db: str | None = None, *, today: date | None = None) -> None:
        super().__init__()
        self.say_sub_title(lambda: _(self.SUB_TITLE))
        set_front_end("tui")  # what the audit trail says of every change made from here
        self.db_arg = db
        self._fixed_today = today
        self.database: Database | None = None
        from quotetui.tui.preferences import load_preferences

        self.preferences = load_preferences()  # theme, keymap: applied on mount; a problem is a notification
        follow_theme(self.get_css_variables())  # the tones' colours: the theme's (``tui/tones.py``)

    def watch_theme(self, _: str) -> None:
        """A theme set (Ctrl+T, the palette, the preferences): the tones take its colours before the screens
        redraw (``MarketScreen`` redraws on ``theme_changed_signal``, published after this)."""
        follow_theme(self.get_css_variables())

    @property
    def today(self) -> date:
        """The day of the figures: the day given (tests, a fixed clock), else today, asked each time, so an
        app left open past midnight moves on with the quotes that lapse and the FX rates of the new day."""
        return self._fixed_today or utcnow().date()

    POLL_SECONDS = 3.0
    """How often the app asks the database whether another program changed it."""

    def on_mount(self) -> None:
        from quotetui.tui.preferences import apply_preferences

        apply_preferences(self, self.preferences)
        self._end_on_hangup()
        self.set_interval(self.POLL_SECONDS, self._poll)

    def on_ready(self) -> None:
        """The first frame is on the screen: the loading worker starts now, not before (it would compete with
        that frame) and not after the screen's first idle (``call_after_refresh``: ~200 ms later, while the
        dashboard is built)."""
        self.reload()

    HANGUP_GRACE_SECONDS = 5.0
    """How long a SIGTERM or a closed terminal (SIGHUP) leaves the app to end cleanly before the process ends."""

    def _end_on_hangup(self) -> None:
        """SIGTERM or SIGHUP (the terminal closed) end the app through its own exit, not an exception raised
        inside the event loop (that left Textual's terminal threads spinning on the dead terminal, the process
        alive for ever)."""
        import asyncio
        import signal

        loop = asyncio.get_running_loop()
        for name in ("SIGTERM", "SIGHUP"):
            signum = getattr(signal, name, None)
            if signum is not None:
                with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                    loop.add_signal_handler(signum, self._hung_up, int(signum))

    def _hung_up(self, signum: int) -> None:
        import os
        import threading

        from quotetui.system.atomic import remove_in_flight

        remove_in_flight()  # a file being written by a worker: its temporary file goes
        self.exit(return_code=128 + signum)
        # a worker deep in a computation, or a terminal thread on a terminal that is gone, must not keep the
        # process alive: after the grace period it ends with the same status
        deadline = threading.Timer(self.HANGUP_GRACE_SECONDS, os._exit, args=(128 + signum,))
        deadline.daemon = True
        deadline.start()

    def action_refresh(self) -> None:
        """Read everything again now (F5): what another program changed appears."""
        self.reload()

    def _poll(self) -> None:
        if self.database is not None and self.market is not None and not self.loading:
            if self.market.on != self.today:  # midnight passed: quotes lapse, another day's FX rates apply
                self.notify(
                    _("A new day: the figures are read again for {day}.").format(day=day_text(self.today)), timeout=5
                )
                self.reload()
                return
            self._check_version(self.market.data_version, self._generation)

    @background(group="poll")
    def _check_version(self, seen: int, generation: int) -> None:
        """Another program's write (the CLI, an import, another buyer on the server) reloads the market. This
        app's own writes are not another program's: each reloads by itself (every version since the one read is
        one of them); one other write among them, or a version that went back (a restore), is reported."""
        database = self.database
        assert database is not None
        try:
            current = database.data_version()
        except Exception:  # the database went away for a moment: the next poll tries again
            return
        identity = database.file_identity()
        if current < seen:
            database.written.clear()  # the numbers start again (a restore): no later one is known to be ours
        own = current > seen and all(v in database.written for v in range(seen + 1, current + 1))
        replaced = identity is not None and self.file_identity is not None and identity != self.file_identity
        if (current != seen and not own) or replaced:
            if replaced:
                database.written.clear()  # another file: its numbers are not ours
            self.call_from_thread(self._changed_elsewhere, generation, identity)

    file_identity: tuple[int, int] | None = None
    """The SQLite file the market was read from (``Database.file_identity``): a file deleted and made again, or
    another moved in its place, is reported even with the same data version."""

    def _changed_elsewhere(self, generation: int, identity: tuple[int, int] | None = None) -> None:
        if identity is not None:
            self.file_identity = identity
        if not self.loading and generation == self._generation:  # no reload has begun since the poll read
            self.notify(_("The data was changed by another program; the figures are read again."), timeout=5)
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
    _sub_title_words: Callable[[], str] = staticmethod(lambda: "")  # what makes the sub-title (say_sub_title)

    def say_sub_title(self, words: Callable[[], str]) -> None:
        """The header's sub-title, made by ``words`` in the language in use: now, and again after a language
        switch (:meth:`speak_again`)."""
        self._sub_title_words = words
        self.sub_title = words()

    def format_title(self, title: str, sub_title: str) -> Content:
        parts = self._title_parts
        if parts is not None and sub_title == full_sub_title(*parts):  # the path shortens first
            sub_title = fit_sub_title(*parts, sub_title_room(self.size.width, title))
        return super().format_title(visible(title), visible(self.secret_free(sub_title)))

    def on_resize(self, event: events.Resize) -> None:
        self.mutate_reactive(App.sub_title)  # every header fits its sub-title to the new width

    # -- data ----------------------------------------------------------------------------------------
    def _broken(self, title: str, exc: BaseException) -> None:
        """The market could not be computed (a bug): say so in the title as well as in the dialog, so the
        screens do not look as if they were still loading; F5 tries again."""
        self.loading = False
        self.say_sub_title(lambda: _("the market could not be computed (F5 tries again)"))
        self.show_error(title, exc)

    def _failed(self, message: str) -> None:
        self.loading = False
        self.say_sub_title(lambda: _("no database"))
        self.notify(self.secret_free(message), title=_("Cannot open the database"), severity="error", timeout=30)

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
        ``title`` (in the language in use: the caller's words), a bug the error dialog. The worker is the app's:
        leaving the screen does not lose it."""
        self._write_worker(title, action, then)

    @background(group="write", exclusive=False)  # two writes both run (the database queues them)
    def _write_worker(self, title: str, action: Callable[[], object], then: Callable[[object], None]) -> None:
        try:
            result = action()
        except QuotetuiError as exc:
            self.call_from_thread(self.notify, str(exc), title=title, severity="error", timeout=10)
            return
        except Exception as exc:
            self.call_from_thread(self.show_error, _("{title} failed").format(title=title), exc)
            return
        self.call_from_thread(then, result)

    # -- pins ----------------------------------------------------------------------------------------
    def toggle_pin(self, offer_id: int) -> None:
        if offer_id in self.pinned:
            self.pinned = tuple(p for p in self.pinned if p != offer_id)
        elif len(self.pinned) >= MAX_PINS:
            self.notify(_("At most {n} offers can be pinned; unpin one first.").format(n=MAX_PINS), severity="warning")
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

    def action_command_palette(self) -> None:
        """Textual's command palette, in the language in use (``palette.SaidCommandPalette``)."""
        from textual.command import CommandPalette

        from quotetui.tui.palette import SaidCommandPalette

        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(SaidCommandPalette(id="--command-palette"))

    def search_themes(self) -> None:
        """Textual's theme picker (the palette's "Theme"), in the language in use."""
        from textual.theme import ThemeProvider

        from quotetui.tui.app_keys import THEMES_PLACEHOLDER
        from quotetui.tui.palette import SaidCommandPalette

        self.push_screen(SaidCommandPalette(providers=[ThemeProvider], placeholder=THEMES_PLACEHOLDER))

    def action_show_help_panel(self) -> None:
        """Textual's keys panel (the palette's "Keys"), in the language in use (``widgets/keys_panel.py``)."""
        from textual.css.query import NoMatches
        from textual.widgets import HelpPanel

        from quotetui.tui.widgets.keys_panel import KeysHelpPanel

        try:
            self.screen.query_one(HelpPanel)
        except NoMatches:
            self.screen.mount(KeysHelpPanel())

    def action_help(self) -> None:
        self.push_screen(HelpScreen(self.screen))

    def action_toggle_dark(self) -> None:
        from quotetui.tui.preferences import toggled_theme

        self.theme = toggled_theme(self.theme, self.preferences.theme)

    def open_offer(self, offer_id: int) -> None:
        from quotetui.tui.screens.offer_detail import OfferDetailScreen

        self.push_screen(OfferDetailScreen(offer_id))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):  # Textual's own words (``app_keys.TEXTUAL_WORDS``)
            yield command._replace(title=_(command.title), help=_(command.help))
        if self.market is not None:
            now = _("Compare every offer for another workload (now: {scenario})").format(
                scenario=self.market.scenario.name
            )
        else:
            now = _("Compare every offer for another workload")
        yield SystemCommand(_("Switch scenario"), now, self.action_pick_scenario)
        yield SystemCommand(
            _("Export to Excel…"),
            _("The comparison workbook for this scenario, live formulas (Ctrl+E)"),
            self.action_export,
        )
        yield SystemCommand(
            _("Import spreadsheets…"),
            _("Offers, rounds, SLAs, claims, FX rates, price lists; dry run first (Ctrl+O)"),
            self.action_import,
        )
        yield SystemCommand(
            _("Contracts"),
            _("Signed deals: key dates, SLA credits, invoices (r)"),
            lambda: self.switch_mode("contracts"),
        )
        yield SystemCommand(
            _("FX rates…"), _("The dated exchange rates: n adds one, e edits one"), self.action_fx_rates
        )
        yield SystemCommand(
            _("Settings…"),
            _("Hours a month, default MFU and availability, time zone, discount rate, net of VAT"),
            self.action_settings,
        )
        yield SystemCommand(_("New offer"), _("Record an offer from a provider"), self.action_new_offer)
        yield SystemCommand(_("New provider"), _("Add a provider"), self.action_new_provider)
        yield SystemCommand(
            _("Rent vs buy"), _("Break-even of owning against renting (b)"), lambda: self.switch_mode("rentbuy")
        )
        yield SystemCommand(
            _("Training-run planner"),
            _("Wall time and cost of a run on each offer (t)"),
            lambda: self.switch_mode("training"),
        )
        if callable(getattr(screen, "speak", None)):  # a screen that can say its words again (not a dialog)
            from quotetui.tui.preferences import language_commands, money_style_commands

            for title, help_text, tag in language_commands():
                yield SystemCommand(title, help_text, partial(self.switch_language, tag))
            for title, help_text, style in money_style_commands():
                yield SystemCommand(title, help_text, partial(self.switch_money_style, style))

    # -- the language and the money style -------------------------------------------------------------------
    def switch_language(self, tag: str) -> None:
        """Speak ``tag`` (a key of ``language.LANGUAGES``) on every screen at once, and keep it in the config
        file's ``language`` for the next start."""
        from quotetui.language import current, use

        if tag == current():
            return
        use(tag)
        self.preferences.language = tag
        self.speak_again()
        self._save_preference("language")

    def switch_money_style(self, style: str) -> None:
        """Write amounts in ``style`` (``display.MONEY_STYLES``) on every screen at once, and keep it in the
        config file's ``money_style``."""
        from quotetui.domain.economics.display import money_style, use_money_style

        if style == money_style():
            return
        use_money_style(style)
        self.preferences.money_style = style
        self.speak_again()
        self._save_preference("money_style")

    def speak_again(self) -> None:
        """After a switch of language or money style: every screen of every mode says its words again (its
        :class:`Said` labels, its own :meth:`speak` for the rest, its keys in the footer and the keys panel), the
        sub-title too, and the market is read again, its words and amounts made anew (the caches that keep words
        are kept per language). The offers the last launch kept are dropped: they are in the old words."""
        from quotetui.tui.widgets.said import Said

        self.preview = None
        self.sub_title = self._sub_title_words()
        for mode in self.MODES:
            try:
                stack = self.get_screen_stack(mode)
            except KeyError:  # a mode not shown yet: its screen will be made in the new language
                continue
            for screen in stack:
                for label in screen.query(Said):
                    label.say_again()
                speak = getattr(screen, "speak", None)
                if callable(speak):
                    speak()
                screen.refresh_bindings()
        if self.database is not None:
            self.reload()

    @background(group="preferences", exclusive=False)
    def _save_preference(self, setting: str) -> None:
        """The setting's value in use written into the config file (in a worker: the file may be on a slow
        disk), one write at a time so the last switch is the one kept; a file that cannot be written is a
        notification, and the switch holds for this session."""
        from quotetui.tui.preferences import save_preference

        with _SAVING:
            said, severity = save_preference(setting, getattr(self.preferences, setting))
        self.call_from_thread(self.notify, said, title=_("Config file"), severity=severity, timeout=10)

    def action_settings(self) -> None:
        """The assumptions every figure rests on, as a form; saving them recomputes every screen."""
        from quotetui.services.settings import save_settings_form, settings_form
        from quotetui.tui.dialogs.form_screen import FormScreen

        db = self.database
        if db is not None:
            self.push_screen(FormScreen(lambda: settings_form(db), lambda raw, _: save_settings_form(db, raw)),
                             self.edited)  # fmt: skip

    def action_fx_rates(self) -> None:
        from quotetui.tui.dialogs.fx_rates import FxRatesDialog

        if self.database is not None:
            self.push_screen(FxRatesDialog(self.database, self.today))

    def action_new_offer(self) -> None:
        from quotetui.tui.dialogs.edit_forms import offer_form

        if self.database is not None:
            self.push_screen(offer_form(self.database), self.edited)

    def action_new_provider(self) -> None:
        from quotetui.tui.dialogs.edit_forms import provider_form

        if self.database is not None:
            self.push_screen(provider_form(self.database), self.edited)

    def action_export(self) -> None:
        from quotetui.tui.dialogs.transfer import ExportDialog

        if self.database is None or self.market is None:
            return

        def done(path: Path | None) -> None:
            if path is not None:
                self.notify(_("Wrote {path}").format(path=path), title=_("Export"), timeout=10)

        dialog = ExportDialog(self.database, self.market.scenario.name, self.pinned, self.today)
        self.push_screen(dialog, done)

    def action_import(self) -> None:
        from quotetui.tui.dialogs.transfer import ImportDialog

        if self.database is None:
            return

        def done(report: object) -> None:
            if report is not None:
                counts = getattr(report, "counts", {})
                summary = clauses(labelled(_(name), f"{c}") for name, c in counts.items() if c.added or c.changed)
                self.notify(summary or _("nothing changed"), title=_("Imported"), timeout=10)
                self.reload()

        self.push_screen(ImportDialog(self.database, self.today), done)

    def edited(self, result: object) -> None:
        if result is not None:
            self.reload()


SWITCH_INTERVAL_S = 0.0005
"""How long a thread holds the interpreter before one waiting for it may take it (Python's default: 5 ms). The
UI thread and the loading worker alternate far more often than they compute for 5 ms: at the default, each of the
worker's reads (a file, the database) and each of the UI's waits for a key gave the interpreter back and waited up
to 5 ms for it, and a launch's first offer row came ~10 % later (``benchmarks/first_row.py``, tmux, 10,000 offers:
a median of 0.86-1.08 s at 5 ms, 0.78-0.91 s at 0.5 ms or less)."""


def run_tui(db: str | None = None) -> None:
    import sys

    sys.setswitchinterval(SWITCH_INTERVAL_S)
    app = QuotetuiApp(db)
    app.run()
    if app.return_code:  # the app ended on an error (Textual printed it): the exit status says so too
        raise SystemExit(app.return_code)
