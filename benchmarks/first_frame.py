"""Time from process start to the first painted frame, for quotetui or a bare Textual app.

    python -m benchmarks.first_frame quotetui DB
    python -m benchmarks.first_frame bare

Prints the seconds and the peak memory (MiB) at that moment; used by benchmarks/tui.py and run.py.
"""

import time

START = time.perf_counter()

import os  # noqa: E402
import sys  # noqa: E402


def _report(app: object) -> None:
    def done() -> None:
        from benchmarks.memory import peak_mib as peak

        peak_mib = peak()
        print(f"{time.perf_counter() - START:.4f} {peak_mib:.1f}", flush=True)
        os._exit(0)  # do not wait for the data-loading worker: only the first frame counts

    app.call_after_refresh(done)  # type: ignore[attr-defined]


def bare() -> None:
    from textual.app import App, ComposeResult
    from textual.widgets import DataTable, Footer, Header

    class Bare(App[None]):
        def compose(self) -> ComposeResult:
            yield Header()
            yield DataTable()
            yield Footer()

        def on_mount(self) -> None:
            _report(self)

    Bare().run(headless=True)


def quotetui(db: str) -> None:
    from quotetui.tui.app import QuotetuiApp

    class Timed(QuotetuiApp):
        def on_mount(self) -> None:
            super().on_mount()
            _report(self)

    Timed(db).run(headless=True)


if __name__ == "__main__":
    if sys.argv[1] == "bare":
        bare()
    else:
        quotetui(sys.argv[2])
