"""Helpers shared by the commands: opening the database, JSON and table output, common options."""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer

from quotetui.commands.output import json_text, say
from quotetui.language import _
from quotetui.language.lists import clauses, labelled

if TYPE_CHECKING:
    from quotetui.domain.errors import BadInput, FieldErrors
    from quotetui.domain.fields import Field
    from quotetui.store.engine import Database


def _json_in_english(value: bool) -> bool:
    """``--json`` is for scripts: its words are English whatever the language (docs/LANGUAGE.md), so a script
    reads the same output on every machine, amounts in full whatever the money style (the 万 style is for
    people). Parsed before the command runs, so everything it says after is."""
    if value:
        from quotetui.domain.economics.display import use_money_style
        from quotetui.language import ENGLISH, use

        use(ENGLISH)
        use_money_style("plain")
    return value


JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.", callback=_json_in_english)]
ForceFlag = Annotated[bool, typer.Option("--force", help="Replace the file if it exists.")]
ScenarioOpt = Annotated[
    str | None,
    typer.Option("--scenario", "-s", metavar="NAME", help="Scenario to compare for (default: the default one)."),
]


def parsed(field: Field) -> Callable[[str], Any]:
    """A flag's parser: the field's declared type and bounds, through the same parser as forms and imports
    (``--gpus 1,024`` is 1024; ``--gpus 1,2`` is refused). A bad value is a usage error (exit 2) naming the flag."""
    from quotetui.domain.entities import AS_OF
    from quotetui.domain.errors import QuotetuiError
    from quotetui.domain.fields import parse_value

    def parse(text: str) -> Any:
        if field is AS_OF and not text.strip():  # a day to judge on is never cleared: empty is a mistake
            raise typer.BadParameter(_("is empty: give a day (YYYY-MM-DD), or leave the flag out for today"))
        try:
            return parse_value(field, text)
        except QuotetuiError as exc:
            raise typer.BadParameter(str(exc).removeprefix("value ")) from None

    return parse


METAVARS = {
    "text": "TEXT",
    "name": "NAME",
    "ref": "NAME",
    "gpu": "MODEL",
    "list": "A,B",
    "int": "N",
    "decimal": "NUMBER",
    "money": "AMOUNT",
    "ratio": "PERCENT",
    "rate": "RATE",
    "date": "DATE",
    "datetime": "WHEN",
    "choice": "CHOICE",
    "currency": "CODE",
}
"""The word a flag's value is shown by in ``--help``, by its field's kind: one table for every command."""

TYPE_METAVARS = {"str": "TEXT", "int": "N", "float": "NUMBER", "Decimal": "NUMBER", "Path": "PATH", "file": "PATH"}
TYPE_METAVARS |= {"int range": "N", "float range": "NUMBER"}
"""The same for an option declared without a field or a metavar, by its Python type (never ``<str>``)."""


class ShareDefault(str):
    """A flag's default that is a share, as typed (``60``): ``--help`` shows it as the language writes a
    percentage, ``[default: 60 %]``, ``[默认：60%]`` (:func:`readable_help`)."""


def flag(field: Field, *names: str, help: str | None = None, metavar: str | None = None) -> Any:
    """A ``typer.Option`` for a declared field (a share typed at a flag is a percentage: 60 or 60%)."""
    shown = METAVARS.get(field.kind, "TEXT")
    default: Any = True  # Typer's own rendering, unless the default is a share: "60 %", as it is typed
    if field.kind == "ratio" and field.default is not None:
        from quotetui.domain.fields import shown_value

        default = ShareDefault(shown_value(field, field.default, percent=True))
    text = help or field.label
    if field.choices is not None and field.choices.placeholder() not in text:  # filled where shown (help_words)
        text = f"{text.removesuffix('.')}: one of: {field.choices.placeholder()}."
    return typer.Option(*names, parser=parsed(field), help=text, metavar=metavar or shown, show_default=default)


def readable_help() -> None:
    """``--help`` written for people, for every command at once: a required argument is ``OFFER_ID`` (not
    Typer's ``{OFFER_ID}``), an optional one ``[NAME]``, an argument is listed by its name alone (not
    ``OFFER_ID <int>``), an unnamed argument is upper case (``BASE QUOTE RATE``), an option without a
    metavar shows a word for its value (``--source TEXT``, not ``--source <str>``), and a share's default is a
    percentage in the language in use (``[default: 60 %]``, not Click's ``(60 %)`` for a default in words)."""
    from typer.core import TyperArgument, TyperOption

    from quotetui.language.numbers import percent

    def name(self: TyperArgument) -> str:
        return self.metavar if self.metavar is not None else (self.name or "").upper()

    def usage(self: TyperArgument) -> str:
        shown = name(self) if self.required else f"[{name(self)}]"
        return shown + ("..." if self.nargs != 1 else "")

    def listed(self: TyperArgument) -> str:
        return name(self) + ("..." if self.metavar is None and self.nargs != 1 else "")

    def option_value(self: TyperOption, ctx: Any) -> str | None:
        if self.metavar is not None:
            return self.metavar
        label = self.display_type(ctx).removeprefix("<").removesuffix(">")
        word = TYPE_METAVARS.get(label, label if "|" in label else label.upper())
        return word + ("..." if self.nargs != 1 else "")

    typer_default = TyperOption._get_default_string

    def default_string(self: TyperOption, **how: Any) -> str:
        if isinstance(self.show_default, ShareDefault):
            return percent(self.show_default)
        return typer_default(self, **how)

    TyperOption._get_default_string = default_string  # type: ignore[method-assign]
    TyperArgument._usage_display_name = usage  # type: ignore[method-assign]
    TyperArgument._rich_display_name = listed  # type: ignore[method-assign]
    TyperArgument.display_type_rich = lambda self, ctx: None  # type: ignore[method-assign]
    TyperOption.display_type_rich = option_value  # type: ignore[method-assign]


def direct_parsing() -> None:
    """Flags parsed without pydantic, which Typer would import (a tenth of a second) to coerce any value: a
    flag with a declared field calls that field's parser itself (:func:`parsed`), a text is taken as it is
    and a plain whole number (``12``) is read by ``int``. Anything else (a path, a number written otherwise,
    a value a parser refuses with a ``ValueError``) goes to Typer's own coercion, so every message and exit
    status stays Typer's."""
    from typer._coercion import RuntimeParam, build_runtime_param
    from typer.core import _TyperParameter

    class Direct(RuntimeParam):
        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            info, kind = self.parameter_info, self.annotation
            try:
                if info.parser is not None:
                    return info.parser(value)
            except (ValueError, AssertionError):  # Typer words these (through pydantic): let it
                return build_runtime_param(param.type_descriptor)._coerce_value(value, param, ctx)
            if kind is str and isinstance(value, str):
                return value
            if kind is int and info.min is None and info.max is None and not info.clamp:
                if isinstance(value, int) and not isinstance(value, bool):
                    return value
                if isinstance(value, str) and value.isascii() and value.isdigit():
                    return int(value)
            return build_runtime_param(param.type_descriptor)._coerce_value(value, param, ctx)

    def runtime_param(self: _TyperParameter) -> RuntimeParam:
        if self._runtime_param is None:
            descriptor = self.type_descriptor
            if descriptor.file_annotation is None and not self.multiple and self.nargs == 1:
                self._runtime_param = Direct(descriptor.parameter_info, descriptor.annotation)
            else:
                self._runtime_param = build_runtime_param(descriptor)
        return self._runtime_param

    _TyperParameter.get_runtime_param = runtime_param  # type: ignore[method-assign]


def id_arg(metavar: str = "ID", help: str | None = None) -> Any:
    """A row id as an argument: a whole number of 1 or more that fits the database (else exit 2)."""

    def parse(text: str) -> Any:  # the field declarations are imported when an id is parsed, not before
        from quotetui.domain.entities import ID

        return parsed(ID)(text)

    return typer.Argument(parser=parse, metavar=metavar, help=help)


def flag_errors(exc: FieldErrors, flags: dict[str, str]) -> BadInput:
    """A service's field errors, each named by the flag that gave the value."""
    from quotetui.domain.errors import BadInput

    return BadInput(clauses(labelled(flags.get(name, name), message) for name, message in exc.errors.items()))


@contextmanager
def flagged(flags: dict[str, str]) -> Iterator[None]:
    """A service's field errors inside the block, named by the flags that gave the values."""
    from quotetui.domain.errors import FieldErrors

    try:
        yield
    except FieldErrors as exc:
        raise flag_errors(exc, flags) from None


def open_db(ctx: typer.Context, *, load_demo_if_new: bool = True) -> Database:
    """Open the database named by ``--db`` (or env/default); say on stderr what happened on the way."""
    from quotetui.services.database import open_database
    from quotetui.store import engine

    engine.on_lock_wait(_say_waiting)
    opened = open_database(ctx.obj.db, load_demo_if_new=load_demo_if_new)
    for message in opened.messages:
        say(message, err=True)
    if sys.stderr.isatty():
        opened.db.refresh_progress = _say_reranking
    return opened.db


def _say_reranking(done: int, of: int) -> None:
    """On a terminal's stderr, one line rewritten in place: "re-ranking 4,096 of 10,000 offers…"."""
    from quotetui.services.stored_ranking import PROGRESS_SHOWN_FROM  # loaded already: it is refreshing

    if of < PROGRESS_SHOWN_FROM:
        return
    end = "\n" if done >= of else ""
    shown = _("quotetui: re-ranking the offers for what changed: {done} of {total}…").format(
        done=f"{done:,}", total=f"{of:,}"
    )
    sys.stderr.write(f"\r{shown}{end}")
    sys.stderr.flush()


def _say_waiting() -> None:
    """A write that waits for another program's write lock (a long import) says so on stderr."""
    from quotetui.store.engine import BUSY_TIMEOUT_MS

    seconds = BUSY_TIMEOUT_MS // 1000
    say(
        _("quotetui: another program is writing to the database; waiting for it (up to {seconds} s)…").format(
            seconds=seconds
        ),
        err=True,
    )


def print_json(data: object) -> None:
    say(json_text(data))


def table(
    columns: list[str],
    rows: list[list[str]],
    *,
    right: frozenset[str] = frozenset(),
    title: str | None = None,
    widths: dict[str, int] | None = None,
) -> None:
    """A plain table that fits the terminal: numbers (``right``) keep their full width; the text
    columns named in ``widths`` (their widest) share what is left, cut with an ellipsis. Written to a pipe
    or a file (not a terminal), every cell is whole, however wide the table: ``| grep`` and ``| cut`` see
    what the database holds, not what 80 columns had room for.

    Each header is shown in the language in use: ``columns`` are English message ids (marked ``N_("…")`` at
    the call), translated with ``_()`` here, when the table is printed, while the English header stays the
    column's name for ``right`` and ``widths``. A header made from a template (``median {currency}/GPU-h``)
    is translated by the caller, which names the column by that text (the catalog has no entry for it, so it
    is shown as given). ``title`` and the cells are shown as given: the caller translates them."""
    from quotetui.domain.text import visible

    names = [visible(c) for c in columns]
    headers = [visible(_(c)) if c else "" for c in columns]  # _("") would be the catalog's own header
    rows = [[visible(c) for c in row] for row in rows]
    if title is None and not to_terminal() and _plain(headers, rows):
        _plain_table(names, headers, rows, right)
    else:
        _rich_table(names, headers, rows, right=right, title=title, widths=widths or {})


def to_terminal() -> bool:
    """Whether Rich would take standard output for a terminal (the same environment variables, in the same
    order): a table for anything else is written without Rich's layout engine."""
    tty = os.environ.get("TTY_COMPATIBLE", "")
    if tty in ("0", "1"):
        return tty == "1"
    force = os.environ.get("FORCE_COLOR")
    if force is not None:
        return force != ""
    isatty = getattr(sys.stdout, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:
        return False


def _plain(columns: list[str], rows: list[list[str]]) -> bool:
    """Cells that a plain table lays out as Rich does: one per column, each on one line with nothing to
    expand (a tab) and no space at either end (which Rich would strip or wrap at)."""
    return (
        any(map(any, [columns, *rows]))
        and all(len(row) == len(columns) for row in rows)
        and all(
            cell == cell.strip() and "\n" not in cell and "\r" not in cell and "\t" not in cell
            for row in [columns, *rows]
            for cell in row
        )
    )


def _plain_table(names: list[str], headers: list[str], rows: list[list[str]], right: frozenset[str]) -> None:
    """The table for a pipe or a file, as wide as its widest cells: each column as wide as its widest cell
    (in terminal cells: a Chinese character is two), two spaces between columns, numbers to the right."""
    from rich.cells import cell_len

    fit = [max([cell_len(header)] + [cell_len(row[i]) for row in rows]) for i, header in enumerate(headers)]
    flush_right = [name in right for name in names]

    def line(cells: list[str]) -> str:
        shown = []
        for cell, width, to_right in zip(cells, fit, flush_right, strict=True):
            pad = " " * (width - cell_len(cell))
            shown.append(pad + cell if to_right else cell + pad)
        return "  ".join(shown)

    sys.stdout.write("".join(line(cells) + "\n" for cells in [headers, *rows]))
    sys.stdout.flush()


def _rich_table(
    names: list[str],
    headers: list[str],
    rows: list[list[str]],
    *,
    right: frozenset[str],
    title: str | None,
    widths: dict[str, int],
) -> None:
    """The table laid out by Rich: for a terminal, whose width it fits. ``names`` are the columns' names
    (``right`` and ``widths`` refer to them), ``headers`` what their heads show."""
    from rich.cells import cell_len
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from quotetui.domain.text import visible

    class Plain(Console):
        def on_broken_pipe(self) -> None:  # Rich would exit with status 1: the CLI's main says what it means
            raise BrokenPipeError(errno.EPIPE, "the reader of standard output has gone")

    console = Plain(soft_wrap=False, markup=False, highlight=False, emoji=False)
    fit = {
        name: max([cell_len(header)] + [cell_len(row[i]) for row in rows])
        for i, (name, header) in enumerate(zip(names, headers, strict=True))
    }
    if not console.is_terminal:  # nothing to fit: the table as wide as its widest cells
        whole = sum(fit.values()) + 2 * (len(names) - 1)
        console = Plain(soft_wrap=False, markup=False, highlight=False, emoji=False, width=max(whole, 1))
        widths = {name: fit[name] for name in widths}
    fixed = sum(fit[name] for name in names if name not in widths) + 2 * (len(names) - 1)
    room = max(console.width - fixed, 8 * len(widths))
    wanted = {name: min(cap, fit[name]) for name, cap in widths.items()}
    scale = min(1.0, room / max(sum(wanted.values()), 1))
    view = Table(
        box=None,
        header_style="bold",
        pad_edge=False,
        title=Text(visible(title)) if title else None,
        title_justify="left",
    )
    for name, header in zip(names, headers, strict=True):
        if name in right:
            view.add_column(header, justify="right", no_wrap=True, min_width=fit[name])
        elif name in widths:
            view.add_column(header, no_wrap=True, overflow="ellipsis", width=max(8, int(wanted[name] * scale)))
        else:
            view.add_column(header, overflow="fold")
    for row in rows:
        view.add_row(*(Text(cell) for cell in row))  # plain text: never Rich markup
    console.print(view)


def lines(title: str, items: list[str]) -> None:
    say(title)
    for item in items:
        say(f"  {item}")
