"""Command-palette provider: go to an offer or a provider (found by typing).

The app's own commands (switch scenario, export, the calculators …) are :meth:`QuotetuiApp.get_system_commands`,
next to Textual's (theme, keys, quit): each command is offered by one of the two, never both, so the palette
lists it once.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from textual.command import Hit, Hits, Provider

from quotetui.language import _

if TYPE_CHECKING:
    from quotetui.tui.host import MarketApp


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
