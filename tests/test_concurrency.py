"""Two processes recording 500 negotiation rounds each into one SQLite database at the same time: all
1,000 are stored, numbered without gaps or duplicates, and no "database is locked" reaches either."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.sqlite_only  # SQLite's own locking; test_postgres.py has two writers on a server

WORKER = """
import sys, time
from pathlib import Path
from quotetui.services.database import open_database
from quotetui.services.editing import save_revision

db_path, go, name = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
db = open_database(db_path).db
while not go.exists():
    time.sleep(0.005)
for i in range(500):
    save_revision(db, 1, {"mover": "provider", "quoted_at": "2026-11-30", "amount": str(100000 + i),
                          "unit": "node_month", "currency": "CNY", "term_months": "1", "round_note": f"{name}-{i}"})
print("done", name)
"""


def test_two_writers_500_rounds_each(demo_db_path: Path, tmp_path: Path) -> None:
    with sqlite3.connect(demo_db_path) as con:
        before = con.execute("SELECT COUNT(*) FROM quote_revision WHERE offer_id = 1").fetchone()[0]
    go = tmp_path / "go"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(demo_db_path), str(go), name],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("a", "b")
    ]
    time.sleep(1.0)  # both have opened the database and wait for the signal
    go.touch()
    results = [p.communicate(timeout=300) for p in procs]
    for p, (out, err) in zip(procs, results, strict=True):
        assert p.returncode == 0, err
        assert "locked" not in err and out.startswith("done")
    with sqlite3.connect(demo_db_path) as con:
        notes = [r[0] for r in con.execute("SELECT note FROM quote_revision WHERE note IS NOT NULL AND offer_id = 1")]
        seqs = [r[0] for r in con.execute("SELECT seq FROM quote_revision WHERE offer_id = 1 ORDER BY seq")]
        prices = con.execute(
            "SELECT COUNT(*) FROM revision_price p JOIN quote_revision r ON r.id = p.revision_id "
            "WHERE r.note IS NOT NULL AND r.offer_id = 1"
        ).fetchone()[0]
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert sorted(notes) == sorted(f"{n}-{i}" for n in "ab" for i in range(500))
    assert seqs == list(range(1, before + 1001)) and prices == 1000
    interleaved = [n[0] for n in notes]
    assert "ab" in "".join(interleaved) or "ba" in "".join(interleaved)  # they really ran at the same time
