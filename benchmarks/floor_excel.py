"""Export and import end to end against stdlib floors of the same cells (a benchmark script, not a timed test).

    python -m benchmarks.floor_excel DB [--runs 3] [--work FOLDER]

* **export end to end**: ``quotetui --db DB export OUT.xlsx`` in a fresh process (opening the database,
  the economics, every sheet, the file) against :func:`floor_write`: stdlib ``zipfile`` and a plain XML
  writer of the very same cell values (read back from quotetui's workbook), no styles, one process.
* **import end to end**: ``quotetui --db EMPTY import OUT.xlsx`` into an empty database in a fresh process
  against :func:`floor_read`: stdlib ``zipfile`` and ``iterparse`` reading every cell of the same file.

Each side runs in its own process, which reports its time and its peak memory (VmHWM, ``benchmarks/memory``);
the best of ``runs`` is kept. Rows are in the suite's format (``benchmarks/run.py`` consumes them).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import iterparse
from xml.sax.saxutils import escape

Row = dict[str, Any]
NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
REL_NS = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
PKG_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
EXPORT_TARGET = 5.0  # issue 16: export within 5× its floor at 10k offers
IMPORT_TARGET = 2.0  # issue 16: import within 2× its floor

# -- the floors ------------------------------------------------------------------------------------------------
CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    "{sheets}</Types>"
)
SHEET_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
ROOT_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
    'officeDocument" Target="xl/workbook.xml"/></Relationships>'
)
WS_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"


def _letters(index: int) -> str:
    out = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        out = chr(65 + rest) + out
    return out


def floor_write(rows_by_sheet: dict[str, Sequence[Sequence[Any]]], path: Path) -> None:
    """A minimal valid workbook of the cells: numbers as ``<v>``, text as inline strings, nothing else."""
    names = list(rows_by_sheet)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
        overrides = "".join(
            f'<Override PartName="/xl/worksheets/sheet{i}.xml" ContentType="{SHEET_TYPE}"/>'
            for i in range(1, len(names) + 1)
        )
        z.writestr("[Content_Types].xml", CONTENT_TYPES.format(sheets=overrides))
        z.writestr("_rels/.rels", ROOT_RELS)
        sheets = "".join(
            f'<sheet name="{escape(n, {chr(34): "&quot;"})}" sheetId="{i}" r:id="rId{i}"/>'
            for i, n in enumerate(names, 1)
        )
        z.writestr(
            "xl/workbook.xml",
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            f'<workbook xmlns="{NS[1:-1]}" xmlns:r="{REL_NS[1:-1]}"><sheets>{sheets}</sheets></workbook>',
        )
        rels = "".join(
            f'<Relationship Id="rId{i}" Type="{WS_REL}" Target="worksheets/sheet{i}.xml"/>'
            for i in range(1, len(names) + 1)
        )
        z.writestr("xl/_rels/workbook.xml.rels", f'<Relationships xmlns="{PKG_REL[1:-1]}">{rels}</Relationships>')
        for i, name in enumerate(names, 1):
            with z.open(f"xl/worksheets/sheet{i}.xml", "w") as out:
                out.write(f'<?xml version="1.0" encoding="UTF-8"?>\n<worksheet xmlns="{NS[1:-1]}"><sheetData>'.encode())
                letters = [_letters(c) for c in range(200)]
                for r, row in enumerate(rows_by_sheet[name], 1):
                    cells = []
                    for c, value in enumerate(row):
                        if value is None or value == "":
                            continue
                        ref = f"{letters[c]}{r}"
                        if isinstance(value, (int, float)) and not isinstance(value, bool):
                            cells.append(f'<c r="{ref}"><v>{value}</v></c>')
                        else:
                            cells.append(f'<c r="{ref}" t="inlineStr"><is><t>{escape(str(value))}</t></is></c>')
                    out.write(f'<row r="{r}">{"".join(cells)}</row>'.encode())
                out.write(b"</sheetData></worksheet>")


def _column(ref: str) -> int:
    n = 0
    for ch in ref:
        if ch.isdigit():
            break
        n = n * 26 + ord(ch) - 64
    return n - 1


def _sheet_parts(z: zipfile.ZipFile) -> Iterator[tuple[str, str]]:
    targets = {}
    for _, el in iterparse(z.open("xl/_rels/workbook.xml.rels")):
        if el.tag == f"{PKG_REL}Relationship":
            targets[el.get("Id")] = el.get("Target", "").lstrip("/").removeprefix("xl/")
    for _, el in iterparse(z.open("xl/workbook.xml")):
        if el.tag == f"{NS}sheet":
            yield el.get("name", ""), "xl/" + targets[el.get(f"{REL_NS}id")]


def floor_read(path: Path) -> dict[str, list[list[Any]]]:
    """Every cell of every sheet: stdlib ``zipfile`` and ``iterparse``; numbers as float, text as str, rows
    placed by their cells' references (shared and inline strings both read)."""
    out: dict[str, list[list[Any]]] = {}
    with zipfile.ZipFile(path) as z:
        shared: list[str] = []
        if "xl/sharedStrings.xml" in z.namelist():
            for _, el in iterparse(z.open("xl/sharedStrings.xml")):
                if el.tag == f"{NS}si":
                    shared.append("".join(t.text or "" for t in el.iter(f"{NS}t")))
                    el.clear()
        for name, part in _sheet_parts(z):
            rows: list[list[Any]] = []
            row: list[Any] = []
            for _, el in iterparse(z.open(part)):
                tag = el.tag
                if tag == f"{NS}c":
                    kind = el.get("t")
                    if kind == "inlineStr":
                        value: Any = "".join(t.text or "" for t in el.iter(f"{NS}t"))
                    else:
                        v = el.find(f"{NS}v")
                        text = v.text if v is not None else None
                        if text is None:
                            value = None
                        elif kind == "s":
                            value = shared[int(text)]
                        elif kind in ("str", "b", "e"):
                            value = text
                        else:
                            value = float(text)
                    column = _column(el.get("r", "")) if el.get("r") else len(row)
                    while len(row) < column:
                        row.append(None)
                    row.append(value)
                    el.clear()
                elif tag == f"{NS}row":
                    number = int(el.get("r", len(rows) + 1))
                    while len(rows) < number - 1:
                        rows.append([])
                    rows.append(row)
                    row = []
                    el.clear()
            out[name] = rows
    return out


# -- measuring, each side in a fresh process ------------------------------------------------------------------
CHILD = """
import sys, time, atexit, json
from benchmarks.memory import peak_mib
start = time.perf_counter()
def done():
    sys.stderr.write("\\nFLOOR_EXCEL " + json.dumps({"s": time.perf_counter() - start, "mib": peak_mib()}) + "\\n")
atexit.register(done)
"""

QUOTETUI = (
    CHILD
    + """
sys.argv = ["quotetui", *sys.argv[1:]]
from quotetui.launch import main
main()
"""
)

FLOOR = (
    CHILD
    + """
from pathlib import Path
from benchmarks.floor_excel import floor_read, floor_write
what, source, target = sys.argv[1:4]
if what == "read":
    floor_read(Path(source))
else:
    cells = json.loads(Path(source).read_text())
    start = time.perf_counter()  # the floor writes cells it was given: loading them is not its time
    floor_write(cells, Path(target))
"""
)


def _child(code: str, args: list[str]) -> tuple[float, float]:
    env = dict(os.environ, PYTHONHASHSEED="0")
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, cwd=Path(__file__).parents[1]
    )
    marks = [line for line in done.stderr.splitlines() if line.startswith("FLOOR_EXCEL ")]
    if done.returncode != 0 or not marks:
        raise RuntimeError(f"{args[:2]} failed ({done.returncode}): {done.stderr[-2000:]}")
    found = json.loads(marks[-1].removeprefix("FLOOR_EXCEL "))
    return found["s"], found["mib"]


def _best(runs: int, code: str, args: Callable[[], list[str]]) -> tuple[float, float]:
    """Best time of ``runs`` fresh processes, and the highest peak memory among them."""
    results = [_child(code, args()) for _ in range(runs)]
    return min(r[0] for r in results), max(r[1] for r in results)


def measure(db: Path, work_dir: Path, runs: int = 3) -> list[Row]:
    """The two rows: export and import end to end, ours (the CLI, fresh process) against the floors."""
    from benchmarks.bytecode import compiled

    compiled()  # as an installed copy runs: bytecode, not source
    work_dir.mkdir(parents=True, exist_ok=True)
    out = work_dir / "export.xlsx"
    copy = work_dir / "market.db"
    shutil.copyfile(db, copy)  # opening may migrate or seed: never the caller's file

    def export_args() -> list[str]:
        return ["--db", str(copy), "export", str(out), "--force"]

    ours_export = _best(runs, QUOTETUI, export_args)
    cells_file = work_dir / "cells.json"
    cells = floor_read(out)
    cells_file.write_text(json.dumps(cells))
    floor_export = _best(runs, FLOOR, lambda: ["write", str(cells_file), str(work_dir / "floor.xlsx")])

    counter = iter(range(10**6))

    def import_args() -> list[str]:
        return ["--db", str(work_dir / f"empty-{next(counter)}.db"), "import", str(out)]

    ours_import = _best(runs, QUOTETUI, import_args)
    floor_import = _best(runs, FLOOR, lambda: ["read", str(out), "-"])
    n_cells = sum(len(r) for rows in cells.values() for r in rows)
    return [
        {
            "measure": "export end to end",
            "ours_s": round(ours_export[0], 3),
            "floor_s": round(floor_export[0], 3),
            "ours_mib": round(ours_export[1], 1),
            "floor_mib": round(floor_export[1], 1),
            "target": EXPORT_TARGET,
            "floor": f"stdlib zipfile + plain XML writer of the same {n_cells:,} cell values",
        },
        {
            "measure": "import end to end",
            "ours_s": round(ours_import[0], 3),
            "floor_s": round(floor_import[0], 3),
            "ours_mib": round(ours_import[1], 1),
            "floor_mib": round(floor_import[1], 1),
            "target": IMPORT_TARGET,
            "floor": "stdlib zipfile + iterparse reading every cell of the same workbook",
        },
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("db", type=Path, help="a market database (python -m benchmarks.market OUT.db)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work", type=Path, help="keep the files here (default: a temporary folder)")
    args = parser.parse_args()
    start = time.perf_counter()
    if args.work is not None:
        rows = measure(args.db, args.work, args.runs)
    else:
        with tempfile.TemporaryDirectory() as folder:
            rows = measure(args.db, Path(folder), args.runs)
    for row in rows:
        ratio = row["ours_s"] / row["floor_s"] if row["floor_s"] else float("inf")
        row_out = dict(row, ratio=round(ratio, 2))
        print(json.dumps(row_out))
    print(f"({time.perf_counter() - start:.0f} s in all)", file=sys.stderr)


if __name__ == "__main__":
    main()
