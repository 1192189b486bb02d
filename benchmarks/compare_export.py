"""The comparison workbook's cells, dumped and compared: a speed change to the export must not move a figure.

    python -m benchmarks.compare_export dump DB OUT.json [--xlsx KEEP.xlsx]   # export with a fixed clock, dump
    python -m benchmarks.compare_export diff A.json B.json                     # exit 1 on the first differences

``dump`` exports DB's workbook in process with the clock fixed (``utcnow`` and the ranking day), so two
checkouts export the same workbook from the same database, then reads it back with openpyxl and writes, for
every sheet in order, every cell with a value or a style: its reference, data type, value (formulas as
their text, numbers as the double a spreadsheet reads), number format, bold and fill; and the SHA-256 of each
part of the file (with the clock fixed, an unchanged writer writes the same bytes). ``diff`` compares two
dumps cell by cell and names the differences (exit 1); parts whose bytes differ are listed, for information.
Run ``dump`` with the code before and after a change (on the demo database and a market, ``python -m
benchmarks.market``) and ``diff`` the two.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

FIXED_NOW = datetime(2026, 12, 1, 9, 30, tzinfo=UTC)
FIXED_DAY = FIXED_NOW.date()


@contextmanager
def _fixed_clock() -> Iterator[None]:
    """Every loaded quotetui module's ``utcnow`` returns FIXED_NOW (they import the name, so each is set), and
    the real one again afterwards."""
    import quotetui.domain.timeutil as timeutil
    import quotetui.services.transfer  # noqa: F401  (load the export's modules before patching them)

    real = timeutil.utcnow
    patched = [
        m
        for m in list(sys.modules.values())
        if getattr(m, "__name__", "").startswith("quotetui") and getattr(m, "utcnow", None) is real
    ]
    for module in patched:
        module.utcnow = lambda: FIXED_NOW  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for module in patched:
            module.utcnow = real  # type: ignore[attr-defined]


def export(db_path: Path, out: Path, on: date = FIXED_DAY) -> Path:
    from quotetui.services.database import open_database
    from quotetui.services.transfer import export_file

    db = open_database(str(db_path)).db
    try:
        with _fixed_clock():
            return export_file(db, out, on=on, force=True)
    finally:
        db.dispose()


def cells(path: Path) -> dict[str, list[list[Any]]]:
    """Every non-empty cell of every sheet: [ref, data type, value, number format, bold, fill colour]."""
    from openpyxl import load_workbook

    book = load_workbook(path, read_only=True, data_only=False)
    out: dict[str, list[list[Any]]] = {}
    try:
        for sheet in book.worksheets:
            found = out[sheet.title] = []
            for row in sheet.iter_rows():
                for cell in row:
                    if getattr(cell, "value", None) is None and not getattr(cell, "has_style", False):
                        continue
                    value = cell.value
                    if isinstance(value, float | int) and not isinstance(value, bool):
                        value = repr(value)
                    elif isinstance(value, datetime | date):
                        value = value.isoformat()
                    fill = cell.fill.fgColor.rgb if cell.fill is not None and cell.fill.fill_type else None
                    found.append([cell.coordinate, cell.data_type, value, cell.number_format, bool(cell.font.b), fill])
    finally:
        book.close()
    return out


def parts(path: Path) -> dict[str, str]:
    """The SHA-256 of every part of the file."""
    with zipfile.ZipFile(path) as z:
        return {name: hashlib.sha256(z.read(name)).hexdigest() for name in z.namelist()}


def diff(a: dict[str, list[list[Any]]], b: dict[str, list[list[Any]]], limit: int = 20) -> list[str]:
    problems = []
    if list(a) != list(b):
        problems.append(f"sheets differ: {list(a)} != {list(b)}")
    for name in a:
        left, right = a[name], b.get(name, [])
        if len(left) != len(right):
            problems.append(f"{name}: {len(left)} cells != {len(right)}")
        for x, y in zip(left, right, strict=False):
            if x != y:
                problems.append(f"{name}: {x} != {y}")
                if len(problems) >= limit:
                    return problems
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    dump = sub.add_parser("dump")
    dump.add_argument("db", type=Path)
    dump.add_argument("out", type=Path)
    dump.add_argument("--xlsx", type=Path, help="keep the exported workbook here")
    compare = sub.add_parser("diff")
    compare.add_argument("a", type=Path)
    compare.add_argument("b", type=Path)
    args = parser.parse_args()
    if args.what == "dump":
        with tempfile.TemporaryDirectory() as folder:
            book = export(args.db, args.xlsx or Path(folder) / "export.xlsx")
            found = cells(book)
            hashes = parts(book)
        args.out.write_text(json.dumps({"cells": found, "parts": hashes}, indent=0))
        print(f"{sum(len(v) for v in found.values()):,} cells in {len(found)} sheets → {args.out}")
        return
    a, b = json.loads(args.a.read_text()), json.loads(args.b.read_text())
    problems = diff(a["cells"], b["cells"])
    moved = sorted(n for n in set(a["parts"]) | set(b["parts"]) if a["parts"].get(n) != b["parts"].get(n))
    print(f"parts with other bytes: {', '.join(moved) or 'none'}")
    for line in problems:
        print(line)
    if problems:
        raise SystemExit(1)
    print("same cells")


if __name__ == "__main__":
    main()
