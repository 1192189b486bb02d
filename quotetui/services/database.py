"""Opening a database the way every front end needs it: located, migrated, seeded, explained.

A current SQLite file (newest schema, catalog seeded as this version has it, a scenario) is checked with
stdlib ``sqlite3`` alone: opening it imports neither alembic nor SQLAlchemy (the engine is made on first use).
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from quotetui.domain.errors import DatabaseProblem
from quotetui.language import N_, _
from quotetui.language.lists import clauses
from quotetui.store.engine import (
    Database,
    DbTarget,
    make_engine,
    resolve_target,
    sqlite_read_only,
    sqlite_reader,
)

_IN_WORDS = N_("{database} (schema {revision}, {offers} offers, {contracts} contracts)")
_FOREIGN = N_("{database} holds tables but no quotetui schema revision; refusing to touch it")
_NEWER = N_(
    "{database} was made by a newer quotetui (schema revision {revision}; this version knows up to {head}); "
    "upgrade quotetui to open it. Nothing was changed."
)
_READ_ONLY = N_("{database} is read-only here: reading works, changes are refused.")
"""Messages said in more than one place."""

if TYPE_CHECKING:
    import sqlalchemy as sa
    from sqlalchemy import Engine

    from quotetui.services.bench_import import WronglyVerified
    from quotetui.services.extra_check import DisagreeingExtra
    from quotetui.store import migrate


def _database(target: DbTarget, engine: Engine | None, read_only: bool) -> Database:
    """The database every front end opens: its writes bring the stored rankings up to date in the command
    that wrote (``services/stored_ranking.py: after_write``)."""
    db = Database(target, engine, read_only=read_only)
    db.after_write = _after_write
    return db


def _after_write(db: Database) -> None:
    from quotetui.services.stored_ranking import after_write  # the engine: only once something was written

    after_write(db)


def database_target(db: str | None = None) -> DbTarget:
    """The database a command uses: ``--db``, else ``$QUOTETUI_DB``, else the config file's ``database``, else
    the built-in default. A config file that may name another database (unreadable, a TOML error, an unknown
    setting, a bad ``database``) is a :class:`ConfigProblem`: opening the built-in one would be silently wrong."""
    from quotetui.io.preferences import configured_database

    return resolve_target(db, configured=configured_database)


@dataclass(slots=True)
class Opened:
    db: Database
    messages: list[str] = field(default_factory=list)  # what happened on the way, for the user


def _prepare_sqlite_file(target: DbTarget) -> bool:
    """Check the file can be a database; create the default folder. Returns True if it is new."""
    assert target.path is not None
    path = target.path
    if path.is_dir():
        raise DatabaseProblem(_("{path} is a folder, not a database file").format(path=path))
    if not path.parent.exists():
        if not target.is_default:
            raise DatabaseProblem(
                _("cannot create {path}: folder {folder} does not exist").format(path=path, folder=path.parent)
            )
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except PermissionError:
            raise DatabaseProblem(
                _("cannot create the folder {folder} (no write permission)").format(folder=path.parent)
            ) from None
    new = not path.exists() or path.stat().st_size == 0
    if new and not os.access(path.parent, os.W_OK | os.X_OK):
        raise DatabaseProblem(
            _("cannot create {path}: no write permission on the folder {folder}").format(path=path, folder=path.parent)
        )
    if path.exists() and not os.access(path, os.R_OK):
        raise DatabaseProblem(_("cannot open {path}: no read permission on the file").format(path=path))
    return new


def open_database(db: str | None = None, *, load_demo_if_new: bool = True) -> Opened:
    """Open (creating or upgrading as needed) the database named by ``--db``/env/config/default.

    * a new database gets the newest schema and the GPU catalog; a new *default* database also
      gets the demo market, and the messages say so;
    * an older schema is backed up (SQLite: timestamped copy next to the file), then upgraded;
    * a file that is not a quotetui database, or a schema newer than this program, is a
      :class:`DatabaseProblem` and nothing is changed;
    * opening writes nothing unless a migration or a catalog change is due, so reading commands answer at
      once while another program writes, and a file (or folder) that cannot be written is opened read-only.
    """
    target = database_target(db)
    is_new = _prepare_sqlite_file(target) if target.is_sqlite else False
    read_only = target.path is not None and not is_new and sqlite_read_only(target.path)
    if target.path is not None and not is_new:
        _refuse_foreign(target)  # before any engine: its connections would switch the file to WAL
    if target.path is not None and not is_new and _nothing_due(target.path):
        opened = Opened(_database(target, None, read_only))
        if read_only:
            opened.messages.append(_(_READ_ONLY).format(database=target.label))
        return opened
    from quotetui.services.scenarios import ensure_default_scenario, has_scenario
    from quotetui.store.catalog import catalog_is_current, seed_catalog

    engine = make_engine(target, read_only=read_only)
    opened = Opened(_database(target, engine, read_only))
    try:
        _migrate(target, engine, opened.messages, read_only)
        with opened.db.session() as session:
            due = not catalog_is_current(session) or not has_scenario(session)
        if due and not read_only:
            with opened.db.write() as session:
                seed_catalog(session)
                ensure_default_scenario(session)
    except BaseException:
        engine.dispose()
        raise
    if read_only:
        opened.messages.append(_(_READ_ONLY).format(database=target.label))
    if is_new:
        opened.messages.append(_("Created a new database at {database}.").format(database=target.label))
        if target.is_default and load_demo_if_new:
            from quotetui.services.demo import load_demo

            summary = load_demo(opened.db)
            opened.messages.append(
                _(
                    "Loaded the demo market ({summary}) so there is something to explore; "
                    "`quotetui demo --reset` reloads it."
                ).format(summary=summary)
            )
    return opened


def _peek(path: Path) -> sqlite3.Connection:
    """A read-only look at a file: a WAL-mode file no program has open (no ``-shm`` beside it) is read
    ``immutable``, since even a read-only connection would leave ``-wal`` and ``-shm`` files beside another
    program's database."""
    with path.open("rb") as f:
        header = f.read(20)
    shm = path.with_name(path.name + "-shm")
    if header.startswith(b"SQLite format 3\x00") and header[18:19] == b"\x02" and not shm.exists():
        return sqlite3.connect(f"{path.as_uri()}?immutable=1", uri=True)
    return sqlite_reader(path)


def _refuse_foreign(target: DbTarget) -> None:
    """An SQLite file another program made (tables, none of them quotetui's schema revision), or one a newer
    quotetui made, is refused through a read-only connection: its bytes stay as they are (the engine's
    connections would switch it to WAL and move its change counter)."""
    from quotetui.store import migrate

    assert target.path is not None
    try:
        conn = _peek(target.path)
        try:
            objects = {r[0]: r[1] for r in conn.execute("SELECT name, type FROM sqlite_master")}
            revision = (
                conn.execute("SELECT version_num FROM alembic_version").fetchone()
                if objects.get("alembic_version") == "table"
                else None
            )
            marks = [conn.execute(f"PRAGMA {p}").fetchone()[0] for p in ("application_id", "user_version")]
        finally:
            conn.close()
    except (sqlite3.Error, OSError):
        return  # not readable as SQLite: the full way explains it, and SQLite writes nothing to such a file
    if revision is not None and not {"offer", "setting"} <= objects.keys():  # another program's alembic schema
        revision = None
    if (objects or any(marks)) and revision is None:  # a table, a view, another program's id: not ours
        raise DatabaseProblem(_(_FOREIGN).format(database=target.label))
    if revision is not None and revision[0] not in migrate.known_revisions():
        raise DatabaseProblem(
            _(_NEWER).format(database=target.label, revision=revision[0], head=migrate.head_revision())
        )


def _nothing_due(path: Path) -> bool:
    """Whether an existing SQLite file needs nothing done on opening: the newest schema, the catalog seeded as
    this version has it, a scenario. Anything else, an error included, goes the full way (which explains it)."""
    from quotetui.store.catalog import CATALOG_SETTING, builtin_fingerprint
    from quotetui.store.migrate import head_revision

    try:
        conn = sqlite_reader(path)
        try:
            revision = conn.execute("SELECT version_num FROM alembic_version").fetchall()
            catalog = conn.execute('SELECT value FROM setting WHERE "key" = ?', (CATALOG_SETTING,)).fetchall()
            scenario = conn.execute("SELECT 1 FROM scenario LIMIT 1").fetchall()
        finally:
            conn.close()
    except sqlite3.Error:
        return False
    return revision == [(head_revision(),)] and catalog == [(builtin_fingerprint(),)] and bool(scenario)


def _migrate(target: DbTarget, engine: sa.Engine, messages: list[str], read_only: bool = False) -> None:
    from quotetui.store import migrate

    state = migrate.schema_state(engine, target)
    if state.is_current:
        return
    if state.revision is None and state.has_tables:
        raise DatabaseProblem(_(_FOREIGN).format(database=target.label))
    if state.revision is not None and state.revision not in migrate.known_revisions():
        raise DatabaseProblem(_(_NEWER).format(database=target.label, revision=state.revision, head=state.head))
    if read_only:
        raise DatabaseProblem(
            _(
                "{database} needs its schema upgraded (revision {revision} to {head}), but it is read-only here; "
                "open it once where it can be written"
            ).format(database=target.label, revision=state.revision or _("none"), head=state.head)
        )
    if state.revision is not None and target.path is not None:
        backup = migrate.timestamped_backup(target.path)
        try:
            migrate.upgrade(target)
        except BaseException:
            backup.unlink(missing_ok=True)  # nothing changed: no stray backup per failed attempt
            raise
        messages.append(
            _("Backed up {file} to {backup} before upgrading its schema.").format(file=target.path.name, backup=backup)
        )
    else:
        migrate.upgrade(target)
    if state.revision is not None:
        messages.append(
            _("Upgraded the schema from revision {revision} to {head}.").format(
                revision=state.revision, head=state.head
            )
        )


def upgrade_database(db: str | None = None) -> list[str]:
    """``quotetui db upgrade``: like opening, but says when there was nothing to do."""
    from quotetui.store import migrate

    opened = open_database(db, load_demo_if_new=False)
    opened.db.dispose()
    return opened.messages or [
        _("{database} is at the newest schema ({head}).").format(
            database=opened.db.target.label, head=migrate.head_revision()
        )
    ]


def backup_database(dest: Path, db: str | None = None) -> Path:
    from quotetui.store import migrate

    target = database_target(db)
    if not target.is_sqlite or target.path is None:
        raise DatabaseProblem(_("`db backup` copies SQLite files; back up a server with its own tools (pg_dump)"))
    if not target.path.exists():
        raise DatabaseProblem(_("no database at {path}").format(path=target.path))
    return migrate.backup_sqlite(target.path, dest.expanduser().resolve())


@dataclass(frozen=True, slots=True)
class DatabaseCheck:
    """``db check``: the file and its schema (``migrate.check``), then records this version would not have
    written: figures on record as verified that their offer's logs, judged now, refuse."""

    schema: migrate.CheckReport
    wrongly_verified: tuple[WronglyVerified, ...] = ()
    disagreeing_extras: tuple[DisagreeingExtra, ...] = ()  # extra costs on a basis their kind is not charged on

    @property
    def ok(self) -> bool:
        return self.schema.ok and not self.wrongly_verified and not self.disagreeing_extras

    def to_json(self) -> dict[str, object]:
        return {
            **self.schema.to_json(),
            "ok": self.ok,
            "wrongly_verified": [w.to_json() for w in self.wrongly_verified],
            "disagreeing_extras": [x.to_json() for x in self.disagreeing_extras],
        }


def check_database(db: str | None = None) -> DatabaseCheck:
    from quotetui.services.bench_import import wrongly_verified
    from quotetui.services.extra_check import disagreeing_extras
    from quotetui.store import migrate

    target = database_target(db)
    if target.path is not None and not target.path.exists():
        raise DatabaseProblem(_("no database at {path}").format(path=target.path))
    if target.path is not None:
        _refuse_foreign(target)  # another program's file is not "a quotetui database with an upgrade available"
    schema = migrate.check(target)
    if not schema.ok:  # a damaged or older schema, or values every read refuses: its records are not read
        return DatabaseCheck(schema)
    database = Database(target, read_only=target.path is not None)  # writes nothing, no WAL switch
    try:
        return DatabaseCheck(schema, tuple(wrongly_verified(database)), tuple(disagreeing_extras(database)))
    finally:
        database.dispose()


@dataclass(frozen=True, slots=True)
class BackupInfo:
    path: Path
    revision: str
    offers: int
    contracts: int

    def describe(self) -> str:
        return _(_IN_WORDS).format(
            database=self.path, revision=self.revision, offers=self.offers, contracts=self.contracts
        )


def inspect_backup(path: Path) -> BackupInfo:
    """Check a backup before it replaces anything: a readable SQLite file that passes the integrity and
    foreign-key checks and holds a quotetui schema this program knows."""
    from quotetui.store import migrate

    path = path.expanduser().resolve()
    if not path.is_file():
        raise DatabaseProblem(_("no backup file at {path}").format(path=path))
    try:
        conn = sqlite_reader(path)
        try:
            integrity = [row[0] for row in conn.execute("PRAGMA integrity_check")]
            if integrity != ["ok"]:
                raise DatabaseProblem(
                    _("{path} fails the integrity check: {problems}").format(path=path, problems=clauses(integrity[:3]))
                )
            if conn.execute("PRAGMA foreign_key_check").fetchone() is not None:
                raise DatabaseProblem(
                    _("{path} has rows that point at missing rows (foreign key check)").format(path=path)
                )
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if "alembic_version" not in tables or "offer" not in tables:
                raise DatabaseProblem(_("{path} is an SQLite file but not a quotetui database").format(path=path))
            revision = conn.execute("SELECT version_num FROM alembic_version").fetchone()[0]
            offers = conn.execute("SELECT COUNT(*) FROM offer").fetchone()[0]
            contracts = conn.execute("SELECT COUNT(*) FROM contract").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise DatabaseProblem(
            _("{path} is not a quotetui database (SQLite says: {reason})").format(path=path, reason=exc)
        ) from None
    if revision not in migrate.known_revisions():
        raise DatabaseProblem(
            _("{path} has schema {revision}, newer than this program ({head})").format(
                path=path, revision=revision, head=migrate.head_revision()
            )
        )
    return BackupInfo(path, revision, offers, contracts)


def restore_database(backup: Path, db: str | None = None) -> tuple[BackupInfo, Path | None]:
    """Replace the database with a checked backup, through SQLite's online backup API (open connections
    see the restored data); the current file is first saved beside it, so a restore can be undone.
    Returns what was restored and where the replaced database was saved."""
    from quotetui.store import migrate

    info = inspect_backup(backup)
    target = database_target(db)
    if target.path is not None and target.path.is_file() and target.path.stat().st_size:
        _refuse_foreign(target)  # a restore replaces quotetui's own database only
    if not target.is_sqlite or target.path is None:
        raise DatabaseProblem(_("`db restore` replaces SQLite files; restore a server with its own tools"))
    saved = migrate.timestamped_backup(target.path) if target.path.exists() else None
    migrate.restore_sqlite(info.path, target.path)
    return info, saved


def describe_database(db: str | None = None) -> str:
    """What a restore would replace, in a few words (for the confirmation question)."""
    target = database_target(db)
    if target.path is None or not target.path.exists():
        return _("{database} (does not exist yet)").format(database=target.label)
    try:
        info = inspect_backup(target.path)
    except DatabaseProblem as exc:
        return _("{database} (unreadable: {problem})").format(database=target.label, problem=exc)
    return _(_IN_WORDS).format(
        database=target.label, revision=info.revision, offers=info.offers, contracts=info.contracts
    )
