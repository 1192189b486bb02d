"""Importing spreadsheets: everything is read and checked first, then written in one transaction.

Rows are matched to what the database holds by natural keys (provider name; provider + offer name;
offer + round; …), so importing the same file twice changes nothing. Any problem, anywhere, stops the
whole import with every problem listed; ``dry_run`` reports what would change and writes nothing.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from pathlib import Path

from quotetui.domain.errors import DatabaseProblem
from quotetui.domain.gpus import GpuCatalog
from quotetui.domain.timeutil import utcnow
from quotetui.io.import_rows import Parsed, parse_table
from quotetui.io.import_schema import COMPUTED_SHEETS, SKYPILOT_HEADERS, Entity, closest_entity, entity_for
from quotetui.io.problems import ImportProblems, Problem
from quotetui.io.skypilot import MarketRows, parse_catalog
from quotetui.io.tables import Table, read_file
from quotetui.io.xlsx_template import LISTS_SHEET as TEMPLATE_LISTS
from quotetui.services.import_writer import ImportReport, Writer
from quotetui.store.catalog import load_catalog
from quotetui.store.engine import Database
from quotetui.store.migrate import scratch_copy


class _Rollback(Exception):
    """Raised inside the transaction of a dry run so that nothing it did is kept."""


def import_files(db: Database, paths: list[Path], *, dry_run: bool = False, as_of: date | None = None) -> ImportReport:
    problems: list[Problem] = []
    report = ImportReport([p.name for p in paths], dry_run)
    skip = (*COMPUTED_SHEETS, TEMPLATE_LISTS)  # known not to hold data to import: not even read
    tables = [t for path in paths for t in read_file(path, problems, skip)]
    report.encodings = {t.file: t.encoding for t in tables if t.encoding}
    with db.session() as session:
        catalog, _ = load_catalog(session)
    by_entity: dict[str, list[Parsed]] = defaultdict(list)
    market: list[MarketRows] = []
    for table in tables:
        entity = entity_for(table.sheet or Path(table.file).stem, table.header)
        price_list = entity is None and all(h in table.header for h in SKYPILOT_HEADERS)
        if entity is not None or price_list:
            problems += table.problems  # a sheet's own problems count only if it is imported
        if entity is not None:
            by_entity[entity.key].append(parse_table(table, entity, catalog, problems, report.warnings))
        elif price_list:
            market.append(parse_catalog(table, catalog, problems, report.warnings))
        elif table.sheet == TEMPLATE_LISTS:
            continue  # the template's own drop-down values
        elif table.sheet in COMPUTED_SHEETS:
            report.warnings.append(Problem(table.file, "not imported (figures are recomputed)", table.sheet))
        elif table.sheet is not None:
            report.warnings.append(Problem(table.file, "not imported: " + _unknown_table(table), table.sheet))
        else:
            problems.append(Problem(table.file, _unknown_table(table)))
    # the rows that could be read are checked against the database too (unknown offers, duplicate terms …),
    # so one run lists every problem; any problem rolls the whole transaction back
    if dry_run:  # on a scratch copy: a dry run is never blocked by another program's write, nor a read-only file
        _refuse_damaged(db)
        with scratch_copy(db) as scratch:
            _write(scratch, by_entity, market, paths, problems, report, catalog, as_of, dry_run=True)
    else:
        _write(db, by_entity, market, paths, problems, report, catalog, as_of, dry_run=False)
    return report


def _write(
    db: Database,
    by_entity: dict[str, list[Parsed]],
    market: list[MarketRows],
    paths: list[Path],
    problems: list[Problem],
    report: ImportReport,
    catalog: GpuCatalog,
    as_of: date | None,
    *,
    dry_run: bool,
) -> None:
    try:
        with db.write() as session:
            if not dry_run:
                _refuse_damaged(db)
            Writer(session, catalog, report, problems, as_of or utcnow().date()).run(by_entity, market)
            if problems:
                files = {path.name: i for i, path in reversed(list(enumerate(paths)))}
                sheets = {(p.file, p.sheet): i for i, p in reversed(list(enumerate(problems)))}
                problems.sort(key=lambda p: (files.get(p.file, 0), sheets[p.file, p.sheet], p.row or 0))
                raise ImportProblems(problems)
            if dry_run:
                raise _Rollback
    except _Rollback:
        pass


def _refuse_damaged(db: Database) -> None:
    """Nothing is written into a damaged SQLite file (SQLite's quick check, while the write lock is held)."""
    if db.target.path is None:
        return
    from quotetui.store.migrate import sqlite_integrity

    integrity, _ = sqlite_integrity(db.target.path, quick=True, limit=5)
    if integrity != ["ok"]:
        raise DatabaseProblem(
            f"{db.target.label} is damaged ({'; '.join(integrity[:3])}); nothing was imported. "
            "`quotetui db check` lists what is wrong, `quotetui db restore BACKUP` puts a backup back"
        )


def _unknown_table(table: Table) -> str:
    what = "sheet" if table.sheet else "file"
    example = "Offers, Negotiation …" if table.sheet else "offers.csv, negotiation.csv …"
    text = (
        f"cannot tell what this {what} holds: name it after a sheet of the template ({example}) "
        "or give a SkyPilot catalog"
    )
    closest = closest_entity(table.header)
    if closest is not None:
        entity, missing = closest
        text += f"; its columns look like {entity.sheet}" + (f", which needs {', '.join(missing)}" if missing else "")
    return text


__all__ = ["Entity", "ImportReport", "Table", "import_files"]
