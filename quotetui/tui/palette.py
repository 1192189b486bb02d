"""The command palette in the language in use (:class:`SaidCommandPalette`), and its provider that goes to an
offer or a provider (found by typing).

The app's own commands (switch scenario, export, the calculators …) are :meth:`QuotetuiApp.get_system_commands`,
next to Textual's (theme, keys, quit): each command is offered by one of the two, never both, so the palette
lists it once.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from rich.align import Align
from rich.text import Text
from textual.command import CommandList, CommandPalette, Hit, Hits, Provider
from textual.system_commands import SystemCommandsProvider
from textual.widgets.option_list import Option

from quotetui.language import _
from quotetui.tui.app_keys import COMMANDS_PLACEHOLDER, NO_MATCHES

if TYPE_CHECKING:
    from quotetui.tui.host import MarketApp


class SaidCommandPalette(CommandPalette):
    """Textual's command palette, saying its words in the language in use: ``placeholder`` is a message id
    (``app_keys.COMMANDS_PLACEHOLDER``, ``app_keys.THEMES_PLACEHOLDER``)."""

    def __init__(self, *args: Any, placeholder: str = COMMANDS_PLACEHOLDER, **kwargs: Any) -> None:
        super().__init__(*args, placeholder=_(placeholder), **kwargs)

    def _start_no_matches_countdown(self, search_value: str) -> None:
        """Textual 8.2's (``CommandPalette._start_no_matches_countdown``), saying "No matches found" through the
        catalog: a moment after a search that found nothing, a line says so."""
        self._stop_no_matches_countdown()

        def show_no_matches() -> None:
            if search_value:
                self.query_one(CommandList).add_option(
                    Option(Align.center(Text(_(NO_MATCHES), style="not bold")), disabled=True, id=self._NO_MATCHES)
                )
                self._list_visible = True
            else:  # discovering (nothing typed): nothing to say
                self._list_visible = False

        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN, show_no_matches)


class Searched(str):
    """A command's title in the language in use that the palette finds by other words too (``also``: its English,
    so that ``language`` finds ``界面语言：English``); the title is what is shown."""

    also: str

    def __new__(cls, title: str, also: str) -> Searched:
        made = super().__new__(cls, title)
        made.also = also
        return made


class SaidSystemCommands(SystemCommandsProvider):
    """Textual's system commands and the app's (``get_system_commands``), each found by its title or, for a
    :class:`Searched` title, by its other words; the hit shows the title."""

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, callback, *_rest in self.app.get_system_commands(self.screen):
            score = matcher.match(name)
            shown: Any = matcher.highlight(name) if score > 0 else name
            if score <= 0 and isinstance(name, Searched):
                score = matcher.match(name.also)
            if score > 0:
                yield Hit(score, shown, callback, help=help_text)


class MarketCommands(Provider):
    @property
    def qapp(self) -> MarketApp:
        return self.app  # type: ignore[return-value]

    def _targets(self) -> list[tuple[str, str, object]]:
        market = self.qapp.market
        if market is None:
            return []
        items: list[tuple[str, str, object]] = []
        providers: dict[str, int] = {}
        go_to = _("Go to offer #{id} {provider} {name}")
        for row in market.rows:
            o = row.offer
            items.append(
                (
                    go_to.format(id=o.id, provider=o.provider, name=o.name),
                    f"{o.configuration}",
                    partial(self.qapp.open_offer, o.id),
                )
            )
            providers.setdefault(o.provider, o.id)
        its_offers = _("its offers in the offers table")
        for name in providers:
            items.append((_("Go to provider {name}").format(name=name), its_offers, partial(self._show_provider, name)))
        return items

    def _show_provider(self, name: str) -> None:
        from quotetui.tui.screens.offers import OffersScreen

        self.qapp.switch_mode("offers")
        screen = self.qapp.screen
        if isinstance(screen, OffersScreen):
            screen.show_filter(name)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, command in self._targets():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), command, help=help_text)  # type: ignore[arg-type]
