"""A real round trip at scale: export a market's workbook, import it into an empty database, check what came back
(a benchmark script: it takes minutes at 100,000 offers, so it is no unit test).

    python -m benchmarks.roundtrip [--offers 100000] [--market DB] [--check 3] [--work FOLDER] [--json]
    python benchmarks/run.py --only excel --roundtrip 100000     # the suite runs it after its steps

Steps, each quotetui command in a fresh process (its time and peak memory, ``benchmarks/floor_excel``):
1. build the seeded market (``benchmarks/market.py``), or copy ``--market``;
2. ``quotetui export OUT.xlsx``;
3. ``quotetui import OUT.xlsx`` into an empty database;
4. check: the rows of every table the workbook carries, counted on both sides, are equal; and for ``--check``
   offers (the first, the last and evenly between) ``quotetui explain ID --json`` (every figure, its formula
   and inputs, the negotiation position) is the same on both sides.

Prints one line per step and, with ``--json``, the rows in the suite's format (``benchmarks/run.py``). Exits 1
when a check fails.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # ``python benchmarks/roundtrip.py``
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.floor_excel import QUOTETUI, _child

ROOT = Path(__file__).resolve().parent.parent
TABLES = (  # what the workbook carries (its data sheets): the round trip, here and in tests/test_import_roundtrip.py
    "provider",
    "offer",
    "quote_revision",
    "revision_price",
    "discount",
    "extra_cost",
    "sla_term",
    "sla_credit_tier",
    "benchmark_result",
    "fx_rate",
)
Row = dict[str, Any]


def counts(db: Path) -> dict[str, int]:
    with sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True) as con:
        return {t: int(con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]) for t in TABLES}


def offer_ids(db: Path, how_many: int) -> list[int]:
    """The first and last offer and evenly between (``how_many`` in all)."""
    with sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True) as con:
        ids = [int(r[0]) for r in con.execute("SELECT id FROM offer ORDER BY id")]
    if how_many <= 1 or len(ids) <= how_many:
        return ids[: max(how_many, 0)]
    step = (len(ids) - 1) / (how_many - 1)
    return sorted({ids[round(i * step)] for i in range(how_many)})


def explain(db: Path, offer: int) -> tuple[Any, float]:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "quotetui", "--db", str(db), "explain", str(offer), "--json"],
        capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"explain {offer} on {db.name} failed ({done.returncode}): {done.stderr[-2000:]}")
    return json.loads(done.stdout), time.perf_counter() - started


def roundtrip(work: Path, offers: int, market: Path | None = None, check: int = 3) -> tuple[list[Row], list[str]]:
    """The rows (one per step, the suite's format) and the failed checks (none when the data survived)."""
    source = work / "market.db"
    started = time.perf_counter()
    if market is not None:
        shutil.copyfile(market, source)
    else:
        args = [sys.executable, "-m", "benchmarks.market", str(source), "--offers", str(offers)]
        subprocess.run(args, cwd=ROOT, check=True, capture_output=True)
    built = time.perf_counter() - started
    out = work / "export.xlsx"
    export_s, export_mib = _child(QUOTETUI, ["--db", str(source), "export", str(out), "--force"])
    fresh = work / "imported.db"
    import_s, import_mib = _child(QUOTETUI, ["--db", str(fresh), "import", str(out)])

    failed = []
    before, after = counts(source), counts(fresh)
    for table in TABLES:
        if before[table] != after[table]:
            failed.append(f"{table}: {before[table]:,} rows exported, {after[table]:,} imported")
    checked, explain_s = [], 0.0
    for offer in offer_ids(source, check):
        (was, t1), (now, t2) = explain(source, offer), explain(fresh, offer)
        explain_s = max(explain_s, t1, t2)
        checked.append(offer)
        if was != now:
            failed.append(f"explain {offer}: the figures differ after the round trip")
    n = before["offer"]
    made = f"market copied from {market}" if market is not None else f"market built in {built:.0f} s"
    note = f"{out.stat().st_size / 2**20:,.1f} MiB workbook; {made}"
    measures = [
        ("round trip: export", export_s, export_mib),
        ("round trip: import into an empty database", import_s, import_mib),
        (f"round trip: explain, {len(checked)} offers equal (slowest)", explain_s, None),
    ]
    rows: list[Row] = [
        {"measure": m, "offers": n, "ours_s": round(s, 3), "ours_mib": None if mib is None else round(mib, 1)}
        for m, s, mib in measures
    ]
    for row in rows:
        row |= {"floor_s": 0.0, "floor_mib": None, "target": None, "floor": note}
    rows[0]["rows"] = before
    rows[2]["checked"] = checked
    return rows, failed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--offers", type=int, default=100_000, help="Size of the market to build.")
    parser.add_argument("--market", type=Path, help="Use this market database (copied) instead of building one.")
    parser.add_argument("--check", type=int, default=3, metavar="N", help="Offers whose `explain` is compared.")
    parser.add_argument("--work", type=Path, help="Keep the files here (default: a temporary folder).")
    parser.add_argument("--json", action="store_true", help="Print the rows as JSON (last line).")
    args = parser.parse_args()
    if args.work is not None:
        args.work.mkdir(parents=True, exist_ok=True)
        rows, failed = roundtrip(args.work, args.offers, args.market, args.check)
    else:
        with tempfile.TemporaryDirectory(prefix="quotetui-roundtrip-") as folder:
            rows, failed = roundtrip(Path(folder), args.offers, args.market, args.check)
    for row in rows:
        mib = f", peak {row['ours_mib']:,.0f} MiB" if row["ours_mib"] is not None else ""
        print(f"{row['measure']} ({row['offers']:,} offers): {row['ours_s']:.1f} s{mib}", file=sys.stderr)
    print(f"rows per table: {json.dumps(rows[0]['rows'])}; {rows[0]['floor']}", file=sys.stderr)
    for line in failed:
        print(f"FAILED {line}", file=sys.stderr)
    if args.json:
        print(json.dumps(rows))
    if failed:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
