"""What the market's screens, dialogs and palette ask of the app (``tui/app.py: QuotetuiApp`` is it). They type
``self.app`` as this, so that no screen imports the app that imports the screens: the TUI's modules form no
circle (pyproject's ``[tool.importlinter]``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from textual.screen import Screen

    from quotetui.services.market_view import MarketView
    from quotetui.store.engine import Database
    from quotetui.tui.offer_preview import Preview
    from quotetui.tui.widgets.virtual_table import TableRow


class MarketApp(Protocol):
    database: Database | None
    market: MarketView | None  # the market as last read (None until the first load ends)
    pinned: tuple[int, ...]  # offers pinned to the top of the offers table, in the order pinned
    preview: Preview | None  # the first rows, shown before the whole market is read

    @property
    def today(self) -> date: ...

    @property
    def screen(self) -> Screen[Any]: ...

    def reload(self) -> None: ...

    def switch_mode(self, mode: str) -> Any: ...

    def open_offer(self, offer_id: int) -> None: ...

    def toggle_pin(self, offer_id: int) -> None: ...

    def write_in_background(self, title: str, action: Callable[[], object], then: Callable[[object], None]) -> None: ...

    def offer_table(self, view: MarketView) -> list[TableRow]: ...

    def figure_keys(self, view: MarketView, column: str) -> dict[int, int | None]: ...

    def action_new_offer(self) -> None: ...

    def edited(self, result: object) -> None:
        """After a form saved: read the market again."""
