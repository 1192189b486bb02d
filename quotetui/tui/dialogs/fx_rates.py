"""The recorded FX rates (pair, rate, date, source): ``n`` adds one, ``e`` or Enter edits the highlighted one.

Both go through the generic form (``dialogs/form_screen.py``) over the FX rate's declared fields, saved by
``services/fx.py`` as ``quotetui fx add`` saves them: every bad field named under itself, nothing saved
unless everything is valid, and a date after today refused. Each save reads the market again at once
(conversions follow the rates; the app's poll then does not take the save for another program's write).
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label

from quotetui.domain.money import plain as amount
from quotetui.language import N_, _
from quotetui.language.dates import day_text
from quotetui.tui.safe import Text, plain
from quotetui.tui.widgets.footer import KeysFooter
from quotetui.tui.workers import ReportsWorkerErrors, background

if TYPE_CHECKING:
    from quotetui.services.fx import RateView
    from quotetui.store.engine import Database


TITLE = N_("FX rates: 1 base = rate quote  (n new, e or Enter edits, Esc closes)")


class FxRatesDialog(ReportsWorkerErrors, ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", N_("Close")),
        Binding("n", "new", N_("New rate")),
        Binding("e", "edit", N_("Edit rate")),
    ]

    def __init__(self, database: Database, today: date) -> None:
        super().__init__()
        self.database, self.today = database, today

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(plain(_(TITLE)), classes="dialog-title")
            yield DataTable(id="fx-rates", cursor_type="row", zebra_stripes=True)
        yield KeysFooter()  # this dialog's keys, not those of the screen underneath

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column(_("pair"), key="pair")
        table.add_column(_("rate"), key="rate")
        table.add_column(_("date"), key="date")
        table.add_column(_("source"), key="source")
        table.loading = True
        self.load()

    @background(group="fx")
    def load(self, current: int | None = None) -> None:
        """The rates as recorded now; ``current`` is the one to highlight (the one just saved)."""
        from quotetui.services.fx import list_rates

        rates = list_rates(self.database)
        self.app.call_from_thread(self.show, rates, current)

    def show(self, rates: list[RateView], current: int | None = None) -> None:
        table = self.query_one(DataTable)
        table.loading = False
        highlighted = self._highlighted()
        table.clear()
        for r in rates:
            cells = (Text(f"{r.base}→{r.quote}"), Text(amount(r.rate), justify="right"), Text(r.as_of.isoformat()))
            table.add_row(*cells, Text(r.source), key=str(r.id))
        keep = current if current is not None else highlighted
        keys = [str(r.id) for r in rates]
        if keep is not None and str(keep) in keys:
            table.move_cursor(row=keys.index(str(keep)))
        title = _(TITLE) if rates else _("No FX rates recorded yet: n adds one (Esc closes).")
        self.query_one(".dialog-title", Label).update(plain(title))  # both ways: a first rate was just added
        table.focus()

    def _highlighted(self) -> int | None:
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return int(key) if key is not None else None

    def action_new(self) -> None:
        self._form(None)

    def action_edit(self) -> None:
        rate_id = self._highlighted()
        if rate_id is None:
            self.notify(_("No rate to edit: n adds one."), severity="warning")
            return
        self._form(rate_id)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_edit()

    def _form(self, rate_id: int | None) -> None:
        from quotetui.services.fx import rate_form, save_rate
        from quotetui.tui.dialogs.form_screen import FormScreen

        db, today = self.database, self.today

        def save(raw: dict[str, Any], _version: object) -> RateView:
            return save_rate(db, raw, rate_id, today=today)

        def said(_raw: dict[str, Any], view: object) -> str:
            v: Any = view
            return _("Saved FX rate 1 {base} = {rate} {quote} on {day} ({source})").format(
                base=v.base, rate=amount(v.rate), quote=v.quote, day=day_text(v.as_of), source=v.source
            )

        def done(result: object) -> None:
            if result is not None:
                self.app.reload()  # type: ignore[attr-defined]
                self.query_one(DataTable).loading = True
                self.load(getattr(result, "id", None))

        self.app.push_screen(FormScreen(lambda: rate_form(db, rate_id, today=today), save, said), done)

    def action_close(self) -> None:
        self.dismiss(None)
