"""Every key binding of the app, grouped by where it works: what the help lists under "All keys" and what a
config file's keymap may move (``preferences.py``). Read from each screen's, dialog's and widget's own
``BINDINGS``; nothing below imports this module, so reading them all makes no circle."""

from __future__ import annotations

from typing import Any

from textual.binding import Binding, BindingType

from quotetui.language import N_
from quotetui.tui.app_keys import APP_BINDINGS

PALETTE = Binding("ctrl+p", "", N_("Command palette: go to offer/provider, scenario …"))
"""Textual's own key for the command palette (not one of the app's bindings), listed with the app's."""


def of_list(bindings: list[BindingType]) -> list[Binding]:
    return [b for b in bindings if isinstance(b, Binding)]


def binding_groups() -> list[tuple[str, list[Binding]]]:
    """Every key binding of the app, grouped by where it works, as each screen, dialog and widget declares it
    (imports every screen: asked only by the help and by a config file's keymap). The groups' names and the
    bindings' descriptions are English message ids: what shows them translates them."""
    from quotetui.tui.dialogs.form_screen import FormScreen
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
        return of_list(cls.BINDINGS)

    return [
        (
            N_("Everywhere"),
            [*of_list(APP_BINDINGS), PALETTE],
        ),
        (N_("Dashboard"), of(DashboardScreen)),
        (N_("Offers"), of(OffersScreen) + of(VirtualTable)),
        (N_("Compare"), of(CompareScreen)),
        (N_("Offer detail"), of(OfferDetailScreen)),
        (N_("Contracts"), of(ContractsScreen)),
        (N_("Contract"), of(ContractDetailScreen)),
        (N_("Rent vs buy"), of(RentBuyScreen)),
        (N_("Training planner"), of(TrainingScreen)),
        (N_("Sourcing (RFQs)"), of(SourcingScreen)),
        (N_("Scenarios (s)"), [Binding("enter", "", N_("Switch to the highlighted scenario")), *of(ScenarioPicker)]),
        (
            N_("FX rates (palette: FX rates…)"),
            [Binding("enter", "", N_("Edit the highlighted rate")), *of(FxRatesDialog)],
        ),
        (N_("Forms"), of(FormScreen)),
    ]
