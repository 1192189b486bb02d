"""The quotetui Textual application: opens the database in a worker so the first frame is instant."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from quotetui.services.database import Opened
from quotetui.store.engine import Database
from quotetui.tui.screens.market import MarketScreen


class QuotetuiApp(App[None]):
    TITLE = "quotetui"
    SUB_TITLE = "opening database…"
    CSS_PATH = Path(__file__).with_name("app.tcss")  # absolute, so subclasses elsewhere find it
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit", id="quit"),
    ]

    def __init__(self, db: str | None = None) -> None:
        super().__init__()
        self.db_arg = db
        self.database: Database | None = None

    def on_mount(self) -> None:
        self.push_screen(MarketScreen())

    def database_opened(self, opened: Opened) -> None:
        self.database = opened.db
        self.sub_title = opened.db.target.label
        for message in opened.messages:
            self.notify(message, title="Database", timeout=8)

    def on_unmount(self) -> None:
        if self.database is not None:
            self.database.dispose()


def run_tui(db: str | None = None) -> None:
    QuotetuiApp(db).run()
