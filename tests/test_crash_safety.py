"""An import killed with SIGKILL at random moments (ten real kills mid-flight at least): each time the
database passes the integrity check and holds exactly the state before the import or after it, never part
of it (one transaction, WAL)."""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import DERIVED, WRITE_STAMPS

pytestmark = pytest.mark.sqlite_only  # opens SQLite files directly; PostgreSQL: test_postgres.py

KILLS = 10


def fingerprint(db: Path) -> str:
    """Every row of every table a buyer's data lives in, in a canonical order, without the write-time stamps
    (two complete imports of the same file differ only in those). Not the stored ranking: it is computed from
    the data after the import commits (``services/stored_ranking.py``), and a kill then leaves it to the next
    reader, which is not a partial import."""
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert con.execute("PRAGMA foreign_key_check").fetchone() is None
        digest = hashlib.sha256()
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        tables = [t for t in tables if t not in DERIVED]
        for table in tables:
            names = [c[1] for c in con.execute(f'PRAGMA table_info("{table}")') if c[1] not in WRITE_STAMPS]
            columns = ", ".join(f'"{n}"' for n in names)
            for row in sorted(repr(r) for r in con.execute(f'SELECT {columns} FROM "{table}"')):
                digest.update(f"{table}:{row}\n".encode())
    return digest.hexdigest()


@pytest.fixture(scope="module")
def workbook(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 400-offer market exported as the comparison workbook: an import of a few seconds."""
    from benchmarks.market import build
    from quotetui.services.database import open_database
    from quotetui.services.transfer import export_file

    folder = tmp_path_factory.mktemp("crash")
    opened = open_database(str(folder / "source.db"), load_demo_if_new=False)
    build(opened.db, 400)
    out = export_file(opened.db, folder / "market.xlsx")
    opened.db.dispose()
    return out


def _import(db: Path, workbook: Path) -> subprocess.Popen[bytes]:
    code = "import sys; from quotetui.cli import main; main(sys.argv[1:])"
    args = [sys.executable, "-c", code, "--db", str(db), "import", str(workbook)]
    return subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def test_sigkill_during_an_import_leaves_before_or_after(demo_db_path: Path, workbook: Path, tmp_path: Path) -> None:
    before = fingerprint(demo_db_path)
    full = tmp_path / "full.db"
    shutil.copy(demo_db_path, full)
    began = time.perf_counter()
    proc = _import(full, workbook)
    _, err = proc.communicate(timeout=300)
    duration = time.perf_counter() - began
    assert proc.returncode == 0, err.decode()
    after = fingerprint(full)
    assert after != before

    rng = random.Random(20261130)
    outcomes: list[tuple[str, str]] = []
    n = 0
    while sum(1 for o in outcomes if o[0] == "killed") < KILLS and n < 3 * KILLS:
        n += 1
        db = tmp_path / f"kill{n}.db"
        shutil.copy(demo_db_path, db)
        proc = _import(db, workbook)
        delay = rng.uniform(0.2, duration)  # from start-up to the usual end (a loaded machine may finish first)
        time.sleep(delay)
        finished = proc.poll() is not None
        if not finished:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
        state = fingerprint(db)
        assert state in (before, after), f"kill {n} at {delay:.2f}s left a partial import"
        outcomes.append(("finished" if finished else "killed", "after" if state == after else "before"))
    killed = [o for o in outcomes if o[0] == "killed"]
    assert len(killed) >= KILLS, outcomes  # real kills mid-flight, not runs that had already finished
    assert any(state == "before" for _, state in killed)
