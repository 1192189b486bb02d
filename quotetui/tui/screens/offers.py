"""The offers table: every offer's figures for the active scenario; filter, sort, pin, open."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Header, Input, Label, Select

from quotetui.domain.enums import OfferStatus, ProviderKind
from quotetui.language import N_, _
from quotetui.tui.offer_preview import Preview, PreviewRow
from quotetui.tui.offer_rows import FIGURES, PENDING, PLAIN, OfferTableRow, columns, pending_of
from quotetui.tui.safe import plain
from quotetui.tui.screens.base import MarketScreen
from quotetui.tui.widgets.footer import KeysFooter
from quotetui.tui.widgets.virtual_table import TableRow, VirtualTable

if TYPE_CHECKING:
    from quotetui.services.market_view import MarketView


FILTER_HINT = N_("/ filter: provider, offer, GPU…")
PROMPTS = {"gpu-filter": N_("GPU"), "kind-filter": N_("kind"), "status-filter": N_("status")}
"""The filters' words: each drop-down's prompt, by its id."""


class OffersScreen(MarketScreen):
    AUTO_FOCUS = ""  # the table is focused in on_mount, or once loaded; never the filter by default (while the
    # table loads, Textual's default would focus the filter, and `/` and what follows it were typed there)
    BINDINGS: ClassVar[list[BindingType]] = [
        # a priority binding: handled as the key arrives, before the keys typed after it are routed (a plain one
        # waits its turn in the table's queue, and `/h20` typed quickly lost its `h` to the table)
        Binding("slash", "focus_filter", N_("Filter"), id="filter", priority=True),
        Binding("escape", "clear_filter", N_("Clear filter"), show=False, id="clear-filter"),
        Binding("space", "pin", N_("Pin"), id="pin"),
        Binding("less_than_sign", "sort(-1)", N_("Sort ◀"), show=False, id="sort-back"),
        Binding("greater_than_sign", "sort(1)", N_("Sort ▶"), id="sort"),
        Binding("minus", "reverse", N_("Reverse"), show=False, id="reverse-sort"),
        Binding("n", "new_offer", N_("New"), id="new-offer"),
        Binding("e", "edit_offer", N_("Edit"), id="edit-offer"),
        Binding("x", "delete_offer", N_("Delete"), show=False, id="delete-offer"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="filters"):
            yield Input(placeholder=_(FILTER_HINT), id="filter")
            yield Select([], prompt=_(PROMPTS["gpu-filter"]), id="gpu-filter")
            kinds = [(k.spaced, k.value) for k in ProviderKind]
            yield Select(kinds, prompt=_(PROMPTS["kind-filter"]), id="kind-filter")
            yield Select(
                [(s.word, s.value) for s in OfferStatus], prompt=_(PROMPTS["status-filter"]), id="status-filter"
            )
        yield VirtualTable(id="offers")
        yield Label(id="offers-note")  # why the highlighted offer cannot run the scenario (or what to ask)
        yield Label(id="offers-status")
        yield KeysFooter()

    def speak(self) -> None:
        """A language switch: the filters' words (the table's follow the market, read again in the new language)."""
        self.query_one("#filter", Input).placeholder = _(FILTER_HINT)
        for name, prompt in PROMPTS.items():
            self.query_one(f"#{name}", Select).prompt = _(prompt)

    @property
    def table(self) -> VirtualTable:
        return self.query_one("#offers", VirtualTable)

    def on_mount(self) -> None:
        super().on_mount()
        self.watch(self.app, "pinned", self._pins_changed, init=False)
        self.table.sort_key = self._sort_key
        self.table.focus()
        self._focus_table_when_loaded = self.table.loading  # a loading table cannot take the focus: the filter does
        if self.qapp.preview is not None:
            self.show_preview(self.qapp.preview)

    def _sort_key(self, column: int) -> Callable[[Any], object] | None:
        """A figure column sorts by the figures' exact places (integers), made once per market; the others
        by their values, read from each offer's row."""
        table, market = self.table, self.qapp.market
        if market is None or self._previewing:  # the last launch's table: its rows hold every sort value
            return None
        key = table.columns[column].key if column < len(table.columns) else None
        if key in FIGURES:
            places = self.qapp.figure_keys(market, key)
            return lambda row: places[row.key]
        return PLAIN.get(key) if key is not None else None

    def _pins_changed(self, pinned: tuple[int, ...]) -> None:
        self.table.marks = set(pinned)
        self.table.refresh()
        self._status()

    _focus_table_when_loaded = False

    def set_loading(self, loading: bool) -> None:
        self.table.loading = loading
        if not loading and self._focus_table_when_loaded:
            # `o` pressed before the offers were loaded: the focus fell to the filter, where the next `/` was
            # typed; it goes to the table, unless the user chose the filter meanwhile
            self._focus_table_when_loaded = False
            if self.app.focused is None or self.app.focused is self.query_one("#filter", Input):
                self.call_after_refresh(self.table.focus)

    _previewing = False  # the table shows the rows the last launch kept

    def show_market(self, m: MarketView) -> None:
        preview, ranking = self.qapp.preview, m.ranking
        same = preview is not None and preview.complete and ranking is not None and ranking.key == preview.key
        if self._previewing and same and pending_of(m) == PENDING:
            return  # the kept rows are this ranking's complete ones: they stay until its claims are in
        self._previewing = False
        self._show(sorted({r.offer.gpu.name for r in m.rows}), m.scenario.home_currency, self.qapp.offer_table(m))

    def show_preview(self, p: Preview) -> None:
        """The table the last launch kept (``tui/offer_preview.py``), until the market is computed."""
        if self.qapp.market is None:
            self._previewing = True
            self._show(p.gpus, p.currency, list(p.rows))
            self.set_loading(False)

    def _show(self, gpus: list[str], currency: str, rows: list[TableRow]) -> None:
        gpu_select = self.query_one("#gpu-filter", Select)
        current = gpu_select.value
        gpu_select.set_options([(plain(g), g) for g in gpus])
        if current in gpus:
            gpu_select.value = current
        table = self.table
        table.set_data(columns(currency), rows)
        table.marks = set(self.qapp.pinned)
        if table.sort_column is None:
            table.sort_by(0)
        self.apply_filters()

    # -- filtering -------------------------------------------------------------------------------
    def _predicate(self) -> Callable[[TableRow], bool] | None:
        words = self.query_one("#filter", Input).value.strip().lower().split()
        gpu = self.query_one("#gpu-filter", Select).value
        kind = self.query_one("#kind-filter", Select).value
        status = self.query_one("#status-filter", Select).value
        if not words and gpu is Select.NULL and kind is Select.NULL and status is Select.NULL:
            return None

        def keep(row: TableRow) -> bool:  # the offer's values, not cells: cells are only made when drawn
            assert isinstance(row, (OfferTableRow, PreviewRow))
            if words and not all(w in row.search for w in words):
                return False
            gpu_name, provider_kind, offer_status = row.facets
            if gpu is not Select.NULL and gpu_name != gpu:
                return False
            if kind is not Select.NULL and provider_kind != kind:
                return False
            return status is Select.NULL or offer_status == status

        return keep

    def apply_filters(self) -> None:
        self.table.set_filter(self._predicate())
        self._status()

    def _status(self) -> None:
        t = self.table
        sort = t.columns[t.sort_column].label if t.sort_column is not None and t.columns else _("rank")
        hint = _("none ({pin} pins, {compare} compares)").format(
            pin=self.key("pin", "space"), compare=self.key("compare", "c")
        )
        pins = " ".join(f"#{p}" for p in self.qapp.pinned) or hint
        market, preview = self.qapp.market, self.qapp.preview
        if market is not None:
            blocked = sum(1 for r in market.rows if r.evaluation and not r.evaluation.feasibility.ok)
        else:
            blocked = preview.blocked if preview is not None else 0
        cannot = " · " + _("{n} cannot run the scenario (✗, listed last)").format(n=blocked) if blocked else ""
        shown = _("{shown} of {n} offers").format(shown=len(t.view_rows), n=len(t.rows))
        if market is None and preview is not None and not preview.complete:  # the rest is being read
            shown = _("{shown} of the first {n} of {total} offers (reading the rest…)").format(
                shown=len(t.view_rows), n=len(t.rows), total=f"{preview.total:,}"
            )
        sorted_by = _("sorted by {column}").format(column=sort) + (" ▼" if t.sort_reverse else "")
        pinned = _("pinned: {offers}").format(offers=pins)
        self.query_one("#offers-status", Label).update(plain(f"{shown}{cannot} · {sorted_by} · {pinned}"))
        note = self._note()
        shown_note = self.query_one("#offers-note", Label)
        shown_note.update(plain(note or ""))
        shown_note.display = note is not None

    def _note(self) -> str | None:
        """Why the highlighted offer cannot run the scenario, or what to ask before it can (``✗ #8: …``), as the
        CLI's listing notes it under its table: the flags cell holds only the flags, the same as the CLI's."""
        t = self.table
        if not 0 <= t.cursor < len(t.view_rows):
            return None
        row = t.view_rows[t.cursor]
        e = row.row.evaluation if isinstance(row, OfferTableRow) else None
        return e.feasibility.note(e.offer.id) if e is not None else None

    @on(VirtualTable.Highlighted)
    def _highlighted(self) -> None:
        self._status()

    @on(Input.Changed, "#filter")
    @on(Select.Changed)
    def _filters_changed(self) -> None:
        self.apply_filters()

    def show_filter(self, text: str) -> None:
        self.query_one("#filter", Input).value = text
        self.apply_filters()

    def action_focus_filter(self) -> None:
        """The filter takes the very next key: focused now, not once the keys already queued are handled
        (``Widget.focus`` waits its turn). In the filter itself, `/` is typed like any other character."""
        field = self.query_one("#filter", Input)
        if self.focused is field:
            field.insert_text_at_cursor("/")
            return
        self._focus_table_when_loaded = False
        self.set_focus(field)

    def action_clear_filter(self) -> None:
        self.query_one("#filter", Input).value = ""
        for select in self.query(Select):
            select.clear()
        self.apply_filters()
        self.table.focus()

    @on(Input.Submitted, "#filter")
    def _filter_done(self) -> None:
        self.table.focus()

    # -- sorting, pins, opening -------------------------------------------------------------------
    def action_sort(self, step: int) -> None:
        t = self.table
        column = ((t.sort_column or 0) + step) % len(t.columns) if t.columns else None
        t.sort_by(column, t.sort_reverse)
        self._status()

    def action_reverse(self) -> None:
        t = self.table
        t.sort_by(t.sort_column if t.sort_column is not None else 0, not t.sort_reverse)
        self._status()

    def action_pin(self) -> None:
        key = self.table.current_key
        if key is not None:
            self.qapp.toggle_pin(key)

    @on(VirtualTable.Selected)
    def _open(self, event: VirtualTable.Selected) -> None:
        self.qapp.open_offer(event.key)

    def action_new_offer(self) -> None:
        self.qapp.action_new_offer()

    def action_edit_offer(self) -> None:
        from quotetui.tui.dialogs.edit_forms import offer_form

        key = self.table.current_key
        if key is not None and self.qapp.database is not None:
            self.app.push_screen(offer_form(self.qapp.database, key), self.qapp.edited)

    def action_delete_offer(self) -> None:
        from quotetui.services.editing import delete_offer
        from quotetui.tui.dialogs.confirm import ConfirmDialog

        key, market, db = self.table.current_key, self.qapp.market, self.qapp.database
        row = market.row(key) if market and key is not None else None
        if row is None or db is None:
            return

        offer_id = row.offer.id

        def deleted(_result: object) -> None:
            self.app.notify(_("Deleted offer #{id}.").format(id=offer_id))
            self.qapp.reload()

        def answered(yes: bool | None) -> None:
            if yes:
                self.app.notify(_("Deleting offer #{id}…").format(id=offer_id), timeout=3)
                self.qapp.write_in_background(_("Delete offer"), lambda: delete_offer(db, offer_id), deleted)

        self.app.push_screen(
            ConfirmDialog(
                _("Delete offer #{id} {provider} {name}?").format(
                    id=row.offer.id, provider=row.offer.provider, name=row.offer.name
                ),
                _("Its rounds, discounts, extras, SLA and claims go with it."),
            ),
            answered,
        )
