"""Plain rows for the read paths that load in bulk (ranking, the offers list): tuples, no ORM objects.

A :class:`Reader` runs SQL and returns lists of tuples, and knows how its backend returns the exact column
types (``store/types.py``) so that the caller converts each value once:

* on SQLite it reads through the stdlib ``sqlite3`` connection itself (no SQLAlchemy on the way): a
  :class:`~quotetui.store.types.ScaledDecimal` is an integer count of 10^-scale units, a ``UTCDateTime`` is
  ISO text in UTC, a date is ISO text, a boolean is 0 or 1;
* on PostgreSQL it reads through SQLAlchemy's connection (the driver returns Decimals, aware datetimes, dates
  and booleans).

:func:`reading` gives one for a :class:`~quotetui.store.engine.Database`, reading one snapshot: the
snapshot the caller is already in (``one_snapshot``, or an outer :func:`reading` of the same database in this
thread: a use case that reads through several services reads one state), else its own read transaction (SQLite:
a read-only connection to the same file, opened the way ``store/engine.py`` opens read-only and immutable files).
:func:`session_reader` reads inside an ORM session's transaction.
"""

from __future__ import annotations

import functools
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar, cast

if TYPE_CHECKING:
    from sqlmodel import Session

    from quotetui.store.engine import Database

Params = Mapping[str, Any]


def _sqlite_money(value: int | None, places: int = 6) -> Decimal | None:
    return None if value is None else Decimal(value).scaleb(-places)


def _sqlite_when(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value).replace(tzinfo=UTC)


def _sqlite_day(value: str | None) -> date | None:
    return None if value is None else date.fromisoformat(value)


def _server_money(value: Decimal | None, places: int = 6) -> Decimal | None:
    return value


def _server_when(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _server_day(value: date | None) -> date | None:
    return value


def _finite_decimal(value: Any) -> Decimal:
    """A number stored as decimal text: ``NaN`` or ``Infinity`` (which ``Decimal`` takes) is not a figure."""
    out = Decimal(value)
    if not out.is_finite():
        raise ValueError(f"not a finite number: {value!r}")
    return out


def _shared(convert: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``convert`` giving one object per stored value (the same stored text or integer is the same value, with
    the same exponent): a bulk load of 100,000 offers holds each distinct amount, date or name once."""
    seen: dict[Any, Any] = {}

    def shared(value: Any) -> Any:
        if value is None:
            return None
        try:
            return seen[value]
        except KeyError:
            out = seen[value] = convert(value)
            return out

    return shared


class Reader:
    """SQL in, tuples out, with the value conversions of the backend it reads (see the module's doc). Each
    reader converts a stored value once: equal stored values give one shared (immutable) object.

    Parameters are named (``:name``) on every backend."""

    def __init__(self, execute: Callable[[str, Params], Iterable[Sequence[Any]]], sqlite: bool) -> None:
        self._execute = execute
        self.sqlite = sqlite
        money6 = _shared(_sqlite_money if sqlite else _server_money)
        self._money = _sqlite_money if sqlite else _server_money
        self._money6 = money6
        self.when: Callable[[Any], datetime | None] = _shared(_sqlite_when if sqlite else _server_when)
        self.day: Callable[[Any], date | None] = _shared(_sqlite_day if sqlite else _server_day)
        self.text_decimal: Callable[[str | None], Decimal | None] = _shared(_finite_decimal)
        self.text: Callable[[str | None], str | None] = _shared(str)

    def money(self, value: Any, places: int = 6) -> Decimal | None:
        """A :class:`~quotetui.store.types.ScaledDecimal` column's value (``places``: its scale)."""
        return self._money6(value) if places == 6 else self._money(value, places)  # type: ignore[no-any-return]

    def rows(self, sql: str, params: Params | None = None) -> Sequence[Sequence[Any]]:
        return list(self._execute(sql, params or {}))

    def each(self, sql: str, params: Params | None = None) -> Iterator[Sequence[Any]]:
        """The rows one at a time, from the cursor: a bulk read never holds them all (read every row before
        the next query on the same reader)."""
        return iter(self._execute(sql, params or {}))

    def one(self, sql: str, params: Params | None = None) -> Sequence[Any] | None:
        found = self.rows(sql, params)
        return found[0] if found else None


def sqlite_connection_reader(conn: sqlite3.Connection) -> Reader:
    """A reader inside a stdlib ``sqlite3`` connection's transaction."""

    def execute(sql: str, params: Params) -> Iterable[Sequence[Any]]:
        return conn.execute(sql, params)  # a cursor: rows come as it is read

    return Reader(execute, sqlite=True)


def _sa_execute(connection: Any) -> Callable[[str, Params], Iterable[Sequence[Any]]]:
    import sqlalchemy as sa

    def execute(sql: str, params: Params) -> Iterable[Sequence[Any]]:
        return connection.execute(sa.text(sql), params)  # type: ignore[no-any-return,unused-ignore]

    return execute


def connection_reader(connection: Any) -> Reader:
    """A reader inside an SQLAlchemy connection's transaction (on SQLite through its sqlite3 connection)."""
    if connection.dialect.name == "sqlite":
        raw = connection.connection.driver_connection
        return sqlite_connection_reader(raw)
    return Reader(_sa_execute(connection), sqlite=False)


def session_reader(session: Session) -> Reader:
    """A reader inside ``session``'s transaction (its pending changes flushed first, as a query would)."""
    if session.autoflush:
        session.flush()
    return connection_reader(session.connection())


_held = threading.local()
"""``readers``: the reader of each database (by ``id``) a :func:`reading` block of this thread holds open."""


@contextmanager
def reading(db: Database) -> Iterator[Reader]:
    """A reader of one consistent state of ``db``: the snapshot this thread is in (an ORM snapshot, or the
    read transaction of an outer ``reading(db)``), else its own read transaction (on SQLite a read-only stdlib
    connection to the file, closed at the end)."""
    shared = db.snapshot_connection()
    if shared is not None:
        yield connection_reader(shared)
        return
    held: dict[int, Reader] = _held.__dict__.setdefault("readers", {})
    outer = held.get(id(db))
    if outer is not None:
        yield outer
        return
    path = db.target.path
    if path is None:
        with db.snapshot():
            shared = db.snapshot_connection()
            assert shared is not None
            yield connection_reader(shared)
        return
    from quotetui.store.engine import sqlite_reader

    conn = sqlite_reader(path)
    try:
        conn.isolation_level = None  # one explicit read transaction: every SELECT below sees one snapshot
        conn.execute("BEGIN")
        held[id(db)] = reader = sqlite_connection_reader(conn)
        yield reader
    finally:
        held.pop(id(db), None)
        try:
            if conn.in_transaction:
                conn.rollback()
        finally:
            conn.close()


F = TypeVar("F", bound=Callable[..., Any])


def one_reading(func: F) -> F:
    """A use case whose every read goes through :func:`reading`: all of them read one snapshot (an outer
    ``reading`` of the same database is shared), on SQLite without SQLAlchemy. (A use case that also reads
    through ORM sessions takes ``store/engine.py: one_snapshot`` instead.)"""

    @functools.wraps(func)
    def wrapper(db: Database, *args: Any, **kwargs: Any) -> Any:
        with reading(db):
            return func(db, *args, **kwargs)

    return cast(F, wrapper)


def stored_json(value: Any) -> Any:
    """A JSON column's value: SQLite gives its text, PostgreSQL's driver the value already parsed."""
    import json

    return json.loads(value) if isinstance(value, str) else value


def in_list(name: str, values: Sequence[Any]) -> tuple[str, dict[str, Any]]:
    """``IN (:name0, :name1, …)`` and its parameters, for a short list of values."""
    params = {f"{name}{i}": v for i, v in enumerate(values)}
    return "(" + ", ".join(f":{k}" for k in params) + ")" if params else "(NULL)", params


__all__ = [
    "Reader",
    "connection_reader",
    "in_list",
    "one_reading",
    "reading",
    "session_reader",
    "sqlite_connection_reader",
    "stored_json",
]
