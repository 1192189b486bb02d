"""``quotetui import``, ``quotetui export``, ``quotetui template``, ``quotetui market``: files in and out."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from quotetui.commands.common import ForceFlag, JsonFlag, ScenarioOpt, flag, open_db, print_json, table
from quotetui.commands.output import say
from quotetui.domain.entities import AS_OF, ID
from quotetui.language import N_, _
from quotetui.language.lists import listed

if TYPE_CHECKING:
    from quotetui.services.market_prices import MarketMedian


def _refuse_to_create(ctx: typer.Context) -> None:
    """A dry run writes nothing, so it does not create a database at a mistyped path (or fill an empty file)."""
    from quotetui.domain.errors import BadInput
    from quotetui.services.database import database_target

    path = database_target(ctx.obj.db).path
    if path is not None and (not path.exists() or path.stat().st_size == 0):
        if path.exists():
            problem = _("{path} is empty: a dry run creates nothing (check --db, or import without --dry-run)")
        else:
            problem = _("{path} does not exist: a dry run creates nothing (check --db, or import without --dry-run)")
        raise BadInput(problem.format(path=path))


def import_(
    ctx: typer.Context,
    files: Annotated[
        list[Path], typer.Argument(help="xlsx workbooks or CSV files (template sheets, SkyPilot catalogs).")
    ],
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Check everything and say what would change; write nothing.")
    ] = False,
    as_of: Annotated[date | None, flag(AS_OF, "--as-of", help="Date of market price lists (default today).")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Import spreadsheets, all or nothing: every problem is listed and nothing is written until all are fixed."""
    from quotetui.io.problems import ImportProblems
    from quotetui.services.importing import import_files

    if dry_run:
        _refuse_to_create(ctx)
    try:
        report = import_files(open_db(ctx, load_demo_if_new=False), files, dry_run=dry_run, as_of=as_of)
    except ImportProblems as exc:
        if not as_json:
            raise
        print_json({"imported": False, "problems": [p.to_json() for p in exc.problems]})
        raise typer.Exit(2) from None
    if as_json:
        print_json(report.to_json())
        return
    shown = report.lines()
    warnings_from = len(shown) - len(report.warnings)  # the warnings end the report: to stderr, in any language
    for i, line in enumerate(shown):
        say(line, err=i >= warnings_from)


def template(
    ctx: typer.Context,
    out: Annotated[Path, typer.Argument(help="The .xlsx template to write.")],
    force: ForceFlag = False,
) -> None:
    """Write the import template: a sheet per entity, notes on headers, drop-down lists."""
    from quotetui.services.database import database_target
    from quotetui.services.transfer import write_import_template

    target = database_target(ctx.obj.db)
    missing = target.path is not None and not target.path.exists()  # then it stays so: the built-in catalog
    db = None if missing else open_db(ctx, load_demo_if_new=False)
    say(_("Wrote {path}.").format(path=write_import_template(db, out, force=force)))


def export(
    ctx: typer.Context,
    out: Annotated[Path, typer.Argument(help="OUT.xlsx (the workbook) or OUT.csv (the offers sheet).")],
    scenario: ScenarioOpt = None,
    pin: Annotated[
        list[int] | None, flag(ID, "--pin", metavar="ID", help="An offer for the Side by side sheet (repeat).")
    ] = None,
    force: ForceFlag = False,
) -> None:
    """Export the comparison workbook for a scenario (live TCO formulas, charts), or the offers as CSV."""
    from quotetui.services.transfer import export_file

    say(_("Wrote {path}.").format(path=export_file(open_db(ctx), out, scenario, pinned=pin or [], force=force)))


def market(ctx: typer.Context, scenario: ScenarioOpt = None, as_json: JsonFlag = False) -> None:
    """Market reference prices from imported catalogs: median per GPU-hour of each model."""
    from quotetui.services.economics import resolve_context
    from quotetui.services.market_prices import market_medians
    from quotetui.store.reader import reading

    db = open_db(ctx)
    with reading(db):  # one state of the database for the scenario, the rates and the prices
        chosen, fx, on = resolve_context(db, scenario, None)
        currency = chosen.home_currency
        medians, missing = market_medians(db, currency, on, fx)
    if as_json:
        print_json({"currency": currency, "medians": [m.to_json() for m in medians], "not_converted": missing})
        return
    if not medians and not missing:
        say(_("No market prices yet: import a SkyPilot catalog (`quotetui import vms.csv`)."))
        return
    if medians:
        _medians_table(medians, currency)
    for line in missing:
        say(_("not converted: {reason}").format(reason=line), err=True)


def _medians_table(medians: list[MarketMedian], currency: str) -> None:
    from quotetui.domain.economics.display import money_number

    median = _("median {currency}/GPU-h").format(currency=currency)  # a header made from a template: shown as it is
    table(
        [N_("GPU"), median, N_("listings"), N_("catalogs"), N_("as of")],
        [
            [m.gpu, money_number(m.median_gpu_hour, 2), str(m.listings), listed(m.catalogs), m.as_of.isoformat()]
            for m in medians
        ],
        right=frozenset({median, "listings"}),
    )


def register(app: typer.Typer) -> None:
    app.command("import")(import_)
    app.command()(template)
    app.command()(export)
    app.command()(market)
