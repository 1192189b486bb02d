"""A form dialog built from a :class:`FormSpec`: inline messages per field, all-or-nothing saves.

The first field has the focus when the form opens, so the first keystroke goes into it. Escape cancels and
nothing is saved; Ctrl+S (or the Save button) validates every field through the service that saves it; a bad
field shows its message under itself and nothing is written; a save says what was saved. The form has its
own footer (its keys, not the screen's underneath), and its buttons stay in view below the scrolling fields.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from quotetui.domain.errors import Conflict, QuotetuiError
from quotetui.domain.fields import Field
from quotetui.domain.text import visible
from quotetui.services.forms import FieldErrors, FormSpec, parse
from quotetui.tui.dialogs.confirm import ConfirmDialog
from quotetui.tui.safe import plain
from quotetui.tui.widgets.footer import KeysFooter

Notice = Callable[[dict[str, Any], object], str]
"""What a save says, from the raw values and what the save returned (a new row's id …)."""


class FormScreen(ModalScreen[object]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel (nothing saved)"),
        Binding("ctrl+s", "save", "Save"),
        Binding("tab", "app.focus_next", "Next field", show=True),
    ]
    AUTO_FOCUS = ""  # the first field is focused in on_mount, without scrolling (see there)

    def __init__(
        self,
        spec: FormSpec | Callable[[], FormSpec],
        save: Callable[[dict[str, Any], object], object],
        notice: Notice | None = None,
    ) -> None:
        """``spec`` is the form, or what makes it from the row as it is now (then a stale form can be filled
        again); ``save`` gets the raw values and the version of the row the form was filled from; ``notice``
        says what was saved (default: "Saved: " and the form's title)."""
        super().__init__()
        self.notice = notice
        self.load = spec if callable(spec) else None
        self.gone: str | None = None  # why the form cannot be filled (its row was deleted meanwhile …)
        try:
            self.spec = spec() if callable(spec) else spec
        except QuotetuiError as exc:
            self.gone, self.spec = str(exc), FormSpec("", ())
        self.save = save

    def on_mount(self) -> None:
        if self.gone is not None:
            self.notify(self.gone, title="Cannot open the form", severity="error", timeout=10)
            self.dismiss(None)
            return
        # the first field, not the scrolling area around it; not scrolled to: focused before the first layout,
        # Textual would centre it and hide the first label (and the title above it) at 80x24
        fields = self.query(".form-input")
        if fields:
            fields.first().focus(scroll_visible=False)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog form"):
            yield Label(plain(self.spec.title), classes="dialog-title")
            with VerticalScroll(classes="form-fields"):
                for field in self.spec.fields:
                    yield from self._field(field)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Save (Ctrl+S)", variant="primary", id="save")
                yield Button("Cancel (Esc)", id="cancel")
        yield KeysFooter()

    def _field(self, field: Field) -> ComposeResult:
        value = self.spec.values.get(field.name)
        if field.kind == "bool":
            yield Checkbox(plain(field.label), bool(value), id=f"f-{field.name}", classes="form-input")
        else:
            yield Label(plain(field.label + (" *" if field.required else "")), classes="form-label")
            options = self.spec.choices(field)
            if options:
                choices = [(plain(label), v) for label, v in options]
                current = value if value in {v for _, v in options} else Select.NULL
                yield Select(choices, value=current, allow_blank=True, id=f"f-{field.name}", classes="form-input")
            else:
                placeholder = field.note() if field.kind != "ratio" else "a percentage, e.g. 15 for 15 %"
                shown = visible(str(value or ""))  # a control character stored long ago is shown as a mark
                yield Input(shown, placeholder=placeholder, id=f"f-{field.name}", classes="form-input")
        yield Static("", id=f"e-{field.name}", classes="field-error")

    def widget_for(self, name: str) -> Widget:
        return self.query_one(f"#f-{name}")

    def raw_values(self) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for field in self.spec.fields:
            widget = self.widget_for(field.name)
            if isinstance(widget, Select):
                values[field.name] = "" if widget.value is Select.NULL else widget.value
            else:
                values[field.name] = widget.value  # type: ignore[attr-defined]
        return values

    def show_errors(self, errors: dict[str, str]) -> None:
        for field in self.spec.fields:
            message = errors.get(field.name, "")
            error = self.query_one(f"#e-{field.name}", Static)
            error.update(plain(message))
            error.set_class(bool(message), "shown")
            self.widget_for(field.name).set_class(bool(message), "invalid")
        first = next((f.name for f in self.spec.fields if f.name in errors), None)
        if first is not None:
            self.widget_for(first).focus()

    @on(Input.Changed)
    def _check_one(self, event: Input.Changed) -> None:
        """Inline validation as the user types: only the field being edited."""
        name = (event.input.id or "").removeprefix("f-")
        spec = next((f for f in self.spec.fields if f.name == name), None)
        if spec is None:
            return
        error = self.query_one(f"#e-{name}", Static)
        try:
            parse((spec,), {name: event.value})
            message = ""
        except FieldErrors as exc:
            message = exc.errors.get(name, "")
        error.update(plain(message))
        error.set_class(bool(message), "shown")
        event.input.set_class(bool(message), "invalid")

    def action_save(self) -> None:
        raw = self.raw_values()
        try:
            result = self.save(raw, self.spec.version)
        except Conflict as exc:
            self._stale(str(exc))
            return
        except FieldErrors as exc:
            self.show_errors(exc.errors)
            self.notify(f"{len(exc.errors)} field(s) need attention; nothing was saved.", severity="error")
            return
        except QuotetuiError as exc:
            self.notify(str(exc), title="Not saved", severity="error", timeout=10)
            return
        except Exception as exc:
            self.app.show_error("Saving failed", exc)  # type: ignore[attr-defined]
            return
        self.app.notify(self._said(raw, result), title="Saved", timeout=6, markup=False)
        self.dismiss(result if result is not None else True)

    def _said(self, raw: dict[str, Any], result: object) -> str:
        if self.notice is not None:
            return self.notice(raw, result)
        return f"Saved: {self.spec.title}" if self.spec.title else "Saved."

    def _stale(self, message: str) -> None:
        """The row changed since the form was filled: nothing was saved; offer to fill it again."""
        self.notify(message, title="Not saved", severity="error", timeout=15)
        if self.load is None:
            return

        def answered(reload: bool | None) -> None:
            if reload and self.load is not None:
                self.spec = self.load()
                self.refresh(recompose=True)

        question = "Reload the form with the current values?"
        detail = "It was changed since you opened it. Your edits in this form will be lost; copy what you need."
        self.app.push_screen(ConfirmDialog(question, detail, yes="Reload"), answered)

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#save")
    def _save_pressed(self) -> None:
        self.action_save()

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self) -> None:
        self.action_cancel()
