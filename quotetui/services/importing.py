"""Importing spreadsheets: everything is read and checked first (each sheet as its rows stream from the file),
then written in one transaction.

Rows are matched to what the database holds by natural keys (provider name; provider + offer name;
offer + round; …), so importing the same file twice changes nothing. Any problem, anywhere, stops the
whole import with every problem listed; ``dry_run`` reports what would change and writes nothing.

``progress`` (optional) is told how far the import has got: files and rows read, rows checked, rows written,
every :data:`EVERY` rows and at each stage. It is last called inside the transaction, before the commit: a
callback that raises (:class:`ImportCancelled`, when the user cancels) stops the import and rolls back
everything it wrote, so the database is exactly as before.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from quotetui.domain.errors import DatabaseProblem, QuotetuiError
from quotetui.domain.gc_pause import gc_paused
from quotetui.domain.gpus import GpuCatalog
from quotetui.domain.timeutil import utcnow
from quotetui.io.import_rows import Parsed, parse_table
from quotetui.io.import_schema import READ, SKYPILOT_HEADERS, Entity, closest_entity, computed, entity_for
from quotetui.io.problems import ImportProblems, Problem
from quotetui.io.rfq_workbook import ANSWER_SHEET, DISCOUNT_SHEET, EXTRA_SHEET, RFQ_SHEET
from quotetui.io.skypilot import MarketRows, parse_catalog
from quotetui.io.table_model import Table
from quotetui.io.tables import read_file
from quotetui.io.xlsx_template import LISTS_SHEET as TEMPLATE_LISTS
from quotetui.language import _, ngettext
from quotetui.language.lists import clauses, listed
from quotetui.services.editing import kept_by_contracts
from quotetui.services.import_writer import ImportReport, Writer
from quotetui.services.rfq_answers import ANSWER_ENTITIES, Answer, check_answers, record_answers, split_answers
from quotetui.store.catalog import load_catalog
from quotetui.store.engine import Database
from quotetui.store.migrate import scratch_copy
from quotetui.store.origin import source


class _Rollback(Exception):
    """Raised inside the transaction of a dry run so that nothing it did is kept."""


class ImportCancelled(QuotetuiError):
    """Raised by a progress callback to stop an import: nothing is written."""


EVERY = 500
"""Rows between two progress reports: often enough to follow a big file and to cancel it within a moment,
rarely enough that telling a screen costs nothing next to the import."""


@dataclass(slots=True)
class ImportProgress:
    """How far an import has got."""

    files: int  # files given
    dry_run: bool
    stage: str = "reading"  # reading, checking (each cell), writing (against the database)
    files_read: int = 0
    rows_read: int = 0
    rows_checked: int = 0
    rows_to_write: int = 0  # the rows that passed their checks
    rows_written: int = 0

    def line(self) -> str:
        """The progress in words, e.g. "2 of 3 files read, 12,000 rows; 11,500 checked; 500 of 11,480 written"."""
        rows = ngettext("{count} row", "{count} rows", self.rows_read).format(count=f"{self.rows_read:,}")
        read = ngettext("{done} of {count} file read, {rows}", "{done} of {count} files read, {rows}", self.files)
        parts = [read.format(done=self.files_read, count=f"{self.files:,}", rows=rows)]
        if self.stage != "reading":
            parts.append(_("{count} checked").format(count=f"{self.rows_checked:,}"))
        if self.stage == "writing":
            done = _("{done} of {count} tried on a copy") if self.dry_run else _("{done} of {count} written")
            parts.append(done.format(done=f"{self.rows_written:,}", count=f"{self.rows_to_write:,}"))
        return clauses(parts)


Progress = Callable[[ImportProgress], None]


class _Tracker:
    """Counts rows as they go by and tells the callback every :data:`EVERY` of them and at each stage."""

    def __init__(self, progress: Progress | None, state: ImportProgress) -> None:
        self.progress, self.state = progress, state

    def tell(self, stage: str | None = None) -> None:
        if stage is not None:
            self.state.stage = stage
        if self.progress is not None:
            self.progress(self.state)

    def counter(self, name: str) -> Callable[[], None] | None:
        """A tick that adds one to ``name`` (None without a callback: nothing to count for)."""
        if self.progress is None:
            return None
        state = self.state

        def tick() -> None:
            count = getattr(state, name) + 1
            setattr(state, name, count)
            if count % EVERY == 0:
                self.tell()

        return tick


def import_files(
    db: Database,
    paths: list[Path],
    *,
    dry_run: bool = False,
    as_of: date | None = None,
    progress: Progress | None = None,
) -> ImportReport:
    """Reads ``paths``, checks every row and writes them all in one transaction, or nothing with every problem
    named (:class:`ImportProblems`). The stored rankings are refreshed once the rows read are released."""
    with db.after_writes_deferred():
        return _import_files(db, paths, dry_run=dry_run, as_of=as_of, progress=progress)


@gc_paused()  # every row read lives until the transaction ends: collections would walk them all again and again
def _import_files(
    db: Database,
    paths: list[Path],
    *,
    dry_run: bool,
    as_of: date | None,
    progress: Progress | None,
) -> ImportReport:
    problems: list[Problem] = []
    report = ImportReport([p.name for p in paths], dry_run)
    skip = _Skipped()  # known not to hold data to import: not even read
    track = _Tracker(progress, ImportProgress(len(paths), dry_run))
    track.tell()
    with db.session() as session:
        catalog, _ids = load_catalog(session)
    # each sheet is checked as soon as it is read and its cells let go (a 100,000-offer workbook's cells are never
    # all held); the sheets of an RFQ answer are read whole, and the file's others set aside if it is one
    early: list[tuple[Table, _Checked]] = []

    def each(table: Table) -> bool:
        if table.sheet in ANSWER_SHEETS:
            return False
        early.append((table, _check(table, catalog, track)))
        return True

    tables: list[Table] = []
    for path in paths:
        tables += read_file(path, problems, skip, track.counter("rows_read"), each)
        track.state.files_read += 1
        track.tell()
    track.tell("checking")
    report.encodings = {t.file: t.encoding for t in tables if t.encoding}
    day = as_of or utcnow().date()
    found, tables = split_answers(tables)  # RFQ response workbooks: read as the sheets they fill in
    with db.session() as session:
        answers = check_answers(session, found, problems, day)
    by_entity: dict[str, list[Parsed]] = defaultdict(list)
    for answer in answers:
        for key, table in answer.tables.items():
            parsed = parse_table(table, ANSWER_ENTITIES[key], catalog, problems, report.warnings)
            by_entity[key].append(parsed)
            track.state.rows_to_write += len(parsed.records)
    market: list[MarketRows] = []
    _gather(tables, early, catalog, track, problems, report, by_entity, market)
    if not (by_entity or market or answers or problems):  # the wrong file: nothing in it is what an import reads
        raise ImportProblems([*report.warnings, _nothing_found(paths)])
    early.clear()  # by_entity and market hold the records now: the writer lets each entity's go once written
    # the rows that could be read are checked against the database too (unknown offers, duplicate terms …),
    # so one run lists every problem; any problem rolls the whole transaction back
    if dry_run:  # on a scratch copy: a dry run is never blocked by another program's write, nor a read-only file
        _refuse_damaged(db)
        with scratch_copy(db) as scratch:
            _write(scratch, by_entity, market, answers, paths, problems, report, catalog, day, track, dry_run=True)
    else:
        _write(db, by_entity, market, answers, paths, problems, report, catalog, day, track, dry_run=False)
    return report


class _Skipped:
    """The sheets an import does not read: the template's drop-down values and the comparison workbook's sheets of
    figures, under their names in any language (``import_schema.computed``)."""

    def __contains__(self, title: object) -> bool:
        return isinstance(title, str) and (title == TEMPLATE_LISTS or computed(title))


ANSWER_SHEETS = frozenset((RFQ_SHEET, ANSWER_SHEET, DISCOUNT_SHEET, EXTRA_SHEET))
"""The sheets ``split_answers`` reads as an RFQ answer's: read whole, checked once the file is known."""


@dataclass(slots=True)
class _Checked:
    """One table checked on its own (before the database is asked): its records or price list, and the problems
    and warnings it adds if it is imported (an RFQ answer's file sets its other sheets aside)."""

    parsed: Parsed | None = None
    market: MarketRows | None = None
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)


def _gather(
    tables: list[Table],
    early: list[tuple[Table, _Checked]],
    catalog: GpuCatalog,
    track: _Tracker,
    problems: list[Problem],
    report: ImportReport,
    by_entity: dict[str, list[Parsed]],
    market: list[MarketRows],
) -> None:
    """The tables to import (an RFQ answer's files left out), in the order read: each one's records or price
    list, problems and warnings, checked as it was read or now."""
    checked = {id(t): c for t, c in early}  # ``early`` holds every table it names: no id is reused meanwhile
    for table in tables:
        c = checked.get(id(table)) or _check(table, catalog, track)
        problems += c.problems
        report.warnings += c.warnings
        if c.parsed is not None:
            by_entity[c.parsed.entity.key].append(c.parsed)
            track.state.rows_to_write += len(c.parsed.records)
        if c.market is not None:
            market.append(c.market)
            track.state.rows_to_write += len(c.market.items)


def _check(table: Table, catalog: GpuCatalog, track: _Tracker) -> _Checked:
    """``table`` checked cell by cell against its sheet's entity (or as a SkyPilot price list), its cells then let
    go: its records hold what the writer needs."""
    c = _Checked()
    if table.sheet is not None and computed(table.sheet):  # by name, whatever its name might also read as
        c.warnings.append(Problem(table.file, _("not imported (figures are recomputed)"), table.sheet))
        return c
    entity = entity_for(table.sheet or Path(table.file).stem, table.header)
    price_list = entity is None and all(h in table.header for h in SKYPILOT_HEADERS)
    if entity is not None or price_list:
        checked: list[Problem] = []
        if entity is not None:  # its rows may still be streaming from the workbook: read as they are checked
            c.parsed = parse_table(table, entity, catalog, checked, c.warnings, track.counter("rows_checked"))
        else:
            table.rows = list(table.rows)
            c.market = parse_catalog(table, catalog, checked, c.warnings)
            track.state.rows_checked += len(table.rows)
        for _row in table.rows:  # rows a check left unread (a sheet missing a column): their reading problems count
            pass
        c.problems = table.problems + checked  # a sheet's own problems (read with its rows) count only if imported
        table.rows = []
    elif table.sheet == TEMPLATE_LISTS:
        pass  # the template's own drop-down values
    elif table.sheet is not None:
        c.warnings.append(
            Problem(table.file, _("not imported: {reason}").format(reason=_unknown_table(table)), table.sheet)
        )
    else:
        c.problems.append(Problem(table.file, _unknown_table(table)))
    return c


def _write(
    db: Database,
    by_entity: dict[str, list[Parsed]],
    market: list[MarketRows],
    answers: list[Answer],
    paths: list[Path],
    problems: list[Problem],
    report: ImportReport,
    catalog: GpuCatalog,
    day: date,
    track: _Tracker,
    *,
    dry_run: bool,
) -> None:
    try:
        with db.write() as session, source("import " + ", ".join(str(p) for p in paths)):
            if not dry_run:
                _refuse_damaged(db)
            track.tell("writing")
            tick = track.counter("rows_written")
            kept = kept_by_contracts(session)
            named = None if db.target.is_default else db.target.label  # the commands it proposes name it
            Writer(session, catalog, report, problems, day, tick, named).run(by_entity, market)
            if answers and not problems:
                record_answers(session, answers, report.warnings, day)
            session.flush()
            for offer_id, said in kept_by_contracts(session).items():  # what this import changed under a contract
                report.warnings += [Problem(listed(p.name for p in paths),
                                            _("offer #{id}: {note}").format(id=offer_id, note=line))
                                    for line in said if line not in kept.get(offer_id, [])]  # fmt: skip
            track.tell()  # the last word before the commit: a cancel here still rolls everything back
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

    integrity, _more = sqlite_integrity(db.target.path, quick=True, limit=5)
    if integrity != ["ok"]:
        raise DatabaseProblem(
            _(
                "{database} is damaged ({problems}); nothing was imported. "
                "`quotetui db check` lists what is wrong, `quotetui db restore BACKUP` puts a backup back"
            ).format(database=db.target.label, problems=clauses(integrity[:3]))
        )


def _nothing_found(paths: list[Path]) -> Problem:
    """Files with no sheet an import reads, as a problem naming what it looked for (the sheets keep their English
    names in every language: the import matches them)."""
    said = _("nothing to import: no sheet is one of the template's ({sheets}), a SkyPilot catalog or an RFQ answer")
    return Problem(listed(p.name for p in paths), said.format(sheets=listed(e.sheet for e in READ)))


def _unknown_table(table: Table) -> str:
    if table.sheet:
        text = _(
            "cannot tell what this sheet holds: name it after a sheet of the template ({examples}) "
            "or give a SkyPilot catalog"
        ).format(examples="Offers, Negotiation …")
    else:
        text = _(
            "cannot tell what this file holds: name it after a sheet of the template ({examples}) "
            "or give a SkyPilot catalog"
        ).format(examples="offers.csv, negotiation.csv …")
    closest = closest_entity(table.header)
    if closest is not None:
        entity, missing = closest
        if missing:
            looks = _("{reason}; its columns look like {sheet}, which needs {columns}")
        else:
            looks = _("{reason}; its columns look like {sheet}")
        text = looks.format(reason=text, sheet=entity.sheet, columns=listed(missing))
    return text


__all__ = ["EVERY", "Entity", "ImportCancelled", "ImportProgress", "ImportReport", "Progress", "Table", "import_files"]
