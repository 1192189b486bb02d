"""Background work in the TUI: every worker is started through :func:`background`, and a failed one is shown
in the error dialog while the app keeps running.

Textual's own ``@work`` exits the app when a worker raises (``exit_on_error=True``), so an unexpected error
in one screen's loading (a ``KeyError`` in the offer detail) used to close the whole program. Here no worker
exits the app: its ``Worker.StateChanged`` message reaches :class:`ReportsWorkerErrors`, the one handler,
which hands the error to :meth:`QuotetuiApp.show_error`. That message does not bubble, so the app, the market
screens and the dialogs that start workers each take the mixin (Textual runs a handler of every class in the
MRO, so a subclass's own ``on_worker_state_changed`` does not hide it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual import work
from textual.worker import Worker, WorkerState

from quotetui.domain.errors import QuotetuiError
from quotetui.language import N_, _


def background(*, group: str = "default", exclusive: bool = True) -> Callable[[Any], Any]:
    """A thread worker that never exits the app on an error. ``exclusive`` (the default) cancels the
    group's previous run when a new one starts, so the latest input wins. The worker is described by its
    group: Textual would otherwise ``repr`` every argument on the UI thread (a market of 10,000 evaluations
    took 1.8 s to describe)."""
    return work(thread=True, exclusive=exclusive, group=group, exit_on_error=False, description=group)


WORKER_TITLES = {
    "market": N_("Loading the market"),
    "detail": N_("Loading the offer"),
    "contract": N_("Loading the contract"),
    "contract-accept": N_("Accepting the contract"),
    "export": N_("Exporting"),
    "import": N_("Importing"),
    "bench-import": N_("Importing benchmark logs"),
    "scenarios": N_("Loading the scenarios"),
    "form-load": N_("Filling the form"),
    "form-save": N_("Saving"),
    "write": N_("Writing the change"),
    "fx": N_("Loading the FX rates"),
    "rfqs": N_("Loading the RFQs"),
    "rfq": N_("Loading the RFQ"),
    "rfq-award": N_("Computing the award"),
}
"""What the user was waiting for, by the worker's group (English message ids)."""


def worker_title(worker: Worker[Any]) -> str:
    """What the user was waiting for, from the worker's group (``"detail"`` → "Loading the offer"), in the language
    in use."""
    title = WORKER_TITLES.get(worker.group)
    return _(title) if title is not None else _("Background work ({group})").format(group=worker.group)


class ReportsWorkerErrors:
    """Mixin for the app, screens and dialogs: a worker that failed is shown in the error dialog (a
    :class:`QuotetuiError` as a notification: it is a message for the user, not a bug)."""

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state != WorkerState.ERROR:
            return
        error = event.worker.error
        app: Any = getattr(self, "app", self)
        if not isinstance(error, Exception) or not hasattr(app, "show_error"):
            return
        title = worker_title(event.worker)
        if isinstance(error, QuotetuiError):
            app.notify(str(error), title=title, severity="error", timeout=10)
        else:
            app.show_error(_("{title} failed").format(title=title), error)


class ClosesOnTop:
    """Mixin for a screen that a worker's result closes (an export written, a save done, its row gone).

    ``Screen.dismiss`` pops whatever screen is on top: a result that arrives while the command palette (or a
    dialog) is open over this screen would close the palette instead, and leave this screen with a spent
    result, so that closing it later crashed the app. :meth:`close_with` closes this screen now if it is on
    top, else as soon as it is on top again.
    """

    _result_waiting: tuple[object] | None = None

    def close_with(self, result: object = None) -> None:
        screen: Any = self
        if screen.app.screen is screen:
            screen.dismiss(result)
        elif screen.is_attached:
            self._result_waiting = (result,)

    def on_screen_resume(self) -> None:
        if self._result_waiting is not None:
            (result,) = self._result_waiting
            self._result_waiting = None
            screen: Any = self
            screen.call_later(self.close_with, result)  # not from the resume handler itself
