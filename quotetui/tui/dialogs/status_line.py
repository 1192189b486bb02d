"""A dialog's status line (``Static#status``): what it is doing, or why it did nothing, in plain text."""

from __future__ import annotations

from typing import Any

from textual.widgets import Static

from quotetui.tui.safe import plain


class StatusLine:
    """Mixin for a dialog (a screen) with a ``Static#status`` of class ``field-error``: hidden until something
    is said. A plain mixin, not a Screen: a Screen base would take part in the dialog's CSS type selectors."""

    def _say(self, text: str, *, error: bool = False) -> None:
        screen: Any = self
        status = screen.query_one("#status", Static)
        status.update(plain(text))
        status.set_class(True, "shown")
        status.set_class(not error, "note")
