"""Raw benchmark logs into an offer's evidence from the TUI: the same service as ``quotetui bench import``,
in a worker thread; one unreadable log stores nothing and every problem is listed with its line."""

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
    from quotetui.services.bench_import import BenchImport  # noqa: F401  (named in the generic base below)
    from quotetui.store.engine import Database


class BenchImportDialog(FilesDialog["BenchImport | None"]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel (nothing imported)"))]

    def __init__(self, db: Database, offer_id: int, title: str) -> None:
        super().__init__()
        self.db, self.offer_id, self.offer_title = db, offer_id, title

    def compose(self) -> ComposeResult:
        yield from self.files_layout(
            _("Import raw logs for #{id} {offer}").format(id=self.offer_id, offer=self.offer_title),
            _(
                "nvidia-smi (table, -q, query, -L, topo -m), rocm-smi, hl-smi, npu-smi, nccl-tests or rccl-tests "
                "(any collective; -J JSON), nvbandwidth, perftest (ib_*_bw, ib_*_lat), p2pBandwidthLatencyTest, a "
                "GEMM sweep, a training log, gpu-burn, dcgmi diag, or a bundle from `quotetui probe`. Several files: "
                'separate them with spaces; "quote a name with spaces".'
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
        self.app.call_from_thread(self.close_with, report)

    def _failed(self, message: str) -> None:
        self._show(message, error=True)
        self.query_one("#go", Button).disabled = False

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
