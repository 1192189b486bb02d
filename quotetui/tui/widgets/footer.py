"""The footer: the focused widget's and the screen's keys first, then Help, then the app's keys while they fit.

Textual's footer lists the keys of the focused widget, its screen and the app in that order and cuts whatever
passes the right edge, mid-word ("f1 H"). At 80 columns that hides Help on every screen with keys of its own.
This one keeps the order of what is in focus, puts Help right after it, and leaves out whole keys that would
not fit (each is still a key, listed in the help) rather than cutting one. A screen may leave keys out of
the footer that do not concern what is shown (the offer detail's tabs): its ``in_footer(binding)`` says.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.events import Resize
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from quotetui.language import _


def said(words: str) -> str:
    """A binding's description or tooltip (declared in English, marked ``N_``; Textual's own:
    ``app_keys.TEXTUAL_WORDS``) in the language in use."""
    return _(words) if words else words


HELP_ID = "help"
"""The app's Help binding (its ``id``): shown whenever the keys of what is in focus leave room for it."""
PALETTE_CELLS = 13
"""The command palette's key at the right edge ("▏^p palette") and its padding, in English (:meth:`KeysFooter.
palette_cells` measures it in the language in use)."""


def key_cells(key_display: str, description: str) -> int:
    """The cells a key takes in the footer: " d Dashboard " (its padding, not compact)."""
    from rich.cells import cell_len

    return cell_len(key_display) + cell_len(description) + 3


class KeysFooter(Footer):
    _width = 0

    def fitting(self, width: int) -> list[tuple[Binding, bool, str]]:
        """The keys to show in ``width`` cells, in their order: focus first, then Help, then the app's."""
        own: list[tuple[Binding, bool, str]] = []
        app: list[tuple[Binding, bool, str]] = []
        actions: set[str] = set()
        in_footer = getattr(self.screen, "in_footer", lambda _: True)
        for namespace, binding, enabled, tooltip in self.screen.active_bindings.values():
            if not binding.show or binding.action in actions or not in_footer(binding):
                continue  # one entry an action (several keys for one action show once, like Textual's)
            actions.add(binding.action)
            (app if namespace is self.app else own).append((binding, enabled, tooltip))
        helps = [item for item in app if item[0].id == HELP_ID]
        room = width - (self.palette_cells() if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE else 0)
        shown: list[tuple[Binding, bool, str]] = []
        for run in (own, helps, [item for item in app if item not in helps]):
            for item in run:  # in order; once one does not fit, the rest of its run is left out too
                cells = key_cells(self.app.get_key_display(item[0]), said(item[0].description))
                if cells > room:
                    break
                room -= cells
                shown.append(item)
        return shown

    def palette_cells(self) -> int:
        """The cells the command palette's key takes at the right edge: its key and word, padded, and the bar."""
        found = self.screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
        if found is None:
            return PALETTE_CELLS
        binding = found[1]
        return key_cells(self.app.get_key_display(binding), said(binding.description)) + 1

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        self._width = self.size.width or self.screen.size.width or self.app.size.width
        for binding, enabled, tooltip in self.fitting(self._width):
            yield FooterKey(
                binding.key,
                self.app.get_key_display(binding),
                said(binding.description),
                binding.action,
                disabled=not enabled,
                tooltip=said(tooltip),
            ).data_bind(compact=Footer.compact)
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            found = self.screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
            if found is not None:
                _namespace, binding, enabled, _tooltip = found
                yield FooterKey(
                    binding.key,
                    self.app.get_key_display(binding),
                    said(binding.description),
                    binding.action,
                    classes="-command-palette",
                    disabled=not enabled,
                    tooltip=said(binding.tooltip or binding.description),
                )

    def on_resize(self, event: Resize) -> None:
        if event.size.width != self._width and self._bindings_ready:
            self.call_after_refresh(self.recompose)  # another width: another set of keys fits
