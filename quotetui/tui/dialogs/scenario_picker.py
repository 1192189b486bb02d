"""Switch the active scenario: every figure on every screen follows it."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from quotetui.tui.safe import plain
from quotetui.tui.widgets.footer import KeysFooter
from quotetui.tui.workers import ReportsWorkerErrors, background

if TYPE_CHECKING:
    from quotetui.services.scenarios import ScenarioView
    from quotetui.store.engine import Database


def describe(s: ScenarioView) -> str:
    use = f"{(s.utilisation * 100).normalize():f} %"  # 100 %, 60 %, 99.5 % (not the column's 100.000000)
    run = " · training run" if s.train_flops or s.train_params else ""
    return f"{s.name} — {s.gpu_count} × {s.gpu or 'any GPU'}, {s.months} months at {use}, {s.home_currency}{run}"


class ScenarioPicker(ReportsWorkerErrors, ModalScreen[str | None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, database: Database, current: str | None) -> None:
        super().__init__()
        self.database, self.current = database, current

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Compare for which scenario?", classes="dialog-title")
            yield OptionList(id="scenarios")
        yield KeysFooter()  # the picker's keys, not those of the screen underneath

    def on_mount(self) -> None:
        self.query_one(OptionList).loading = True
        self.load()

    @background(group="scenarios")
    def load(self) -> None:
        from quotetui.services.scenarios import list_scenarios

        scenarios = list_scenarios(self.database)
        self.app.call_from_thread(self.show, scenarios)

    def show(self, scenarios: list[ScenarioView]) -> None:
        options = self.query_one(OptionList)
        options.loading = False
        options.add_options(
            Option(plain(("● " if s.name == self.current else "  ") + describe(s)), id=s.name) for s in scenarios
        )
        names = [s.name for s in scenarios]
        options.highlighted = names.index(self.current) if self.current in names else 0
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)
