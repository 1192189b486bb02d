"""Asks before anything is deleted or replaced."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from quotetui.language import N_, _
from quotetui.tui.safe import plain


class ConfirmDialog(ModalScreen[bool]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,n", "answer(False)", N_("Cancel")),
        Binding("y", "answer(True)", N_("Yes")),
    ]

    def __init__(self, question: str, detail: str = "", yes: str = N_("Delete")) -> None:
        """``question`` and ``detail`` as shown (in the language in use); ``yes``: the button's word as declared
        (``N_``), translated here."""
        super().__init__()
        self.question, self.detail, self.yes = question, detail, yes

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(plain(self.question), classes="dialog-title")
            if self.detail:
                yield Static(plain(self.detail))
            with Horizontal(classes="dialog-buttons"):
                yield Button(plain(f"{_(self.yes)} (y)"), variant="error", id="yes")
                yield Button(_("Cancel (Esc)"), id="no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)
