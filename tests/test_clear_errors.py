"""Clear errors for what hostile tries found unclear: a damaged database, a newer schema, a failed upgrade,
permissions, Ctrl+C, an ASCII-only terminal, and validation that is never reported as a database error."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from quotetui.domain.errors import DatabaseProblem, FieldErrors
from quotetui.services import editing
from quotetui.services.database import open_database
from quotetui.store import migrate
from quotetui.store.engine import Database
from tests.conftest import Cli, dump, python

UPGRADE = Path(__file__).parent / "fixtures" / "upgrade" / "schema-0001.db"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _damage(db: Path) -> None:
    with db.open("r+b") as handle:
        for page in (20, 35, 50):
            handle.seek(4096 * page + 100)
            handle.write(bytes(range(256)) * 2)


@pytest.mark.sqlite_only
def test_a_damaged_database_is_reported_by_check_and_never_written(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    _damage(demo_db_path)
    before = _digest(demo_db_path)
    check = cli("--db", str(demo_db_path), "db", "check")
    assert check.code == 2 and "integrity: " in check.out and "malformed" in check.out, check.out + check.err
    report = json.loads(cli("--db", str(demo_db_path), "db", "check", "--json").out)
    assert report["ok"] is False and report["integrity"] != ["ok"]
    rows = tmp_path / "providers.csv"
    rows.write_text("name,kind\nNew Co,lessor\n", encoding="utf-8")
    for args in (("import", str(rows)), ("offers",), ("scenario", "add", "x", "--gpus", "8", "--months", "1")):
        result = cli("--db", str(demo_db_path), *args)
        assert result.code == 2 and "is damaged" in result.err and "db restore" in result.err, result.err
        assert "Traceback" not in result.err
    assert _digest(demo_db_path) == before


@pytest.mark.sqlite_only
def test_damage_inside_a_value_is_named_in_one_line_without_its_bytes(cli: Cli, demo_db_path: Path) -> None:
    """Bytes changed inside a stored text pass SQLite's integrity checks; reading the value fails."""
    import sqlite3

    with sqlite3.connect(demo_db_path) as con:
        root = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'quote_revision'").fetchone()[0]
        size = con.execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(demo_db_path.read_bytes())
    at = (root - 1) * size + bytes(data[(root - 1) * size : root * size]).find(b"2026-") + 20
    data[at : at + 4] = b"\xff\xff\xff\xff"  # inside a round's quoted_at text
    demo_db_path.write_bytes(bytes(data))
    result = cli("--db", str(demo_db_path), "offers")
    assert result.code == 2 and result.err.count("\n") == 1, result.err
    assert f"{demo_db_path} is damaged: a stored text is not valid UTF-8" in result.err
    assert "db restore" in result.err and "\ufffd" not in result.err and "Could not decode" not in result.err


@pytest.mark.sqlite_only
def test_an_integrity_report_of_several_lines_is_one_line(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    _damage(demo_db_path)
    rows = tmp_path / "providers.csv"
    rows.write_text("name,kind\nNew Co,lessor\n", encoding="utf-8")
    result = cli("--db", str(demo_db_path), "import", str(rows))
    assert result.code == 2 and result.err.count("\n") == 1, result.err


@pytest.mark.sqlite_only
def test_a_failed_upgrade_leaves_the_file_and_no_stray_backup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "old.db"
    shutil.copy(UPGRADE, db)
    before = dump(db)

    def broken(target: object, revision: str = "head") -> None:
        raise DatabaseProblem("disk full (simulated)")

    monkeypatch.setattr(migrate, "upgrade", broken)
    for _ in range(3):  # three attempts: no backup left behind by any of them
        with pytest.raises(DatabaseProblem, match="disk full"):
            open_database(str(db))
    assert dump(db) == before
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(("-wal", "-shm"))) == ["old.db"]


@pytest.mark.sqlite_only
def test_a_newer_schema_is_named_as_such(cli: Cli, demo_db_path: Path) -> None:
    import sqlite3

    with sqlite3.connect(demo_db_path) as con:
        con.execute("UPDATE alembic_version SET version_num = '0099'")
    result = cli("--db", str(demo_db_path), "offers")
    assert result.code == 2 and "was made by a newer quotetui" in result.err and "Nothing was changed" in result.err


def _long_import(tmp_path: Path) -> Path:
    rows = "".join(f"一万网络,offer {i},H100,8,monthly\n" for i in range(200_000))
    path = tmp_path / "offers.csv"
    path.write_text("provider,offer,gpu,gpus_per_node,billing\n" + rows, encoding="utf-8")
    return path


@pytest.mark.parametrize("delay", [0.15, 0.3, 0.6, 2.0])
def test_ctrl_c_is_one_line_and_exit_130(demo_db_path: Path, tmp_path: Path, delay: float) -> None:
    big = _long_import(tmp_path)
    script = Path(python()).with_name("quotetui")  # the console script a user runs
    proc = subprocess.Popen(
        [str(script), "--db", str(demo_db_path), "import", str(big)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, (out, err)
    assert err.splitlines()[-1] == "quotetui: interrupted", err
    assert "Traceback" not in err and "Exception ignored" not in err


def test_an_ascii_only_terminal_gets_escapes_not_a_crash(demo_db_path: Path) -> None:
    env = os.environ | {"PYTHONIOENCODING": "ascii", "LC_ALL": "C", "LANG": "C"}
    for args in (("providers",), ("offers",), ("explain", "2")):
        result = subprocess.run(
            [python(), "-m", "quotetui", "--db", str(demo_db_path), *args], capture_output=True, env=env, timeout=120
        )
        assert result.returncode == 0, result.stderr
        result.stdout.decode("ascii")  # nothing the terminal cannot show
        assert b"\\u4e00\\u4e07\\u7f51\\u7edc" in result.stdout or b"\\u" in result.stdout  # 一万网络, escaped
    data = subprocess.run(
        [python(), "-m", "quotetui", "--db", str(demo_db_path), "providers", "--json"], capture_output=True, env=env
    )
    assert json.loads(data.stdout.decode("ascii"))[0]["name"] == "一万网络"


def test_validation_is_never_reported_as_a_database_error(cli: Cli, demo_db: Database, demo_db_path: Path) -> None:
    # offer 3's first round has a monthly and an annual option: moving the monthly one onto the annual clashes
    form = editing.revision_edit_form(demo_db, 3)
    clash = form.values | {"term_months": "12", "unit": "term_total"}
    with pytest.raises(FieldErrors) as excinfo:
        editing.update_revision(demo_db, 3, clash, form.version)
    assert "already has a 12-month term-total price option" in excinfo.value.errors["term_months"]
    signed = ("--db", str(demo_db_path), "contracts", "add", "--offer", "2", "--start", "2026-01-01")
    assert cli(*signed, "--term-months", "1", "--reference", "C-1").code == 0
    again = cli(*signed, "--term-months", "1", "--reference", "C-1")
    assert again.code == 2 and "database error" not in again.err and "C-1" in again.err


@pytest.mark.sqlite_only
def test_a_folder_without_write_permission_is_named(demo_db_path: Path, tmp_path: Path) -> None:
    if shutil.which("unshare") is None or subprocess.run(["unshare", "-m", "true"]).returncode != 0:
        pytest.skip("needs a mount namespace for a read-only folder")
    folder, mount = tmp_path / "out", tmp_path / "ro"
    folder.mkdir()
    mount.mkdir()
    script = (
        f"mount --bind '{folder}' '{mount}' && mount -o remount,bind,ro '{mount}' && "
        f"{python()} -m quotetui --db '{demo_db_path}' export '{mount / 'board.xlsx'}'"
    )
    result = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert f"cannot write in folder {mount} (no write permission)" in result.stderr
