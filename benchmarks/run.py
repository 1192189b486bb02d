"""The benchmark suite: what a buyer waits for, against fair floors, in one run (a script, not a timed test).

    python benchmarks/run.py [--sizes 1000,10000,100000] [--runs 3] [--before PYTHON] [--only STEP,...] [--json]
    python -m benchmarks.run ...

For each size it builds a seeded market (``benchmarks/market.py``: two runs build the same database) and the
small demo database, then measures, each step in a fresh process, quotetui against its floor:

* ``first-row``: in a real terminal (tmux, 120×40), launch the app, press ``o`` at the first frame and wait
  for the first offer row; the floor is a bare Textual app that runs one sqlite3 SELECT of the same offers
  and puts 50 rows into a DataTable (``benchmarks/first_row.py``); peak memory of each;
* ``cli``: every read command a buyer runs, on the demo database, against a stdlib sqlite3 script doing the
  same read and printing the same kind of output (``benchmarks/cli.py``); ``offers --json`` at every size;
* ``reads``: ``explain``, ``rfq show`` and ``award`` on the market against sqlite3 reading the same rows, and
  ``--help``, ``offers`` and ``rfq list`` on the demo against ``python -c pass`` (``benchmarks/reads.py``);
* ``excel``: ``quotetui export`` and ``quotetui import`` end to end against stdlib floors of the same cells
  (zipfile + a plain XML writer; zipfile + iterparse reader: ``benchmarks/floor_excel.py``);
* ``rank``: ranking every offer, cold, in process, against the exact floor (the same inputs through sqlite3,
  the same exact Fractions, the same sort: ``benchmarks/floor_rank.py``).

``--before PYTHON`` measures a second quotetui too (the interpreter of another checkout's virtual
environment, e.g. the commit before a change) in the same run, so the table shows before and after side
by side against the same floors.
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # ``python benchmarks/run.py``: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

ROOT = Path(__file__).resolve().parent.parent
STEPS_IN_ORDER = ("rank", "first-row", "cli", "reads", "excel")
Row = dict[str, Any]


# -- the steps, each run in a fresh process under the measured interpreter ------------------------------------
def step_rank(db: Path, demo: Path, work: Path, runs: int) -> list[Row]:
    """Ranking cold (a fresh process per run, no cache) against the exact floor."""
    from benchmarks.floor_rank import measure

    return list(measure(db, runs))


def step_first_row(db: Path, demo: Path, work: Path, runs: int) -> list[Row]:
    from benchmarks.first_row import measure

    return list(measure(db, runs))


def step_cli(db: Path, demo: Path, work: Path, runs: int) -> list[Row]:
    """Every read command on the small demo database (once, with the smallest market), and ``offers --json`` on
    the market of each size."""
    from benchmarks.cli import measure, measure_json

    rows = [{**r, "offers": _demo_offers(demo)} for r in measure(demo, runs)] if _size_of(db) == _smallest() else []
    return rows + list(measure_json(db, runs))


def step_reads(db: Path, demo: Path, work: Path, runs: int) -> list[Row]:
    """Issue 33's reads: ``explain``, ``rfq show`` and ``award`` against sqlite3 reading the same rows, and the
    small commands against ``python -c pass`` (``benchmarks/reads.py``); on markets up to 10,000 offers."""
    from benchmarks.reads import measure

    return list(measure(db, demo, runs)) if _size_of(db) <= 10_000 else []


def step_excel(db: Path, demo: Path, work: Path, runs: int) -> list[Row]:
    from benchmarks.floor_excel import measure

    return list(measure(db, work, runs))


STEPS: dict[str, Callable[[Path, Path, Path, int], list[Row]]] = {
    "rank": step_rank,
    "first-row": step_first_row,
    "cli": step_cli,
    "reads": step_reads,
    "excel": step_excel,
}


def _demo_offers(demo: Path) -> int:
    import sqlite3

    with sqlite3.connect(f"{demo.as_uri()}?mode=ro", uri=True) as con:
        return int(con.execute("SELECT count(*) FROM offer").fetchone()[0])


def _child_json(args: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> Any:
    done = subprocess.run(args, capture_output=True, text=True, cwd=cwd, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _size_of(db: Path) -> int:
    return int(db.stem.rsplit("-", 1)[-1])


def _smallest() -> int:
    return int(os.environ.get("QUOTETUI_BENCH_SMALLEST", "0"))


# -- the orchestrator ----------------------------------------------------------------------------------------
class Side:
    """One quotetui to measure: an interpreter, and the folder its steps run from (where ``benchmarks`` is
    importable and no other ``quotetui`` shadows the interpreter's own)."""

    def __init__(self, name: str, python: str, work: Path) -> None:
        self.name, self.python = name, python
        if os.path.abspath(python) == os.path.abspath(sys.executable):  # not resolved: venvs link one binary
            self.cwd = ROOT
        else:
            self.cwd = work / f"bench-{name}"
            shutil.copytree(ROOT / "benchmarks", self.cwd / "benchmarks", ignore=shutil.ignore_patterns("__pycache__"))
        self.work = work / name
        self.work.mkdir()

    def source(self) -> str:
        """Where this side's quotetui is imported from (the table would lie if both sides ran one checkout)."""
        code = "import quotetui, os; print(os.path.dirname(quotetui.__file__))"
        done = subprocess.run([self.python, "-c", code], cwd=self.cwd, env=self.env(0), capture_output=True, text=True)
        return done.stdout.strip()

    def env(self, smallest: int) -> dict[str, str]:
        env = dict(os.environ, QUOTETUI_BENCH_SMALLEST=str(smallest), PYTHONPATH=str(self.cwd))
        env.pop("QUOTETUI_DB", None)
        env["QUOTETUI_CONFIG"] = str(self.work / "no-config.toml")  # the user's own config never counts
        env["QUOTETUI_CACHE_DIR"] = "off"  # every run cold, as before listings were kept; the warm rows set theirs
        return env

    def build(self, sizes: list[int], built: Path | None = None) -> tuple[dict[int, Path], Path]:
        """The seeded market of each size (copied from ``built/market-SIZE.db`` where one was built before:
        the same seed makes the same market) and the demo database."""
        markets = {}
        for size in sizes:
            db = self.work / f"market-{size}.db"
            if built is not None and (built / db.name).is_file():
                markets[size] = Path(shutil.copyfile(built / db.name, db))
                continue
            args = [self.python, "-m", "benchmarks.market", str(db), "--offers", str(size)]
            subprocess.run(args, cwd=self.cwd, env=self.env(min(sizes)), check=True, capture_output=True)
            markets[size] = db
        demo = self.work / "demo.db"
        args = [self.python, "-m", "quotetui", "--db", str(demo), "demo"]
        subprocess.run(args, cwd=self.work, env=self.env(min(sizes)), check=True, capture_output=True)
        return markets, demo

    def step(self, step: str, db: Path, demo: Path, runs: int, smallest: int) -> list[Row]:
        work = self.work / f"{step}-{_size_of(db)}"
        work.mkdir(exist_ok=True)
        args = [self.python, "-m", "benchmarks.run", "--step", step, "--db", str(db), "--demo", str(demo)]
        rows: list[Row] = _child_json(
            [*args, "--work", str(work), "--runs", str(runs)], cwd=self.cwd, env=self.env(smallest)
        )
        return rows


def _roundtrip(side: Side, offers: int, markets: Path | None) -> list[Row]:
    """``benchmarks/roundtrip.py`` under the measured quotetui: export, import into an empty database, the data
    checked (it fails the run when the data did not survive)."""
    args = [side.python, "-m", "benchmarks.roundtrip", "--offers", str(offers), "--json"]
    if markets is not None and (markets / f"market-{offers}.db").is_file():
        args += ["--market", str(markets / f"market-{offers}.db")]
    work = side.work / f"roundtrip-{offers}"
    work.mkdir()
    rows: list[Row] = _child_json([*args, "--work", str(work)], cwd=side.cwd, env=side.env(offers))
    return [{**r, "side": side.name} for r in rows]


def _table(results: list[Row], sides: list[str]) -> str:
    """One line per measure and size: before (where measured), after, the floor, the ratio after/floor against
    the issue's target, and peak memory (before → after / floor)."""
    before = "before" in sides
    head = f"{'measure':38} {'offers':>7} " + (f"{'before':>9} {'ratio':>7} " if before else "")
    head += f"{'quotetui':>9} {'floor':>9} {'ratio':>7} {'target':>7} {'peak MiB':>19}  floor"
    lines = [head]
    keyed: dict[tuple[str, int], dict[str, Row]] = {}
    for r in results:
        keyed.setdefault((r["measure"], r["offers"]), {})[r["side"]] = r
    for (measure, offers), by in keyed.items():
        now = by.get("after")
        if now is None:
            continue
        target = f"≤ {now['target']:g}×" if now.get("target") else ""
        line = f"{measure:38} {offers:>7,} "
        was = by.get("before")
        if before:
            line += f"{was['ours_s']:8.3f}s {_ratio(was):>7} " if was else f"{'':>9} {'':>7} "
        mib = _mib(was, "ours_mib") + " → " if was and was.get("ours_mib") is not None else ""
        mib += _mib(now, "ours_mib") + (" / " + _mib(now, "floor_mib") if now.get("floor_mib") is not None else "")
        line += f"{now['ours_s']:8.3f}s {now['floor_s']:8.3f}s {_ratio(now):>7} {target:>7} {mib:>19}  {now['floor']}"
        lines.append(line)
    return "\n".join(lines)


def _markdown(results: list[Row]) -> str:
    """The table as Markdown (for the README): before and after, the floor, ratios and peak memory."""
    lines = [
        "| measure | offers | before | after | floor | ratio (before → after) | target"
        " | peak MiB (before → after / floor) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    keyed: dict[tuple[str, int], dict[str, Row]] = {}
    for r in results:
        keyed.setdefault((r["measure"], r["offers"]), {})[r["side"]] = r
    for (measure, offers), by in keyed.items():
        now, was = by.get("after"), by.get("before")
        if now is None:
            continue
        ratio = (f"{_ratio(was)} → " if was else "") + _ratio(now)
        mib = (_mib(was, "ours_mib") + " → " if was and was.get("ours_mib") is not None else "") + _mib(now, "ours_mib")
        mib += " / " + _mib(now, "floor_mib") if now.get("floor_mib") is not None else ""
        target = f"≤ {now['target']:g}×" if now.get("target") else ""
        before = f"{was['ours_s']:.3f} s" if was else ""
        times = f"{before} | {now['ours_s']:.3f} s | {now['floor_s']:.3f} s"
        lines.append(f"| {measure} | {offers:,} | {times} | {ratio} | {target} | {mib} |")
    return "\n".join(lines)


BEGIN, END = "<!-- benchmarks: begin (python benchmarks/run.py --readme) -->", "<!-- benchmarks: end -->"


def readme_block(results: list[Row], command: str, day: str) -> str:
    """What ``--readme`` writes between the marks: when and how it was measured, which rows are cold and which
    warm, and the table."""
    return "\n".join(
        [
            BEGIN,
            f"Measured {day} with `python benchmarks/run.py {command}` (ratios of measures taken side by side in"
            " that one run). **Cold**: the first launch after an import or a change (no kept listing or table;"
            " the stored ranking as the write left it); **second launch**: nothing changed since a launch kept its"
            " listing or table; the other rows start a fresh process each, with no kept listing.",
            "",
            _markdown(results),
            END,
        ]
    )


def write_readme(path: Path, results: list[Row], command: str) -> None:
    """Replace the block between the marks in ``path`` (the marks must be there, once each)."""
    from datetime import date

    text = path.read_text(encoding="utf-8")
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        raise SystemExit(f"{path} needs the marks {BEGIN!r} and {END!r}, once each, in that order")
    head, rest = text.split(BEGIN)
    _, tail = rest.split(END)
    path.write_text(head + readme_block(results, command, date.today().isoformat()) + tail, encoding="utf-8")


def _ratio(row: Row) -> str:
    return f"{row['ours_s'] / row['floor_s']:.2f}×" if row["floor_s"] else "—"


def _mib(row: Row, key: str) -> str:
    return "" if row.get(key) is None else f"{row[key]:,.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,10000,100000", help="Market sizes in offers, comma-separated.")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--before", metavar="PYTHON", help="Also measure the quotetui of this interpreter.")
    parser.add_argument(
        "--before-max", type=int, default=10_000, metavar="OFFERS",
        help="The largest market the --before side is measured on (the old code can take minutes at 100k).",
    )  # fmt: skip
    parser.add_argument("--before-runs", type=int, default=1, help="Runs of each --before measure (best of).")
    parser.add_argument(
        "--big-runs", type=int, default=1, metavar="N", help="Runs of each measure on markets over 10,000 offers."
    )
    parser.add_argument(
        "--markets",
        type=Path,
        metavar="DIR",
        help="Reuse DIR/market-SIZE.db where present (from benchmarks.market).",
    )
    parser.add_argument("--save", type=Path, metavar="FILE", help="Write the figures as JSON after every step.")
    parser.add_argument("--only", default=",".join(STEPS_IN_ORDER), help="Steps to run, comma-separated.")
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON too.")
    parser.add_argument(
        "--roundtrip", type=int, metavar="OFFERS",
        help="Also export a market of OFFERS offers, import it into an empty database and check the data came"
        " back (benchmarks/roundtrip.py; minutes at 100,000).",
    )  # fmt: skip
    parser.add_argument("--markdown", action="store_true", help="Print the table as Markdown too (the README's).")
    parser.add_argument(
        "--readme", action="store_true",
        help="Write the Markdown table into README.md, between its 'benchmarks: begin/end' marks, with the run's date"
        " and command.",
    )  # fmt: skip
    parser.add_argument("--table", type=Path, metavar="FILE", help="Only print the tables of figures --save wrote.")
    parser.add_argument("--step", choices=sorted(STEPS), help=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--demo", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--work", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.step:
        print(json.dumps(STEPS[args.step](args.db, args.demo, args.work, args.runs)))
        return

    if args.table:
        saved: list[Row] = json.loads(args.table.read_text())
        print(_table(saved, sorted({r["side"] for r in saved}, reverse=True)))
        if args.markdown:
            print("\n" + _markdown(saved))
        return
    sizes = sorted(int(s) for s in args.sizes.split(","))
    steps = [s for s in args.only.split(",") if s]
    unknown = sorted(set(steps) - set(STEPS))
    if unknown:
        parser.error(f"unknown step(s): {', '.join(unknown)}; choose from {', '.join(STEPS_IN_ORDER)}")
    results: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="quotetui-bench-") as folder:
        work = Path(folder)
        sides = [Side("after", sys.executable, work)]
        if args.before:
            sides.insert(0, Side("before", args.before, work))
            if sides[0].source() == sides[1].source():
                parser.error(f"--before {args.before} imports the same quotetui ({sides[1].source()})")
        built = {}
        for side in sides:
            started = time.perf_counter()
            wanted = [n for n in sizes if side.name == "after" or n <= args.before_max] or sizes[:1]
            built[side.name] = side.build(wanted, args.markets)
            took = time.perf_counter() - started
            print(f"{side.name}: quotetui from {side.source()}; markets of {wanted} offers in {took:.1f} s", flush=True)
        for step in steps:
            for size in sizes:
                for side in sides:  # interleaved: before and after of one measure run back to back
                    if side.name == "before" and size > args.before_max:
                        continue
                    markets, demo = built[side.name]
                    runs = args.before_runs if side.name == "before" else args.runs
                    runs = min(runs, args.big_runs) if size > 10_000 else runs
                    started = time.perf_counter()
                    for row in side.step(step, markets[size], demo, runs, sizes[0]):
                        results.append({**row, "offers": row.get("offers", size), "side": side.name})
                    if args.save:
                        args.save.write_text(json.dumps(results, indent=1))
                    print(f"  {step} at {size:,} ({side.name}): {time.perf_counter() - started:.0f} s", flush=True)
        if args.roundtrip:
            started = time.perf_counter()
            results += _roundtrip(sides[-1], args.roundtrip, args.markets)
            if args.save:
                args.save.write_text(json.dumps(results, indent=1))
            print(f"  round trip at {args.roundtrip:,}: {time.perf_counter() - started:.0f} s", flush=True)
    print(
        f"\nbest of {args.runs} (first row: median; over 10,000 offers {args.big_runs}; before: {args.before_runs});"
        " peak MiB: before → quotetui / floor\n"
    )
    print(_table(results, [s.name for s in sides]))
    if args.markdown:
        print("\n" + _markdown(results))
    if args.readme:
        write_readme(ROOT / "README.md", results, " ".join(sys.argv[1:]))
    if args.json:
        print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
