"""Raw benchmark logs into an offer's evidence from the TUI: the same service as ``quotetui bench import``,
in a worker thread; one unreadable log stores nothing and every problem is listed with its line. An import that
withdrew figures on record (they are not shown to be the model sold) stays open on its notes, as the CLI prints
them, until it is closed."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Button, Input

from quotetui.domain.errors import QuotetuiError
from quotetui.language import N_, _
from quotetui.tui.dialogs.files import FilesDialog
from quotetui.tui.workers import background

if TYPE_CHECKING:
    from quotetui.services.bench_import import BenchImport
    from quotetui.store.engine import Database


class BenchImportDialog(FilesDialog["BenchImport | None"]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Cancel (nothing imported)")),
        Binding("escape", "close", N_("Close")),  # once imported: the notes were read
    ]

    def __init__(self, db: Database, offer_id: int, title: str) -> None:
        super().__init__()
        self.db, self.offer_id, self.offer_title = db, offer_id, title
        self.imported: BenchImport | None = None  # the import done, while its notes are shown

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("cancel", "close"):
            return (action == "close") == (self.imported is not None)
        return True

    def compose(self) -> ComposeResult:
        yield from self.files_layout(
            _("Import raw logs for #{id} {offer}").format(id=self.offer_id, offer=self.offer_title),
            _(  # a command and its flag are joined by no-break spaces: a line never breaks inside one
                "nvidia-smi (table, -q, query, -L, topo\u00a0-m), rocm-smi, hl-smi, npu-smi, nccl-tests or rccl-tests "
                "(any collective; -J\u00a0JSON), nvbandwidth, perftest (ib_*_bw, ib_*_lat), p2pBandwidthLatencyTest, "
                "a GEMM sweep, a training log, gpu-burn, dcgmi\u00a0diag, or a bundle from `quotetui\u00a0probe`. "
                'Several files: separate them with spaces; "quote a name with spaces".'
            ),
            "probe-node01.json",
            Button(_("Import (Enter)"), variant="primary", id="go"),
            Button(_("Cancel (Esc)"), id="cancel"),
        )

    @on(Input.Submitted, "#paths")
    @on(Button.Pressed, "#go")
    def start(self) -> None:
        paths = self._paths()
        if paths is None:
            return
        self._show(_("Reading every log…"))
        self.query_one("#go", Button).disabled = True
        self._run(paths)

    @background(group="bench-import")
    def _run(self, paths: list[Path]) -> None:
        from quotetui.services.bench_import import import_bench

        try:
            report = import_bench(self.db, self.offer_id, paths)
        except QuotetuiError as exc:
            self.app.call_from_thread(self._failed, str(exc))
            return
        self.app.call_from_thread(self._done, report)

    def _done(self, report: BenchImport) -> None:
        """Closes with the import, or, when it withdrew figures on record, shows its notes first."""
        if not report.notes:
            self.close_with(report)
            return
        self.imported = report
        self._show("\n".join([report.summary, *report.notes]))
        self.query_one("#go", Button).display = False
        self.query_one("#paths", Input).disabled = True
        close = self.query_one("#cancel", Button)
        close.label = _("Close (Esc)")
        close.focus()
        self.refresh_bindings()

    def _failed(self, message: str) -> None:
        self._show(message, error=True)
        self.query_one("#go", Button).disabled = False

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(self.imported)

    def action_close(self) -> None:
        self.dismiss(self.imported)
