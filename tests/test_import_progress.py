"""An import says how far it has got, every so many rows (never per cell), and a progress callback that
raises stops it with the database exactly as before: the import is one transaction."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from quotetui.services.importing import EVERY, ImportCancelled, ImportProgress, import_files
from quotetui.store.engine import Database
from tests.conftest import dump


def providers_csv(folder: Path, rows: int) -> Path:
    path = folder / "providers.csv"
    lines = ["name,kind,regions"] + [f"Provider {i:05d},lessor,cn-north" for i in range(rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_progress_follows_reading_checking_and_writing_every_so_many_rows(empty_db: Database, tmp_path: Path) -> None:
    rows = 3 * EVERY + 7
    seen: list[ImportProgress] = []
    report = import_files(empty_db, [providers_csv(tmp_path, rows)], progress=lambda p: seen.append(replace(p)))
    assert report.counts["providers"].added == rows
    assert [p.stage for p in seen] == sorted((p.stage for p in seen), key=["reading", "checking", "writing"].index)
    assert len(seen) < 20  # every EVERY rows and at each stage: not per row, not per cell
    assert [p.rows_read for p in seen if p.stage == "reading"][-1] == rows
    assert [p.rows_written for p in seen if p.stage == "writing"] == [0, EVERY, 2 * EVERY, 3 * EVERY, rows]
    last = seen[-1]
    assert (last.files_read, last.rows_checked, last.rows_to_write) == (1, rows, rows)
    assert last.line() == f"1 of 1 file read, {rows:,} rows; {rows:,} checked; {rows:,} of {rows:,} written"
    assert f"  providers: {rows:,} added, 0 changed, 0 unchanged" in report.lines()  # as the progress line counts


def test_the_report_counts_with_thousands_separators() -> None:
    from quotetui.services.import_report import Counts, ImportReport

    assert str(Counts(60000, 1234, 999)) == "60,000 added, 1,234 changed, 999 unchanged"
    report = ImportReport(["providers.csv"], dry_run=False, counts={"providers": Counts(added=60000)})
    report.encodings["providers.csv"] = "UTF-8"
    assert report.lines() == [
        "Imported:",
        "  providers: 60,000 added, 0 changed, 0 unchanged",
        "Read providers.csv as UTF-8.",
    ]


def test_a_callback_that_raises_mid_write_leaves_the_database_as_it_was(
    empty_db: Database, db_path: Path, tmp_path: Path
) -> None:
    before = dump(db_path)

    def cancel_midway(progress: ImportProgress) -> None:
        if progress.stage == "writing" and progress.rows_written >= EVERY:
            raise ImportCancelled("cancelled")

    with pytest.raises(ImportCancelled):
        import_files(empty_db, [providers_csv(tmp_path, 3 * EVERY)], progress=cancel_midway)
    assert dump(db_path) == before
