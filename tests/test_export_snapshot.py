"""The workbook is one state of the database: the rows its sheets read while the file is written (the rounds,
the change log: never all held at 100,000 offers) come from the same snapshot as its figures, whatever another
program writes meanwhile."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

from quotetui.services import transfer
from quotetui.store.engine import Database
from tests.conftest import execute

CHANGED = "changed while the workbook was written"


def _values(path: Path, sheet: str) -> list[tuple[Any, ...]]:
    book = load_workbook(path, read_only=True)
    try:
        return [tuple(row) for row in book[sheet].iter_rows(values_only=True)]
    finally:
        book.close()


def test_rows_read_while_the_workbook_is_written_come_from_its_snapshot(
    demo_db: Database, demo_db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = transfer.export_file(demo_db, tmp_path / "before.xlsx")
    original = transfer.workbook_sheets
    wrote: list[bool] = []

    def then_another_program_writes(data: Any) -> Any:
        built = original(data)  # the figures are gathered; no sheet's rows are read yet
        execute(demo_db_path, "UPDATE quote_revision SET note = :note", {"note": CHANGED})
        wrote.append(True)
        return built

    monkeypatch.setattr(transfer, "workbook_sheets", then_another_program_writes)
    during = transfer.export_file(demo_db, tmp_path / "during.xlsx")
    monkeypatch.undo()
    after = transfer.export_file(demo_db, tmp_path / "after.xlsx")

    assert wrote
    negotiation = _values(during, "Negotiation")
    assert len(negotiation) > 10  # the demo's rounds, with their BATNAs and targets
    assert negotiation == _values(before, "Negotiation")
    assert _values(during, "History") == _values(before, "History")
    assert not any(CHANGED in map(str, row) for row in negotiation)
    assert any(CHANGED in map(str, row) for row in _values(after, "Negotiation"))  # the write did land
