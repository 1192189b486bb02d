"""Excel speed against openpyxl's own floor, on a synthetic market (a benchmark script, not a timed test).

    python -m benchmarks.excel [--offers 2000] [--runs 3]

Measures, in one run (best of ``--runs`` for each timed step):
* export: quotetui's writer (number formats, highlights, formula-safe strings, frozen headers, filters,
  the chart) against openpyxl write-only mode writing the very same cell values with no styling at all —
  both from rows already computed, so the ratio is the writer's overhead; the economics and the sheet rows
  (``gather`` and building the rows) are timed separately;
* import: ``quotetui import`` of the exported workbook into an empty database (reading, checking every
  cell, writing the rows in one transaction) against openpyxl read-only mode reading every value of the
  same file; and the reading part alone (``read_file``) against the same floor.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from openpyxl import Workbook, load_workbook

from benchmarks.market import build
from quotetui.io.problems import Problem
from quotetui.io.tables import read_file
from quotetui.io.xlsx_write import Formula, Sheet, Styled, write_xlsx
from quotetui.services.database import open_database
from quotetui.services.export_data import gather
from quotetui.services.importing import import_files
from quotetui.services.transfer import workbook_properties, workbook_sheets


def best(runs: int, step: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return min(times)


def materialise(sheets: list[Sheet]) -> list[Sheet]:
    return [
        Sheet(s.title, s.columns, [list(r) for r in s.rows], s.preamble, s.freeze, s.autofilter, s.charts)
        for s in sheets
    ]


def plain(value: Any) -> Any:
    if isinstance(value, Styled):
        value = value.value
    return value.text if isinstance(value, Formula) else value


def floor_write(path: Path, sheets: list[Sheet]) -> None:
    """openpyxl write-only, the same values, nothing else."""
    book = Workbook(write_only=True)
    for s in sheets:
        sheet = book.create_sheet(s.title)
        for row in s.preamble:
            sheet.append([plain(v) for v in row])
        sheet.append([c.header for c in s.columns])
        for row in s.rows:
            sheet.append([plain(v) for v in row])
    book.save(path)


def floor_read(path: Path) -> int:
    """openpyxl read-only, every value of every sheet."""
    book = load_workbook(path, read_only=True, data_only=True)
    cells = 0
    for sheet in book.worksheets:
        for row in sheet.iter_rows(values_only=True):
            cells += len(row)
    book.close()
    return cells


def cell_count(sheets: Sequence[Sheet]) -> int:
    return sum(len(s.columns) * (len(list(s.rows)) + 1) + sum(len(r) for r in s.preamble) for s in sheets)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--offers", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        db = open_database(str(tmp / "market.db")).db
        build(db, args.offers)

        start = time.perf_counter()
        data = gather(db)
        t_gather = time.perf_counter() - start
        start = time.perf_counter()
        sheets = materialise(workbook_sheets(data))
        t_rows = time.perf_counter() - start
        props = workbook_properties(data)
        out = tmp / "ours.xlsx"
        t_ours = best(args.runs, lambda: write_xlsx(out, sheets, props))
        t_floor = best(args.runs, lambda: floor_write(tmp / "floor.xlsx", sheets))

        def read_only() -> None:
            read_file(out, [])

        def import_fresh() -> None:
            target = tmp / f"import-{time.perf_counter_ns()}.db"
            fresh = open_database(str(target)).db
            try:
                import_files(fresh, [out])
            finally:
                fresh.dispose()

        problems: list[Problem] = []
        read_file(out, problems)
        assert not [p for p in problems], problems
        t_read_floor = best(args.runs, lambda: floor_read(out))
        t_read_ours = best(args.runs, read_only)
        t_import = best(args.runs, import_fresh)
        result = {
            "offers": args.offers,
            "cells": cell_count(sheets),
            "export": {
                "gather_s": round(t_gather, 3),
                "build_rows_s": round(t_rows, 3),
                "write_s": round(t_ours, 3),
                "openpyxl_write_only_floor_s": round(t_floor, 3),
                "write_ratio": round(t_ours / t_floor, 2),
            },
            "import": {
                "openpyxl_read_only_floor_s": round(t_read_floor, 3),
                "read_s": round(t_read_ours, 3),
                "read_ratio": round(t_read_ours / t_read_floor, 2),
                "import_s": round(t_import, 3),
                "import_ratio": round(t_import / t_read_floor, 2),
            },
            "file_bytes": out.stat().st_size,
        }
        db.dispose()
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
