"""Engines and sessions: where the database is, and how every connection is configured.

SQLite connections get WAL, ``foreign_keys=ON`` and a busy timeout; transactions are begun
explicitly (``BEGIN`` for reads, ``BEGIN IMMEDIATE`` for writes) so that DDL and imports are atomic
and writers queue on the busy timeout instead of failing on a lock upgrade.
"""

from __future__ import annotations

import os
import re
import sqlite3
import time
from collections.abc import Callable, Iterator
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


SECRET_KEYS = frozenset({"password", "passwd", "pwd", "sslpassword", "sslkey_password", "secret", "token"})
"""URL query parameters whose value is a secret (``?password=`` is as secret as the user part's password)."""


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
    try:
        return sa.engine.make_url(url)
    except (sa.exc.ArgumentError, ValueError, TypeError):
        return None


def url_secrets(url: str) -> list[str]:
    found = [m.group(1) for m in _USERINFO.finditer(url)]
    parsed = _parsed(url)
    if parsed is not None:
        if parsed.password:
            found.append(str(parsed.password))
        for key, value in parsed.query.items():
            if key.lower() in SECRET_KEYS:
                found += [value] if isinstance(value, str) else list(value)
    return sorted({s for s in found if s}, key=len, reverse=True)


def redact_url(url: str) -> str:
    """``url`` with every password and secret query value shown as ``***`` (also for a URL that does not
    parse: whatever sits between ``user:`` and ``@`` is hidden)."""
    return scrub(url, url_secrets(url))


def scrub(text: str, secrets: list[str]) -> str:
    for secret in secrets:
        text = text.replace(secret, "***")
    return text


_USERINFO = re.compile(r"://[^/@:]*:([^@/]*)@")


def default_db_path() -> Path:
    import platformdirs

    return platformdirs.user_data_path("quotetui", appauthor=False) / "quotetui.db"


def _file_target(path: str, is_default: bool = False) -> DbTarget:
    """A SQLite file by its path, exactly as given: ``#``, ``?``, ``%``, spaces and CJK are part of the name
    (the file is opened by path, never through a URL that would parse them)."""
    resolved = Path(path).expanduser().resolve()
    return DbTarget(f"sqlite:///{resolved}", resolved, is_default)


def resolve_target(db: str | None, environ: dict[str, str] | os._Environ[str] | None = None) -> DbTarget:
    """``--db`` wins, then ``$QUOTETUI_DB``, then the platform's user data directory."""
    env = os.environ if environ is None else environ
    given = db or env.get(ENV_VAR) or None
    if given is None:
        return _file_target(str(default_db_path()), True)
    if "://" in given:
        url = _parsed(given)
        if url is None:
            raise DatabaseProblem(f"--db {redact_url(given)!r} is not a valid database URL")
        if url.get_backend_name() == "sqlite":
            file = url.database or ""
            if not file or file == ":memory:":
                raise DatabaseProblem("an in-memory SQLite database cannot be used; give a file path")
            return _file_target(file)
        return DbTarget(given, None, False)
    return _file_target(given)


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


def _sqlite_file(path: Path, *, read_only: bool = False) -> Callable[[], sqlite3.Connection]:
    """Connections to exactly ``path`` (read-only: through its ``file:`` URI, which percent-encodes the
    characters a URI would otherwise parse)."""

    def connect() -> sqlite3.Connection:
        timeout = BUSY_TIMEOUT_MS / 1000
        if read_only:
            return sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=timeout, check_same_thread=False)
        return sqlite3.connect(str(path), timeout=timeout, check_same_thread=False)

    return connect


def make_engine(target: DbTarget, *, foreign_keys: bool = True) -> Engine:
    """An engine for ``target``. ``foreign_keys=False`` is only for schema migrations."""
    if target.path is not None:
        engine = sa.create_engine("sqlite://", creator=_sqlite_file(target.path), poolclass=NullPool)

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
    except (sa.exc.ArgumentError, ValueError) as exc:
        raise DatabaseProblem(f"cannot use {target.label}: {scrub(str(exc), target.secrets())}") from None


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
