"""Files in and out from the TUI: export the comparison workbook; import spreadsheets after a dry run.

Both run the same services as ``quotetui export`` and ``quotetui import`` in a worker thread, so the
screen stays live. An import first checks everything and shows what would be added and changed (or every
problem, with its file, sheet, row and column); only a confirmed import writes, in one transaction. While a
check or an import runs, the dialog shows how far it has got (files and rows read, checked, written), and
Esc or Cancel stops it: the worker raises inside the transaction, which rolls back, so nothing changes.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static
from textual.worker import Worker, get_current_worker

from quotetui.domain.errors import QuotetuiError
from quotetui.language import N_, _, ngettext
from quotetui.tui.dialogs.confirm import ConfirmDialog
from quotetui.tui.dialogs.files import FilesDialog
from quotetui.tui.dialogs.status_line import StatusLine
from quotetui.tui.safe import plain
from quotetui.tui.widgets.footer import KeysFooter
from quotetui.tui.workers import ClosesOnTop, ReportsWorkerErrors, background

if TYPE_CHECKING:
    from quotetui.services.importing import ImportProgress, ImportReport
    from quotetui.store.engine import Database


def default_export_path(scenario: str, today: date, folder: Path | None = None) -> Path:
    """``quotetui-<scenario>-<date>.xlsx`` in the current folder; the scenario name kept readable (CJK too)."""
    from quotetui.domain.text import file_word

    return (folder or Path.cwd()) / f"quotetui-{file_word(scenario, 'market')}-{today.isoformat()}.xlsx"


class ExportDialog(StatusLine, ClosesOnTop, ReportsWorkerErrors, ModalScreen[Path | None]):
    """Where to write the workbook for the active scenario (the pinned offers go side by side)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, db: Database, scenario: str, pinned: tuple[int, ...], today: date) -> None:
        super().__init__()
        self.db, self.scenario, self.pinned, self.today = db, scenario, pinned, today

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            title = _("Export to Excel — scenario {scenario}").format(scenario=self.scenario)
            yield Label(plain(title), classes="dialog-title")
            yield Static(
                plain(_("File: .xlsx for the workbook with live formulas, .csv for the offers table")),
                classes="form-label",
            )
            yield Input(str(default_export_path(self.scenario, self.today)), id="path", classes="form-input")
            yield Static("", id="status", classes="field-error", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button(_("Export (Enter)"), variant="primary", id="go")
                yield Button(_("Cancel (Esc)"), id="cancel")
        yield KeysFooter()  # this dialog's keys, not those of the screen underneath

    @on(Input.Submitted, "#path")
    @on(Button.Pressed, "#go")
    def start(self) -> None:
        raw = self.query_one("#path", Input).value.strip()
        if not raw:
            self._say(_("Give a file name ending in .xlsx or .csv"), error=True)
            return
        out = Path(raw).expanduser()
        if out.is_file():

            def answered(yes: bool | None) -> None:
                if yes:
                    self._go(out, force=True)

            detail = _("The new workbook is written beside it and replaces it only once complete.")
            question = _("Replace {path}?").format(path=out)
            self.app.push_screen(ConfirmDialog(question, detail, yes=N_("Replace")), answered)
            return
        self._go(out, force=False)

    def _go(self, out: Path, *, force: bool) -> None:
        self._say(_("Exporting…"))
        self.query_one("#go", Button).disabled = True
        self._export(out, force)

    @background(group="export")
    def _export(self, out: Path, force: bool) -> None:
        from quotetui.services.transfer import export_file

        try:
            written = export_file(self.db, out, self.scenario, list(self.pinned), self.today, force=force)
        except QuotetuiError as exc:
            self.app.call_from_thread(self._failed, str(exc))
            return
        except OSError as exc:
            said = _("cannot write {path}: {problem}").format(path=out, problem=exc.strerror or exc)
            self.app.call_from_thread(self._failed, said)
            return
        self.app.call_from_thread(self.close_with, written)

    def _failed(self, message: str) -> None:
        self._say(message, error=True)
        self.query_one("#go", Button).disabled = False

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


def _digests(paths: list[Path]) -> dict[Path, str]:
    """What each file holds now (what the dry run saw must be what is imported)."""
    import hashlib

    from quotetui.io.bounded import read_bounded
    from quotetui.io.tables import MAX_FILE_BYTES

    return {path: hashlib.sha256(read_bounded(path, MAX_FILE_BYTES)).hexdigest() for path in paths}


class ImportDialog(FilesDialog["ImportReport | None"]):
    """Files to import; a dry run shows what would change (or what is wrong) before anything is written."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Cancel (nothing imported)")),
        Binding("ctrl+s", "confirm", N_("Import"), show=False),
    ]

    def __init__(self, db: Database, today: date) -> None:
        super().__init__()
        self.db, self.today = db, today
        self.checked: list[Path] | None = None  # the files whose dry run passed
        self.digests: dict[Path, str] = {}  # what they held then: a file changed since is checked again
        self.running: Worker[None] | None = None  # the check or import under way (Esc cancels it)

    def compose(self) -> ComposeResult:
        yield from self.files_layout(
            _("Import spreadsheets (all or nothing)"),
            _(
                "Template sheets, exported workbooks or SkyPilot catalogs (.xlsx, .csv). "
                'Several files: separate them with spaces; "quote a name with spaces".'
            ),
            "offers.xlsx",
            Button(_("Check (Enter)"), variant="primary", id="check"),
            Button(_("Import (Ctrl+S)"), variant="success", id="confirm", disabled=True),
            Button(_("Cancel (Esc)"), id="cancel"),
        )

    @on(Input.Changed, "#paths")
    def edited(self) -> None:
        self.checked = None
        self.query_one("#confirm", Button).disabled = True

    @on(Input.Submitted, "#paths")
    @on(Button.Pressed, "#check")
    def check(self) -> None:
        paths = self._paths()
        if paths is None:
            return
        self._show(_("Checking every row…"))
        self._start(paths, dry_run=True)

    @on(Button.Pressed, "#confirm")
    def action_confirm(self) -> None:
        if self.checked is None:
            self._show(_("Check the files first (Enter): nothing is imported before its dry run."), True)
            return
        self._show(_("Importing…"))
        self._start(self.checked, dry_run=False)

    def _start(self, paths: list[Path], *, dry_run: bool) -> None:
        self.query_one("#confirm", Button).disabled = True
        self.query_one("#check", Button).disabled = True
        self.running = self._run(paths, dry_run)

    def _ended(self, worker: Worker[None]) -> None:
        """The run ``worker`` is over (done, failed or cancelled and rolled back)."""
        if self.running is worker:
            self.running = None
            for button in self.query("#check").results(Button):  # none once the dialog is closed
                button.disabled = False

    def _progress(self, progress: ImportProgress) -> None:
        """Told by the import as it goes (in the worker's thread): shown, unless the user cancelled, when it
        raises so that the import stops and its transaction rolls back."""
        from quotetui.services.importing import ImportCancelled

        if get_current_worker().is_cancelled:
            raise ImportCancelled("cancelled")
        if progress.dry_run:
            said = _("Checking… {progress}").format(progress=progress.line())
        else:
            said = _("Importing… {progress}").format(progress=progress.line())
        self.app.call_from_thread(self._show, said + "\n" + _("Esc cancels."))

    @background(group="import")
    def _run(self, paths: list[Path], dry_run: bool) -> None:
        try:
            self._import(paths, dry_run)
        finally:
            self.app.call_from_thread(self._ended, get_current_worker())

    def _import(self, paths: list[Path], dry_run: bool) -> None:
        from quotetui.io.problems import ImportProblems
        from quotetui.services.importing import ImportCancelled, import_files

        try:
            digests = _digests(paths)
            if not dry_run and digests != self.digests:
                self.app.call_from_thread(self._show, _("A file changed since it was checked: checking it again…"))
                dry_run = True
            if dry_run:
                self.digests = digests
            report = import_files(self.db, paths, dry_run=dry_run, as_of=self.today, progress=self._progress)
        except ImportCancelled:
            message = (
                _("Check cancelled; nothing was imported.") if dry_run else _("Import cancelled; nothing changed.")
            )
            self.app.call_from_thread(self._cancelled, message, dry_run)
            return
        except ImportProblems as exc:
            n = len(exc.problems)
            head = ngettext("{n} problem; nothing was imported:", "{n} problems; nothing was imported:", n)
            lines = [head.format(n=f"{n:,}")] + [f"  {p}" for p in exc.problems]
            self.app.call_from_thread(self._show, "\n".join(lines), True)
            return
        except QuotetuiError as exc:
            self.app.call_from_thread(self._show, str(exc), True)
            return
        if dry_run:
            self.app.call_from_thread(self._checked, paths, report)
        else:
            self.app.call_from_thread(self.close_with, report)

    def _checked(self, paths: list[Path], report: ImportReport) -> None:
        changes = sum(c.added + c.changed for c in report.counts.values())
        self.checked = paths if changes else None
        tail = _("Ctrl+S imports it.") if changes else _("Nothing to change.")
        self._show("\n".join([*report.lines(), "", tail]))
        self.query_one("#confirm", Button).disabled = not changes

    def _cancelled(self, message: str, dry_run: bool) -> None:
        self._show(message)
        self.query_one("#confirm", Button).disabled = dry_run or self.checked is None
        self.app.notify(message, title=_("Import"), timeout=6)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        """Stop the check or import under way (nothing is written), else close the dialog. While a cancelled
        run rolls back the dialog stays, so that what it says at the end ("nothing changed") is seen."""
        if self.running is not None:
            if not self.running.is_cancelled:
                self.running.cancel()
                self._show(_("Cancelling… nothing is written."))
            return
        self.dismiss(None)
