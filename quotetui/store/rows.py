"""Small helpers for writing rows inside a session."""

from __future__ import annotations

from typing import Protocol

from sqlmodel import Session


class HasId(Protocol):
    id: int | None


def insert(session: Session, row: HasId) -> int:
    """Add ``row``, flush so the database assigns its key, and return that key."""
    session.add(row)
    session.flush()
    assert row.id is not None
    return row.id
