"""Every read command a buyer runs, against a stdlib floor (a benchmark script, not a timed test).

    python -m benchmarks.cli DB [--runs 5] [--json-db MARKET.db] [--json]

Each side of each measure is a fresh process, as a buyer runs it (``quotetui --db DB offers``; output to the
null device, so tables take the path of a pipe): its time is the best of ``runs`` starts, its peak memory
(VmHWM, :func:`benchmarks.memory.peak_mib`) comes from one more start. The floor of a command is a Python
script with the standard library alone that does the same read through ``sqlite3`` and prints the same kind
of output (an aligned table, JSON, lines); ``--help`` is argparse listing the same commands. Target: 10×
(issue 16, point 2); ``offers --json`` at 100k offers must also stay under 400 MiB (:func:`measure_json`).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TARGET = 10.0
JSON_MIB = 400

Row = dict[str, Any]
"""``{"measure", "ours_s", "floor_s", "ours_mib", "floor_mib", "target", "floor"}``: the row every benchmark
module of the suite gives ``benchmarks/run.py``."""

FLOOR = """
import json, sqlite3, sys
from pathlib import Path
mode, sql, *params = sys.argv[1:]
con = sqlite3.connect(Path(DB).resolve().as_uri() + "?mode=ro", uri=True)
cur = con.execute(sql, params)
names = [d[0] for d in cur.description]
out = sys.stdout
if mode == "json":
    out.write("[")
    for i, row in enumerate(cur):
        out.write(("," if i else "") + "\\n  " + json.dumps(dict(zip(names, row)), indent=2).replace("\\n", "\\n  "))
    out.write("\\n]\\n")
elif mode == "lines":
    for row in cur:
        for name, value in zip(names, row):
            out.write(f"{name}: {value}\\n")
else:
    rows = [[str(v) for v in row] for row in cur]
    widths = [max([len(n)] + [len(r[i]) for r in rows]) for i, n in enumerate(names)]
    for row in [names, *rows]:
        out.write("  ".join(c.ljust(w) for c, w in zip(row, widths)) + "\\n")
"""
"""A read through sqlite3, printed as a table, JSON or lines (``DB`` is set by :func:`_floor_code`)."""

CURRENT = "r.id = (SELECT MAX(id) FROM quote_revision WHERE offer_id = o.id)"
OFFERS = f"""SELECT o.id, p.name AS provider, o.name, g.name AS gpu, rp.term_months, rp.unit, rp.amount,
 rp.currency, o.status, o.valid_until FROM offer o JOIN provider p ON p.id = o.provider_id
 JOIN gpu_model g ON g.id = o.gpu_model_id JOIN quote_revision r ON r.offer_id = o.id AND {CURRENT}
 JOIN revision_price rp ON rp.revision_id = r.id ORDER BY o.id"""
OFFERS_FULL = f"""SELECT o.*, p.name AS provider, g.name AS gpu, rp.term_months, rp.unit, rp.amount,
 rp.amount_high, rp.currency, rp.prepay FROM offer o JOIN provider p ON p.id = o.provider_id
 JOIN gpu_model g ON g.id = o.gpu_model_id JOIN quote_revision r ON r.offer_id = o.id AND {CURRENT}
 JOIN revision_price rp ON rp.revision_id = r.id ORDER BY o.id"""

READS: list[tuple[str, list[str], str, str]] = [
    # (measure, the command's arguments, floor mode, floor SQL)
    ("offers", ["offers"], "table", OFFERS),
    ("offers --json", ["offers", "--json"], "json", OFFERS_FULL),
    ("explain ID", ["explain", "{offer}"], "lines", OFFERS_FULL.replace("ORDER BY", "WHERE o.id = ? ORDER BY")),
    (
        "providers",
        ["providers"],
        "table",
        "SELECT p.id, p.name, p.kind, p.parent, p.certifications,"
        " (SELECT COUNT(*) FROM offer WHERE provider_id = p.id) AS offers FROM provider p ORDER BY p.name",
    ),
    ("gpus", ["gpus"], "table", "SELECT * FROM gpu_model ORDER BY name"),
    ("claims", ["claims"], "lines", "SELECT * FROM benchmark_result WHERE provenance = 'claimed' ORDER BY id"),
    ("market", ["market"], "table", "SELECT * FROM market_price ORDER BY gpu_model_id, price"),
    ("contracts", ["contracts"], "table", "SELECT * FROM contract ORDER BY start_date"),
    ("contracts due", ["contracts", "due"], "table", "SELECT * FROM contract ORDER BY notice_deadline, end_date"),
    ("scenario list", ["scenario", "list"], "table", "SELECT * FROM scenario ORDER BY name"),
    ("fx list", ["fx", "list"], "table", "SELECT base, quote, rate, as_of, source FROM fx_rate ORDER BY as_of"),
    ("bench codes", ["bench", "codes"], "table", "SELECT name FROM sqlite_master"),
    ("config", ["config"], "lines", "SELECT key, value FROM setting"),
]
"""Each read command a buyer runs with its floor; ``{offer}`` is the database's first offer."""

NAMES = (
    *("providers", "offers", "explain", "gpus", "demo", "claims", "import", "template", "export", "market"),
    *("probe", "config", "provider", "offer", "round", "discount", "extra", "sla", "bench", "contracts"),
    *("acceptance", "scenario", "calc", "fx", "settings", "db"),
)
"""The commands ``quotetui --help`` lists (the argparse floor lists as many)."""

HELP_FLOOR = """
import argparse
parser = argparse.ArgumentParser(prog="quotetui", description="A terminal workbench for buying GPU capacity.")
parser.add_argument("--db", metavar="PATH|URL", help="SQLite file or SQLAlchemy URL.")
commands = parser.add_subparsers(title="Commands")
for name in NAMES:
    commands.add_parser(name, help=f"The {name} command.")
parser.print_help()
"""


def _ours() -> list[str]:
    script = shutil.which("quotetui", path=str(Path(sys.executable).parent))
    return [script] if script else [sys.executable, "-m", "quotetui"]


def _floor_code(db: Path) -> str:
    return f"DB = {str(db)!r}\n" + FLOOR


def _start(argv: list[str]) -> float:
    """Seconds one start of ``argv`` takes, output to the null device; a failed start is an error."""
    start = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.decode()[-500:]}")
    return seconds


PEAK = """
import os, sys
code, sys.argv = sys.argv[1], sys.argv[1:]
try:
    exec(compile(code, "<benchmarked>", "exec"), {"__name__": "__main__"})
finally:
    sys.path.insert(0, ROOT)
    from benchmarks.memory import peak_mib
    os.write(2, f"\\nPEAK {peak_mib()}\\n".encode())
"""


def _peak(code: str, args: list[str]) -> float:
    """Peak MiB of one run of ``code`` (Python source) with ``args`` as its ``sys.argv[1:]``."""
    wrapper = f"ROOT = {str(ROOT)!r}\n" + PEAK
    done = subprocess.run(
        [sys.executable, "-c", wrapper, code, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False
    )
    last = done.stderr.decode().strip().splitlines()[-1]
    return float(last.removeprefix("PEAK "))


OURS_CODE = "from quotetui.launch import main\nmain()"


def _best(argv: list[str], runs: int) -> float:
    return min(_start(argv) for _ in range(runs))


def _row(measure: str, ours: list[str], floor: list[str], runs: int, what: str, target: float | None) -> Row:
    """One measure: best time of each side, and the peak memory of one more run of each."""
    return {
        "measure": measure,
        "ours_s": _best([*_ours(), *ours], runs),
        "floor_s": _best([sys.executable, "-c", *floor], runs),
        "ours_mib": _peak(OURS_CODE, ours),
        "floor_mib": _peak(floor[0], floor[1:]),
        "target": target,
        "floor": what,
    }


def _first_offer(db: Path) -> str:
    import sqlite3

    with sqlite3.connect(db.resolve().as_uri() + "?mode=ro", uri=True) as con:
        found = con.execute("SELECT MIN(o.id) FROM offer o JOIN quote_revision r ON r.offer_id = o.id").fetchone()
    return str(found[0])


def measure(demo_db: Path, runs: int = 5) -> list[Row]:
    """Each read command on ``demo_db`` (the small demo database) against its sqlite3 floor; target 10×."""
    from benchmarks.bytecode import compiled

    compiled()  # as an installed copy runs: bytecode, not source
    db = str(demo_db)
    floor = _floor_code(demo_db)
    config = demo_db.resolve().with_suffix(".benchmark.toml")  # a config file of its own, not the user's
    config.write_text('theme = "nord"\n', encoding="utf-8")
    os.environ["QUOTETUI_CONFIG"] = str(config)
    rows = [
        _row("--help", ["--help"], [f"NAMES = {NAMES!r}\n" + HELP_FLOOR], runs, "argparse help", TARGET),
        _row("--version", ["--version"], ["print('quotetui')"], runs, "python printing one line", TARGET),
    ]
    offer = _first_offer(demo_db)
    for name, args, mode, sql in READS:
        args = [a.replace("{offer}", offer) for a in args]
        params = [offer] if "?" in sql else []
        what = f"sqlite3 read printed as {mode}"
        rows.append(_row(name, ["--db", db, *args], [floor, mode, sql, *params], runs, what, TARGET))
    return rows


def measure_json(db: Path, runs: int = 1) -> list[Row]:
    """``offers --json`` on a market database of any size: time and peak memory (the bar: 400 MiB at 100k
    offers) against sqlite3 streaming the same offers as JSON."""
    from benchmarks.bytecode import compiled

    compiled()  # as an installed copy runs: bytecode, not source
    offers = _count(db)
    measure = f"offers --json, {offers:,} offers (peak < {JSON_MIB} MiB at 100k)"
    floor = [_floor_code(db), "json", OFFERS_FULL]
    args = ["--db", str(db), "offers", "--json"]
    with _cache("off"):
        rows = [_row(measure, args, floor, runs, "sqlite3 streaming JSON", None)]
    if importlib.util.find_spec("quotetui.services.listing_store") is None:
        return rows  # a quotetui that keeps no listing: no second launch to measure
    with tempfile.TemporaryDirectory(prefix="offers-json-cache-") as folder, _cache(folder):
        _start([*_ours(), *args])  # the first launch keeps the listing
        warm = f"offers --json, second launch, {offers:,} offers"
        rows.append(_row(warm, args, floor, runs, "sqlite3 streaming JSON", None))
    return rows


@contextlib.contextmanager
def _cache(folder: str) -> Iterator[None]:
    """quotetui's listings kept in ``folder`` (``off``: none) for the runs inside."""
    was = os.environ.get("QUOTETUI_CACHE_DIR")
    os.environ["QUOTETUI_CACHE_DIR"] = folder
    try:
        yield
    finally:
        if was is None:
            os.environ.pop("QUOTETUI_CACHE_DIR", None)
        else:
            os.environ["QUOTETUI_CACHE_DIR"] = was


def _count(db: Path) -> int:
    import sqlite3

    with sqlite3.connect(db.resolve().as_uri() + "?mode=ro", uri=True) as con:
        return int(con.execute("SELECT COUNT(*) FROM offer").fetchone()[0])


def show(rows: list[Row]) -> None:
    print(f"{'measure':<58} {'ours s':>8} {'floor s':>8} {'ratio':>6} {'ours MiB':>9} {'floor MiB':>9}  target")
    for r in rows:
        ratio = r["ours_s"] / r["floor_s"]
        mark = "" if r["target"] is None else ("ok" if ratio <= r["target"] else f"> {r['target']:g}×")
        print(
            f"{r['measure']:<58} {r['ours_s']:>8.3f} {r['floor_s']:>8.3f} {ratio:>5.1f}× "
            f"{r['ours_mib'] or 0:>9.0f} {r['floor_mib'] or 0:>9.0f}  {mark}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", type=Path, help="the small demo database (quotetui --db demo.db demo)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json-db", type=Path, help="a market database for offers --json (benchmarks.market)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
    rows = measure(args.db, args.runs)
    if args.json_db:
        rows += measure_json(args.json_db)
    print(json.dumps(rows, indent=2)) if args.json else show(rows)


if __name__ == "__main__":
    main()
