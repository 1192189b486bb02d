"""The reading limits admit what quotetui exports, at 100,000 offers with room to spare, and still refuse what
they are for; text that XML cannot hold as it is (a carriage return, a look-alike of an escape) round-trips.

A 100k-offer export takes minutes, too slow for the suite: its sizes are worked out from a 500-offer export of
the same synthetic market (``benchmarks/market``), whose every part grows with the number of offers."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from benchmarks.market import build
from quotetui.io import table_model, tables, xlsx_read
from quotetui.io.problems import Problem
from quotetui.io.tables import read_file
from quotetui.io.xlsx_write import Column, Sheet, write_xlsx
from quotetui.services.database import open_database
from quotetui.services.transfer import export_file

OFFERS = 500
SCALE = 100_000 // OFFERS
MARGIN = 1.5  # a real market has more rounds and longer notes than the synthetic one


@pytest.fixture(scope="module")
def export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("limits")
    db = open_database(str(folder / "market.db"), load_demo_if_new=False).db
    try:
        build(db, OFFERS)
        return export_file(db, folder / "market.xlsx")
    finally:
        db.dispose()


def test_a_100k_offer_export_fits_every_limit(export: Path) -> None:
    assert export.stat().st_size * SCALE * MARGIN < tables.MAX_FILE_BYTES
    with zipfile.ZipFile(export) as archive:
        parts = archive.infolist()
        assert sum(p.file_size for p in parts) * SCALE * MARGIN < xlsx_read.MAX_UNZIPPED_BYTES
        for p in parts:  # never taken for a zip bomb, at any size (the ratio does not grow with the rows)
            assert p.file_size <= 2**20 or p.file_size < xlsx_read.MAX_MEMBER_RATIO * p.compress_size, p.filename
    problems: list[Problem] = []
    read = read_file(export, problems)
    assert not problems
    negotiation = next(t for t in read if t.sheet == "Negotiation")
    assert len(negotiation.rows) == 4 * OFFERS  # four price options an offer in the synthetic market
    assert max(len(t.rows) for t in read) * SCALE * MARGIN < table_model.MAX_ROWS


def test_the_export_imports_back_whole(export: Path, tmp_path: Path) -> None:
    from quotetui.services.importing import import_files

    db = open_database(str(tmp_path / "empty.db"), load_demo_if_new=False).db
    try:
        report = import_files(db, [export])
    finally:
        db.dispose()
    counts = {name: c.added for name, c in report.counts.items()}
    assert counts["offers"] == OFFERS and counts["revisions"] == 4 * OFFERS


def test_a_csv_over_its_limit_is_refused_before_it_is_decoded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "big.csv"
    path.write_text("name\n" + "x\n" * 600)
    monkeypatch.setattr(tables, "MAX_CSV_BYTES", 1000)
    problems: list[Problem] = []
    assert read_file(path, problems) == []
    assert [p.reason for p in problems] == ["file of 1,205 bytes is over the 1,000-byte limit for CSV"]


def test_a_workbook_unpacking_past_the_limit_is_refused(export: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(xlsx_read, "MAX_UNZIPPED_BYTES", 2**20)
    problems: list[Problem] = []
    assert read_file(export, problems) == []
    assert len(problems) == 1 and problems[0].reason.startswith("unpacks to ")


@pytest.mark.parametrize(
    "text",
    ["\r=1+1", "a\r\nb", "_x0041_ stays as typed", "_x005F_x0041_", "<&>\"'", " padded ", "tab\there", "中文"],
)
def test_text_xml_cannot_hold_as_it_is_comes_back_as_written(text: str, tmp_path: Path) -> None:
    out = write_xlsx(tmp_path / "t.xlsx", [Sheet("S", [Column("name"), Column("n")], [[text, 1]])], {})
    problems: list[Problem] = []
    [table] = read_file(out, problems)
    assert not problems
    assert table.rows == [(2, [text.strip(), 1])]  # a cell's text is read as check_text keeps it (trimmed)
