"""Engines and sessions: where the database is, and how every connection is configured.

SQLite connections get WAL, ``foreign_keys=ON`` and a busy timeout; transactions are begun
explicitly (``BEGIN`` for reads, ``BEGIN IMMEDIATE`` for writes) so that DDL and imports are atomic
and writers queue on the busy timeout instead of failing on a lock upgrade.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.pool import NullPool
from sqlmodel import Session

from quotetui.domain.errors import DatabaseProblem

ENV_VAR = "QUOTETUI_DB"
BUSY_TIMEOUT_MS = 15_000


@dataclass(frozen=True, slots=True)
class DbTarget:
    url: str
    path: Path | None  # the SQLite file, None for a server
    is_default: bool

    @property
    def label(self) -> str:
        """What to show the user: the file path, or the URL without its password."""
        if self.path is not None:
            return str(self.path)
        return sa.engine.make_url(self.url).render_as_string(hide_password=True)

    @property
    def is_sqlite(self) -> bool:
        return self.url.startswith("sqlite")


def default_db_path() -> Path:
    import platformdirs

    return platformdirs.user_data_path("quotetui", appauthor=False) / "quotetui.db"


def resolve_target(db: str | None, environ: dict[str, str] | os._Environ[str] | None = None) -> DbTarget:
    """``--db`` wins, then ``$QUOTETUI_DB``, then the platform's user data directory."""
    env = os.environ if environ is None else environ
    given = db or env.get(ENV_VAR) or None
    if given is None:
        path = default_db_path()
        return DbTarget(f"sqlite:///{path}", path, True)
    if "://" in given:
        try:
            url = sa.engine.make_url(given)
        except sa.exc.ArgumentError:
            raise DatabaseProblem(f"--db {given!r} is not a valid database URL") from None
        if url.get_backend_name() == "sqlite":
            file = url.database or ""
            if not file or file == ":memory:":
                raise DatabaseProblem("an in-memory SQLite database cannot be used; give a file path")
            path = Path(file).expanduser().resolve()
            return DbTarget(f"sqlite:///{path}", path, False)
        return DbTarget(given, None, False)
    path = Path(given).expanduser().resolve()
    return DbTarget(f"sqlite:///{path}", path, False)


def _sqlite_connect(dbapi_connection: sqlite3.Connection, _record: Any, foreign_keys: bool) -> None:
    dbapi_connection.isolation_level = None  # we issue BEGIN ourselves (see _sqlite_begin)
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.execute(f"PRAGMA foreign_keys={'ON' if foreign_keys else 'OFF'}")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
    finally:
        cursor.close()


BEGIN_RETRIES = 4
"""After the busy timeout, a BEGIN that still finds the database locked is tried again this many times
(with a growing pause) before the error reaches the user: a long import in another process is waited for."""


def _sqlite_begin(conn: sa.Connection) -> None:
    statement = conn.get_execution_options().get("sqlite_begin", "BEGIN")
    for attempt in range(BEGIN_RETRIES + 1):
        try:
            conn.exec_driver_sql(statement)
            return
        except sa.exc.OperationalError as exc:
            if attempt == BEGIN_RETRIES or ("locked" not in str(exc.orig) and "busy" not in str(exc.orig)):
                raise
            time.sleep(0.1 * 2**attempt)


def make_engine(target: DbTarget, *, foreign_keys: bool = True) -> Engine:
    """An engine for ``target``. ``foreign_keys=False`` is only for schema migrations."""
    if target.is_sqlite:
        assert target.path is not None
        engine = sa.create_engine(target.url, poolclass=NullPool, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})

        def on_connect(dbapi_connection: sqlite3.Connection, record: Any) -> None:
            _sqlite_connect(dbapi_connection, record, foreign_keys)

        sa.event.listen(engine, "connect", on_connect)
        sa.event.listen(engine, "begin", _sqlite_begin)
        return engine
    try:
        return sa.create_engine(target.url, pool_pre_ping=True)
    except ModuleNotFoundError as exc:
        raise DatabaseProblem(
            f"the driver for {target.label} is not installed ({exc.name}); for PostgreSQL install quotetui[postgres]"
        ) from None


class Database:
    """An open, migrated database: sessions for reading, transactions for writing."""

    def __init__(self, target: DbTarget, engine: Engine) -> None:
        self.target = target
        self.engine = engine
        self._writer = engine.execution_options(sqlite_begin="BEGIN IMMEDIATE")

    def session(self) -> Session:
        """A session for reading (and small writes the caller commits)."""
        return Session(self.engine, expire_on_commit=False)

    @contextmanager
    def write(self) -> Iterator[Session]:
        """One all-or-nothing write transaction: commits on success, rolls back on any error."""
        with Session(self._writer, expire_on_commit=False) as session:
            try:
                yield session
                session.commit()
            except BaseException:
                session.rollback()
                raise

    def dispose(self) -> None:
        self.engine.dispose()
