"""Small helpers for writing rows inside a session."""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Protocol

from sqlmodel import Session

if TYPE_CHECKING:
    import sqlalchemy as sa


class HasId(Protocol):
    id: int | None


def insert(session: Session, row: HasId) -> int:
    """Add ``row``, flush so the database assigns its key, and return that key."""
    session.add(row)
    session.flush()
    assert row.id is not None
    return row.id


def column_names(model: type) -> frozenset[str]:
    """The column names of a table model."""
    return frozenset(model.__table__.columns.keys())  # type: ignore[attr-defined]


def columns_only(model: type, values: dict[str, Any]) -> dict[str, Any]:
    """The ``values`` that are columns of ``model`` (a record also holds references such as a GPU's name)."""
    names = column_names(model)
    return {name: value for name, value in values.items() if name in names}


def unknown_values(column: sa.Column[Any]) -> tuple[Any, Any]:
    """``column``'s values read as text (its own type would refuse one it does not know), and the condition
    that keeps only the rows holding such a value (another program wrote it): the column's enum decides."""
    import sqlalchemy as sa

    raw = sa.type_coerce(column, sa.String)
    return raw, sa.and_(raw.is_not(None), raw.not_in(list(column.type.enums)))  # type: ignore[attr-defined]


_RECORD_TYPES: dict[tuple[str, tuple[str, ...]], Any] = {}


def records(table: str, result: sa.Result[Any]) -> list[Any]:
    """The result's rows as named tuples of their table's columns (one type per table and columns, made once),
    values through the same column types as the ORM's attributes: a tuple costs a fraction of an ORM row (the
    export's sheets, the import's comparison of a stored row with the file's) and its attribute a tenth of a
    Core row's."""
    make = record_type(table, tuple(result.keys()))
    return [make(row) for row in result]


def record_type(table: str, columns: tuple[str, ...]) -> Any:
    """The maker of ``table``'s records of ``columns`` (one named-tuple type per table and columns)."""
    make = _RECORD_TYPES.get((table, columns))
    if make is None:
        make = _RECORD_TYPES[table, columns] = namedtuple(table, columns)._make  # type: ignore[attr-defined]
    return make


STREAM_BATCH = 2_000
"""Rows a streamed read fetches at a time (PostgreSQL: a server-side cursor)."""


def each_stored(session: Any, model: Any, *where: Any, order_by: tuple[Any, ...] = ()) -> Iterator[Any]:
    """:func:`stored`'s records one at a time, fetched a batch at a time: a table too big to hold whole (the
    export's rounds and change log at 100,000 offers)."""
    import sqlalchemy as sa

    table = model.__table__
    statement = sa.select(table).where(*where).order_by(*order_by)
    result = session.execute(statement, execution_options={"yield_per": STREAM_BATCH})
    make = record_type(table.name, tuple(result.keys()))
    for row in result:
        yield make(row)


def stored(session: Any, model: Any, *where: Any, order_by: tuple[Any, ...] = ()) -> list[Any]:
    """``model``'s stored rows (those matching ``where``, in ``order_by``) as records (``records``): a table read
    whole by a use case that builds no ORM object for it (the export's sheets, the import's comparison)."""
    import sqlalchemy as sa

    table = model.__table__
    return records(table.name, session.execute(sa.select(table).where(*where).order_by(*order_by)))
