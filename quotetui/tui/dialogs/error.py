"""A dialog for failures that are not the user's doing: the message, and (with ``QUOTETUI_DEBUG=1`` in the
environment) the traceback to report. The app stays open behind it."""

from __future__ import annotations

import os
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from quotetui.language import N_, _
from quotetui.tui.safe import plain

DEBUG_HINT = N_("quotetui is still running. To see the details to report, start it with QUOTETUI_DEBUG=1.")


def debugging() -> bool:
    """Whether tracebacks are shown (``QUOTETUI_DEBUG`` set to anything but empty or 0)."""
    return os.environ.get("QUOTETUI_DEBUG", "").strip() not in ("", "0")


class ErrorDialog(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter", "dismiss", N_("Close"))]

    def __init__(self, title: str, message: str, details: str) -> None:
        """``title`` and ``message`` as shown (in the language in use); ``details``: the traceback, as it is."""
        super().__init__()
        self.title_text, self.message, self.details = title, message, details

    def compose(self) -> ComposeResult:
        with Vertical(id="error-dialog", classes="dialog"):
            yield Label(plain(self.title_text), classes="dialog-title error")
            yield Static(plain(self.message), id="error-message")
            if debugging():
                with VerticalScroll(id="error-details"):
                    yield Static(plain(self.details))
            else:
                yield Static(plain(_(DEBUG_HINT)), id="error-hint")
            yield Button(_("Close"), variant="error", id="close")

    def on_button_pressed(self) -> None:
        self.dismiss()
