"""What the file dialogs share: their layout (a title, what they read, one field for the paths, a report area,
their buttons), a list of paths typed in that field (shell quoting), and the report."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TypeVar

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from quotetui.language import _
from quotetui.tui.safe import plain
from quotetui.tui.widgets.footer import KeysFooter
from quotetui.tui.workers import ClosesOnTop, ReportsWorkerErrors

ResultT = TypeVar("ResultT")


class FilesDialog(ClosesOnTop, ReportsWorkerErrors, ModalScreen[ResultT]):
    """A dialog that reads files: its compose is :meth:`files_layout` (the ``Input#paths`` and ``Static#report`` the
    methods below use)."""

    def files_layout(self, title: str, reads: str, placeholder: str, *buttons: Button) -> ComposeResult:
        """The dialog: ``title``, what it ``reads`` (plain text), the paths field, the report, ``buttons``, and
        a footer of this dialog's keys (not those of the screen underneath); every text as shown (translated)."""
        with Vertical(classes="dialog"):
            yield Label(plain(title), classes="dialog-title")
            yield Static(reads, classes="form-label", markup=False)
            yield Input(placeholder=placeholder, id="paths", classes="form-input")
            with VerticalScroll(id="import-report"):
                yield Static("", id="report", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield from buttons
        yield KeysFooter()

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
