"""A dialog for failures that are not the user's doing: the message, and the details to report."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from quotetui.tui.safe import plain


class ErrorDialog(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter", "dismiss", "Close")]

    def __init__(self, title: str, message: str, details: str) -> None:
        super().__init__()
        self.title_text, self.message, self.details = title, message, details

    def compose(self) -> ComposeResult:
        with Vertical(id="error-dialog", classes="dialog"):
            yield Label(plain(self.title_text), classes="dialog-title error")
            yield Static(plain(self.message), id="error-message")
            with VerticalScroll(id="error-details"):
                yield Static(plain(self.details))
            yield Button("Close", variant="error", id="close")

    def on_button_pressed(self) -> None:
        self.dismiss()
