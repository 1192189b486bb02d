"""Schema migrations (alembic scripts in ``db/``), backups and integrity checks."""

from __future__ import annotations

import re
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from quotetui.domain.errors import BadInput, DatabaseProblem
from quotetui.domain.timeutil import utcnow
from quotetui.language import _
from quotetui.language.lists import listed
from quotetui.resources import migrations_dir
from quotetui.store.engine import Database, DbTarget, make_engine

if TYPE_CHECKING:
    import sqlalchemy as sa
    from alembic.config import Config

_REVISION = re.compile(r"^(down_revision|revision)\b[^=]*=\s*['\"]?([^'\"\s]+)['\"]?", re.M)


def alembic_config(connection: sa.Connection | None = None) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(migrations_dir()))
    config.attributes["connection"] = connection
    return config


def _revision_graph() -> dict[str, str | None]:
    """revision -> down_revision, read from the scripts' headers without importing alembic (which costs
    ~10 MiB and ~80 ms at every start; it is only loaded when a schema actually has to change)."""
    graph: dict[str, str | None] = {}
    for path in (migrations_dir() / "versions").glob("*.py"):
        found = dict((key, value) for key, value in _REVISION.findall(path.read_text(encoding="utf-8")))
        if "revision" in found:
            down = found.get("down_revision")
            graph[found["revision"]] = None if down in (None, "None") else down
    return graph


def head_revision() -> str:
    graph = _revision_graph()
    heads = set(graph) - {down for down in graph.values() if down}
    if len(heads) != 1:
        raise DatabaseProblem(
            _("the migration scripts have {count} heads, not one: {heads}").format(
                count=len(heads), heads=sorted(heads)
            )
        )
    return heads.pop()


def known_revisions() -> set[str]:
    return set(_revision_graph())


@dataclass(frozen=True, slots=True)
class SchemaState:
    revision: str | None  # None: no quotetui schema yet
    head: str
    has_tables: bool

    @property
    def is_empty(self) -> bool:
        return self.revision is None and not self.has_tables

    @property
    def is_current(self) -> bool:
        return self.revision == self.head


def schema_state(engine: sa.Engine, target: DbTarget) -> SchemaState:
    """Inspect ``engine``; a file that is not SQLite or is corrupt becomes :class:`DatabaseProblem`."""
    import sqlalchemy as sa

    try:
        with engine.connect() as conn:
            tables = set(sa.inspect(conn).get_table_names())
            revision = None
            if "alembic_version" in tables:
                revision = conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
    except sa.exc.DatabaseError as exc:
        raise DatabaseProblem(_explain(target, exc)) from None
    has_tables = bool(tables - {"alembic_version"})
    return SchemaState(revision, head_revision(), has_tables)


def _explain(target: DbTarget, exc: sa.exc.DatabaseError) -> str:
    from quotetui.domain.redact import scrub

    detail = scrub(str(exc.orig) if exc.orig is not None else str(exc), target.secrets())
    where = target.label
    if target.is_sqlite:
        if "malformed" in detail:
            return _(
                "{database} is damaged (SQLite says: {detail}); nothing was changed. `quotetui db check` lists what "
                "is wrong, `quotetui db restore BACKUP` puts a backup back"
            ).format(database=where, detail=detail)
        if "not a database" in detail:
            return _("{database} is not a quotetui database (SQLite says: {detail})").format(
                database=where, detail=detail
            )
        if "unable to open" in detail:
            return _("cannot open {database}: check that the folder exists and is writable").format(database=where)
    return _("cannot use the database {database}: {detail}").format(database=where, detail=detail)


def upgrade(target: DbTarget, revision: str = "head") -> None:
    """Migrate to ``revision`` (the newest schema by default) in one transaction.

    SQLite foreign keys are off while tables are rebuilt (batch mode), otherwise dropping a table
    would cascade-delete its children; ``foreign_key_check`` must pass before the commit.
    """
    import sqlalchemy as sa
    from alembic import command

    engine = make_engine(target, foreign_keys=False)
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), revision)
            if target.is_sqlite:
                broken = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                if broken:
                    raise DatabaseProblem(
                        _("upgrade aborted, it would break {count} foreign keys").format(count=len(broken))
                    )
    except sa.exc.DatabaseError as exc:
        raise DatabaseProblem(_explain(target, exc)) from None
    finally:
        engine.dispose()


def _online_copy(source: Path, dest: Path) -> None:
    """Copy ``source`` into ``dest`` page by page with SQLite's online backup API: ``source`` is read in
    read-only mode while others use it; the write to ``dest`` waits for its readers and writers."""
    from quotetui.store.engine import sqlite_reader

    src = sqlite_reader(source)
    try:
        dst = sqlite3.connect(dest, timeout=30)
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()


@contextmanager
def scratch_copy(db: Database) -> Iterator[Database]:
    """Where a dry run can write what it would write: for SQLite, a copy of the file in a temporary folder
    (read with the online backup API, so neither another program's write lock nor a read-only file stops
    it, and nothing is written to or beside the real file); removed when the block ends, also on SIGTERM
    (which unwinds as SystemExit). A server's database is its own scratch: the caller rolls back."""
    import sqlalchemy as sa

    if db.target.path is None:
        yield db
        return
    with tempfile.TemporaryDirectory(prefix="quotetui-dry-run-") as folder:
        copy = Path(folder) / "scratch.db"
        try:
            _online_copy(db.target.path, copy)
        except sqlite3.OperationalError as exc:  # a full or failing temporary folder, not the database
            raise _no_room(folder, db.target.path, exc) from None
        engine = make_engine(DbTarget(db.target.url, copy, is_default=False))
        try:
            yield Database(db.target, engine)  # messages name the real file, the writes go to the copy
        except sa.exc.OperationalError as exc:
            if "full" in str(exc.orig) or "disk I/O" in str(exc.orig):
                raise _no_room(folder, db.target.path, exc.orig) from None
            raise
        finally:
            engine.dispose()


def _no_room(folder: str, source: Path, exc: BaseException) -> BadInput:
    return BadInput(
        _(
            "the dry run's scratch copy in {folder} failed ({problem}): it needs room for about {size} bytes and what "
            "the import adds; set TMPDIR to a folder with room. Nothing was written"
        ).format(folder=folder, problem=exc, size=f"{source.stat().st_size:,}")
    )


def backup_sqlite(source: Path, dest: Path) -> Path:
    """Copy a live SQLite database with the online backup API (safe while others use it), into a temporary
    file renamed to ``dest`` once complete: a failure or a signal leaves no half-written backup."""
    from quotetui.system.atomic import replacing

    if dest.exists():
        raise DatabaseProblem(_("{path} already exists; choose another backup file").format(path=dest))
    if not dest.parent.is_dir():
        raise DatabaseProblem(_("folder {folder} does not exist").format(folder=dest.parent))
    try:
        with replacing(dest) as tmp:
            _online_copy(source, tmp)
    except sqlite3.DatabaseError as exc:
        raise DatabaseProblem(_("cannot back up {path}: {problem}").format(path=source, problem=exc)) from None
    except PermissionError as exc:
        raise DatabaseProblem(
            _("cannot write the backup in {folder}: {problem} (write permission)").format(
                folder=dest.parent, problem=exc.strerror
            )
        ) from None
    return dest


def restore_sqlite(source: Path, dest: Path) -> None:
    """Overwrite ``dest`` with ``source`` (one write transaction on ``dest``, like any other writer's)."""
    try:
        _online_copy(source, dest)
    except sqlite3.DatabaseError as exc:
        raise DatabaseProblem(
            _("cannot restore {path} from {backup}: {problem}").format(path=dest, backup=source, problem=exc)
        ) from None


def timestamped_backup(source: Path) -> Path:
    stamp = utcnow().strftime("%Y%m%dT%H%M%S%fZ")
    return backup_sqlite(source, source.with_name(f"{source.name}.{stamp}.bak"))


@dataclass(frozen=True, slots=True)
class CheckReport:
    ok: bool
    integrity: list[str]
    foreign_key_violations: int
    revision: str | None
    head: str
    unknown_codes: tuple[str, ...] = ()  # "offer #3, billing_basis: 'weird' (one of: …)": values another program wrote

    def to_json(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "integrity": self.integrity,
            "foreign_key_violations": self.foreign_key_violations,
            "revision": self.revision,
            "head": self.head,
            "up_to_date": self.revision == self.head,
            "unknown_codes": list(self.unknown_codes),
        }


def check(target: DbTarget) -> CheckReport:
    """Integrity check (SQLite), foreign-key check and the schema revision; changes nothing. A damaged file
    is reported, not refused: its integrity messages are the report."""
    import sqlalchemy as sa

    if target.path is not None:
        integrity, violations = sqlite_integrity(target.path)
        if integrity != ["ok"]:
            return CheckReport(False, integrity, violations, None, head_revision())
    engine = make_engine(target, read_only=target.path is not None)  # a check writes nothing, no WAL switch
    try:
        state = schema_state(engine, target)
        integrity, violations = ["ok"], 0
        if target.path is not None:
            integrity, violations = sqlite_integrity(target.path)
        codes = unknown_codes(engine) if state.revision == state.head else ()
    except sa.exc.DatabaseError as exc:
        raise DatabaseProblem(_explain(target, exc)) from None
    finally:
        engine.dispose()
    ok = integrity == ["ok"] and violations == 0 and state.revision == state.head and not codes
    return CheckReport(ok, integrity, violations, state.revision, state.head, codes)


def unknown_codes(engine: sa.Engine, limit: int = 20) -> tuple[str, ...]:
    """Values in the coded columns (an offer's billing basis, an invitation's state…) that quotetui never writes:
    another program wrote them, and every read of their rows refuses them (``enums.Choice.stored``). At most
    ``limit`` a column, read as text (the column's own type would refuse them)."""
    import sqlalchemy as sa

    from quotetui.domain.enums import shown_stored
    from quotetui.store.models import SQLModel
    from quotetui.store.rows import unknown_values

    found = []
    with engine.connect() as conn:
        for table in SQLModel.metadata.sorted_tables:
            key = table.c.get("id")
            for column in table.columns:
                if not isinstance(column.type, sa.Enum):
                    continue
                allowed = list(column.type.enums)
                raw, unknown = unknown_values(column)
                rows = conn.execute(
                    sa.select(key if key is not None else sa.null(), raw).where(unknown).order_by(key).limit(limit)
                ).all()
                for row_id, value in rows:
                    row = f" #{row_id}" if row_id is not None else ""
                    shown = shown_stored(value)
                    found.append(
                        _("{row}, {column}: {value} (one of: {allowed})").format(
                            row=f"{table.name}{row}", column=column.name, value=shown, allowed=listed(allowed)
                        )
                    )
                if len(rows) == limit:
                    total = conn.execute(sa.select(sa.func.count()).select_from(table).where(unknown)).scalar_one()
                    if total > limit:
                        found.append(
                            _("{table}, {column}: {count} more rows like these").format(
                                table=table.name, column=column.name, count=f"{total - limit:,}"
                            )
                        )
    return tuple(found)


def sqlite_integrity(path: Path, *, quick: bool = False, limit: int = 100) -> tuple[list[str], int]:
    """SQLite's own integrity report of the file (``["ok"]`` when sound) and its foreign-key violations,
    read without writing; a file SQLite cannot read at all is reported in the same words."""
    from quotetui.store.engine import sqlite_reader

    try:
        conn = sqlite_reader(path)
    except sqlite3.DatabaseError as exc:
        return [_("cannot be read: {problem}").format(problem=exc)], 0
    try:
        pragma = "quick_check" if quick else "integrity_check"
        integrity = [str(row[0]) for row in conn.execute(f"PRAGMA {pragma}({limit})")]
        violations = len(conn.execute("PRAGMA foreign_key_check").fetchall()) if integrity == ["ok"] else 0
        return integrity, violations
    except sqlite3.DatabaseError as exc:
        return [str(exc)], 0
    finally:
        conn.close()
