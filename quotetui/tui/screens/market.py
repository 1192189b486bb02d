"""The first screen: providers on the left, their offers on the right."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Label

from quotetui.domain.errors import QuotetuiError
from quotetui.services.database import open_database
from quotetui.services.market import OfferView, ProviderView, list_offers, list_providers

if TYPE_CHECKING:
    from quotetui.tui.app import QuotetuiApp

ALL = -1
KIND_LABELS = {"lessor": "lessor", "public_cloud": "cloud", "gpu_cloud": "GPU cloud"}


class MarketScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "reload", "Reload", id="reload"),
        Binding("p", "focus_providers", "Providers", id="focus-providers"),
        Binding("o", "focus_offers", "Offers", id="focus-offers"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.providers: list[ProviderView] = []
        self.offers: list[OfferView] = []

    @property
    def qapp(self) -> QuotetuiApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            with Vertical(id="providers-pane"):
                yield Label("Providers", classes="pane-title")
                yield DataTable(id="providers", cursor_type="row", zebra_stripes=True)
            with Vertical(id="offers-pane"):
                yield Label("Offers", id="offers-title", classes="pane-title")
                yield DataTable(id="offers", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        providers = self.query_one("#providers", DataTable)
        providers.add_columns("Provider", "Kind", "#")
        offers = self.query_one("#offers", DataTable)
        offers.add_columns("ID", "Provider", "Offer", "GPU", "×", "Billing", "Price", "Unit", "Status")
        for table in (providers, offers):
            table.loading = True
        self.load()

    @work(thread=True, exclusive=True, group="load")
    def load(self) -> None:
        app = self.qapp
        try:
            if app.database is None:
                opened = open_database(app.db_arg)
                app.call_from_thread(app.database_opened, opened)
                database = opened.db
            else:
                database = app.database
            providers = list_providers(database)
            offers = list_offers(database)
        except QuotetuiError as exc:
            app.call_from_thread(self.failed, str(exc))
            return
        app.call_from_thread(self.show, providers, offers)

    def failed(self, message: str) -> None:
        for table in self.query(DataTable):
            table.loading = False
        self.notify(message, title="Cannot open the database", severity="error", timeout=30)

    def show(self, providers: list[ProviderView], offers: list[OfferView]) -> None:
        self.providers, self.offers = providers, offers
        table = self.query_one("#providers", DataTable)
        table.clear()
        table.add_row("All providers", "", str(len(offers)), key=str(ALL))
        for p in providers:
            table.add_row(p.name, KIND_LABELS.get(p.kind, p.kind), str(p.offers), key=str(p.id))
        table.loading = False
        self.show_offers(ALL)
        self.query_one("#offers", DataTable).loading = False
        table.focus()

    def show_offers(self, provider_id: int) -> None:
        table = self.query_one("#offers", DataTable)
        table.clear()
        name = next((p.name for p in self.providers if p.id == provider_id), None)
        shown = [o for o in self.offers if name is None or o.provider == name]
        for o in shown:
            table.add_row(
                str(o.id),
                o.provider,
                o.name,
                o.gpu,
                str(o.gpus_per_node),
                o.billing_basis.replace("_", " "),
                Text(o.price.amount_text(), justify="right") if o.price else "—",
                o.price.unit_text() if o.price else "",
                o.status,
                key=str(o.id),
            )
        title = f"Offers — {name}" if name else "Offers — all providers"
        self.query_one("#offers-title", Label).update(f"{title} ({len(shown)})")

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id == "providers" and event.row_key.value is not None:
            self.show_offers(int(event.row_key.value))

    def action_reload(self) -> None:
        self.load()

    def action_focus_providers(self) -> None:
        self.query_one("#providers", DataTable).focus()

    def action_focus_offers(self) -> None:
        self.query_one("#offers", DataTable).focus()
