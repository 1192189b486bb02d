"""The ``quotetui`` command line: scripting front end (``--json`` everywhere) and TUI launcher.

Exit status: 0 success; 2 bad input or an unusable database (one line on stderr, no traceback);
1 an internal error (a bug: set ``QUOTETUI_DEBUG=1`` for the traceback).
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from quotetui import __version__
from quotetui.domain.errors import QuotetuiError

app = typer.Typer(
    name="quotetui",
    help="A terminal workbench for buying GPU capacity. Run without a command to open the TUI.",
    invoke_without_command=True,
    no_args_is_help=False,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
db_app = typer.Typer(help="Database maintenance: upgrade, backup, check.", no_args_is_help=True)
app.add_typer(db_app, name="db")

JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


@dataclass(slots=True)
class Context:
    db: str | None


def _version(value: bool) -> None:
    if value:
        typer.echo(f"quotetui {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            metavar="PATH|URL",
            help="SQLite file or SQLAlchemy URL (default: $QUOTETUI_DB, else the user data folder).",
        ),
    ] = None,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = False,
) -> None:
    ctx.obj = Context(db)
    if ctx.invoked_subcommand is None:
        from quotetui.tui.app import run_tui

        run_tui(db)


def _open(ctx: typer.Context, *, load_demo_if_new: bool = True) -> Any:
    from quotetui.services.database import open_database

    opened = open_database(ctx.obj.db, load_demo_if_new=load_demo_if_new)
    for message in opened.messages:
        typer.echo(message, err=True)
    return opened.db


def _print_json(data: object) -> None:
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


def _table(columns: list[str], rows: list[list[str]], *, right: set[str] = frozenset()) -> None:  # type: ignore[assignment]
    from rich.console import Console
    from rich.table import Table

    table = Table(box=None, header_style="bold", pad_edge=False)
    for name in columns:
        table.add_column(name, justify="right" if name in right else "left", overflow="fold")
    for row in rows:
        table.add_row(*row)
    Console(soft_wrap=False).print(table)


@app.command()
def providers(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """List providers."""
    from quotetui.services.market import list_providers

    items = list_providers(_open(ctx))
    if as_json:
        _print_json([p.to_json() for p in items])
        return
    _table(
        ["id", "provider", "kind", "parent", "offers", "certifications"],
        [[str(p.id), p.name, p.kind, p.parent or "", str(p.offers), ", ".join(p.certifications)] for p in items],
        right={"id", "offers"},
    )


@app.command()
def offers(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """List offers with their current price (latest provider revision)."""
    from quotetui.services.market import list_offers

    items = list_offers(_open(ctx))
    if as_json:
        _print_json([o.to_json() for o in items])
        return
    _table(
        ["id", "provider", "offer", "GPU", "×", "billing", "price", "unit", "status"],
        [
            [
                str(o.id),
                o.provider,
                o.name,
                o.gpu,
                str(o.gpus_per_node),
                o.billing_basis.replace("_", "-"),
                o.price.amount_text() if o.price else "—",
                o.price.unit_text() if o.price else "",
                o.status,
            ]
            for o in items
        ],
        right={"id", "×", "price"},
    )


@app.command()
def gpus(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """The GPU catalog: dense datasheet peaks and the names each model appears under."""
    from quotetui.services.market import gpu_to_json, list_gpus

    items = list_gpus(_open(ctx))
    if as_json:
        _print_json([gpu_to_json(g) for g in items])
        return
    rows = []
    for g in items:
        j = gpu_to_json(g)
        rows.append(
            [
                g.name,
                g.form_factor.value.upper(),
                f"{g.memory_gb} GB {g.memory_type}",
                j["memory_bw_tbs"],
                j["bf16_tflops"],
                j["fp8_tflops"] or "–",
                j["fp64_tflops"] or "–",
                str(g.nvlink_gbs or "–") + (f" {g.nvlink_note}" if g.nvlink_note else ""),
                str(g.tdp_w),
                g.topo_signature or "–",
            ]
        )
    _table(
        ["GPU", "form", "memory", "TB/s", "BF16", "FP8", "FP64", "NVLink GB/s", "TDP W", "topo"],
        rows,
        right={"TB/s", "BF16", "FP8", "FP64", "TDP W"},
    )


@app.command()
def demo(
    ctx: typer.Context,
    reset: Annotated[bool, typer.Option("--reset", help="Remove the demo market first, then load it again.")] = False,
) -> None:
    """Load the demo market built from the seed articles (imports/demo)."""
    from quotetui.services.demo import load_demo

    summary = load_demo(_open(ctx, load_demo_if_new=False), reset=reset)
    typer.echo(f"{'Reloaded' if reset else 'Loaded'} the demo market: {summary}.")


@db_app.command("upgrade")
def db_upgrade(ctx: typer.Context) -> None:
    """Upgrade the schema to the newest revision (SQLite files are backed up first)."""
    from quotetui.services.database import upgrade_database

    for line in upgrade_database(ctx.obj.db):
        typer.echo(line)


@db_app.command("backup")
def db_backup(ctx: typer.Context, path: Annotated[Path, typer.Argument(help="Backup file to create.")]) -> None:
    """Copy the SQLite database with the online backup API (safe while the TUI is open)."""
    from quotetui.services.database import backup_database

    typer.echo(f"Backed up to {backup_database(path, ctx.obj.db)}.")


@db_app.command("check")
def db_check(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """Integrity check, foreign-key check and schema revision; changes nothing."""
    from quotetui.services.database import check_database

    report = check_database(ctx.obj.db)
    if as_json:
        _print_json(report.to_json())
    else:
        integrity = "ok" if report.integrity == ["ok"] else "; ".join(report.integrity[:5])
        typer.echo(f"integrity: {integrity}")
        typer.echo(f"foreign keys: {report.foreign_key_violations} violations")
        state = "up to date" if report.revision == report.head else f"upgrade available to {report.head}"
        typer.echo(f"schema revision: {report.revision or 'none'} ({state})")
    if not report.ok:
        raise typer.Exit(2)


def _fail(code: int, message: str) -> NoReturn:
    typer.echo(f"quotetui: {message}", err=True)
    sys.exit(code)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: runs the app and maps errors to exit statuses."""
    try:
        app(args=argv, prog_name="quotetui")
    except QuotetuiError as exc:
        _fail(2, str(exc))
    except KeyboardInterrupt:
        _fail(130, "interrupted")
    except Exception as exc:
        if type(exc).__module__.startswith("sqlalchemy"):
            detail = getattr(exc, "orig", None) or exc
            _fail(2, f"database error: {detail}")
        if os.environ.get("QUOTETUI_DEBUG"):
            traceback.print_exc()
        _fail(1, f"internal error: {type(exc).__name__}: {exc} (set QUOTETUI_DEBUG=1 for the traceback)")
