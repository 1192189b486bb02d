"""What the file dialogs share: their layout (a title, what they read, one field for the paths, a report area,
their buttons), a list of paths typed in that field (shell quoting), and the report."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import ClassVar, TypeVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from quotetui.language import _
from quotetui.tui.safe import plain
from quotetui.tui.widgets.footer import KeysFooter
from quotetui.tui.widgets.paragraph import Paragraph
from quotetui.tui.workers import ClosesOnTop, ReportsWorkerErrors

ResultT = TypeVar("ResultT")

AROUND = 14
"""The rows a files dialog takes besides its body: the margin around it, its border and padding, the title, the
buttons and the footer."""


class FilesDialog(ClosesOnTop, ReportsWorkerErrors, ModalScreen[ResultT]):
    """A dialog that reads files: its compose is :meth:`files_layout` (the ``Input#paths`` and ``Static#report`` the
    methods below use)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(key, f"body('{how}')", show=False)
        for key, how in (
            ("up", "scroll_up"),
            ("down", "scroll_down"),
            ("pageup", "page_up"),
            ("pagedown", "page_down"),
        )
    ]

    def files_layout(self, title: str, reads: str, placeholder: str, *buttons: Button) -> ComposeResult:
        """The dialog: ``title``, what it ``reads`` (plain text), the paths field, the report, ``buttons``, and
        a footer of this dialog's keys (not those of the screen underneath); every text as shown (translated)."""
        with Vertical(classes="dialog"):
            yield Label(plain(title), classes="dialog-title")
            # what it reads, the field, the report: scrolled (keys too), never focused itself
            with VerticalScroll(id="files-body", can_focus=False):
                said = Paragraph(classes="form-label", markup=False)  # broken as the language breaks a line
                said.show(Text(reads))
                yield said
                yield Input(placeholder=placeholder, id="paths", classes="form-input")
                yield Static("", id="report", markup=False)
            with Horizontal(classes="dialog-buttons"):  # always in view, whatever the report's length
                yield from buttons
        yield KeysFooter()

    def on_mount(self) -> None:
        self._fit(self.app.size.height)

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.height)

    def _fit(self, height: int) -> None:
        """The body's rows: what the terminal leaves beside the dialog's other lines (``AROUND``), at least 3."""
        self.query_one("#files-body", VerticalScroll).styles.max_height = max(3, height - AROUND)

    def action_body(self, how: str) -> None:
        """Scrolls the body (a long report at 80×24) whichever widget has the focus."""
        body = self.query_one("#files-body", VerticalScroll)
        getattr(body, f"action_{how}")()

    def _paths(self) -> list[Path] | None:
        """The files typed in ``#paths`` (separated by spaces, "quoted" when a name has one); None and a
        message when there are none or the quoting is broken."""
        raw = self.query_one("#paths", Input).value.strip()
        try:
            parts = shlex.split(raw)
        except ValueError as exc:
            self._show(_("Cannot read the file list: {problem}").format(problem=exc), error=True)
            return None
        if not parts:
            self._show(_("Give at least one file."), error=True)
            return None
        return [Path(p).expanduser() for p in parts]

    def _show(self, text: str, error: bool = False) -> None:
        report = self.query_one("#report", Static)
        report.update(plain(text))
        report.set_class(error, "error")
