"""Small helpers for writing rows inside a session."""

from __future__ import annotations

from typing import Any, Protocol

from sqlmodel import Session


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
