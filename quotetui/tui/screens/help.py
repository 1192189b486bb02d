"""F1 / ?: every key binding of the app, grouped by where it works, as each screen declares it
(``key_reference.py``, imported when the help opens: no screen imports the help or the app), then what the
marks on the figures and in the Flags mean (``caveats.legend_line``, as ``offers`` says it)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Label, Static

from quotetui.language import N_, _
from quotetui.language.lists import listed
from quotetui.tui.safe import Table, plain
from quotetui.tui.widgets.footer import KeysFooter


def _keys(binding: Binding, keymap: dict[str, str]) -> str:
    """The binding's keys as the user has them (the config file's keymap moves a binding by its id)."""
    names = {
        "question_mark": "?",
        "less_than_sign": "<",
        "greater_than_sign": ">",
        "minus": "-",
        "slash": "/",
        "space": "space",
        "escape": "Esc",
        "enter": "Enter",
        "delete": "Del",
    }
    keys = keymap.get(binding.id, binding.key) if binding.id else binding.key
    return listed(names.get(k, k) for k in keys.split(","))


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,f1,question_mark,q", "dismiss", N_("Close"))]

    def __init__(self, origin: Screen | None = None) -> None:
        super().__init__()
        self.origin = origin

    def speak(self) -> None:
        """A language switch: every word of the help is composed again."""
        self.call_later(self.recompose)

    def compose(self) -> ComposeResult:
        from quotetui.domain.economics.caveats import legend_line
        from quotetui.tui.screens.key_reference import binding_groups

        with VerticalScroll(classes="dialog", id="help"):
            yield Label(plain(_("Keys  (Esc closes)")), classes="dialog-title")
            preferences = getattr(self.app, "preferences", None)
            keymap = preferences.keymap if preferences is not None else {}
            for group, bindings in binding_groups():
                table = Table(
                    box=None,
                    show_header=False,
                    pad_edge=False,
                    title=_(group),
                    title_justify="left",
                    title_style="bold",
                )
                table.add_column(style="bold", min_width=14)
                table.add_column()
                for b in bindings:
                    table.add_row(_keys(b, keymap), _(b.description) if b.description else b.action)
                yield Static(table)
            yield Static(plain(legend_line()), id="help-marks")  # the marks of the figures and the Flags
        yield KeysFooter()  # the help's own keys, not those of the screen underneath
