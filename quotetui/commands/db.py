"""``quotetui db upgrade|backup|check``: database maintenance."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from quotetui.commands.common import JsonFlag, print_json
from quotetui.commands.output import say
from quotetui.language import _
from quotetui.language.lists import clauses

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

    say(_("Backed up to {path}.").format(path=backup_database(path, ctx.obj.db)))


@app.command("check")
def check(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """Integrity check, foreign-key check, schema revision, values quotetui never writes, and figures stored as
    verified that their offer's logs refuse (with the command that withdraws each), and extra costs on a basis their
    kind is not charged on (with the command that corrects each); changes nothing."""
    from quotetui.services.database import check_database

    checked = check_database(ctx.obj.db)
    report = checked.schema
    if as_json:
        print_json(checked.to_json())
    else:
        integrity = _("ok") if report.integrity == ["ok"] else clauses(report.integrity[:5])  # SQLite's words
        say(_("integrity: {result}").format(result=integrity))
        say(_("foreign keys: {count} violations").format(count=report.foreign_key_violations))
        if report.integrity != ["ok"] and report.revision is None:
            say(_("schema revision: not read (the file is damaged)"))
        else:
            revision = report.revision or _("none")
            if report.revision == report.head:
                say(_("schema revision: {revision} (up to date)").format(revision=revision))
            else:
                say(
                    _("schema revision: {revision} (upgrade available to {head})").format(
                        revision=revision, head=report.head
                    )
                )
        for found in report.unknown_codes:
            say(_("a value quotetui never writes: {found}").format(found=found))
        for figure in checked.wrongly_verified:
            say(_("a figure stored as verified that should not be: {found}").format(found=figure.said))
            say("  " + _("to withdraw it: {command}").format(command=figure.mend))
        for extra in checked.disagreeing_extras:
            say(_("an extra cost on a basis its kind is not charged on: {found}").format(found=extra.said))
            if extra.removes:
                mend = _("to correct it: {command} (its kind's basis is on another extra cost of the offer: remove "
                         "this one once that one prices what it charged)")  # fmt: skip
            else:
                mend = _("to correct it: {command}")
            say("  " + mend.format(command=extra.mend))
    if not checked.ok:
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
    question = _("Replace {current} with {backup}?").format(current=current, backup=info.describe())
    if not yes:
        if not sys.stdin.isatty():
            raise DatabaseProblem(
                _("{question} Nothing was changed; run again with --yes to replace it.").format(question=question)
            )
        if not typer.confirm(question, default=False):
            raise DatabaseProblem(_("nothing was changed"))
    restored, saved = restore_database(path, ctx.obj.db)
    if saved is not None:
        say(_("Saved the replaced database to {path}.").format(path=saved))
    say(_("Restored {backup}.").format(backup=restored.describe()))
