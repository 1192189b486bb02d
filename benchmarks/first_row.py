"""The first offer row in a real terminal: quotetui against a bare Textual app (a benchmark script, not a test).

    python -m benchmarks.first_row DB [--runs 3] [--json]
    python -m benchmarks.first_row --bare DB      (the floor app itself; the script starts it)

Each run starts the program in a fresh tmux session of 120×40 columns, presses ``o`` as soon as the first
frame is on the screen (the header's title), then polls ``tmux capture-pane`` until the offers table shows
its first row (rank 1 under a header naming ``Rank`` and ``ID``). The time is from starting the session to
that capture. Cold runs start with an empty cache folder; warm runs (a second launch with nothing changed)
start with the table a priming launch kept (``tui/offer_preview.py``). Just before the program is killed
its peak resident memory (VmHWM) is read from ``/proc/PID/status``.

The floor: a bare Textual app (header, DataTable, footer) that does one sqlite3 SELECT of the same offers
(with their provider's and GPU's names) and puts the first 50 into the DataTable, numbered as ranks.

Rows: ``{"measure", "ours_s", "floor_s", "ours_mib", "floor_mib", "target", "floor"}`` (medians of the runs),
the format every module of the suite shares (``benchmarks/run.py`` reads it).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

Row = dict[str, Any]
TARGET = 2.0  # issue 33: the first offer row, cold (after an import, an edit), within 2× the bare floor at 10,000
WARM_TARGET = 1.5  # issue 33: a second launch with nothing changed
WIDTH, HEIGHT = 120, 40
POLL_S = 0.01
TIMEOUT_S = 300.0
KEPT_TIMEOUT_S = 1200.0  # a priming launch runs on to its complete load (at 100,000 offers: minutes)
CACHE_ENV = "QUOTETUI_CACHE_DIR"
FLOOR = "bare Textual app: one sqlite3 SELECT of the same offers, 50 rows into a DataTable"
FIRST_ROW = re.compile(r"^\W{0,3}\s*1\s+\d+\s+\S")  # rank 1, an ID, a provider (after the pin mark, if any)

BARE_SELECT = """
SELECT o.id, p.name, o.name, g.name, o.status
FROM offer o JOIN provider p ON p.id = o.provider_id JOIN gpu_model g ON g.id = o.gpu_model_id
ORDER BY o.id
"""


def bare(db: str) -> None:
    """The floor app: what any Textual program must do to show offers from the database."""
    import sqlite3

    from textual.app import App, ComposeResult
    from textual.binding import Binding
    from textual.widgets import DataTable, Footer, Header

    class Bare(App[None]):
        TITLE = "bare"
        BINDINGS = [Binding("o", "noop", "Offers"), Binding("q", "quit", "Quit")]  # noqa: RUF012

        def compose(self) -> ComposeResult:
            yield Header()
            yield DataTable()
            yield Footer()

        def action_noop(self) -> None:
            pass

        def on_mount(self) -> None:
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
                rows = connection.execute(BARE_SELECT).fetchall()
            table = self.query_one(DataTable)
            table.add_columns("Rank", "ID", "Provider", "Offer", "GPU", "Status")
            table.add_rows([(str(n), str(r[0]), *r[1:]) for n, r in enumerate(rows[:50], 1)])

    Bare().run()


def _tmux(socket: str, *args: str) -> str:
    return subprocess.run(["tmux", "-L", socket, *args], capture_output=True, text=True, check=False).stdout


def _vmhwm(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def _first_row(lines: list[str]) -> bool:
    for n, line in enumerate(lines):
        if "Rank" in line and " ID" in line:
            return any(FIRST_ROW.match(after) for after in lines[n + 1 : n + 4])
    return False


def one_run(
    command: list[str], title: str, cache: Path | None = None, kept: Path | None = None
) -> tuple[float, float | None]:
    """Seconds from starting ``command`` in tmux 120×40 to its first offer row, and its peak MiB. ``cache``:
    the program's cache folder (``QUOTETUI_CACHE_DIR``); ``kept``: let it run on after the first row until
    it has kept its table there (a launch that makes the next one a second launch)."""
    session = f"first-row-{os.getpid()}-{time.monotonic_ns()}"
    socket = session  # a tmux server of its own for each run: no other session's options or environment, and
    # never the previous run's server while it is still going away (a new session there can fail)
    line = "exec " + " ".join(shlex.quote(c) for c in command)
    env = {**os.environ, "TERM": "xterm-256color"}
    if cache is not None:
        env[CACHE_ENV] = str(cache)
    names = ("PYTHONPATH", "QUOTETUI_CONFIG", CACHE_ENV)
    passed = [f"-e{name}={env[name]}" for name in names if name in env]
    size = ["-x", str(WIDTH), "-y", str(HEIGHT)]
    start = time.perf_counter()
    pid = None
    subprocess.run(
        ["tmux", "-L", socket, "new-session", "-d", "-s", session, *size, *passed, line], check=True, env=env
    )
    try:
        pid = int(_tmux(socket, "list-panes", "-t", session, "-F", "#{pane_pid}").split()[0])
        pressed = False
        while True:
            elapsed = time.perf_counter() - start
            if elapsed > TIMEOUT_S:
                raise TimeoutError(f"no first offer row after {TIMEOUT_S:.0f} s: {command}")
            screen = _tmux(socket, "capture-pane", "-p", "-t", session).splitlines()
            if not pressed and any(title in s for s in screen[:2]):
                _tmux(socket, "send-keys", "-t", session, "o")  # the first frame is on the screen
                pressed = True
            if pressed and _first_row(screen):
                peak = _vmhwm(pid)
                while kept is not None and not any(kept.glob("*.jsonl.gz")):  # ranked, cards, places, kept
                    if time.perf_counter() - start > KEPT_TIMEOUT_S:
                        raise TimeoutError(f"the table was not kept after {KEPT_TIMEOUT_S:.0f} s: {command}")
                    time.sleep(0.1)
                return elapsed, peak
            time.sleep(POLL_S)
    finally:
        _tmux(socket, "kill-session", "-t", session)
        if pid is not None:
            _reap(pid)


def _reap(pid: int, grace_s: float = 5.0) -> None:
    """Make sure the program is gone once its terminal is: a quotetui before issue 16's fix could live on,
    spinning on the closed terminal, and skew every later measure."""
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def offers_in(db: Path) -> int:
    import sqlite3

    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
        return int(connection.execute("SELECT COUNT(*) FROM offer").fetchone()[0])


def keeps_tables() -> bool:
    """Whether the quotetui measured keeps its offers table for the next launch (older ones do not)."""
    import importlib.util

    return importlib.util.find_spec("quotetui.tui.offer_preview") is not None


def measure(db: Path, runs: int = 3) -> list[Row]:
    """quotetui's first offer row and peak memory against the floor's, alternating runs, medians: cold (an
    empty cache folder before each run: the first launch after an import), after one offer was edited by another
    program (:func:`edit_one`), and, where the
    quotetui measured keeps its table, warm (a second launch with nothing changed: the table the priming
    launch kept). The issue's ratio target is for 10,000 offers; at other sizes its targets are absolute
    (at 100,000: under 4 s and 300 MiB), so the row's target is None there."""
    from benchmarks.bytecode import compiled

    compiled()  # as an installed copy runs: bytecode, not source
    ours_cmd = [sys.executable, "-c", "from quotetui.launch import main; main()", "--db", str(db)]  # the script
    floor_cmd = [sys.executable, "-m", "benchmarks.first_row", "--bare", str(db)]
    cold: list[tuple[float, float | None]] = []
    warm: list[tuple[float, float | None]] = []
    edited: list[tuple[float, float | None]] = []
    floor: list[tuple[float, float | None]] = []
    with tempfile.TemporaryDirectory(prefix="first-row-cache-") as folder:
        cold_cache, warm_cache = Path(folder) / "cold", Path(folder) / "warm"
        second = keeps_tables()
        if second:
            one_run(ours_cmd, "quotetui", warm_cache, kept=warm_cache)  # the launch before the second ones
        for _ in range(runs):
            floor.append(one_run(floor_cmd, "bare"))
            shutil.rmtree(cold_cache, ignore_errors=True)
            cold.append(one_run(ours_cmd, "quotetui", cold_cache))
            if second:
                warm.append(one_run(ours_cmd, "quotetui", warm_cache))
        for _ in range(runs):  # after the others: an edit ends what a second launch may show
            edit_one(db)
            shutil.rmtree(cold_cache, ignore_errors=True)
            edited.append(one_run(ours_cmd, "quotetui", cold_cache))

    def median(values: list[float | None]) -> float | None:
        known = [v for v in values if v is not None]
        return statistics.median(known) if known else None

    offers = offers_in(db)

    def row(measure: str, ours: list[tuple[float, float | None]], target: float = TARGET) -> Row:
        return {
            "measure": measure,
            "ours_s": statistics.median(t for t, _ in ours),
            "floor_s": statistics.median(t for t, _ in floor),
            "ours_mib": median([m for _, m in ours]),
            "floor_mib": median([m for _, m in floor]),
            "target": target if offers == 10_000 else None,
            "floor": FLOOR,
        }

    rows = [row(f"first offer row, {offers:,} offers", cold)]  # the name older runs used for the cold launch
    if warm:
        rows.append(row(f"first offer row, second launch, {offers:,} offers", warm, WARM_TARGET))
    rows.append(row(f"first offer row, one offer edited by another program, {offers:,} offers", edited))
    return rows


def edit_one(db: Path) -> None:
    """One price changed by another program (the sqlite3 shell): one offer's stored evaluation goes stale, so
    the next launch keeps no table and refreshes that offer before its first page. A write through quotetui
    would refresh it in its own command; this is the harder case."""
    import sqlite3

    conn = sqlite3.connect(db)
    with conn:
        conn.execute("UPDATE revision_price SET amount = amount + 1 WHERE id = (SELECT MIN(id) FROM revision_price)")
    conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--bare", action="store_true", help="run the floor app (in a terminal)")
    args = parser.parse_args()
    if args.bare:
        bare(str(args.db))
        return
    rows = measure(args.db, args.runs)
    if args.json:
        print(json.dumps(rows))
        return
    for r in rows:
        ratio = r["ours_s"] / r["floor_s"]
        mib = f"{r['ours_mib']:.0f} vs {r['floor_mib']:.0f} MiB" if r["ours_mib"] and r["floor_mib"] else ""
        print(
            f"{r['measure']}: {r['ours_s']:.2f} s vs {r['floor_s']:.2f} s = {ratio:.1f}× (target {r['target']}) {mib}"
        )


if __name__ == "__main__":
    main()
