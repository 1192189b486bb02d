"""Pick a recorded row (a round, a discount, an extra cost) to edit it or delete it."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from quotetui.language import N_, _
from quotetui.tui.safe import plain
from quotetui.tui.widgets.footer import KeysFooter


class PickDialog(ModalScreen[tuple[str, int] | None]):
    """Answers ("edit", id) or ("delete", id); Escape answers None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss(None)", N_("Cancel")),
        Binding("enter", "choose('edit')", N_("Edit"), priority=True),
        Binding("x,delete", "choose('delete')", N_("Delete")),
    ]

    def __init__(self, title: str, items: list[tuple[int, str]]) -> None:
        super().__init__()
        self.title_text, self.items = title, items

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            title = _("{title}  (Enter edits, x deletes, Esc closes)").format(title=self.title_text)
            yield Label(plain(title), classes="dialog-title")
            yield OptionList(*(Option(plain(label), id=str(key)) for key, label in self.items), id="pick")
        yield KeysFooter()  # Edit, Delete, Cancel: this dialog's keys, not those of the screen underneath

    def on_mount(self) -> None:
        if not self.items:
            self.notify(_("Nothing recorded yet."), severity="warning")
            self.dismiss(None)

    def action_choose(self, what: str) -> None:
        options = self.query_one(OptionList)
        if options.highlighted is None:
            return
        option = options.get_option_at_index(options.highlighted)
        assert option.id is not None
        self.dismiss((what, int(option.id)))
