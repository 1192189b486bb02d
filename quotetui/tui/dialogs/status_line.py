"""A dialog's status line (``Static#status``): what it is doing, or why it did nothing, in plain text."""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Static

from quotetui.tui.safe import plain


class StatusLine(Screen[object]):
    """Mixin for a dialog with a ``Static#status`` (class ``field-error``): shown once something is said."""

    def _say(self, text: str, *, error: bool = False) -> None:
        status = self.query_one("#status", Static)
        status.update(plain(text))
        status.set_class(True, "shown")
        status.set_class(not error, "note")
