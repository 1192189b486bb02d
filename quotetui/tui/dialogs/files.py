"""What the file dialogs share: a list of paths typed in one field (shell quoting), and a report area."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TypeVar

from textual.screen import ModalScreen
from textual.widgets import Input, Static

from quotetui.tui.safe import plain
from quotetui.tui.workers import ClosesOnTop, ReportsWorkerErrors

ResultT = TypeVar("ResultT")


class FilesDialog(ClosesOnTop, ReportsWorkerErrors, ModalScreen[ResultT]):
    """Expects an ``Input#paths`` and a ``Static#report`` in its compose."""

    def _paths(self) -> list[Path] | None:
        """The files typed in ``#paths`` (separated by spaces, "quoted" when a name has one); None and a
        message when there are none or the quoting is broken."""
        raw = self.query_one("#paths", Input).value.strip()
        try:
            parts = shlex.split(raw)
        except ValueError as exc:
            self._show(f"Cannot read the file list: {exc}", error=True)
            return None
        if not parts:
            self._show("Give at least one file.", error=True)
            return None
        return [Path(p).expanduser() for p in parts]

    def _show(self, text: str, error: bool = False) -> None:
        report = self.query_one("#report", Static)
        report.update(plain(text))
        report.set_class(error, "error")
