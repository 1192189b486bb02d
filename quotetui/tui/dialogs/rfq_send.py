"""Send an RFQ from the Sourcing screen (``p``): the providers to ask, ticked in a list, and the folder the
response workbooks and cover texts go to; the same service as ``quotetui rfq send`` (``services/rfq.py:
send_rfq``) runs in a worker. Files already there are replaced only when "Replace" is ticked; every name and
file is checked before anything is written, so a refusal writes and records nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, SelectionList, Static

from quotetui.domain.errors import QuotetuiError
from quotetui.language import N_, _, ngettext
from quotetui.language.lists import listed
from quotetui.services.rfq_views import state_word
from quotetui.tui.dialogs.status_line import StatusLine
from quotetui.tui.safe import plain
from quotetui.tui.widgets.footer import KeysFooter
from quotetui.tui.workers import ClosesOnTop, ReportsWorkerErrors, background

if TYPE_CHECKING:
    from quotetui.services.rfq import Sent
    from quotetui.services.rfq_views import RfqView
    from quotetui.store.engine import Database


AROUND = 20
"""The lines of the dialog besides the providers' list (border, padding, title, labels, folder, checkbox,
buttons) and the margin a 90 % high dialog leaves: at 24 lines the list has 4 (two providers in view)."""


def default_folder(name: str) -> Path:
    """``rfq-NAME`` in the current folder (the name kept readable, CJK too)."""
    from quotetui.domain.text import file_word

    return Path.cwd() / f"rfq-{file_word(name, 'rfq')}"


REPLACE = N_("Replace files already there")
CLI_WORDS = (
    (N_("give --force to replace it"), N_("tick “{replace}” to replace it")),
    (N_("; give the folder the files go to (--out DIR)"), N_(": give another folder")),
    (N_("send them in two folders (two runs with different --out)"), N_("send them one at a time, to two folders")),
)
"""The service's advice names the command line's flags; the dialog's own controls are named instead (the
service's words as it says them, in the language in use: each pair is translated before it is matched)."""


def in_dialog_words(message: str) -> str:
    for cli, dialog in CLI_WORDS:
        message = message.replace(_(cli), _(dialog).format(replace=_(REPLACE)))
    return message


class SendRfqDialog(StatusLine, ClosesOnTop, ReportsWorkerErrors, ModalScreen["list[Sent] | None"]):
    """Answers the files written, a pair per provider; Escape answers None (nothing sent)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Cancel (nothing sent)")),
        Binding("ctrl+s", "send", N_("Send")),
    ]

    def __init__(self, db: Database, view: RfqView, providers: list[str]) -> None:
        super().__init__()
        self.db, self.view, self.providers = db, view, providers
        self.sending = False

    def compose(self) -> ComposeResult:
        r = self.view.requirement
        states = {i.provider: i.state for i in self.view.invites}
        with Vertical(classes="dialog send-rfq"):
            title = _("Send RFQ {rfq} (revision {revision})").format(rfq=r.name, revision=r.revision)
            yield Label(plain(title), classes="dialog-title")
            yield Static(plain(_("Providers to ask (Space ticks one):")), classes="form-label")
            yield SelectionList[str](
                *((plain(p + (f"  ({state_word(states[p])})" if p in states else "")), p) for p in self.providers),
                id="providers",
            )
            yield Static(plain(_("Folder for the response workbooks and cover texts:")), classes="form-label")
            yield Input(str(default_folder(r.name)), id="folder", classes="form-input")
            yield Checkbox(plain(_(REPLACE)), id="force")
            yield Static("", id="status", classes="field-error", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button(_("Send (Ctrl+S)"), variant="primary", id="go")
                yield Button(_("Cancel (Esc)"), id="cancel")
        yield KeysFooter()

    def on_mount(self) -> None:
        self._fit(self.app.size.height)

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.height)

    def _fit(self, height: int) -> None:
        """The list's rows: what the terminal leaves beside the dialog's other lines (``AROUND``), at least 3."""
        self.query_one("#providers", SelectionList).styles.max_height = max(3, height - AROUND)

    @on(Button.Pressed, "#go")
    def action_send(self) -> None:
        if self.sending:
            return
        chosen = list(self.query_one("#providers", SelectionList).selected)
        folder = self.query_one("#folder", Input).value.strip()
        if not chosen:
            self._say(_("Tick at least one provider (Space)."), error=True)
            return
        if not folder:
            self._say(_("Give the folder the files go to."), error=True)
            return
        self.sending = True
        self.query_one("#go", Button).disabled = True
        self._say(_("Sending…"))
        self._send(chosen, Path(folder).expanduser(), self.query_one("#force", Checkbox).value)

    @background(group="rfq-send")
    def _send(self, providers: list[str], folder: Path, force: bool) -> None:
        from quotetui.services.rfq import send_rfq

        try:
            _view, sent = send_rfq(self.db, self.view.requirement.name, providers, folder, force=force)
        except QuotetuiError as exc:
            self.app.call_from_thread(self._refused, str(exc))
            return
        except OSError as exc:
            said = _("cannot write in {folder}: {problem}").format(folder=folder, problem=exc.strerror or exc)
            self.app.call_from_thread(self._refused, said)
            return
        self.app.call_from_thread(self._sent, sent)

    def _sent(self, sent: list[Sent]) -> None:
        kept = [s.provider for s in sent if s.answered_at]
        values = {
            "rfq": self.view.requirement.name,
            "n": f"{len(sent):,}",
            "folder": sent[0].workbook.parent,
            "kept": listed(kept),
        }
        if kept:
            said = ngettext(
                "RFQ {rfq} sent to {n} provider: the files are in {folder}; the answers already in are kept ({kept})",
                "RFQ {rfq} sent to {n} providers: the files are in {folder}; the answers already in are kept ({kept})",
                len(sent),
            ).format(**values)
        else:
            said = ngettext(
                "RFQ {rfq} sent to {n} provider: the files are in {folder}",
                "RFQ {rfq} sent to {n} providers: the files are in {folder}",
                len(sent),
            ).format(**values)
        self.app.notify(said, title=_("Sent"), timeout=8)
        self.close_with(sent)

    def _refused(self, message: str) -> None:
        self.sending = False
        self.query_one("#go", Button).disabled = False
        self._say(_("Nothing was sent: {problem}").format(problem=in_dialog_words(message)), error=True)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        if self.sending:
            self.notify(_("Still sending: the dialog closes when it is done."), timeout=4)
            return
        self.dismiss(None)
