"""What every market screen shares: header, footer, and redrawing when the market changes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.screen import Screen

from quotetui.tui.workers import ReportsWorkerErrors

if TYPE_CHECKING:
    from quotetui.services.market_view import MarketView
    from quotetui.tui.host import MarketApp


class MarketScreen(ReportsWorkerErrors, Screen[None]):
    """A screen that redraws from :attr:`QuotetuiApp.market` whenever it changes."""

    @property
    def qapp(self) -> MarketApp:
        return self.app  # type: ignore[return-value]

    def key(self, binding_id: str, default: str) -> str:
        """The key a hint should name for a binding (the config file's keymap may have moved it)."""
        from quotetui.tui.app_keys import key_of

        return key_of(self.app, binding_id, default)

    def on_mount(self) -> None:
        self.watch(self.app, "market", self._market_changed, init=True)
        self.watch(self.app, "loading", self._loading_changed, init=True)
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)

    def _theme_changed(self, _: object) -> None:
        """The tones' colours follow the theme (``tui/tones.py``): what was drawn from the market is drawn again."""
        self._market_changed(self.qapp.market)

    def _market_changed(self, market: MarketView | None) -> None:
        if market is not None:
            self.show_market(market)

    def _loading_changed(self, loading: bool) -> None:
        self.set_loading(loading)
        if not loading:  # keys a loading table disabled (Open) are live again: the footer says so
            self.refresh_bindings()

    def speak(self) -> None:
        """A language switch (``QuotetuiApp.speak_again``): the words composed once, other than :class:`Said`
        labels, shown again in the language in use. What is drawn from the market needs nothing here: the market
        is read again in the new language."""

    def show_market(self, market: MarketView) -> None:
        raise NotImplementedError

    def set_loading(self, loading: bool) -> None:
        """Show a loading indicator where the data goes."""
