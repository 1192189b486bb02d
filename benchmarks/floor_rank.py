"""The exact floor of ranking: what ranking every offer costs with the product's reader and the domain alone.

``floor_rank(db_path)`` reads the inputs a ranking needs (the default scenario, FX rates, assumptions, the GPU
catalog, and every offer's current round only) through the product's own reader (``services/engine_inputs.py``)
over plain ``sqlite3``, evaluates them with the same exact-Fraction model (``domain.economics.evaluate``) and sorts them
the same way (``rank``). No SQLAlchemy, no ORM, no cache; the cyclic GC paused around the work (what any bulk
loader can do). ``measure`` compares ``rank_offers`` run cold in a fresh process (``benchmarks.rank_once``) with
it, in the suite's row format, and checks both give the same ranking (same ids, same figures).

    python -m benchmarks.floor_rank DB           # the floor's seconds (and its ranking's size)
    python -m benchmarks.floor_rank DB --measure # the row, ours against the floor
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from quotetui.domain.economics.assumptions import Assumptions
from quotetui.domain.economics.evaluate import NOT_COMPARABLE, Evaluation, evaluate, rank
from quotetui.domain.economics.inputs import OfferInput, ScenarioInput
from quotetui.domain.fx import FxTable
from quotetui.domain.gc_pause import gc_paused
from quotetui.services.engine_inputs import (
    fx_day,
    fx_table_of,
    load_assumptions_of,
    load_catalog_of,
    offer_inputs,
    scenario_of,
)
from quotetui.store.reader import sqlite_connection_reader

TARGET = 1.5  # issue 16, point 4: ranking ≤ 1.5× the exact floor
FLOOR = "the product's reader over stdlib sqlite3 (current rounds), the same exact evaluate and sort, GC paused"


def _inputs(conn: Any, day: date) -> tuple[ScenarioInput, FxTable, Assumptions, list[OfferInput]]:
    """The ranking's inputs through the product's own reader (``services/engine_inputs.py``: the read model of
    ``store/read_model.py`` over stdlib sqlite3), current rounds only: the floor measures what ranking adds."""
    reader = sqlite_connection_reader(conn)
    _, gpus = load_catalog_of(reader)
    scenario = scenario_of(reader, None, gpus)
    assert scenario is not None, "a database always has a default scenario"
    fx = fx_table_of(reader, fx_day(day))
    return scenario, fx, load_assumptions_of(reader), offer_inputs(reader, gpus, history=False)


def floor_rank(db_path: str | Path, day: date | None = None) -> tuple[list[Evaluation], list[tuple[OfferInput, str]]]:
    """Every offer of the file ranked for its default scenario, the floor's way: (ranked, not comparable)."""
    import sqlite3

    day = day or datetime.now(UTC).date()
    with gc_paused():
        conn = sqlite3.connect(f"{Path(db_path).resolve().as_uri()}?mode=ro", uri=True)
        try:
            scenario, fx, assumptions, offers = _inputs(conn, day)
        finally:
            conn.close()
        evaluations, skipped = [], []
        for offer in offers:
            try:
                evaluations.append(evaluate(offer, scenario, fx, assumptions))
            except NOT_COMPARABLE as exc:
                skipped.append((offer, str(exc)))
        return rank(evaluations), skipped


def fingerprint(evaluations: list[Evaluation], skipped: list[tuple[OfferInput, str]]) -> list[Any]:
    """What must agree between two rankings: the order of ids and each offer's exact figures."""
    return [
        (e.offer.id, e.feasibility.ok, e.cost_per_pflop_hour, e.best.total, e.price_per_gpu_hour, e.best.label)
        for e in evaluations
    ] + [(o.id, why) for o, why in skipped]


def same_as_ours(db_path: str | Path) -> bool:
    """The floor ranks exactly as ``rank_offers`` does (same ids in the same order, same figures)."""
    from quotetui.services.database import open_database
    from quotetui.services.economics import rank_offers

    opened = open_database(str(db_path), load_demo_if_new=False)
    try:
        ours = rank_offers(opened.db, history=False)
    finally:
        opened.db.dispose()
    return fingerprint(ours.evaluations, ours.skipped) == fingerprint(*floor_rank(db_path, ours.on))


def _timed_floor(db_path: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.floor_rank", db_path, "--json"], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def _timed_ours(db_path: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.rank_once", db_path], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure(db: str | Path, runs: int = 3) -> list[dict[str, Any]]:
    """One row: ``rank_offers`` cold in a fresh process against the floor in a fresh process, best of ``runs``
    each (alternated, so a busy moment of the machine hits both)."""
    from benchmarks.bytecode import compiled

    compiled()  # as an installed copy runs: bytecode, not source
    ours, floor = [], []
    for _ in range(runs):
        floor.append(_timed_floor(str(db)))
        ours.append(_timed_ours(str(db)))
    best_ours = min(ours, key=lambda r: r["seconds"])
    best_floor = min(floor, key=lambda r: r["seconds"])
    return [
        {
            "measure": "rank all offers (cold)",
            "ours_s": round(best_ours["seconds"], 3),
            "floor_s": round(best_floor["seconds"], 3),
            "ours_mib": best_ours["mib"],
            "floor_mib": best_floor["mib"],
            "target": TARGET,
            "floor": FLOOR,
        }
    ]


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        raise SystemExit("usage: python -m benchmarks.floor_rank DB [--json | --measure [RUNS] | --check]")
    db = args[0]
    if "--measure" in args:
        rest = args[args.index("--measure") + 1 :]
        for row in measure(db, int(rest[0]) if rest else 3):
            ratio = row["ours_s"] / row["floor_s"]
            print(json.dumps(row), f"# ratio {ratio:.2f} (target ≤ {row['target']})")
        return
    if "--check" in args:
        same = same_as_ours(db)
        print("same ranking as rank_offers" if same else "DIFFERENT ranking from rank_offers")
        raise SystemExit(0 if same else 1)
    from benchmarks.memory import peak_mib

    started = time.perf_counter()
    ranked, skipped = floor_rank(db)
    seconds = time.perf_counter() - started
    if "--json" in args:
        print(json.dumps({"seconds": seconds, "mib": round(peak_mib(), 1), "offers": len(ranked) + len(skipped)}))
    else:
        print(f"{seconds:.3f}")


if __name__ == "__main__":
    main()
