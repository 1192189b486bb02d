"""The read commands' services read plain tuples (``store/reader.py``), not ORM objects: a use case that reads
through several of them still reads one state of the database, and the plain contract rows keep every column
the front ends read by the models' names."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from quotetui.services.contract_rows import ContractRow, IncidentRow, InvoiceRow
from quotetui.services.database import open_database
from quotetui.services.market import list_providers
from quotetui.services.scenario_list import list_scenarios
from quotetui.store.models import Contract, Incident, Invoice
from quotetui.store.reader import reading
from tests.conftest import execute


def test_reads_inside_one_reading_see_one_state_though_another_program_writes(demo_db_path: Path) -> None:
    """``contracts due`` reads contracts, then open quotes; ``market`` a scenario, rates, then prices: each
    service opens ``reading(db)``, and inside an outer one they all read its snapshot."""
    db = open_database(str(demo_db_path)).db
    try:
        with reading(db):
            names = [p.name for p in list_providers(db)]
            execute(demo_db_path, "UPDATE provider SET name = name || ' (renamed)'")
            execute(demo_db_path, "UPDATE scenario SET months = months + 1")
            assert [p.name for p in list_providers(db)] == names  # not half old, half new
            assert all("(renamed)" not in s.name for s in list_scenarios(db))
            months = {s.name: s.months for s in list_scenarios(db)}
        assert [p.name for p in list_providers(db)] == [f"{n} (renamed)" for n in names]  # after it: the write
        assert {s.name: s.months - 1 for s in list_scenarios(db)} == months
    finally:
        db.dispose()


@pytest.mark.parametrize(("row", "model"), [(ContractRow, Contract), (IncidentRow, Incident), (InvoiceRow, Invoice)])
def test_a_plain_contract_row_has_every_column_of_its_table(row: type, model: type) -> None:
    """The TUI, the CLI and the export read ``view.contract.reference``, ``line.invoice.paid``…: a column
    added to a model must be read into its row too."""
    assert [f.name for f in fields(row)] == [c.name for c in model.__table__.columns]  # type: ignore[attr-defined]
