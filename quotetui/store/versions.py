"""Row versions and the data version: how a write is noticed.

* Every table a buyer edits has ``version`` (1 for a new row). Any flush that changes such a row bumps it,
  whichever front end wrote it (a form, an import, the CLI), so a form filled from version 3 can tell that
  the row it would overwrite is now version 4 (:func:`check_version`).
* ``setting.data_version`` is bumped by every write transaction that changed anything
  (:func:`bump_data_version`, called by ``Database.write``); a TUI polls it to notice other writers.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import ORMExecuteState, Session, UOWTransaction

from quotetui.domain.errors import Conflict, noun
from quotetui.language import _

DATA_VERSION = "data_version"
WROTE = "quotetui_wrote"


@sa.event.listens_for(Session, "before_flush")
def _bump_row_versions(session: Session, _context: UOWTransaction, _instances: Any) -> None:
    if session.new or session.dirty or session.deleted:
        session.info[WROTE] = True
    for row in session.dirty:
        if not hasattr(row, "version") or not session.is_modified(row, include_collections=False):
            continue
        if sa.inspect(row).attrs.version.history.has_changes():
            continue  # bumped on purpose already
        row.version = (row.version or 0) + 1


@sa.event.listens_for(Session, "do_orm_execute")
def _note_bulk_writes(state: ORMExecuteState) -> None:
    if state.is_insert or state.is_update or state.is_delete:
        state.session.info[WROTE] = True


def bump_data_version(session: Session) -> int | None:
    """In a write transaction that changed something: one more in ``setting.data_version`` (atomic, so two
    writers on a server never both write the same next number). The new number; None if nothing changed."""
    session.flush()
    if not session.info.pop(WROTE, False):
        return None
    session.execute(
        sa.text("UPDATE setting SET value = CAST(CAST(value AS INTEGER) + 1 AS VARCHAR(20)) WHERE key = :key"),
        {"key": DATA_VERSION},
    )
    return data_version(session)


def data_version(connection: sa.Connection | Session) -> int:
    value = connection.execute(sa.text("SELECT value FROM setting WHERE key = :key"), {"key": DATA_VERSION}).scalar()
    return int(value) if value is not None else 0


def check_version(what: str, current: object, expected: object) -> None:
    """Refuse to save over a row that changed since its form was filled (``expected`` None: a new row; ``what``:
    the row in words, marked ``N_`` by the caller)."""
    if expected is not None and current != expected:
        raise Conflict(
            _(
                "this {what} was changed since you opened it (in another window, by the CLI or by another buyer); "
                "nothing was saved — reload it to see the current values"
            ).format(what=noun(what))
        )
