"""F1 / ?: every key binding of the app, grouped by where it works."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Label, Static

from quotetui.tui.safe import Table
from quotetui.tui.widgets.footer import KeysFooter


def _keys(binding: Binding, keymap: dict[str, str]) -> str:
    """The binding's keys as the user has them (the config file's keymap moves a binding by its id)."""
    names = {
        "question_mark": "?",
        "less_than_sign": "<",
        "greater_than_sign": ">",
        "minus": "-",
        "slash": "/",
        "space": "space",
        "escape": "Esc",
        "enter": "Enter",
        "delete": "Del",
    }
    keys = keymap.get(binding.id, binding.key) if binding.id else binding.key
    return ", ".join(names.get(k, k) for k in keys.split(","))


def binding_groups() -> list[tuple[str, list[Binding]]]:
    from quotetui.tui.app import QuotetuiApp
    from quotetui.tui.dialogs.form import FormScreen
    from quotetui.tui.dialogs.fx_rates import FxRatesDialog
    from quotetui.tui.dialogs.scenario_picker import ScenarioPicker
    from quotetui.tui.screens.compare import CompareScreen
    from quotetui.tui.screens.contract_detail import ContractDetailScreen
    from quotetui.tui.screens.contracts import ContractsScreen
    from quotetui.tui.screens.dashboard import DashboardScreen
    from quotetui.tui.screens.offer_detail import OfferDetailScreen
    from quotetui.tui.screens.offers import OffersScreen
    from quotetui.tui.screens.rent_buy import RentBuyScreen
    from quotetui.tui.screens.sourcing import SourcingScreen
    from quotetui.tui.screens.training import TrainingScreen
    from quotetui.tui.widgets.virtual_table import VirtualTable

    def of(cls: Any) -> list[Binding]:
        return [b for b in cls.BINDINGS if isinstance(b, Binding)]

    return [
        ("Everywhere", [*of(QuotetuiApp), Binding("ctrl+p", "", "Command palette: go to offer/provider, scenario …")]),
        ("Dashboard", of(DashboardScreen)),
        ("Offers", of(OffersScreen) + of(VirtualTable)),
        ("Compare", of(CompareScreen)),
        ("Offer detail", of(OfferDetailScreen)),
        ("Contracts", of(ContractsScreen)),
        ("Contract", of(ContractDetailScreen)),
        ("Rent vs buy", of(RentBuyScreen)),
        ("Training planner", of(TrainingScreen)),
        ("Sourcing (RFQs)", of(SourcingScreen)),
        ("Scenarios (s)", [Binding("enter", "", "Switch to the highlighted scenario"), *of(ScenarioPicker)]),
        ("FX rates (palette: FX rates…)", [Binding("enter", "", "Edit the highlighted rate"), *of(FxRatesDialog)]),
        ("Forms", of(FormScreen)),
    ]


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,f1,question_mark,q", "dismiss", "Close")]

    def __init__(self, origin: Screen | None = None) -> None:
        super().__init__()
        self.origin = origin

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog", id="help"):
            yield Label("Keys  (Esc closes)", classes="dialog-title")
            preferences = getattr(self.app, "preferences", None)
            keymap = preferences.keymap if preferences is not None else {}
            for group, bindings in binding_groups():
                table = Table(
                    box=None, show_header=False, pad_edge=False, title=group, title_justify="left", title_style="bold"
                )
                table.add_column(style="bold", min_width=14)
                table.add_column()
                for b in bindings:
                    table.add_row(_keys(b, keymap), b.description or b.action)
                yield Static(table)
        yield KeysFooter()  # the help's own keys, not those of the screen underneath
