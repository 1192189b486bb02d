"""Readers are never blocked: opening a database writes nothing unless something is due, so reading commands
answer at once while another program holds the write lock; a read-only file or folder is opened read-only
(with a clear message when a write is attempted); a use case reads one snapshot."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlmodel import select

from quotetui.services.database import open_database
from quotetui.store.models import Offer
from tests.conftest import Cli, dump, execute, python

READS = [
    ("offers",),
    ("offers", "--json"),
    ("providers",),
    ("explain", "2"),
    ("claims",),
    ("scenario", "list"),
    ("contracts", "due"),
    ("bench", "check", "--offer", "2"),
    ("db", "check"),
]


@pytest.fixture
def write_lock(demo_db_path: Path) -> Iterator[sqlite3.Connection]:
    """Another program in the middle of a long write: it holds SQLite's write lock, uncommitted."""
    writer = sqlite3.connect(demo_db_path, isolation_level=None, timeout=30)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("UPDATE offer SET name = name || ' (being imported)'")
    yield writer
    writer.execute("ROLLBACK")
    writer.close()


@pytest.mark.sqlite_only
@pytest.mark.parametrize("args", READS, ids=lambda a: " ".join(a))
def test_a_reading_command_answers_while_another_program_writes(
    cli: Cli, demo_db_path: Path, write_lock: sqlite3.Connection, args: tuple[str, ...]
) -> None:
    start = time.monotonic()
    result = cli("--db", str(demo_db_path), *args)
    elapsed = time.monotonic() - start
    assert result.code in (0, 2) and "locked" not in result.err, result.err
    assert "(being imported)" not in result.out  # the other program's uncommitted write is not seen
    assert elapsed < 5, f"{' '.join(args)} waited {elapsed:.1f} s for the writer (busy timeout is 15 s)"


@pytest.mark.sqlite_only
def test_a_dry_run_answers_while_another_program_writes(
    cli: Cli, demo_db_path: Path, write_lock: sqlite3.Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    before = dump(demo_db_path)
    providers = tmp_path / "providers.csv"
    providers.write_text("name,kind,parent\n一万网络,lessor,朗玥科技集团\n", encoding="utf-8")
    start = time.monotonic()
    result = cli("--db", str(demo_db_path), "import", str(providers), "--dry-run")
    elapsed = time.monotonic() - start
    assert result.code == 0, result.err
    assert "Providers 一万网络: parent " in result.out and "→ '朗玥科技集团'" in result.out
    assert elapsed < 5, f"the dry run waited {elapsed:.1f} s for the writer (busy timeout is 15 s)"
    assert list(scratch.iterdir()) == []  # its scratch copy is gone
    assert dump(demo_db_path) == before


@pytest.mark.sqlite_only
def test_opening_writes_nothing_when_nothing_is_due(demo_db_path: Path) -> None:
    open_database(str(demo_db_path)).db.dispose()  # anything due is done now
    with sqlite3.connect(demo_db_path) as con:
        before = con.execute("PRAGMA data_version").fetchone()[0], dump(demo_db_path)
        opened = open_database(str(demo_db_path))
        with opened.db.session() as session:
            session.exec(select(Offer)).all()
        opened.db.dispose()
        after = con.execute("PRAGMA data_version").fetchone()[0], dump(demo_db_path)
    assert after == before  # data_version changes when another connection commits anything


def test_a_use_case_reads_one_snapshot(demo_db_path: Path) -> None:
    opened = open_database(str(demo_db_path))
    db = opened.db
    with db.snapshot():
        with db.session() as session:
            first = session.get(Offer, 2)
            assert first is not None
            name = first.name
        execute(demo_db_path, "UPDATE offer SET name = 'renamed meanwhile' WHERE id = 2")  # another program
        with db.session() as session:
            again = session.get(Offer, 2)
            assert again is not None and again.name == name  # the same snapshot: not half old, half new
    with db.session() as session:
        fresh = session.get(Offer, 2)
        assert fresh is not None and fresh.name == "renamed meanwhile"
    db.dispose()


# -- a read-only file or folder (a read-only bind mount: even root cannot write there) -----------------------
def _read_only_view(folder: Path, mount: Path, *commands: str) -> subprocess.CompletedProcess[str]:
    quotetui = f"{python()} -m quotetui"
    script = f"mount --bind '{folder}' '{mount}' && mount -o remount,bind,ro '{mount}' && " + " ; ".join(
        f'{quotetui} {command}; echo "rc=$?"' for command in commands
    )
    return subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=300)


@pytest.fixture
def read_only(demo_db_path: Path, tmp_path: Path) -> tuple[Path, Path]:
    if shutil.which("unshare") is None:
        pytest.skip("needs unshare to make a read-only mount")
    folder, mount = tmp_path / "src", tmp_path / "ro"
    folder.mkdir()
    mount.mkdir()
    shutil.copy(demo_db_path, folder / "quotes.db")
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("cannot make a mount namespace here")
    return folder, mount


@pytest.mark.sqlite_only
def test_a_read_only_database_is_read_and_a_write_is_refused_clearly(
    read_only: tuple[Path, Path], tmp_path: Path
) -> None:
    folder, mount = read_only
    before = dump(folder / "quotes.db")
    db = mount / "quotes.db"
    (tmp_path / "providers.csv").write_text("name,kind,parent\n一万网络,lessor,朗玥科技集团\n", encoding="utf-8")
    result = _read_only_view(
        folder,
        mount,
        f"--db {db} offers",
        f"--db {db} db check",
        f"--db {db} db backup {tmp_path / 'copy.db'}",
        f"--db {db} export {tmp_path / 'board.xlsx'}",
        f"--db {db} scenario add x --gpus 8 --months 1",
        f"--db {db} import {tmp_path / 'nothing.csv'}",
        f"--db {db} import {tmp_path / 'providers.csv'} --dry-run",
    )
    codes = [line for line in result.stdout.splitlines() if line.startswith("rc=")]
    assert codes == ["rc=0"] * 4 + ["rc=2", "rc=2", "rc=0"], result.stdout + result.stderr
    assert "Would change in existing rows:" in result.stdout  # a dry run needs no write permission
    assert "腾讯云" in result.stdout and "integrity: ok" in result.stdout
    assert "is read-only here (no write permission on the file or its folder" in result.stderr
    assert "Traceback" not in result.stderr
    assert (tmp_path / "copy.db").stat().st_size > 0 and (tmp_path / "board.xlsx").stat().st_size > 0
    assert dump(folder / "quotes.db") == before
    assert sorted(p.name for p in folder.iterdir()) == ["quotes.db"]  # not even a -wal or -shm file


@pytest.mark.sqlite_only
def test_an_old_schema_on_a_read_only_file_says_it_needs_an_upgrade(read_only: tuple[Path, Path]) -> None:
    folder, mount = read_only
    shutil.copy(Path(__file__).parent / "fixtures" / "upgrade" / "schema-0001.db", folder / "old.db")
    result = _read_only_view(folder, mount, f"--db {mount / 'old.db'} offers")
    assert "rc=2" in result.stdout
    assert "needs its schema upgraded (revision 0001 to" in result.stderr and "read-only here" in result.stderr
    assert not [p for p in folder.iterdir() if p.name.endswith(".bak")]


def _no_shm_can_be_made(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every file is in a folder we may not write, and SQLite's read-only open fails as it does there, when it
    cannot create the ``-shm`` (root ignores permissions, so the error is injected); the opens' URI options
    are listed in the returned list."""
    from quotetui.store import engine

    real = sqlite3.connect
    opened: list[str] = []

    class NoShm:
        def __init__(self, conn: sqlite3.Connection) -> None:
            self.conn = conn

        def execute(self, *args: object) -> sqlite3.Cursor:
            raise sqlite3.OperationalError("attempt to write a readonly database")

        def close(self) -> None:
            self.conn.close()

    def connect(target: str, *args: object, **kwargs: object) -> object:
        opened.append(str(target).rsplit("?", 1)[-1])
        conn = real(target, *args, **kwargs)  # type: ignore[arg-type]
        return NoShm(conn) if str(target).endswith("?mode=ro") else conn

    monkeypatch.setattr(engine, "sqlite_read_only", lambda path: True)
    monkeypatch.setattr(engine.sqlite3, "connect", connect)
    return opened


@pytest.mark.sqlite_only
def test_a_folder_without_write_permission_is_read_like_a_read_only_mount(
    cli: Cli, demo_db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder we may not write (chmod 555, another user's) and no ``-shm`` beside the WAL file: SQLite's
    read-only open fails with "attempt to write a readonly database" (SQLITE_READONLY_DIRECTORY; root ignores
    permissions, so the error is injected here as SQLite raises it); the file is then read ``immutable``."""
    opened = _no_shm_can_be_made(monkeypatch)
    result = cli("--db", str(demo_db_path), "offers", "--json")
    assert result.code == 0, result.err
    assert "腾讯云" in result.out and "immutable=1" in opened


@pytest.mark.sqlite_only
def test_saved_changes_left_in_a_wal_that_cannot_be_read_are_refused_not_skipped(
    cli: Cli, demo_db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same folder, but a program ended without its last checkpoint: the ``-wal`` holds a saved price.
    An ``immutable`` open would show (and back up) the state before it; every read is refused instead."""

    writer = sqlite3.connect(demo_db_path)
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("UPDATE revision_price SET amount = amount / 2")
    writer.commit()
    folder = tmp_path / "theirs"
    folder.mkdir()
    for suffix in ("", "-wal"):  # what the other user's folder holds: no -shm
        (folder / f"demo.db{suffix}").write_bytes(Path(f"{demo_db_path}{suffix}").read_bytes())
    writer.close()
    assert (folder / "demo.db-wal").stat().st_size > 0
    _no_shm_can_be_made(monkeypatch)
    copy = tmp_path / "copy.db"
    for args in (("offers", "--json"), ("explain", "1"), ("providers",), ("db", "backup", str(copy))):
        result = cli("--db", str(folder / "demo.db"), *args)
        assert result.code == 2, (args, result.err)
        assert "demo.db-wal" in result.err and "holds saved changes" in result.err and "copy demo.db" in result.err
        assert "Traceback" not in result.err
    assert not copy.exists()


@pytest.mark.sqlite_only
def test_a_write_waiting_for_another_programs_lock_says_so_then_goes_on(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    """A long import elsewhere holds the write lock: the CLI says it is waiting, instead of seeming to hang,
    and writes once the lock is released."""
    holder = sqlite3.connect(demo_db_path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    releaser = threading.Timer(2.5, holder.rollback)
    releaser.start()
    try:
        result = cli("--db", str(demo_db_path), "provider", "add", "--name", "WaitCo", "--kind", "lessor")
    finally:
        releaser.join()
        holder.close()
    assert result.code == 0, result.err
    assert "another program is writing to the database; waiting for it" in result.err
    assert "WaitCo" in cli("--db", str(demo_db_path), "providers").out
    quick = cli("--db", str(demo_db_path), "provider", "add", "--name", "QuickCo", "--kind", "lessor")
    assert quick.code == 0 and "waiting" not in quick.err  # no lock held: nothing said
