"""An export of a market too big to hold (``services/export_ranking.py``: evaluated a chunk at a time, once
per sheet that reads the figures) writes the same workbook as one held whole; and the workbook is one state of
the database: the rows its sheets read while the file is written (the rounds, the change log) come from the
same snapshot as its figures, whatever another program writes meanwhile."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

import quotetui.services.export_ranking as export_ranking
from quotetui.services import transfer
from quotetui.services.database import open_database
from quotetui.store.engine import Database
from tests.conftest import Cli, execute, probe_bundle

SAMPLES = Path(__file__).parent.parent / "imports" / "samples"
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


def _parts(path: Path) -> dict[str, bytes]:
    """The workbook's parts, but its properties (they carry the time it was written)."""
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist() if not n.startswith("docProps/")}


def test_a_market_read_a_chunk_at_a_time_exports_the_same_workbook(
    cli: Cli, demo_db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(demo_db_path)
    logs = sorted((SAMPLES / "h100-clean").iterdir())  # logs on record and a contract: the Acceptance sheet
    assert cli("--db", db, "bench", "import", str(probe_bundle(tmp_path, "node01", logs)), "--offer", "9").code == 0
    added = cli("--db", db, "contracts", "add", "--offer", "9", "--start", "2026-06-01", "--term-months", "12")
    assert added.code == 0, added.err
    # an offer priced in dollars with no rate recorded: listed, never compared
    execute(demo_db_path, "UPDATE revision_price SET currency = 'USD' WHERE revision_id IN "
                          "(SELECT id FROM quote_revision WHERE offer_id = 5)")  # fmt: skip
    held = tmp_path / "held.xlsx"
    assert cli("--db", db, "export", str(held), "--pin", "18", "--pin", "2").code == 0

    monkeypatch.setattr(export_ranking, "HELD", 0)
    monkeypatch.setattr(export_ranking, "CHUNK", 3)  # the demo's 20 offers: 7 chunks, some cut mid-provider
    reads: list[int] = []
    read = export_ranking.offer_inputs

    def counted(*args: object, **kwargs: object) -> object:
        reads.append(1)
        return read(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(export_ranking, "offer_inputs", counted)
    opened = open_database(db)
    try:
        ranking = export_ranking.ExportRanking(opened.db)
        assert [o.id for o, _ in ranking.skipped] == [5] and len(ranking.order) == 19
    finally:
        opened.db.dispose()
    chunked = tmp_path / "chunked.xlsx"
    assert cli("--db", db, "export", str(chunked), "--pin", "18", "--pin", "2").code == 0
    assert len(reads) > 7 * 3  # read again for the sheets: never held
    assert _values(chunked, "Acceptance") and _values(chunked, "Findings")
    assert _parts(chunked) == _parts(held)


@pytest.mark.sqlite_only  # the file's stamp: what a SQLite ranking is kept under in the process
def test_a_write_during_the_export_does_not_leave_a_stale_ranking_in_the_process(
    demo_db: Database, demo_db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another program that writes (without bumping the data version) after the export's first read and before
    the ranking is read: the ranking the process keeps is the export's snapshot's, under the stamp of before the
    write, so the TUI's next ranking in the same process reads the write (found by a hostile pass)."""
    import sqlite3

    from quotetui.services import economics

    held: list[sqlite3.Connection] = []
    rank = export_ranking.rank_offers

    def racing(*args: Any, **kwargs: Any) -> Any:
        other = sqlite3.connect(demo_db_path, isolation_level=None)  # kept open, as another program would
        other.execute("UPDATE revision_price SET amount = amount * 3 WHERE revision_id IN "
                      "(SELECT id FROM quote_revision WHERE offer_id = 18)")  # fmt: skip
        held.append(other)
        return rank(*args, **kwargs)

    monkeypatch.setattr(export_ranking, "rank_offers", racing)
    transfer.export_file(demo_db, tmp_path / "board.xlsx")
    monkeypatch.undo()
    assert held
    try:
        after = economics.rank_offers(demo_db)
        assert after.evaluations[0].offer.id == 14  # offer 18, tripled, no longer leads: the write is seen
    finally:
        held[0].close()
