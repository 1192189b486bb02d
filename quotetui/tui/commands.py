"""Command-palette provider: go to an offer or a provider, switch scenario."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Provider

if TYPE_CHECKING:
    from quotetui.tui.app import QuotetuiApp


class MarketCommands(Provider):
    @property
    def qapp(self) -> QuotetuiApp:
        return self.app  # type: ignore[return-value]

    def _targets(self) -> list[tuple[str, str, object]]:
        market = self.qapp.market
        if market is None:
            return []
        items: list[tuple[str, str, object]] = []
        providers: dict[str, int] = {}
        for row in market.rows:
            o = row.offer
            items.append(
                (
                    f"Go to offer #{o.id} {o.provider} {o.name}",
                    f"{o.configuration}",
                    partial(self.qapp.open_offer, o.id),
                )
            )
            providers.setdefault(o.provider, o.id)
        for name in providers:
            items.append(
                (f"Go to provider {name}", "its offers in the offers table", partial(self._show_provider, name))
            )
        items.append(("Switch scenario…", f"now: {market.scenario.name}", self.qapp.action_pick_scenario))
        return items

    def _show_provider(self, name: str) -> None:
        from quotetui.tui.screens.offers import OffersScreen

        self.qapp.switch_mode("offers")
        screen = self.qapp.screen
        if isinstance(screen, OffersScreen):
            screen.show_filter(name)

    async def discover(self) -> Hits:
        for title, help_text, command in self._targets()[-1:]:
            yield DiscoveryHit(title, command, help=help_text)  # type: ignore[arg-type]

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, command in self._targets():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), command, help=help_text)  # type: ignore[arg-type]
