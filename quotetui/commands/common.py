"""Helpers shared by the commands: opening the database, JSON and table output, common options."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer

from quotetui.commands.output import json_text, say

if TYPE_CHECKING:
    from quotetui.domain.errors import BadInput, FieldErrors
    from quotetui.domain.fields import Field
    from quotetui.store.engine import Database

JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
ForceFlag = Annotated[bool, typer.Option("--force", help="Replace the file if it exists.")]
ScenarioOpt = Annotated[
    str | None,
    typer.Option("--scenario", "-s", metavar="NAME", help="Scenario to compare for (default: the default one)."),
]


def parsed(field: Field) -> Callable[[str], Any]:
    """A flag's parser: the field's declared type and bounds, through the same parser as forms and imports
    (``--gpus 1,024`` is 1024; ``--gpus 1,2`` is refused). A bad value is a usage error (exit 2) naming the flag."""
    from quotetui.domain.errors import QuotetuiError
    from quotetui.domain.fields import parse_value

    def parse(text: str) -> Any:
        try:
            return parse_value(field, text)
        except QuotetuiError as exc:
            raise typer.BadParameter(str(exc).removeprefix("value ")) from None

    return parse


def flag(field: Field, *names: str, help: str | None = None, metavar: str | None = None) -> Any:
    """A ``typer.Option`` for a declared field."""
    kinds = {"int": "N", "money": "AMOUNT", "date": "DATE", "datetime": "TIME", "ratio": "FRACTION"}
    kinds["decimal"] = "NUMBER"
    return typer.Option(
        *names, parser=parsed(field), help=help or field.label, metavar=metavar or kinds.get(field.kind)
    )


def id_arg(metavar: str = "ID", help: str | None = None) -> Any:
    """A row id as an argument: a whole number of 1 or more that fits the database (else exit 2)."""
    from quotetui.domain.entities import ID

    return typer.Argument(parser=parsed(ID), metavar=metavar, help=help)


def flag_errors(exc: FieldErrors, flags: dict[str, str]) -> BadInput:
    """A service's field errors, each named by the flag that gave the value."""
    from quotetui.domain.errors import BadInput

    return BadInput("; ".join(f"{flags.get(name, name)}: {message}" for name, message in exc.errors.items()))


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

    opened = open_database(ctx.obj.db, load_demo_if_new=load_demo_if_new)
    for message in opened.messages:
        say(message, err=True)
    return opened.db


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
    columns named in ``widths`` (their widest) share what is left, cut with an ellipsis."""
    from rich.cells import cell_len
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from quotetui.domain.text import visible

    columns = [visible(c) for c in columns]
    rows = [[visible(c) for c in row] for row in rows]
    console = Console(soft_wrap=False, markup=False, highlight=False, emoji=False)
    widths = widths or {}
    fit = {name: max([cell_len(name)] + [cell_len(row[i]) for row in rows]) for i, name in enumerate(columns)}
    fixed = sum(fit[name] for name in columns if name not in widths) + 2 * (len(columns) - 1)
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
    for name in columns:
        if name in right:
            view.add_column(name, justify="right", no_wrap=True, min_width=fit[name])
        elif name in widths:
            view.add_column(name, no_wrap=True, overflow="ellipsis", width=max(8, int(wanted[name] * scale)))
        else:
            view.add_column(name, overflow="fold")
    for row in rows:
        view.add_row(*(Text(cell) for cell in row))  # plain text: never Rich markup
    console.print(view)


def lines(title: str, items: list[str]) -> None:
    say(title)
    for item in items:
        say(f"  {item}")
