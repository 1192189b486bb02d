"""Switch the active scenario (Enter): every figure on every screen follows it. ``n`` adds a scenario and
``e`` edits the highlighted one, through the generic form over the scenario's declared fields, saved by
``services/scenarios.py`` as ``quotetui scenario add`` saves; after a save the market is read again (the
active scenario's figures follow an edit of it, a new name too)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from quotetui.language import N_, _
from quotetui.language.numbers import percent
from quotetui.tui.safe import plain
from quotetui.tui.widgets.footer import KeysFooter
from quotetui.tui.workers import ReportsWorkerErrors, background

if TYPE_CHECKING:
    from quotetui.services.scenarios import ScenarioView
    from quotetui.store.engine import Database


def describe(s: ScenarioView) -> str:
    use = percent(f"{(s.utilisation * 100).normalize():f}")  # 100 %, 99.5 % (not the column's 100.000000); 100%
    values = {
        "name": s.name,
        "gpus": s.gpu_count,
        "gpu": s.gpu or _("any GPU"),
        "months": s.months,
        "use": use,
        "currency": s.home_currency,
    }
    if s.train_flops or s.train_params:
        return _("{name} — {gpus} × {gpu}, {months} months at {use}, {currency} · training run").format(**values)
    return _("{name} — {gpus} × {gpu}, {months} months at {use}, {currency}").format(**values)


class ScenarioPicker(ReportsWorkerErrors, ModalScreen[str | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss(None)", N_("Cancel")),
        Binding("n", "new", N_("New scenario")),
        Binding("e", "edit", N_("Edit scenario")),
    ]

    def __init__(self, database: Database, current: str | None) -> None:
        super().__init__()
        self.database, self.current = database, current
        self.scenarios: dict[str, ScenarioView] = {}

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(_("Compare for which scenario?  (Enter switches, n new, e edits)"), classes="dialog-title")
            yield OptionList(id="scenarios")
        yield KeysFooter()  # the picker's keys, not those of the screen underneath

    def on_mount(self) -> None:
        self.query_one(OptionList).loading = True
        self.load()

    @background(group="scenarios")
    def load(self, highlight: str | None = None) -> None:
        from quotetui.services.scenarios import list_scenarios

        scenarios = list_scenarios(self.database)
        self.app.call_from_thread(self.show, scenarios, highlight)

    def show(self, scenarios: list[ScenarioView], highlight: str | None = None) -> None:
        """The scenarios, the active one marked ●; ``highlight`` (one just saved) else the active one."""
        self.scenarios = {s.name: s for s in scenarios}
        options = self.query_one(OptionList)
        options.loading = False
        options.clear_options()
        options.add_options(
            Option(plain(("● " if s.name == self.current else "  ") + describe(s)), id=s.name) for s in scenarios
        )
        names = [s.name for s in scenarios]
        wanted = highlight if highlight in names else self.current
        options.highlighted = names.index(wanted) if wanted in names else 0
        options.focus()

    def _highlighted(self) -> ScenarioView | None:
        options = self.query_one(OptionList)
        if options.highlighted is None or options.option_count == 0:
            return None
        return self.scenarios.get(options.get_option_at_index(options.highlighted).id or "")

    def action_new(self) -> None:
        self._form(None)

    def action_edit(self) -> None:
        scenario = self._highlighted()
        if scenario is not None:
            self._form(scenario)

    def _form(self, scenario: ScenarioView | None) -> None:
        from quotetui.services.scenarios import save_scenario, scenario_form
        from quotetui.tui.dialogs.form_screen import FormScreen

        db, scenario_id = self.database, scenario.id if scenario else None

        def save(raw: dict[str, Any], version: object) -> ScenarioView:
            return save_scenario(db, raw, scenario_id, version)

        def said(_raw: dict[str, Any], view: object) -> str:
            name = getattr(view, "name", "")
            if getattr(view, "is_default", False):
                return _("Saved scenario {name} (the default)").format(name=name)
            return _("Saved scenario {name}").format(name=name)

        def done(view: Any) -> None:
            if view is None:
                return
            if scenario is not None and scenario.name == self.current:
                self.current = view.name  # the active scenario renamed: still the active one
            self.app.scenario_saved(None if scenario is None else scenario.name, view.name)  # type: ignore[attr-defined]
            self.query_one(OptionList).loading = True
            self.load(view.name)

        self.app.push_screen(FormScreen(lambda: scenario_form(db, scenario_id), save, said), done)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)
