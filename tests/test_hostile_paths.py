"""Paths are paths: a database file named with ``#``, ``?``, ``%``, spaces or CJK opens, backs up, restores
and upgrades exactly that file; files we write replace the previous one only whole, and only when asked; a
database URL's password is never printed."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import zipfile
from pathlib import Path

import pytest

from tests.conftest import Cli, dump, python

pytestmark = pytest.mark.sqlite_only  # SQLite files by path; a server URL is tested at the end

NAMES = ["a#b.db", "x?y.db", "p%41.db", "with space.db", "数据库 报价.db", "-dash.db", "q'uote\".db"]
UPGRADE = Path(__file__).parent / "fixtures" / "upgrade" / "schema-0001.db"


def _offers(db: Path) -> int:
    with sqlite3.connect(db) as con:  # a plain path: no URI parsing in the test either
        return int(con.execute("SELECT COUNT(*) FROM offer").fetchone()[0])


@pytest.mark.parametrize("name", NAMES)
def test_an_odd_file_name_is_that_file_for_every_database_command(cli: Cli, tmp_path: Path, name: str) -> None:
    folder = tmp_path / "数据 #1?"
    folder.mkdir()
    db, backup, other = folder / name, folder / f"backup of {name}", folder / f"other {name}"
    assert cli("--db", str(db), "demo").code == 0
    assert sorted(p.name for p in folder.iterdir() if not p.name.endswith(("-wal", "-shm"))) == [name]
    assert _offers(db) == 20
    result = cli("--db", str(db), "db", "backup", str(backup))
    assert result.code == 0, result.err
    assert _offers(backup) == 20 and backup.stat().st_size == db.stat().st_size
    assert cli("--db", str(other), "scenario", "list").code == 0  # an empty database to restore into
    result = cli("--db", str(other), "db", "restore", str(backup), "--yes")
    assert result.code == 0, result.err
    assert _offers(other) == 20
    saved = [p for p in folder.iterdir() if p.name.startswith(f"other {name}.") and p.name.endswith(".bak")]
    assert len(saved) == 1 and _offers(saved[0]) == 0  # the replaced database, saved beside it
    check = cli("--db", str(db), "db", "check")
    assert check.code == 0 and "integrity: ok" in check.out


def test_an_old_schema_under_an_odd_name_is_upgraded_in_place(cli: Cli, tmp_path: Path) -> None:
    db = tmp_path / "旧 #v1 ?.db"
    shutil.copy(UPGRADE, db)
    before = _offers(db)
    result = cli("--db", str(db), "db", "upgrade")
    assert result.code == 0, result.err
    assert "Upgraded the schema" in result.out and _offers(db) == before
    [backup] = [p for p in tmp_path.iterdir() if p.name.endswith(".bak")]
    assert backup.name.startswith(db.name) and _offers(backup) == before


def test_an_existing_export_is_replaced_only_with_force(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    for args, out in (
        (("export",), tmp_path / "board.xlsx"),
        (("export",), tmp_path / "offers.csv"),
        (("template",), tmp_path / "t.xlsx"),
        (("contracts", "ics"), tmp_path / "dates.ics"),
    ):
        out.write_bytes(b"the previous file")
        refused = cli("--db", str(demo_db_path), *args, str(out))
        assert refused.code == 2 and "already exists" in refused.err and "--force" in refused.err
        assert out.read_bytes() == b"the previous file"
        replaced = cli("--db", str(demo_db_path), *args, str(out), "--force")
        assert replaced.code == 0, replaced.err
        assert out.read_bytes() != b"the previous file"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]


def test_a_link_to_nothing_is_replaced_only_with_force_and_a_file_is_no_folder(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    """A dangling link is something there (``exists()`` says no): it was silently replaced by the export."""
    link = tmp_path / "board.xlsx"
    link.symlink_to(tmp_path / "nowhere" / "f.xlsx")
    refused = cli("--db", str(demo_db_path), "export", str(link))
    assert refused.code == 2 and "already exists" in refused.err and link.is_symlink()
    assert cli("--db", str(demo_db_path), "export", str(link), "--force").code == 0
    assert link.is_file() and not link.is_symlink()
    a_file = tmp_path / "show.xlsx"
    a_file.write_bytes(b"x")
    inside = cli("--db", str(demo_db_path), "export", str(a_file / "x.xlsx"))
    assert inside.code == 2 and "show.xlsx is a file, not a folder" in inside.err


SLOW = """
import sys, time
import quotetui.{module} as target
real = target.{function}
def slow(*args, **kwargs):
    result = real(*args, **kwargs)
    print("written", flush=True)
    # The file is complete but not yet renamed into place: SIGTERM arrives now. Short sleeps stand for the
    # work a real export still does: one long sleep could miss the signal for its whole length when it lands
    # after the interpreter's last check for signals and before the sleep starts (time.sleep does not check
    # first), which made this test time out once in 30 runs on a loaded machine.
    for _ in range(1200):
        time.sleep(0.05)
    return result
target.{function} = slow
from quotetui.cli import main
main(sys.argv[1:])
"""


@pytest.mark.parametrize(
    ("module", "function", "args", "name"),
    [
        ("services.transfer", "write_xlsx", ("export", "{out}", "--force"), "board.xlsx"),
        ("store.migrate", "_online_copy", ("db", "backup", "{out}"), "copy.db"),
    ],
)
def test_sigterm_while_writing_keeps_the_previous_file_and_leaves_no_temporary_file(
    demo_db_path: Path, tmp_path: Path, module: str, function: str, args: tuple[str, ...], name: str
) -> None:
    out = tmp_path / name
    if name.endswith(".xlsx"):
        with zipfile.ZipFile(out, "w") as previous:
            previous.writestr("previous.txt", "the board as it was")
        before = out.read_bytes()
    code = SLOW.format(module=module, function=function)
    proc = subprocess.Popen(
        [python(), "-c", code, "--db", str(demo_db_path), *(a.format(out=out) for a in args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ | {"PYTHONPATH": str(Path(__file__).resolve().parent.parent)},
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "written", proc.stderr.read() if proc.stderr else ""
    assert [p for p in tmp_path.iterdir() if p.name.endswith(".part")]  # the new file is still a temporary
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 143
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]
    if name.endswith(".xlsx"):
        assert out.read_bytes() == before
    else:
        assert not out.exists()  # no half-made backup under the backup's name


@pytest.mark.parametrize(
    "url",
    [
        "postgresql+psycopg://buyer:Hunter2-secret@127.0.0.1:1/quotes",
        "postgresql+psycopg://buyer@127.0.0.1:1/quotes?password=Hunter2-secret",
        "postgresql+psycopg://buyer:Hunter2-secret@127.0.0.1:1/quotes?sslpassword=Hunter2-secret",
        "postgres ql://buyer:Hunter2-secret@[::1",
    ],
)
def test_a_database_password_is_never_printed(cli: Cli, url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for args in (("--db", url, "offers"), ("--db", url, "db", "check"), ("--db", url, "export", "x.xlsx")):
        result = cli(*args)
        assert result.code == 2
        assert "Hunter2" not in result.out + result.err and "***" in result.err, result.err
    monkeypatch.setenv("QUOTETUI_DB", url)
    result = cli("providers")
    assert result.code == 2 and "Hunter2" not in result.err


def test_a_database_label_hides_every_secret() -> None:
    from quotetui.store.engine import DbTarget

    target = DbTarget("postgresql+psycopg://buyer:Hunter2@db.example/quotes?password=Hunter2", None, False)
    assert "Hunter2" not in target.label and target.label.count("***") == 2


def test_a_folder_a_pipe_or_a_device_is_never_replaced_by_an_export(
    cli: Cli, demo_db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    fifo = tmp_path / "board.xlsx"
    os.mkfifo(fifo)
    cases = [
        (("export", ".", "--force"), "is a folder; give a file name"),
        (("export", str(fifo), "--force"), "is not a plain file"),
        (("contracts", "ics", str(fifo.with_suffix(".ics")), "--force"), "is not a plain file"),
    ]
    os.mkfifo(fifo.with_suffix(".ics"))
    if Path("/dev/full").exists():
        cases.append((("export", "/dev/full", "--force"), "/dev/full is not a plain file"))
    for args, message in cases:
        result = cli("--db", str(demo_db_path), *args)
        assert result.code == 2 and message in result.err, (args, result.err)
    assert fifo.is_fifo() and fifo.with_suffix(".ics").is_fifo()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]


LONG = "x" * 300  # past the 255 bytes a file name may have on every common file system


@pytest.mark.parametrize(
    "name", ["a" * 250 + ".xlsx", "价" * 83 + ".csv", "é" * 125 + ".ics"], ids=["ascii", "cjk", "accented"]
)
def test_a_name_the_file_system_takes_is_written_even_near_its_longest(
    cli: Cli, demo_db_path: Path, tmp_path: Path, name: str
) -> None:
    """Up to 255 bytes (a 3-byte character cut at the edge of the temporary file's name is not a problem)."""
    assert 249 < len(name.encode()) <= 255
    out = tmp_path / name
    args = ("contracts", "ics", str(out)) if name.endswith(".ics") else ("export", str(out))
    result = cli("--db", str(demo_db_path), *args)
    assert result.code == 0, result.err
    assert out.stat().st_size > 0
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("export", f"{LONG}.xlsx"), "the file name is longer than this file system allows"),
        (("db", "backup", f"{LONG}.db"), ".db: File name too long"),
        (("template", f"{LONG}/t.xlsx"), "File name too long"),  # a folder name too long: the system's words
        (("export", "/proc/board.xlsx"), "cannot write /proc/board.xlsx"),  # a folder that takes no files
        (("contracts", "ics", "/proc/dates.ics"), "cannot write /proc/dates.ics"),
        (("import", "/proc/self/mem"), "mem: cannot be read (Input/output error)"),  # opens, then fails
        (("import", f"{LONG}.xlsx"), "cannot be read (File name too long)"),
    ],
)
def test_a_path_the_system_refuses_is_named_in_one_line(
    cli: Cli, demo_db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...], message: str
) -> None:
    if not Path("/proc/self/mem").exists():
        pytest.skip("needs Linux's /proc")
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    result = cli("--db", str(demo_db_path), *args)
    assert result.code == 2 and message in result.err, result.err
    assert "internal error" not in result.err and "Traceback" not in result.err
    assert list(here.iterdir()) == []


def test_a_disk_that_fills_up_mid_write_keeps_the_previous_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    from quotetui.domain.errors import BadInput
    from quotetui.system import atomic

    target = tmp_path / "board.xlsx"
    target.write_bytes(b"the previous file")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic.os, "fsync", full)
    with (
        pytest.raises(BadInput, match="No space left on device; nothing was written"),
        atomic.replacing(target) as tmp,
    ):
        tmp.write_bytes(b"half a workbook")
    assert target.read_bytes() == b"the previous file"
    assert [p.name for p in tmp_path.iterdir()] == ["board.xlsx"]


@pytest.mark.sqlite_only
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_signal_during_a_dry_run_removes_its_scratch_copy(demo_db_path: Path, tmp_path: Path, sig: int) -> None:
    scratch, rows = tmp_path / "tmp", tmp_path / "providers.csv"
    scratch.mkdir()
    rows.write_text("name,kind,parent\n一万网络,lessor,X\n", encoding="utf-8")
    before = dump(demo_db_path)
    proc = subprocess.Popen(
        [python(), "-c", SLOW.format(module="store.migrate", function="_online_copy"), "--db", str(demo_db_path),
         "import", str(rows), "--dry-run"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=os.environ | {"PYTHONPATH": str(Path(__file__).resolve().parent.parent), "TMPDIR": str(scratch)},
    )  # fmt: skip
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "written", proc.stderr.read() if proc.stderr else ""
    assert any(scratch.iterdir())  # the scratch copy is there, mid dry run
    proc.send_signal(sig)
    assert proc.wait(timeout=30) == 128 + sig
    assert list(scratch.iterdir()) == []  # a closed terminal (SIGHUP) cleans up like SIGTERM
    assert dump(demo_db_path) == before


@pytest.mark.sqlite_only
@pytest.mark.parametrize("state", ["missing", "empty"])
def test_a_dry_run_creates_no_database(cli: Cli, tmp_path: Path, state: str) -> None:
    db, rows = tmp_path / "typo.db", tmp_path / "providers.csv"
    rows.write_text("name,kind\nX,lessor\n", encoding="utf-8")
    if state == "empty":
        db.touch()
    result = cli("--db", str(db), "import", str(rows), "--dry-run")
    assert result.code == 2
    assert f"{db} {'is empty' if state == 'empty' else 'does not exist'}: a dry run creates nothing" in result.err
    assert (db.stat().st_size == 0) if state == "empty" else not db.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["providers.csv"] + (["typo.db"] * (state == "empty")))


@pytest.mark.sqlite_only
def test_a_full_temporary_folder_is_named_for_a_dry_run(
    cli: Cli, demo_db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    from quotetui.store import migrate

    def full(source: Path, dest: Path) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(migrate, "_online_copy", full)
    rows = tmp_path / "providers.csv"
    rows.write_text("name,kind\nX,lessor\n", encoding="utf-8")
    before = dump(demo_db_path)
    result = cli("--db", str(demo_db_path), "import", str(rows), "--dry-run")
    assert result.code == 2 and "internal error" not in result.err
    assert "the dry run's scratch copy in " in result.err and "(database or disk is full)" in result.err
    assert "set TMPDIR to a folder with room" in result.err
    assert dump(demo_db_path) == before


@pytest.mark.parametrize("args", [("offers",), ("offers", "--json"), ("explain", "1"), ("providers",)])
def test_a_closed_standard_output_is_named_not_an_internal_error(demo_db_path: Path, args: tuple[str, ...]) -> None:
    """``quotetui offers >&-``: the shell's own way of saying there is nowhere to print."""
    done = subprocess.run(
        [python(), "-m", "quotetui", "--db", str(demo_db_path), *args],
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: os.close(1),  # the child's descriptor 1 only
        env=os.environ | {"PYTHONPATH": str(Path(__file__).resolve().parent.parent)},
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr == "quotetui: standard output is closed: there is nowhere to print; give it a file or a pipe\n"


def test_a_full_disk_while_exporting_is_named_and_leaves_the_previous_file(demo_db_path: Path, tmp_path: Path) -> None:
    """A file size limit stands for a full disk or a quota (the same OSError at the zip's close): one line
    naming the reason, status 2, no "internal error", no "Exception ignored" from the zip left unclosed."""
    import resource

    out = tmp_path / "board.xlsx"
    out.write_bytes(b"the previous board")
    done = subprocess.run(
        [python(), "-m", "quotetui", "--db", str(demo_db_path), "export", str(out), "--force"],
        capture_output=True,
        text=True,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (40 * 1024, 40 * 1024)),
        env=os.environ | {"PYTHONPATH": str(Path(__file__).resolve().parent.parent)},
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"quotetui: writing {out} failed: File too large; nothing was written\n"
    assert out.read_bytes() == b"the previous board"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]


def test_left_behind_finds_a_killed_writers_temporary_files_even_for_long_names(tmp_path: Path) -> None:
    """What `replacing` leaves when its process is killed (no clean-up runs), for a name short enough to keep
    whole and one so long that the temporary name cuts it, a temporary written into a temporary included."""
    from quotetui.system.atomic import _temporary_name, left_behind

    for name in ("rfq-R-阿里云.xlsx", "r" * 240 + ".xlsx"):
        target = tmp_path / name
        outer = tmp_path / _temporary_name(target)
        inner = tmp_path / _temporary_name(outer)
        for p in (outer, inner):
            p.write_bytes(b"half")
        other = tmp_path / ("." + name + "x.txt")
        other.write_bytes(b"not ours")
        assert sorted(left_behind(target)) == sorted([outer, inner])
        for p in (outer, inner, other):
            p.unlink()


def test_a_killed_writers_temporary_files_are_removed_by_the_next_run_into_the_folder(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    """Issue 31, point 6: SIGKILL runs no clean-up. The next export (or rfq send) into the folder removes the
    temporary files nobody holds, and leaves a living writer's (locked) and any other file alone."""
    import fcntl

    dead = [
        tmp_path / ".board.xlsx.0badc0de.quotetui.part",
        tmp_path / ".rfq-H100_64-阿里云.xlsx.12345678.quotetui.part",
    ]
    for p in dead:
        p.write_bytes(b"half a workbook")
    alive = tmp_path / ".other.xlsx.aaaabbbb.quotetui.part"
    alive.write_bytes(b"being written")
    mine = tmp_path / ".report.xlsx.deadbeef.part"  # a user's own file, named alike but not as quotetui names
    mine.write_text("mine", encoding="utf-8")
    fifo = tmp_path / ".pipe.abcdef03.quotetui.part"  # a pipe is never opened (it would block) nor removed
    os.mkfifo(fifo)
    fd = os.open(alive, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        done = cli("--db", str(demo_db_path), "export", str(tmp_path / "new.xlsx"))
        assert done.code == 0, done.err
        assert not any(p.exists() for p in dead)
        assert alive.exists() and mine.exists() and fifo.exists() and (tmp_path / "new.xlsx").is_file()
    finally:
        os.close(fd)
    left = {p.name for p in tmp_path.iterdir()} - {demo_db_path.name}
    assert left == {alive.name, mine.name, fifo.name, "new.xlsx"}


def test_a_foreign_sqlite_file_stays_byte_identical(cli: Cli, tmp_path: Path) -> None:
    """Issue 31, point 6: another program's SQLite file is refused without a byte of it changing (the engine
    would switch it to WAL and move its change counter)."""
    import hashlib

    path = tmp_path / "notes.sqlite"
    con = sqlite3.connect(path)
    with con:
        con.execute("CREATE TABLE notes (text TEXT)")
        con.execute("INSERT INTO notes VALUES ('mine')")
    con.close()
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    for args in (("offers",), ("settings",), ("export", str(tmp_path / "x.xlsx"))):
        result = cli("--db", str(path), *args)
        assert result.code != 0 and "refusing to touch it" in result.err, result.err
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.sqlite"]  # no -wal, no -shm, no export
    wal = tmp_path / "wal" / "notes.sqlite"  # another program's database in WAL mode, closed
    wal.parent.mkdir()
    con = sqlite3.connect(wal)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("CREATE TABLE notes (text TEXT)")
    con.commit()
    con.close()
    summed = hashlib.sha256(wal.read_bytes()).hexdigest()
    for args in (("offers",), ("db", "check")):
        result = cli("--db", str(wal), *args)
        assert result.code == 2 and "no quotetui schema revision" in result.err, result.err
    assert hashlib.sha256(wal.read_bytes()).hexdigest() == summed
    assert sorted(p.name for p in wal.parent.iterdir()) == ["notes.sqlite"]  # no -wal or -shm left beside it


def test_a_view_or_another_programs_id_is_not_ours_and_db_check_writes_nothing(cli: Cli, tmp_path: Path) -> None:
    import hashlib

    view, marked, tables = tmp_path / "view.db", tmp_path / "marked.db", tmp_path / "tables.db"
    for path, statements in (
        (view, ["CREATE VIEW v AS SELECT 1"]),
        (marked, ["PRAGMA application_id = 1234", "PRAGMA user_version = 7"]),
        (tables, ["CREATE TABLE users (id INTEGER PRIMARY KEY)", "INSERT INTO users VALUES (1)"]),
    ):
        con = sqlite3.connect(path)
        for statement in statements:
            con.execute(statement)
        con.commit()
        con.close()
    sums = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in (view, marked, tables)}
    for path in (view, marked):
        result = cli("--db", str(path), "offers")
        assert result.code != 0 and "refusing to touch it" in result.err, result.err
    checked = cli("--db", str(tables), "db", "check")  # named as not ours, not "an upgrade available"
    assert checked.code == 2 and "no quotetui schema revision" in checked.err and "upgrade" not in checked.out
    alembic = tmp_path / "alembic.db"  # another program that uses alembic too: not "a newer quotetui"
    con = sqlite3.connect(alembic)
    con.execute("CREATE TABLE alembic_version (version_num TEXT)")
    con.execute("INSERT INTO alembic_version VALUES ('abc123')")
    con.commit()
    con.close()
    other = cli("--db", str(alembic), "db", "check")
    assert other.code == 2 and "no quotetui schema revision" in other.err and "newer" not in other.err
    alembic.unlink()
    assert {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in sums} == sums
    assert sorted(p.name for p in tmp_path.iterdir()) == ["marked.db", "tables.db", "view.db"]
