"""`db backup` while the database is in use, and `db restore`: checked first, never without confirmation,
the replaced database saved beside it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.conftest import Cli
from tests.test_tui import RecordingApp, settle

pytestmark = pytest.mark.sqlite_only  # opens SQLite files directly; PostgreSQL: test_postgres.py


def _offers(db: Path) -> int:
    with sqlite3.connect(db) as con:
        return int(con.execute("SELECT COUNT(*) FROM offer").fetchone()[0])


async def test_backup_while_the_tui_is_open_and_a_write_is_in_flight(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        writer = sqlite3.connect(demo_db_path, isolation_level=None, timeout=30)
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("UPDATE offer SET name = name || ' (uncommitted)'")
        out = tmp_path / "live.db"
        result = cli("--db", str(demo_db_path), "db", "backup", str(out))
        writer.execute("ROLLBACK")
        writer.close()
        assert result.code == 0, result.err
        assert app.market is not None and len(app.market.rows) == 20  # the app kept working
    with sqlite3.connect(out) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        names = [r[0] for r in con.execute("SELECT name FROM offer")]
    assert len(names) == 20 and not any("uncommitted" in n for n in names)
    check = cli("--db", str(out), "db", "check")
    assert check.code == 0 and "integrity: ok" in check.out


def test_restore_refuses_without_confirmation_and_checks_the_file(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    backup = tmp_path / "before.db"
    assert cli("--db", str(demo_db_path), "db", "backup", str(backup)).code == 0
    with sqlite3.connect(demo_db_path) as con:
        con.execute("PRAGMA foreign_keys = ON")
        con.execute("DELETE FROM benchmark_result WHERE offer_id > 10")
        con.execute("DELETE FROM offer WHERE id > 10")
    assert _offers(demo_db_path) == 10

    refused = cli("--db", str(demo_db_path), "db", "restore", str(backup))
    assert refused.code == 2 and "--yes" in refused.err and "20 offers" in refused.err and "10 offers" in refused.err
    assert _offers(demo_db_path) == 10

    broken = tmp_path / "broken.db"
    broken.write_bytes(backup.read_bytes()[:5000])
    for bad, words in ((broken, "not a quotetui database"), (tmp_path / "none.db", "no backup file")):
        result = cli("--db", str(demo_db_path), "db", "restore", str(bad), "--yes")
        assert result.code == 2 and words in result.err, result.err
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as con:
        con.execute("CREATE TABLE t (x)")
    result = cli("--db", str(demo_db_path), "db", "restore", str(other), "--yes")
    assert result.code == 2 and "not a quotetui database" in result.err
    assert _offers(demo_db_path) == 10

    done = cli("--db", str(demo_db_path), "db", "restore", str(backup), "--yes")
    assert done.code == 0, done.err
    assert "Restored" in done.out and "Saved the replaced database to" in done.out
    assert _offers(demo_db_path) == 20
    [saved] = demo_db_path.parent.glob("demo.db.*.bak")
    assert _offers(saved) == 10  # the restore can be undone
    assert cli("--db", str(demo_db_path), "db", "check").code == 0
