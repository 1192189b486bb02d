"""Loading the market for the app, in two steps (issue 16: the offers first).

At a launch, the offers table the last launch kept is shown first when nothing it depends on has changed
(``tui/offer_preview.py``), else the first page of the ranking stored in the database
(``services/stored_ranking.py``). A worker ranks the offers (``load_offers_view``) and the app shows them at once,
then, once they are on the screen, computes the dashboard's cards (``complete_market_view``: claims,
findings, contracts) and shows the complete view; then the figure columns' exact sort places; last, the
complete table is kept for the next launch. The collector is paused throughout. The offers table's rows are
made in the worker too, so the UI thread only draws.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from quotetui.domain.errors import QuotetuiError
from quotetui.language import _, ngettext
from quotetui.tui.workers import background

if TYPE_CHECKING:
    from quotetui.services.market_view import CardsFailed, MarketView
    from quotetui.store.engine import Database
    from quotetui.tui.offer_preview import Preview
    from quotetui.tui.widgets.virtual_table import TableRow


class LoadsMarket:
    """Mixin for :class:`QuotetuiApp`: ``reload`` and what it sets (``market``, ``loading``)."""

    database: Database | None
    file_identity: tuple[int, int] | None
    db_arg: str | None
    today: Any
    scenario_name: str | None
    loading: bool
    market: MarketView | None
    _title_parts: tuple[str, str] | None
    pinned: tuple[int, ...]

    if TYPE_CHECKING:  # the App's own, or the app's (app.py)
        screen_stack: list[Any]

        def call_from_thread(self, callback: Any, *args: Any, **kwargs: Any) -> Any: ...
        def call_after_refresh(self, callback: Any, *args: Any, **kwargs: Any) -> bool: ...
        def notify(self, message: str, **kwargs: Any) -> None: ...
        def show_error(self, title: str, exc: BaseException) -> None: ...
        def secret_free(self, text: str) -> str: ...
        def say_sub_title(self, words: Any) -> None: ...
        def _failed(self, message: str) -> None: ...
        def _broken(self, title: str, exc: BaseException) -> None: ...

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
        from contextlib import suppress

        from textual.worker import get_current_worker

        from quotetui.domain.cancel import Cancelled, cancellable
        from quotetui.domain.gc_pause import gc_paused

        gc.unfreeze()  # the previous load's objects may be collected again (its view is being replaced)
        worker = get_current_worker()
        # cancelled: a newer load replaces this one, or the app is ending (quit, terminal closed): every step,
        # and the long loops inside them, stop at their next check, so quitting never waits for the market
        with gc_paused(), cancellable(lambda: worker.is_cancelled), suppress(Cancelled):
            if self.market is None:  # a launch: the table the last one kept, if nothing has changed since
                self._show_preview(scenario, generation)
            first = self._load_offers(scenario, generation)
            if first is not None:
                self._wait_for_paint()
                complete = self._load_cards(first, generation)
                places = self._make_figure_keys(first, generation)
                if complete is not None:
                    self._keep_preview(complete, places)
        gc.freeze()  # what this load made lives on: later collections need not walk it

    preview: Preview | None = None
    """The offers table the last launch kept (``tui/offer_preview.py``), shown until the market is computed."""

    def _show_preview(self, scenario: str | None, generation: int) -> None:
        from quotetui.tui.offer_preview import previews, stored_preview

        shown = False
        try:
            for preview in previews(self._database(), scenario, self.today):  # its first page, then all of it
                self.call_from_thread(self._previewed, preview, generation)
                shown = True
                self._wait_for_paint()  # drawn before the next step competes with the UI thread for the interpreter
            if not shown:  # nothing kept for this state: the stored ranking's first page (refreshed first)
                first = stored_preview(self._database(), scenario, self.today)
                if first is not None:
                    self.call_from_thread(self._previewed, first, generation)
                    self._wait_for_paint()
        except Exception:  # the cache is only a shortcut: the load below says what is wrong, if anything
            return

    def _previewed(self, preview: Preview, generation: int) -> None:
        if generation != self._generation or self.market is not None:
            return
        self.preview = preview
        # an offers screen already mounted shows it now; one opened later, or opened but not yet mounted (`o` at
        # launch: its widgets are not there yet), shows the latest on mount
        for screen in self.screen_stack:
            show = getattr(screen, "show_preview", None)
            if show is not None and screen.is_mounted:
                show(preview)

    def _keep_preview(self, view: MarketView, places: dict[str, dict[int, int | None]]) -> None:
        from quotetui.tui.offer_preview import save_preview

        try:
            save_preview(view, places)
        except Exception:  # never a reason to disturb the app: the next launch ranks, that is all
            return

    def _database(self) -> Database:
        from quotetui.services.database import open_database

        if self.database is None:
            opened = open_database(self.db_arg)
            self.database = opened.db
            self.file_identity = opened.db.file_identity()
            opened.db.refresh_progress = self._reranking
            for message in opened.messages:
                self.call_from_thread(self.notify, message, title=_("Database"), timeout=10)
        return self.database

    def _load_offers(self, scenario: str | None, generation: int) -> MarketView | None:
        from quotetui.services.market_view import load_offers_view

        try:
            view = load_offers_view(self._database(), scenario, on=self.today)
        except QuotetuiError as exc:
            self.call_from_thread(self._failed, str(exc))
            return None
        except Exception as exc:  # a bug: show the details rather than a dead screen
            self.call_from_thread(self._broken, _("Loading the market failed"), exc)
            return None
        return self._show(view, generation)

    def _reranking(self, done: int, of: int) -> None:
        """Called from the worker that saved: one notice when a save starts re-ranking many offers."""
        from quotetui.services.stored_ranking import PROGRESS_SHOWN_FROM

        if done == 0 and of >= PROGRESS_SHOWN_FROM:
            said = ngettext(
                "Re-ranking {n} offer for what changed…", "Re-ranking {n} offers for what changed…", of
            ).format(n=f"{of:,}")
            try:
                self.call_from_thread(self.notify, said, title=_("Saving"))
            except RuntimeError:  # saved on the UI thread itself
                self.notify(said, title=_("Saving"))

    def _wait_for_paint(self) -> None:
        """Let the UI thread draw the offers before the cards' work competes with it for the interpreter (at
        most :attr:`PAINT_WAIT_SECONDS`; an app that is ending draws nothing more: Cancelled at once)."""
        import threading
        import time

        from quotetui.domain.cancel import check_cancelled

        painted = threading.Event()
        self.call_from_thread(self.call_after_refresh, painted.set)
        deadline = time.monotonic() + self.PAINT_WAIT_SECONDS
        while not painted.wait(0.02) and time.monotonic() < deadline:
            check_cancelled()

    def _load_cards(self, first: MarketView, generation: int) -> MarketView | None:
        """The complete view, shown (None when the cards could not be computed)."""
        from quotetui.services.market_view import CLAIMS_STEP, CardsFailed, complete_market_view

        assert self.database is not None
        try:
            view = complete_market_view(self.database, first)
        except CardsFailed as failed:  # the offers stay usable; the cards say what went wrong, and in which step
            self.call_from_thread(self._cards_failed, first, generation, failed)
            return None
        except Exception as exc:  # failed before its first step began
            self.call_from_thread(self._cards_failed, first, generation, CardsFailed(CLAIMS_STEP, exc))
            return None
        return self._show(view, generation)

    def _show(self, view: MarketView, generation: int) -> MarketView | None:
        """``view`` on screen (its table rows made here, in the worker); None when showing it failed."""
        from quotetui.domain.cancel import check_cancelled

        check_cancelled()  # an app that is ending shows nothing more
        try:
            self.call_from_thread(self._loaded, view, generation, self._offer_rows(view))
        except Exception as exc:
            self.call_from_thread(self.show_error, _("Showing the market failed"), exc)
            return None
        return view

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

    def _make_figure_keys(self, view: MarketView, generation: int) -> dict[str, dict[int, int | None]]:
        """In the worker: every figure column's sort places, so that no sort computes them on the UI thread."""
        from quotetui.domain.cancel import check_cancelled
        from quotetui.tui.offer_rows import FIGURES, figure_keys

        made: dict[str, dict[int, int | None]] = {}
        for key in FIGURES:
            check_cancelled()
            made[key] = figure_keys(view.rows, key)
        self.call_from_thread(self._figure_keys_made, view, generation, made)
        return made

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
        from quotetui.tui.titles import full_sub_title

        assert self.database is not None
        if generation != self._generation:  # a later reload is under way: its view wins
            return
        if table is not None:
            self._offer_table = table
        self.pinned = tuple(p for p in self.pinned if view.row(p) is not None)
        self.loading = False
        parts = self._title_parts = (self.database.target.label, view.scenario.name)
        self.say_sub_title(lambda: full_sub_title(*parts))
        self.market = view

    def _cards_failed(self, first: MarketView, generation: int, failed: CardsFailed) -> None:
        """The offers are shown; the claims, findings and contracts could not be computed: the cards say so
        (F5 tries again), and the error is shown as any other, titled by the step that failed."""
        if generation != self._generation:
            return
        exc, step = failed.cause, failed.step
        reason = str(exc) if isinstance(exc, QuotetuiError) else f"{type(exc).__name__}: {exc}"
        from dataclasses import replace

        self.market = replace(first, cards_failed=self.secret_free(reason))  # a new view: its rows say "unknown"
        if isinstance(exc, QuotetuiError):
            self.notify(str(exc), title=_(step.doing), severity="error", timeout=10)
        else:
            self.show_error(_(step.failed), exc)
