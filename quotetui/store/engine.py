"""Engines and sessions: where the database is, and how every connection is configured.

SQLite connections get WAL, ``foreign_keys=ON`` and a busy timeout; transactions are begun
explicitly (``BEGIN`` for reads, ``BEGIN IMMEDIATE`` for writes) so that DDL and imports are atomic
and writers queue on the busy timeout instead of failing on a lock upgrade.

SQLAlchemy is imported when it is first needed: a :class:`Database` makes its engine on first use, so a read
path that reads SQLite through ``store/reader.py`` (the offers list, a ranking) never loads it.
"""

from __future__ import annotations

import functools
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from quotetui.domain.errors import DatabaseProblem
from quotetui.domain.redact import redact_url, scrub, url_secrets
from quotetui.language import _
from quotetui.language.lists import quoted

if TYPE_CHECKING:
    import sqlalchemy as sa
    from sqlalchemy.engine import Engine
    from sqlmodel import Session

ENV_VAR = "QUOTETUI_DB"
BUSY_TIMEOUT_MS = 15_000


@dataclass(frozen=True, slots=True)
class DbTarget:
    url: str  # a server's URL as given (never shown); for SQLite, a URL that is only a label
    path: Path | None  # the SQLite file, None for a server
    is_default: bool

    @property
    def label(self) -> str:
        """What to show the user: the file path, or the URL without its password (user part or query)."""
        if self.path is not None:
            return str(self.path)
        return redact_url(self.url)

    @property
    def is_sqlite(self) -> bool:
        return self.path is not None

    def secrets(self) -> list[str]:
        """The secrets in the URL, to be scrubbed from any message that might echo them."""
        return url_secrets(self.url) if self.path is None else []


def _parsed(url: str) -> sa.engine.URL | None:
    import sqlalchemy as sa

    try:
        return sa.engine.make_url(url)
    except (sa.exc.ArgumentError, ValueError, TypeError):
        return None


def default_db_path() -> Path:
    import platformdirs

    return platformdirs.user_data_path("quotetui", appauthor=False) / "quotetui.db"


def _file_target(path: str, is_default: bool = False) -> DbTarget:
    """A SQLite file by its path, exactly as given: ``#``, ``?``, ``%``, spaces and CJK are part of the name
    (the file is opened by path, never through a URL that would parse them)."""
    resolved = Path(path).expanduser().resolve()
    return DbTarget(f"sqlite:///{resolved}", resolved, is_default)


def choose_database(
    db: str | None,
    environ: Mapping[str, str] | None = None,
    configured: Callable[[], str | None] | None = None,
) -> tuple[str | None, str]:
    """The one precedence rule: ``--db``, then ``$QUOTETUI_DB``, then the config file's ``database``, then the
    built-in default (None). Returns the value and where it came from; ``configured`` (which reads the config
    file) is called only when neither of the first two is given."""
    env = os.environ if environ is None else environ
    if db:
        return db, "--db"
    if env.get(ENV_VAR):
        return env[ENV_VAR], f"${ENV_VAR}"
    value = configured() if configured is not None else None
    if value:
        return value, "config file"
    return None, "built-in default"


def resolve_target(
    db: str | None,
    environ: Mapping[str, str] | None = None,
    configured: Callable[[], str | None] | None = None,
) -> DbTarget:
    """Where the database is (:func:`choose_database`: ``--db``, ``$QUOTETUI_DB``, the config file, the
    platform's user data directory)."""
    given, source = choose_database(db, environ, configured)
    if given is None:
        return _file_target(str(default_db_path()), True)
    if "://" in given:
        url = _parsed(given)
        if url is None:
            if source == "config file":
                message = _("the config file's database {url} is not a valid database URL")
            else:
                message = _("{source} {url} is not a valid database URL")
            raise DatabaseProblem(message.format(source=source, url=quoted(redact_url(given))))
        if url.get_backend_name() == "sqlite":
            file = url.database or ""
            if not file or file == ":memory:":
                raise DatabaseProblem(_("an in-memory SQLite database cannot be used; give a file path"))
            return _file_target(file)
        return DbTarget(given, None, False)
    return _file_target(given)


def _sqlite_connect(
    dbapi_connection: sqlite3.Connection, _record: Any, foreign_keys: bool, read_only: bool = False
) -> None:
    dbapi_connection.isolation_level = None  # we issue BEGIN ourselves (see _sqlite_begin)
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.execute(f"PRAGMA foreign_keys={'ON' if foreign_keys else 'OFF'}")
        if not read_only:  # setting the journal mode writes; a read-only file keeps the one it has
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
    finally:
        cursor.close()


def sqlite_read_only(path: Path) -> bool:
    """Whether an existing SQLite file can only be read here: the file, or its folder (where WAL keeps its
    ``-wal`` and ``-shm`` files), is not writable, or is marked so for everyone (``chmod a-w``: root may still
    write it, but whoever marked it means it to be read only, and even a read command may write: the stored
    ranking, ``services/stored_ranking.py``)."""
    if not path.exists():
        return False
    if not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK | os.X_OK)):
        return True
    return not (path.stat().st_mode & 0o222 and path.parent.stat().st_mode & 0o222)


BEGIN_RETRIES = 4
"""After the busy timeout, a BEGIN that still finds the database locked is tried again this many times
(with a growing pause) before the error reaches the user: a long import in another process is waited for."""


WAIT_NOTICE_MS = 1000
"""A write that has waited this long for another program's write lock says so (see :func:`on_lock_wait`)."""

_lock_wait_hook: list[Callable[[], None]] = []  # at most one


def on_lock_wait(hook: Callable[[], None]) -> None:
    """Call ``hook`` whenever a write has waited :data:`WAIT_NOTICE_MS` for another program's write lock and
    goes on waiting (the CLI says so on stderr, instead of seeming to hang for up to the busy timeout). A
    second call replaces the first."""
    _lock_wait_hook[:] = [hook]


def _begin_or_say_waiting(conn: sa.Connection, statement: str) -> bool:
    """Try a write's BEGIN for :data:`WAIT_NOTICE_MS`; if the lock is still held, tell the hooks. Whether it
    began."""
    import sqlalchemy as sa

    raw = conn.connection.driver_connection
    raw.execute(f"PRAGMA busy_timeout={WAIT_NOTICE_MS}")
    try:
        conn.exec_driver_sql(statement)
        return True
    except sa.exc.OperationalError as exc:
        if "locked" not in str(exc.orig) and "busy" not in str(exc.orig):
            raise
        for hook in _lock_wait_hook:
            hook()
        return False
    finally:
        raw.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")


def _sqlite_begin(conn: sa.Connection) -> None:
    import sqlalchemy as sa

    statement = conn.get_execution_options().get("sqlite_begin", "BEGIN")
    if statement != "BEGIN" and _lock_wait_hook and _begin_or_say_waiting(conn, statement):
        return
    for attempt in range(BEGIN_RETRIES + 1):
        try:
            conn.exec_driver_sql(statement)
            return
        except sa.exc.OperationalError as exc:
            if attempt == BEGIN_RETRIES or ("locked" not in str(exc.orig) and "busy" not in str(exc.orig)):
                raise
            time.sleep(0.1 * 2**attempt)


def _sqlite_file(path: Path, *, read_only: bool = False) -> Callable[[], sqlite3.Connection]:
    """Connections to exactly ``path`` (read-only: through its ``file:`` URI, which percent-encodes the
    characters a URI would otherwise parse). A WAL file in a folder we cannot write, with no ``-shm`` beside
    it, cannot be opened read-only (SQLite would have to create the ``-shm``); no program has it open then
    (a writer keeps its ``-shm``), so it is opened ``immutable``. That is decided at every connection, so a
    writer that starts later is seen by the next one."""

    def connect() -> sqlite3.Connection:
        timeout = BUSY_TIMEOUT_MS / 1000
        if not read_only:
            return sqlite3.connect(str(path), timeout=timeout, check_same_thread=False)
        conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=timeout, check_same_thread=False)
        try:
            conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
        except sqlite3.OperationalError as exc:  # "unable to open" (a read-only mount), "readonly" (a folder
            if "unable to open" not in str(exc) and "readonly" not in str(exc):  # we may not write)
                raise
            conn.close()
            _refuse_unread_wal(path)
            return sqlite3.connect(f"{path.as_uri()}?immutable=1", uri=True, timeout=timeout, check_same_thread=False)
        return conn

    return connect


def _refuse_unread_wal(path: Path) -> None:
    """An ``immutable`` open reads the main file only: saved transactions still in a ``-wal`` beside it (a
    program that ended without its last checkpoint) would be silently left out of every figure and every
    backup. Refuse instead, saying what to do."""
    wal = path.with_name(path.name + "-wal")
    try:
        pending = wal.stat().st_size > 0
    except OSError:  # no -wal: the main file is the whole database
        return
    if pending:
        raise DatabaseProblem(
            _(
                "{name}-wal beside {path} holds saved changes that cannot be read from a folder this program may "
                "not write (no {name}-shm beside it); copy {name} and {name}-wal together to a folder "
                "you can write and open the copy; nothing was read"
            ).format(name=path.name, path=path)
        )


def sqlite_reader(path: Path) -> sqlite3.Connection:
    """A read-only connection to exactly ``path`` (for copies and checks that must not write)."""
    return _sqlite_file(path, read_only=True)()


def make_engine(target: DbTarget, *, foreign_keys: bool = True, read_only: bool = False) -> Engine:
    """An engine for ``target``. ``foreign_keys=False`` is only for schema migrations; ``read_only`` opens an
    SQLite file without writing anything to it or beside it."""
    import sqlalchemy as sa
    from sqlalchemy.pool import NullPool

    from quotetui.store import audit, versions  # noqa: F401  (listeners: row versions and the audit trail)

    if target.path is not None:
        read_only = read_only or sqlite_read_only(target.path)
        creator = _sqlite_file(target.path, read_only=read_only)
        engine = sa.create_engine("sqlite://", creator=creator, poolclass=NullPool)

        def on_connect(dbapi_connection: sqlite3.Connection, record: Any) -> None:
            _sqlite_connect(dbapi_connection, record, foreign_keys, read_only)

        sa.event.listen(engine, "connect", on_connect)
        sa.event.listen(engine, "begin", _sqlite_begin)
        return engine
    try:
        return sa.create_engine(target.url, pool_pre_ping=True)
    except ModuleNotFoundError as exc:
        raise DatabaseProblem(
            _(
                "the driver for {database} is not installed ({module}); for PostgreSQL install quotetui[postgres]"
            ).format(database=target.label, module=exc.name)
        ) from None
    except (sa.exc.ArgumentError, ValueError) as exc:
        raise DatabaseProblem(
            _("cannot use {database}: {problem}").format(
                database=target.label, problem=scrub(str(exc), target.secrets())
            )
        ) from None


class Database:
    """An open, migrated database: sessions for reading, transactions for writing. Without ``engine``, the
    engine is made (and SQLAlchemy imported) on first use."""

    def __init__(self, target: DbTarget, engine: Engine | None = None, *, read_only: bool = False) -> None:
        self.target = target
        self._engine = engine
        self.read_only = read_only
        self._writer_engine: Engine | None = None
        self._snapshot = threading.local()
        self._lock = threading.Lock()
        self.refresh_progress: Callable[[int, int], None] | None = None
        """Told (done, of) while ``after_write`` re-evaluates offers (a settings or FX change: every one): the
        front end's progress (the CLI on a terminal's stderr, the TUI in a notice)."""
        self.after_write: Callable[[Database], None] | None = None
        """Called after every committed write that changed something (``services/database.py`` sets it: the
        stored rankings are brought up to date in the command that wrote); its failures never undo the write."""
        self._deferred = threading.local()  # this thread's ``after_writes_deferred`` depth and whether one wrote
        self.written: set[int] = set()
        """The data versions this object's writes committed (each write moves the version by exactly one): a
        TUI's poll that finds only these since it last read knows the change is its own (the write's own reload
        reads it), not another program's; one version in between that is not here is another program's. The
        poll empties it when the numbers start again (a version that went back: a restore)."""

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            with self._lock:
                if self._engine is None:
                    self._engine = make_engine(self.target, read_only=self.read_only)
        return self._engine

    @property
    def _writer(self) -> Engine:
        if self._writer_engine is None:
            self._writer_engine = self.engine.execution_options(sqlite_begin="BEGIN IMMEDIATE")
        return self._writer_engine

    def session(self) -> Session:
        """A session for reading (and small writes the caller commits); inside :meth:`snapshot`, one that
        reads the snapshot's connection."""
        from sqlmodel import Session

        shared = getattr(self._snapshot, "connection", None)
        if shared is not None:
            return Session(bind=shared, expire_on_commit=False)
        return Session(self.engine, expire_on_commit=False)

    def snapshot_connection(self) -> sa.Connection | None:
        """The connection of the snapshot this thread is reading (:meth:`snapshot`), if any."""
        return getattr(self._snapshot, "connection", None)

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Every session opened in this block (in this thread) reads one consistent state of the database:
        one read transaction (SQLite: a WAL snapshot; PostgreSQL: REPEATABLE READ, READ ONLY), so a use case
        that reads several tables never mixes data from before and after another program's write."""
        if getattr(self._snapshot, "connection", None) is not None:
            yield  # nested: the outer snapshot holds
            return
        with self.engine.connect() as connection:
            if self.engine.dialect.name == "postgresql":
                connection = connection.execution_options(isolation_level="REPEATABLE READ")
            connection.begin()
            if self.engine.dialect.name == "postgresql":
                connection.exec_driver_sql("SET TRANSACTION READ ONLY")
            self._snapshot.connection = connection
            try:
                yield
            finally:
                self._snapshot.connection = None
                connection.rollback()

    @contextmanager
    def write(self) -> Iterator[Session]:
        """One all-or-nothing write transaction: commits on success, rolls back on any error."""
        if self.read_only:
            raise DatabaseProblem(read_only_message(self.target))
        import sqlalchemy as sa
        from sqlmodel import Session

        from quotetui.store.versions import bump_data_version

        wrote: int | None = None
        with Session(self._writer, expire_on_commit=False) as session:
            try:
                yield session
                wrote = bump_data_version(session)
                if wrote is not None:  # known as this object's before the commit makes it visible to a poll
                    self.written.add(wrote)
                session.commit()
            except sa.exc.OperationalError as exc:
                session.rollback()
                if wrote is not None:
                    self.written.discard(wrote)
                if "readonly" in str(exc.orig) or "read-only" in str(exc.orig):
                    raise DatabaseProblem(read_only_message(self.target)) from None
                raise
            except BaseException:
                session.rollback()
                if wrote is not None:
                    self.written.discard(wrote)
                raise
        if wrote is not None:
            if getattr(self._deferred, "depth", 0):
                self._deferred.wrote = True
            else:
                self._after_write()

    def _after_write(self) -> None:
        if self.after_write is not None:
            from contextlib import suppress

            with suppress(Exception):  # a shortcut for the next reader only: what was written stays written
                self.after_write(self)

    @contextmanager
    def after_writes_deferred(self) -> Iterator[None]:
        """The writes of the block (this thread's) run ``after_write`` once, when the block ends normally: an
        import releases its rows first, instead of holding them while every offer it touched is re-evaluated."""
        depth = getattr(self._deferred, "depth", 0)
        self._deferred.depth = depth + 1
        if not depth:
            self._deferred.wrote = False
        try:
            yield
        finally:
            self._deferred.depth = depth
        if not depth and self._deferred.wrote:
            self._deferred.wrote = False
            self._after_write()

    def file_identity(self) -> tuple[int, int] | None:
        """The SQLite file's device and inode (None on a server, or when it cannot be read): a file deleted and
        made again, or another file moved in its place, is another file even where its data version is not."""
        if self.target.path is None:
            return None
        try:
            st = os.stat(self.target.path)
        except OSError:
            return None
        return st.st_dev, st.st_ino

    def data_version(self) -> int:
        """A number every committed write changes (the TUI polls it to notice other programs' writes). On
        SQLite read through a stdlib read-only connection: polling needs no SQLAlchemy."""
        if self.target.path is not None:
            conn = sqlite_reader(self.target.path)
            try:
                row = conn.execute('SELECT value FROM setting WHERE "key" = ?', ("data_version",)).fetchone()
            finally:
                conn.close()
            return int(row[0]) if row is not None else 0
        from quotetui.store.versions import data_version

        with self.engine.connect() as connection:
            return data_version(connection)

    def dispose(self) -> None:
        if self._engine is not None:
            self._engine.dispose()


F = TypeVar("F", bound=Callable[..., Any])


def one_snapshot(func: F) -> F:
    """A use case that reads: everything it reads (its first argument is the :class:`Database`) comes from
    one snapshot of the database (see :meth:`Database.snapshot`)."""

    @functools.wraps(func)
    def wrapper(db: Database, *args: Any, **kwargs: Any) -> Any:
        if db is None:  # a calculator run without a database
            return func(db, *args, **kwargs)
        with db.snapshot():
            return func(db, *args, **kwargs)

    return cast(F, wrapper)


def read_only_message(target: DbTarget) -> str:
    if target.path is None:
        message = _(
            "{database} is read-only here (no write permission on the file); nothing was changed. Reading commands "
            "work; copy the file somewhere writable to change it."
        )
    else:
        message = _(
            "{database} is read-only here (no write permission on the file or its folder {folder}); nothing was "
            "changed. Reading commands work; copy the file somewhere writable to change it."
        )
    return message.format(database=target.label, folder=target.path.parent if target.path is not None else "")
