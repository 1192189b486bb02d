"""A command whose options are a form's fields: one ``--field-name`` per declared field (``domain/entities.py``).

The options take the same raw text as the TUI's form fields and are handed, unparsed, to the service that
saves the form, so its checks and messages are the TUI's, every bad field is named at once (``--amount: must
be more than zero; --name: required``, exit 2) and nothing is saved. A field added to a declaration appears
here by itself. Ratios are percentages, as in the forms (``--rate 15`` is 15 %).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime
from decimal import Decimal
from typing import Annotated, Any

import typer

from quotetui.commands.common import METAVARS, JsonFlag, flagged, id_arg, print_json
from quotetui.commands.output import say
from quotetui.domain.economics.display import stored_text
from quotetui.domain.errors import QuotetuiError
from quotetui.domain.fields import Field, is_empty, parse_value, shown_value, title_of
from quotetui.domain.money import plain
from quotetui.language import _
from quotetui.language.dates import time_text
from quotetui.language.lists import filled, listed, quoted
from quotetui.language.numbers import percent
from quotetui.services.form_spec import hint

Run = Callable[[typer.Context, int | None, dict[str, Any], bool], None]
"""What a form command does with the context, its id argument, the options given and ``--json``."""


def option_name(f: Field) -> str:
    return "--" + f.name.replace("_", "-")


def switches(f: Field) -> tuple[str, str]:
    """A yes/no field's two flags, which take no value: ``--bare-metal`` and ``--no-bare-metal``."""
    name = option_name(f)
    return name, f"--no-{name[2:]}"


def flags_of(fields: tuple[Field, ...]) -> dict[str, str]:
    """Each field's option, to name a bad value by what the user typed."""
    return {f.name: option_name(f) for f in fields}


def _says(text: str, words_of: str) -> bool:
    """Whether ``text`` has every word of ``words_of`` in it."""
    return all(word in text.casefold() for word in re.findall(r"[\w%-]+", words_of.casefold()))


def option_help(f: Field, default: str | None = None, *, adding: bool = False) -> str:
    """The field's label and what the form says under it, each said once, its choices, and for an ``add``
    command (``adding``) what an option not given takes (``default``), or that it must be given."""
    flags = switches(f) if f.kind == "bool" else None  # a yes/no is said by its flags: ``--bare-metal``
    note = hint(f, default=False, english=True, flags=flags)  # an edit keeps the current value: no default
    label = f.label
    aside = (
        label[len(title_of(label, english=True)) :].strip().removeprefix("(").removesuffix(")")
    )  # "GPU model (any name or alias)"
    if _says(label, note):  # the label says it already: "Valid until (YYYY-MM-DD)"
        note = ""
    elif aside and _says(note, aside):  # the note says the aside too: "any name or alias: H100, A100-80GB …"
        label = title_of(label, english=True)
    if f.choices is not None and f.choices.placeholder() not in note:  # filled where it is shown (help_words)
        note = "; ".join(part for part in (note, "one of: " + f.choices.placeholder()) if part)
    text = f"{label}: {note}" if note else label
    if not text.endswith(("…", ".")):
        text += "."
    if adding and default is not None:
        text += f" Default: {default}."
    elif adding and f.required:
        text += " Required."
    return text


def starting(fields: tuple[Field, ...], values: Mapping[str, Any]) -> dict[str, str]:
    """What a new row's form starts with (``services/form_defaults.py``), or else what its field takes when
    it is empty (a choice's or a yes/no's declared default), as a command's help says it (a yes/no by its flag:
    ``--bare-metal``)."""
    said: dict[str, str] = {}
    for f in fields:
        value = values.get(f.name, f.default if f.kind in ("choice", "bool") else None)
        if value is None or value is False or value == "":
            continue
        if f.choices is not None and str(value) in {m.value for m in f.choices}:  # its code, its word beside
            said[f.name] = f.choices(str(value)).named  # where the help is shown: ``lessor（出租方）``
            continue
        text = shown_value(f, value, percent=True)
        said[f.name] = switches(f)[0] if text is True else str(text)
    return said


def _option(f: Field, defaults: Mapping[str, str] | None) -> Any:
    name = option_name(f)
    text = option_help(f, (defaults or {}).get(f.name), adding=defaults is not None)
    if f.kind == "bool":
        return typer.Option("/".join(switches(f)), help=text)
    return typer.Option(name, metavar=METAVARS.get(f.kind, "TEXT"), help=text)


def form_command(
    fields: tuple[Field, ...],
    run: Run,
    *,
    doc: str,
    argument: tuple[str, str] | None = None,
    defaults: Mapping[str, str] | None = None,
) -> Callable[..., None]:
    """A Typer command taking ``argument`` (an id: its metavar and help), one option per field and ``--json``;
    ``run`` gets the options given (raw text, or a bool for a yes/no field), and not the others.

    ``defaults``: an ``add`` command's, what an option not given takes (:func:`starting`): its help says so,
    and a required field without one says it is required; None: an ``edit`` command (each option not given
    keeps the row's value: neither is said)."""
    params = [inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context)]
    if argument is not None:
        metavar, help_text = argument
        params.append(
            inspect.Parameter(
                "row_id", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Annotated[int, id_arg(metavar, help_text)]
            )
        )
    for f in fields:
        kind = bool if f.kind == "bool" else str
        params.append(
            inspect.Parameter(
                f.name,
                inspect.Parameter.KEYWORD_ONLY,
                default=None,
                annotation=Annotated[kind | None, _option(f, defaults)],
            )
        )
    params.append(inspect.Parameter("as_json", inspect.Parameter.KEYWORD_ONLY, default=False, annotation=JsonFlag))
    names = {f.name for f in fields}

    def command(**values: Any) -> None:
        given = {name: value for name, value in values.items() if name in names and value is not None}
        run(values["ctx"], values.get("row_id"), given, bool(values["as_json"]))

    command.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in params}
    command.__doc__ = doc
    return command


def overlay(values: Mapping[str, Any], given: Mapping[str, Any]) -> dict[str, Any]:
    """The form's values (its starting values, or the row's current ones) with the options given on top."""
    return {**values, **given}


@contextmanager
def refused(fields: tuple[Field, ...]) -> Iterator[None]:
    """The service's field errors, each named by its option (``--amount: must be more than zero``)."""
    with flagged(flags_of(fields)):
        yield


def _shown(f: Field | None, value: Any, currency: str) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if f is not None and f.kind in ("name", "ref", "text"):
        return quoted(value)
    if f is not None and f.choices is not None:  # a code: its word (``status quoted``, ``状态 已报价``)
        try:
            return f.choices(str(value)).word
        except ValueError:
            return str(value)
    if f is not None and f.kind == "money" and isinstance(value, str):  # the stored text: 70000 → 70,000.00
        try:
            return stored_text(Decimal(value), currency)  # exact as stored, as every amount is shown
        except (ArithmeticError, QuotetuiError):
            return value
    if f is not None and f.kind == "datetime" and isinstance(value, str):  # a time for people, not ISO's T…Z
        try:
            return time_text(datetime.fromisoformat(value))
        except ValueError:
            return value
    if f is not None and f.kind == "ratio":  # a share under 1 % is shown with its sign already ("0.05%")
        return percent(str(value).removesuffix("%"))
    return str(value)


def json_value(f: Field, shown: Any) -> Any:
    """A form's value (its text, or a bool) as the listing commands write it in JSON: a whole number as a
    number, an amount or a ratio as its exact decimal text (a ratio as a fraction: 0.999), a list as a
    list, a choice as its value, nothing as null (an empty list as [])."""
    if isinstance(shown, bool):
        return shown
    if is_empty(shown):
        return [] if f.kind == "list" else None
    try:
        typed = parse_value(f, shown)
    except QuotetuiError:  # not a value this field takes (it cannot be: it was read back): as it is
        return shown
    if isinstance(typed, Decimal):
        return plain(typed)
    if isinstance(typed, int | list):
        return typed
    return str(getattr(typed, "value", shown))  # a choice's value; text, a date as the form shows it


Summary = tuple[tuple[str, str], ...]
"""The fields a saved row is summed up by: each field's name and its word (an English message id, marked ``N_``:
``("gpus_per_node", N_("gpus per node"))``)."""


def saved(
    head: str,
    row_id: int,
    fields: tuple[Field, ...],
    values: Mapping[str, Any],
    summary: Summary,
    as_json: bool,
    *,
    extra: Mapping[str, Any] | None = None,
    key: str = "id",
) -> None:
    """What was saved: ``Added provider #3: name 'Acme', kind lessor`` (``head``: its first words, in the language
    in use), or with ``--json`` an object with the id (under ``key``) and every field typed as the listing
    commands type it (:func:`json_value`)."""
    if as_json:
        print_json({key: row_id, **(extra or {}), **{f.name: json_value(f, values.get(f.name)) for f in fields}})
        return
    by_name = {f.name: f for f in fields}
    parts = [
        filled(
            _("{title} {value}"),
            title=_(word),
            value=_shown(by_name.get(name), values[name], str(values.get("currency") or "CNY")),
        )
        for name, word in summary
        if values.get(name) not in (None, "")
    ]
    if parts:
        say(_("{head}: {values}").format(head=head, values=listed(parts)))
    else:
        say(_("{head}.").format(head=head))
