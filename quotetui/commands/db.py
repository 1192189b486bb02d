"""``quotetui db upgrade|backup|check``: database maintenance."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from quotetui.commands.common import JsonFlag, print_json
from quotetui.commands.output import say

app = typer.Typer(help="Database maintenance: upgrade, backup, restore, check.", no_args_is_help=True)


@app.command("upgrade")
def upgrade(ctx: typer.Context) -> None:
    """Upgrade the schema to the newest revision (SQLite files are backed up first)."""
    from quotetui.services.database import upgrade_database

    for line in upgrade_database(ctx.obj.db):
        say(line)


@app.command("backup")
def backup(ctx: typer.Context, path: Annotated[Path, typer.Argument(help="Backup file to create.")]) -> None:
    """Copy the SQLite database with the online backup API (safe while the TUI is open)."""
    from quotetui.services.database import backup_database

    say(f"Backed up to {backup_database(path, ctx.obj.db)}.")


@app.command("check")
def check(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """Integrity check, foreign-key check, schema revision and values quotetui never writes; changes nothing."""
    from quotetui.services.database import check_database

    report = check_database(ctx.obj.db)
    if as_json:
        print_json(report.to_json())
    else:
        integrity = "ok" if report.integrity == ["ok"] else "; ".join(report.integrity[:5])
        say(f"integrity: {integrity}")
        say(f"foreign keys: {report.foreign_key_violations} violations")
        if report.integrity != ["ok"] and report.revision is None:
            say("schema revision: not read (the file is damaged)")
        else:
            state = "up to date" if report.revision == report.head else f"upgrade available to {report.head}"
            say(f"schema revision: {report.revision or 'none'} ({state})")
        for found in report.unknown_codes:
            say(f"a value quotetui never writes: {found}")
    if not report.ok:
        raise typer.Exit(2)


@app.command("restore")
def restore(
    ctx: typer.Context,
    path: Annotated[Path, typer.Argument(help="A backup made by `db backup` (or the automatic one).")],
    yes: Annotated[bool, typer.Option("--yes", help="Replace the database without asking.")] = False,
) -> None:
    """Replace the SQLite database with a checked backup (the current file is saved beside it first)."""
    import sys

    from quotetui.domain.errors import DatabaseProblem
    from quotetui.services.database import describe_database, inspect_backup, restore_database

    info = inspect_backup(path)  # refuse a bad file before asking anything
    current = describe_database(ctx.obj.db)
    question = f"Replace {current} with {info.describe()}?"
    if not yes:
        if not sys.stdin.isatty():
            raise DatabaseProblem(f"{question} Nothing was changed; run again with --yes to replace it.")
        if not typer.confirm(question, default=False):
            raise DatabaseProblem("nothing was changed")
    restored, saved = restore_database(path, ctx.obj.db)
    if saved is not None:
        say(f"Saved the replaced database to {saved}.")
    say(f"Restored {restored.describe()}.")
