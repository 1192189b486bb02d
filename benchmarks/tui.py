"""TUI speed on a 10,000-offer market (a benchmark script, not a timed test).

    python -m benchmarks.tui [--offers 10000] [--runs 7]

Measures, in one run:
* first painted frame, process start to first refresh: quotetui on the big database vs a bare Textual
  app with a header, a table and a footer (median of alternating runs, each in a fresh process);
* a filter keystroke on the offers table: the median time from a key in the filter to the table
  showing the filtered rows;
* memory (RSS) of the running app once all 10,000 offers are loaded and shown.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def first_frames(db: Path, runs: int) -> tuple[float, float]:
    bare, ours = [], []
    for _ in range(runs):
        for target, out in (("bare", bare), ("quotetui", ours)):
            args = [sys.executable, "-m", "benchmarks.first_frame", target, str(db)]
            out.append(float(subprocess.run(args, capture_output=True, text=True, check=True).stdout.split()[0]))
    return statistics.median(bare), statistics.median(ours)


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def bare_keystroke() -> float:
    """The pilot harness's own cost of one keystroke into a bare Input (its floor)."""
    from textual.app import App, ComposeResult
    from textual.widgets import Input

    class Bare(App[None]):
        def compose(self) -> ComposeResult:
            yield Input()

    app = Bare()
    async with app.run_test() as pilot:
        await pilot.pause()
        times = []
        for key in "h100sxm5provider":
            begin = time.perf_counter()
            await pilot.press(key)
            times.append(time.perf_counter() - begin)
    return statistics.median(times)


async def in_app(db: Path) -> tuple[float, float, float, float, int]:
    from textual.geometry import Region
    from textual.widgets import Input

    from quotetui.tui.app import QuotetuiApp
    from quotetui.tui.widgets.virtual_table import VirtualTable

    app = QuotetuiApp(str(db))
    async with app.run_test(size=(120, 40)) as pilot:
        start = time.perf_counter()
        while app.market is None:
            await asyncio.sleep(0.05)
        loaded = time.perf_counter() - start
        await pilot.press("o")
        for _ in range(3):
            await app.workers.wait_for_complete()
            await pilot.pause()
        screen = app.screen
        table = screen.query_one(VirtualTable)
        total = len(table.rows)
        field = screen.query_one("#filter", Input)
        # the work a keystroke causes: filter all rows, then draw the visible lines of the table
        work = []
        text = ""
        for key in "h100 sxm5 provider 00" + "\b" * 8:
            text = text[:-1] if key == "\b" else text + key
            begin = time.perf_counter()
            field.value = text
            screen.apply_filters()  # type: ignore[attr-defined]
            table.render_lines(Region(0, 0, table.size.width, table.size.height))
            work.append(time.perf_counter() - begin)
        field.value = ""
        await pilot.pause()
        # the same keystrokes end to end through the pilot harness (which adds its own floor)
        await pilot.press("slash")
        pressed = []
        for key in "h100 sxm5 provider 00" + "\b" * 8:
            begin = time.perf_counter()
            await pilot.press("backspace" if key == "\b" else ("space" if key == " " else key))
            pressed.append(time.perf_counter() - begin)
        gc.collect()
        memory = rss_mib()
    return loaded, statistics.median(work), statistics.median(pressed), memory, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--offers", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--in-app", type=Path, help=argparse.SUPPRESS)  # the in-app part, in a fresh process
    args = parser.parse_args()
    if args.in_app:
        print(json.dumps([*asyncio.run(in_app(args.in_app)), asyncio.run(bare_keystroke())]))
        return
    from benchmarks.market import build
    from quotetui.services.database import open_database

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "market.db"
        opened = open_database(str(db))
        build(opened.db, args.offers)
        opened.db.dispose()
        bare, ours = first_frames(db, args.runs)
        out = subprocess.run(
            [sys.executable, "-m", "benchmarks.tui", "--in-app", str(db)], capture_output=True, text=True, check=True
        ).stdout
        loaded, keystroke, pressed, memory, rows, floor = json.loads(out.strip().splitlines()[-1])
    print(f"{'measure':44} {'value':>12} {'target':>12}")
    print(f"{'first frame, bare Textual app (s)':44} {bare:12.3f}")
    print(f"{'first frame, quotetui with ' + str(args.offers) + ' offers (s)':44} {ours:12.3f}")
    print(f"{'  ratio quotetui / bare':44} {ours / bare:12.2f} {'≤ 2.00':>12}")
    print(f"{'all offers computed and shown (s, in a worker)':44} {loaded:12.2f}")
    print(f"{'filter keystroke on ' + str(rows) + ' rows, median (ms)':44} {keystroke * 1000:12.1f} {'< 50':>12}")
    print(f"{'  key to idle in the test pilot (ms)':44} {pressed * 1000:12.1f}")
    print(f"{'  same pilot, bare Input keystroke (ms)':44} {floor * 1000:12.1f}")
    print(f"{'memory of the running app (MiB)':44} {memory:12.1f} {'< 150':>12}")


if __name__ == "__main__":
    main()
