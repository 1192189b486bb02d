"""The scale benchmark suite: a reproducible 10,000-offer market, and quotetui against its floor for each
thing a buyer waits on, side by side in one run (a benchmark script, not a timed test).

    python -m benchmarks.run [--offers 10000] [--runs 3] [--json]

The market: 200 providers, 10,000 offers, 40,000 rounds, 5,000 benchmark results, 500 contracts (seeded,
so two runs build the same database). Each side of each measure runs in a fresh process, which reports its
time and its peak memory (max RSS):

* first frame: quotetui on the market vs a bare Textual app with a header, a table and a footer (median);
* filter keystroke on the offers table vs a keystroke into a bare Input, both through Textual's pilot;
* ranking every offer for the default scenario vs a raw SELECT of the same offers and prices;
* export: writing the comparison workbook vs openpyxl's write-only mode writing the same values;
* import: the workbook into an empty database vs openpyxl's read-only mode reading every value plus a
  plain ``executemany`` of the rows into SQLite.

Targets (DESIGN.md section 6): first frame within 2×, export and import within 1.5× of the floor.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.excel import best
from benchmarks.memory import peak_mib

TARGETS = {"first frame": 2.0, "export": 1.5, "import": 1.5}


# -- the steps, each run in its own process ------------------------------------------------------------------
def rank_ours(db: Path, work: Path, runs: int) -> float:
    from quotetui.services.database import open_database
    from quotetui.services.economics import rank_offers

    opened = open_database(str(db))
    try:
        return best(runs, lambda: rank_offers(opened.db, history=False))
    finally:
        opened.db.dispose()


RAW = """
SELECT o.*, r.seq, p.term_months, p.unit, p.amount, p.amount_high, p.currency
FROM offer o
JOIN quote_revision r ON r.offer_id = o.id
 AND r.seq = (SELECT MAX(seq) FROM quote_revision WHERE offer_id = o.id)
JOIN revision_price p ON p.revision_id = r.id
"""


def rank_floor(db: Path, work: Path, runs: int) -> float:
    def select() -> None:
        with sqlite3.connect(db) as con:
            con.execute(RAW).fetchall()

    return best(runs, select)


def _sheets(db: Path) -> tuple[list[Any], dict[str, str]]:
    from benchmarks.excel import materialise
    from quotetui.services.database import open_database
    from quotetui.services.export_data import gather
    from quotetui.services.transfer import workbook_properties, workbook_sheets

    opened = open_database(str(db))
    try:
        data = gather(opened.db)
        return materialise(workbook_sheets(data)), workbook_properties(data)
    finally:
        opened.db.dispose()


def export_ours(db: Path, work: Path, runs: int) -> float:
    from quotetui.io.xlsx_write import write_xlsx

    sheets, props = _sheets(db)
    return best(runs, lambda: write_xlsx(work / "board.xlsx", sheets, props))


def export_floor(db: Path, work: Path, runs: int) -> float:
    from benchmarks.excel import floor_write

    sheets, _ = _sheets(db)
    return best(runs, lambda: floor_write(work / "floor.xlsx", sheets))


def import_ours(db: Path, work: Path, runs: int) -> float:
    from quotetui.services.database import open_database
    from quotetui.services.importing import import_files

    def once() -> None:
        fresh = open_database(str(work / f"import-{time.perf_counter_ns()}.db"), load_demo_if_new=False)
        try:
            import_files(fresh.db, [work / "board.xlsx"])
        finally:
            fresh.db.dispose()

    return best(runs, once)


def import_floor(db: Path, work: Path, runs: int) -> float:
    from openpyxl import load_workbook

    def once() -> None:
        book = load_workbook(work / "board.xlsx", read_only=True, data_only=True)
        con = sqlite3.connect(work / f"floor-{time.perf_counter_ns()}.db")
        for n, sheet in enumerate(book.worksheets):
            rows = [tuple(str(v) if v is not None else None for v in row) for row in sheet.iter_rows(values_only=True)]
            width = max((len(r) for r in rows), default=1)
            con.execute(f"CREATE TABLE t{n} ({', '.join(f'c{i}' for i in range(width))})")
            con.executemany(
                f"INSERT INTO t{n} VALUES ({', '.join('?' * width)})", [r + (None,) * (width - len(r)) for r in rows]
            )
        con.commit()
        con.close()
        book.close()

    return best(runs, once)


def filter_both(db: Path, work: Path, runs: int) -> list[float]:
    """(quotetui keystroke, bare keystroke, quotetui peak MiB): one process, since the pilot needs the app."""
    from benchmarks.tui import bare_keystroke, in_app

    _, _, pressed, _, _ = asyncio.run(in_app(db))
    return [pressed, asyncio.run(bare_keystroke())]


STEPS: dict[str, Callable[[Path, Path, int], Any]] = {
    "rank-ours": rank_ours,
    "rank-floor": rank_floor,
    "export-ours": export_ours,
    "export-floor": export_floor,
    "import-ours": import_ours,
    "import-floor": import_floor,
    "filter": filter_both,
}


def _child(step: str, db: Path, work: Path, runs: int) -> dict[str, Any]:
    args = [sys.executable, "-m", "benchmarks.run", "--step", step, "--db", str(db), "--work", str(work)]
    out = subprocess.run([*args, "--runs", str(runs)], capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])  # type: ignore[no-any-return]


def _frames(db: Path, runs: int) -> tuple[tuple[float, float], tuple[float, float]]:
    bare, ours = [], []
    for _ in range(runs):
        for target, out in (("bare", bare), ("quotetui", ours)):
            args = [sys.executable, "-m", "benchmarks.first_frame", target, str(db)]
            seconds, mib = subprocess.run(args, capture_output=True, text=True, check=True).stdout.split()
            out.append((float(seconds), float(mib)))
    return (
        (statistics.median(s for s, _ in ours), max(m for _, m in ours)),
        (statistics.median(s for s, _ in bare), max(m for _, m in bare)),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--offers", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON too.")
    parser.add_argument("--step", choices=sorted(STEPS), help=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--work", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.step:
        value = STEPS[args.step](args.db, args.work, args.runs)
        print(json.dumps({"value": value, "mib": round(peak_mib(), 1)}))
        return

    from benchmarks.market import build
    from quotetui.services.database import open_database

    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        db = work / "market.db"
        opened = open_database(str(db), load_demo_if_new=False)
        started = time.perf_counter()
        sizes = build(opened.db, args.offers)
        built = time.perf_counter() - started
        opened.db.dispose()
        frame_ours, frame_bare = _frames(db, max(args.runs, 3))
        results = {name: _child(name, db, work, args.runs) for name in STEPS}  # export writes the import's file
    rows = [
        (
            "first frame",
            frame_ours[0],
            frame_bare[0],
            frame_ours[1],
            frame_bare[1],
            "bare Textual: header, table, footer",
        ),
        (
            "filter keystroke",
            results["filter"]["value"][0],
            results["filter"]["value"][1],
            results["filter"]["mib"],
            None,
            "a keystroke into a bare Input (pilot)",
        ),
        ("rank all offers", *_pair(results, "rank"), "raw SELECT of the same offers and prices"),
        ("export workbook", *_pair(results, "export"), "openpyxl write-only, same values"),
        ("import workbook", *_pair(results, "import"), "openpyxl read-only + executemany"),
    ]
    print(f"market: {sizes} (built in {built:.1f} s); best of {args.runs}, first frame median of {max(args.runs, 3)}")
    print(f"{'measure':18} {'quotetui':>10} {'floor':>10} {'ratio':>7} {'target':>7} {'peak MiB':>16}  floor")
    figures = []
    for name, ours, floor, mib_ours, mib_floor, what in rows:
        target = TARGETS.get(name if name == "first frame" else name.split()[0])
        ratio = ours / floor
        memory = f"{mib_ours:.0f}" + (f" / {mib_floor:.0f}" if mib_floor is not None else "")
        shown = f"≤ {target:.1f}" if target else ""
        print(f"{name:18} {ours:9.3f}s {floor:9.3f}s {ratio:6.2f}× {shown:>7} {memory:>16}  {what}")
        figures.append({"measure": name, "quotetui_s": ours, "floor_s": floor, "ratio": ratio,
                        "peak_mib": mib_ours, "floor_peak_mib": mib_floor, "floor": what})  # fmt: skip
    if args.json:
        print(json.dumps({"market": sizes, "figures": figures}, indent=2))


def _pair(results: dict[str, dict[str, Any]], name: str) -> tuple[float, float, float, float]:
    ours, floor = results[f"{name}-ours"], results[f"{name}-floor"]
    return ours["value"], floor["value"], ours["mib"], floor["mib"]


if __name__ == "__main__":
    main()
