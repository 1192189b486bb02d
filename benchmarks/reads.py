"""Issue 33's read rows: what a buyer waits for once the ranking is stored (a benchmark script, not a test).

    python -m benchmarks.reads MARKET.db DEMO.db [--runs 5] [--json]

* ``explain ID``, ``rfq show`` and ``award`` on a market (10,000 offers in the issue), each against a stdlib
  sqlite3 script reading the same rows (the offer's rows; the offers of the RFQ's GPU models with their
  current prices) and printing them; target 10×. The RFQ (64 GPUs of H100 SXM5 or H800 SXM5 for 12 months)
  is written into a copy of the market first, so the market itself is left as it was.
* ``--help``, ``offers`` and ``rfq list`` on the demo database against ``python -c pass``; target 15×.

Each side of each measure is a fresh process (best of ``runs``; peak memory from one more run), as
``benchmarks/cli.py`` measures; listings are not kept between runs except where a row says "second launch".
All are warm in the sense of the issue's table: the ranking was stored by the write that made the market.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import tempfile
from pathlib import Path

from benchmarks.cli import OFFERS_FULL, Row, _best, _cache, _floor_code, _ours, _row

EXPLAIN_TARGET = 10.0
SMALL_TARGET = 15.0
PASS = (["pass"], "python -c pass")  # the small commands' floor, as ``_row`` takes it
RFQ = ["rfq", "new", "bench64", "--gpu", "H100 SXM5,H800 SXM5", "--gpus", "64", "--months", "12"]
RFQ_ROWS = OFFERS_FULL.replace(
    "ORDER BY", "WHERE g.key IN ('h100-sxm5', 'h800-sxm5') ORDER BY"
)  # the rows rfq show and the award read: every offer of the RFQ's models, with its current prices


def _middle_offer(db: Path) -> str:
    import sqlite3

    with sqlite3.connect(db.resolve().as_uri() + "?mode=ro", uri=True) as con:
        count = con.execute("SELECT COUNT(*) FROM offer").fetchone()[0]
        found = con.execute("SELECT id FROM offer ORDER BY id LIMIT 1 OFFSET ?", (count // 2,)).fetchone()
    return str(found[0])


def _with_rfq(market: Path, folder: Path) -> Path:
    """A copy of ``market`` with the benchmark's RFQ written in (through quotetui, as a buyer would)."""
    copy = Path(shutil.copyfile(market, folder / "market-with-rfq.db"))
    subprocess.run([*_ours(), "--db", str(copy), *RFQ, "--start", "2027-01-01"], check=True, capture_output=True)
    return copy


def measure(market: Path, demo: Path, runs: int = 5) -> list[Row]:
    from benchmarks.bytecode import compiled

    compiled()  # as an installed copy runs: bytecode, not source
    rows = []
    with tempfile.TemporaryDirectory(prefix="reads-") as folder, _cache("off"):
        db = _with_rfq(market, Path(folder))
        floor = _floor_code(db)
        offer = _middle_offer(db)
        single = OFFERS_FULL.replace("ORDER BY", "WHERE o.id = ? ORDER BY")
        what = "sqlite3 reading the same rows, printed"
        rows.append(_row("explain ID", ["--db", str(db), "explain", offer], [floor, "lines", single, offer], runs,
                         what, EXPLAIN_TARGET))  # fmt: skip
        for name, args in (
            ("rfq show", ["rfq", "show", RFQ[2]]),
            ("award", ["award", RFQ[2], "--include-market"]),
        ):
            rows.append(_row(name, ["--db", str(db), *args], [floor, "table", RFQ_ROWS], runs, what, EXPLAIN_TARGET))
        small = Path(shutil.copyfile(demo, Path(folder) / "demo.db"))
        subprocess.run([*_ours(), "--db", str(small), *RFQ, "--start", "2027-01-01"], check=True, capture_output=True)
        rows.append(_row("--help", ["--help"], PASS[0], runs, PASS[1], SMALL_TARGET))
        rows.append(_row("rfq list (demo)", ["--db", str(small), "rfq", "list"], PASS[0], runs, PASS[1], SMALL_TARGET))
    with tempfile.TemporaryDirectory(prefix="reads-cache-") as cache, _cache(cache):
        args = ["--db", str(demo), "offers"]
        _best([*_ours(), *args], 1)  # the first launch keeps the listing
        rows.append(_row("offers (demo), second launch", args, PASS[0], runs, PASS[1], SMALL_TARGET))
    with _cache("off"):
        rows.append(_row("offers (demo), cold", ["--db", str(demo), "offers"], PASS[0], runs, PASS[1], SMALL_TARGET))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("market", type=Path)
    parser.add_argument("demo", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = measure(args.market, args.demo, args.runs)
    if args.json:
        print(json.dumps(rows))
        return
    from benchmarks.cli import show

    show(rows)


if __name__ == "__main__":
    main()
