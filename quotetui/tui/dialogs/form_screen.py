"""A form dialog built from a :class:`FormSpec`: inline messages per field, all-or-nothing saves.

The first field has the focus when the form opens, so the first keystroke goes into it. Escape cancels and
nothing is saved; Ctrl+S (or the Save button) validates every field through the service that saves it; a bad
field shows its message under itself and nothing is written; a save says what was saved. The form has its
own footer (its keys, not the screen's underneath), and its buttons stay in view below the scrolling fields. A
drop-down another choice narrows (an extra cost's bases, by its kind: ``Entity.choices_by``) lists only what that
choice allows, again each time it changes.

The database is never read or written on the UI thread: a form made from the row as it is now is filled in a
worker (the fields show a loading indicator meanwhile), and a save runs in a worker too, so a write lock held
by another program (an import, the CLI, another buyer) never freezes the screen. While a save waits, the Save
button says "Saving…" and is disabled, a second Ctrl+S does nothing, and Escape does not close the form: the
save has been sent and cannot be taken back, so the form stays until it can say how the save ended.
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

from quotetui.domain.errors import Conflict, NeedsConfirmation, QuotetuiError
from quotetui.domain.fields import Field
from quotetui.domain.text import visible
from quotetui.language import N_, _, ngettext
from quotetui.language.lists import listed
from quotetui.services.form_spec import CONFIRMED, FieldErrors, FormSpec, hint, parse
from quotetui.tui.dialogs.confirm import ConfirmDialog
from quotetui.tui.safe import plain
from quotetui.tui.widgets.footer import KeysFooter
from quotetui.tui.workers import ClosesOnTop, ReportsWorkerErrors, background

Notice = Callable[[dict[str, Any], object], str]
"""What a save says, from the raw values and what the save returned (a new row's id …)."""

SAVE = N_("Save")
"""The verb of a form that saves (the default): its button is :data:`SAVE_LABEL`, its notice "Saved"."""
SAVE_LABEL = N_("Save (Ctrl+S)")
SAVING_LABEL = N_("Saving…")


def field_label(field: Field) -> str:
    """A field's label (declared ``N_`` in ``domain/entities.py``) in the language in use."""
    return _(field.label)


class FormScreen(ClosesOnTop, ReportsWorkerErrors, ModalScreen[object]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Cancel (nothing saved)")),
        Binding("ctrl+s", "save", N_("Save")),
        Binding("tab", "app.focus_next", N_("Next field"), show=True),
    ]
    AUTO_FOCUS = ""  # the first field is focused in on_mount, without scrolling (see there)

    def __init__(
        self,
        spec: FormSpec | Callable[[], FormSpec],
        save: Callable[[dict[str, Any], object], object],
        notice: Notice | None = None,
        *,
        verb: str = SAVE,
    ) -> None:
        """``spec`` is the form, or what makes it from the row as it is now (called in a worker; then a stale
        form can be filled again); ``save`` gets the raw values and the version of the row the form was filled
        from (called in a worker); ``notice`` says what was saved (default: "Saved: " and the form's title);
        ``verb``: the button's word as declared (``N_``), translated where shown."""
        super().__init__()
        self.notice = notice
        self.load = spec if callable(spec) else None
        self.spec: FormSpec | None = None if callable(spec) else spec  # None until the worker has filled it
        self.save = save
        self.saving = False
        self.verb = verb  # what Ctrl+S does, on the button and in what it says when done ("Save": "Saved")
        self.listed: dict[str, tuple[tuple[str, str], ...]] = {}  # each drop-down's (label, value) pairs listed now

    def on_mount(self) -> None:
        if self.spec is None:
            self._fill()
        else:
            self._focus_first()

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog form"):
            yield Label(plain(_(self.spec.title) if self.spec else _("Loading the form…")), classes="dialog-title")
            with VerticalScroll(classes="form-fields") as fields:
                fields.loading = self.spec is None
                for field in self.spec.fields if self.spec else ():
                    yield from self._field(field)
            with Horizontal(classes="dialog-buttons"):
                yield Button(self._button_label(), variant="primary", id="save", disabled=self.spec is None)
                yield Button(_("Cancel (Esc)"), id="cancel")
        yield KeysFooter()

    # -- filling -------------------------------------------------------------------------------------
    @background(group="form-load")
    def _fill(self) -> None:
        """Read the row as it is now and fill the fields with it (on opening, and after a conflict)."""
        assert self.load is not None
        try:
            spec = self.load()
        except QuotetuiError as exc:  # the row was deleted meanwhile …: nothing to fill the form with
            self.app.call_from_thread(self._gone, str(exc))
            return
        self.app.call_from_thread(self._filled, spec)

    def _gone(self, message: str) -> None:
        self.notify(message, title=_("Cannot open the form"), severity="error", timeout=10)
        self.close_with(None)

    async def _filled(self, spec: FormSpec) -> None:
        if not self.is_attached:  # closed while it was being read
            return
        self.spec = spec
        self.query_one(".dialog-title", Label).update(plain(_(spec.title)))
        fields = self.query_one(".form-fields", VerticalScroll)
        await fields.remove_children()
        await fields.mount_all([w for field in spec.fields for w in self._field(field)])
        fields.loading = False
        self.query_one("#save", Button).disabled = False
        if self.app.screen is self:
            self._focus_first()

    def _focus_first(self) -> None:
        """The first field, not the scrolling area around it; not scrolled to: focused before the layout,
        Textual would centre it and hide the first label (and the title above it) at 80x24."""
        inputs = self.query(".form-input")
        if inputs:
            inputs.first().focus(scroll_visible=False)

    def _field(self, field: Field) -> ComposeResult:
        value = self.filled.values.get(field.name)
        if field.kind == "bool":
            yield Checkbox(plain(field_label(field)), bool(value), id=f"f-{field.name}", classes="form-input")
        else:
            yield Label(plain(field_label(field) + (" *" if field.required else "")), classes="form-label")
            options = self.filled.choices(field)
            if options:
                self.listed[field.name] = options
                choices = [(plain(label), v) for label, v in options]
                current = value if value in {v for _, v in options} else Select.NULL
                prompt = _("Select")  # Textual's own prompt is English
                yield Select(
                    choices, prompt=prompt, value=current, allow_blank=True, id=f"f-{field.name}", classes="form-input"
                )
            else:
                shown = visible(str(value or ""))  # a control character stored long ago is shown as a mark
                yield Input(shown, placeholder=hint(field), id=f"f-{field.name}", classes="form-input")
        yield Static("", id=f"e-{field.name}", classes="field-error")

    @property
    def filled(self) -> FormSpec:
        """The form's spec, once it has been read."""
        assert self.spec is not None, "the form is still being filled"
        return self.spec

    def widget_for(self, name: str) -> Widget:
        return self.query_one(f"#f-{name}")

    def raw_values(self) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for field in self.filled.fields:
            widget = self.widget_for(field.name)
            if isinstance(widget, Select):
                values[field.name] = "" if widget.value is Select.NULL else widget.value
            else:
                values[field.name] = widget.value  # type: ignore[attr-defined]
        return values

    def refusal(self, errors: dict[str, str]) -> str:
        """What a refused save says: nothing was saved, and which fields, by their labels, in form order."""
        fields = self.filled.fields
        labels = [f.title for f in fields if f.name in errors]
        labels += [name for name in errors if name not in {f.name for f in fields}]
        return ngettext(
            "Nothing was saved: {n} field to correct ({fields}).",
            "Nothing was saved: {n} fields to correct ({fields}).",
            len(labels),
        ).format(n=f"{len(labels):,}", fields=listed(labels))

    def show_errors(self, errors: dict[str, str]) -> None:
        for field in self.filled.fields:
            message = errors.get(field.name, "")
            error = self.query_one(f"#e-{field.name}", Static)
            error.update(plain(message))
            error.set_class(bool(message), "shown")
            self.widget_for(field.name).set_class(bool(message), "invalid")
        first = next((f.name for f in self.filled.fields if f.name in errors), None)
        if first is not None:
            self.widget_for(first).focus()

    @on(Input.Changed)
    def _check_one(self, event: Input.Changed) -> None:
        """Inline validation as the user types: only the field being edited."""
        name = (event.input.id or "").removeprefix("f-")
        spec = next((f for f in self.filled.fields if f.name == name), None)
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

    @on(Select.Changed)
    def _narrow_choices(self, event: Select.Changed) -> None:
        """A choice that narrows another's (an extra cost's kind, its bases: ``FormSpec.choices``) lists the other's
        again: its value stays if it is still listed, else the one member listed is picked, or none."""
        if self.spec is None:
            return
        raw = self.raw_values()
        for field in self.filled.fields:
            widget = self.widget_for(field.name)
            if widget is event.select or not isinstance(widget, Select):
                continue
            options = self.filled.choices(field, raw)
            if options == self.listed.get(field.name):
                continue
            self.listed[field.name] = options
            values = [value for _label, value in options]
            value = widget.value
            with self.prevent(Select.Changed):
                widget.set_options([(plain(label), v) for label, v in options])
                if value in values:
                    widget.value = value
                elif len(values) == 1:
                    widget.value = values[0]

    def action_save(self) -> None:
        if self.saving or self.query_one("#save", Button).disabled:  # a save waits, or the fields are being filled
            return
        self._set_saving(True)
        self._save(self.raw_values(), self.filled.version)

    def _set_saving(self, saving: bool) -> None:
        self.saving = saving
        button = self.query_one("#save", Button)
        button.label = (_(SAVING_LABEL) if self.verb == SAVE else _("Working…")) if saving else self._button_label()
        button.disabled = saving

    @background(group="form-save", exclusive=False)
    def _save(self, raw: dict[str, Any], version: object) -> None:
        """The service validates and writes, off the UI thread; what it said is shown on the UI thread."""
        try:
            result = self.save(raw, version)
        except NeedsConfirmation as exc:  # nothing written: ask, and send the values again if the answer is yes
            self.app.call_from_thread(self._ask, exc, raw, version)
            return
        except Exception as exc:
            self.app.call_from_thread(self._refused, exc)
            return
        self.app.call_from_thread(self._saved, raw, result)

    def _ask(self, exc: NeedsConfirmation, raw: dict[str, Any], version: object) -> None:
        def answered(yes: bool | None) -> None:
            if yes:
                self._save({**raw, CONFIRMED: True}, version)
            else:
                self._set_saving(False)
                self.notify(_("Nothing was saved."), title=_("Not saved"), timeout=6)

        self.app.push_screen(ConfirmDialog(exc.question, exc.detail, yes=exc.yes), answered)  # yes: declared N_

    def _refused(self, exc: Exception) -> None:
        self._set_saving(False)
        if isinstance(exc, Conflict):
            self._stale(str(exc))
        elif isinstance(exc, FieldErrors):
            self.show_errors(exc.errors)
            self.notify(self.refusal(exc.errors), severity="error")
        elif isinstance(exc, QuotetuiError):
            self.notify(str(exc), title=_("Not saved"), severity="error", timeout=10)
        else:
            self.app.show_error(_("Saving failed"), exc)  # type: ignore[attr-defined]

    def _saved(self, raw: dict[str, Any], result: object) -> None:
        self._set_saving(False)
        done = _("Saved") if self.verb == SAVE else _("Done")
        self.app.notify(self._said(raw, result), title=done, timeout=6, markup=False)
        self.close_with(result if result is not None else True)

    def _button_label(self) -> str:
        return _(SAVE_LABEL) if self.verb == SAVE else _("{verb} (Ctrl+S)").format(verb=_(self.verb))

    def _said(self, raw: dict[str, Any], result: object) -> str:
        if self.notice is not None:
            return self.notice(raw, result)
        return _("Saved: {title}").format(title=_(self.filled.title)) if self.filled.title else _("Saved.")

    def _stale(self, message: str) -> None:
        """The row changed since the form was filled: nothing was saved; offer to fill it again."""
        self.notify(message, title=_("Not saved"), severity="error", timeout=15)
        if self.load is None:
            return

        def answered(reload: bool | None) -> None:
            if reload and self.load is not None:
                self.query_one(".form-fields").loading = True
                self.query_one("#save", Button).disabled = True
                self._fill()

        question = _("Reload the form with the current values?")
        detail = _("It was changed since you opened it. Your edits in this form will be lost; copy what you need.")
        self.app.push_screen(ConfirmDialog(question, detail, yes=N_("Reload")), answered)

    def action_cancel(self) -> None:
        if self.saving:  # the save was sent: leaving now would hide whether it was written
            self.notify(_("Still saving: the form closes when the save is done."), title=_(SAVING_LABEL), timeout=4)
            return
        self.dismiss(None)

    @on(Button.Pressed, "#save")
    def _save_pressed(self) -> None:
        self.action_save()

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self) -> None:
        self.action_cancel()
