"""RFQ state that cannot drift (issue 29, point 6): sending a revision again keeps the answer a provider already
gave to it; `rfq send` killed with SIGKILL at any point leaves no workbook on disk whose reference code the
database does not know, and the next send cleans up and completes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from openpyxl import load_workbook

from quotetui.io.rfq_workbook import IDENTITY_CELLS, RFQ_SHEET
from tests.conftest import Cli, sql
from tests.test_rfq_answers import NEED, _filled, _sent, _state

PROVIDERS = ("-p", "阿里云", "-p", "腾讯云")


def _invites(db: Path) -> dict[str, tuple[str, str | None, str]]:
    """provider -> (state, reference, sent_at) as stored."""
    rows = sql(db, "SELECT p.name, i.state, i.reference, i.sent_at FROM rfq_invite i JOIN provider p "
               "ON p.id = i.provider_id")  # fmt: skip
    return {name: (state, ref, str(sent)) for name, state, ref, sent in rows}


def test_sending_a_revision_again_keeps_an_answer_already_in(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    db = str(demo_db_path)
    answer = _filled(_sent(cli, demo_db_path, tmp_path / "first"), tmp_path / "answer.xlsx")
    assert cli("--db", db, "import", str(answer)).code == 0
    answered_at = json.loads(cli("--db", db, "rfq", "status", "H100 64", "--json").out)["invites"]
    day = next(i["answered_at"] for i in answered_at if i["provider"] == "阿里云")
    again = cli("--db", db, "rfq", "send", "H100 64", *PROVIDERS, "--out", str(tmp_path / "again"))
    assert again.code == 0, again.err
    assert f"its answer of {day[:10]} is kept" in again.out and again.out.count("is kept") == 1
    assert _state(cli, demo_db_path) == {"阿里云": "answered", "腾讯云": "sent"}
    after = json.loads(cli("--db", db, "rfq", "status", "H100 64", "--json").out)["invites"]
    assert next(i["answered_at"] for i in after if i["provider"] == "阿里云") == day
    # a new revision is a new question: the answer to the old one no longer stands
    assert cli("--db", db, "rfq", "edit", "H100 64", "--gpus", "128").code == 0
    third = cli("--db", db, "rfq", "send", "H100 64", *PROVIDERS, "--out", str(tmp_path / "third"))
    assert third.code == 0 and "is kept" not in third.out
    assert _state(cli, demo_db_path) == {"阿里云": "sent", "腾讯云": "sent"}


DRIVER = r"""
import os, signal, sys
from pathlib import Path
point, count = sys.argv[3], int(sys.argv[4])
calls = {"n": 0}

def die_after(original):
    def wrapper(*args, **kwargs):
        result = original(*args, **kwargs)
        calls["n"] += 1
        if calls["n"] == count:
            os.kill(os.getpid(), signal.SIGKILL)
        return result
    return wrapper

def die_before(original):
    def wrapper(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == count:
            os.kill(os.getpid(), signal.SIGKILL)
        return original(*args, **kwargs)
    return wrapper

import openpyxl.workbook.workbook as wb
import quotetui.io.rfq_workbook as books
import quotetui.services.rfq as rfq
if point == "recording":  # inside the transaction, before it commits
    rfq._record_sent = die_after(rfq._record_sent)
elif point == "before-workbook":  # committed, before the k-th workbook is written
    books.write_response_workbook = die_before(books.write_response_workbook)
elif point == "saving":  # the k-th workbook saved to its temporary file, not yet renamed
    wb.Workbook.save = die_after(wb.Workbook.save)
elif point == "after-workbook":  # the k-th workbook in place, its cover text not yet written
    books.write_response_workbook = die_after(books.write_response_workbook)
elif point == "cover":  # the k-th cover text written to its temporary file, not yet renamed
    Path.write_text = die_after(Path.write_text)
from quotetui.cli import main
main(["--db", sys.argv[1], "rfq", "send", "H100 64", "-p", "阿里云", "-p", "腾讯云", "--out", sys.argv[2]])
"""

POINTS = [("recording", 1), ("before-workbook", 1), ("saving", 1), ("after-workbook", 1), ("cover", 1),
          ("before-workbook", 2), ("saving", 2), ("cover", 2)]  # fmt: skip


def _consistent(db: Path, folder: Path) -> None:
    """Every workbook in the folder carries the reference the database holds for its provider and revision."""
    invites = _invites(db)
    for book_path in folder.glob("*.xlsx"):
        sheet = load_workbook(book_path, read_only=True)[RFQ_SHEET]
        provider, reference = sheet[IDENTITY_CELLS["provider"]].value, sheet[IDENTITY_CELLS["reference"]].value
        assert provider in invites, (book_path.name, "no invitation on record")
        assert invites[provider][1] == reference, (book_path.name, "a reference the database does not know")


@pytest.mark.parametrize(("point", "count"), POINTS)
def test_a_send_killed_at_any_point_leaves_nothing_the_database_does_not_know(
    cli: Cli, demo_db_path: Path, tmp_path: Path, point: str, count: int
) -> None:
    db = str(demo_db_path)
    assert cli("--db", db, "rfq", "new", "H100 64", *NEED).code == 0
    folder = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    killed = subprocess.run([sys.executable, "-c", DRIVER, db, str(folder), point, str(count)], env=env,
                            capture_output=True, text=True, timeout=120)  # fmt: skip
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    _consistent(demo_db_path, folder)
    again = cli("--db", db, "rfq", "send", "H100 64", *PROVIDERS, "--out", str(folder), "--force")
    assert again.code == 0, again.err
    _consistent(demo_db_path, folder)
    assert sorted(p.name for p in folder.iterdir() if p.name.startswith(".")) == []  # no temporary file left
    assert len(list(folder.glob("*.xlsx"))) == 2 and len(list(folder.glob("*.md"))) == 2
    assert _state(cli, demo_db_path) == {"阿里云": "sent", "腾讯云": "sent"}


def _full_disk_on_the_second_workbook(monkeypatch: pytest.MonkeyPatch) -> None:
    """Writing the second response workbook fails as a full disk does (``system/atomic.py``'s message)."""
    import quotetui.io.rfq_workbook as books
    from quotetui.domain.errors import BadInput

    real, calls = books.write_response_workbook, []

    def full_disk(path: Path, *args: object) -> None:
        calls.append(path)
        if len(calls) == 2:
            raise BadInput(f"writing {path} failed: No space left on device; nothing was written")
        real(path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(books, "write_response_workbook", full_disk)


def test_a_send_that_cannot_write_puts_the_invitations_back(
    cli: Cli, demo_db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure that Python sees while writing (a full disk on the second workbook) removes this run's files
    and leaves the invitations as they were: the first send's, and no new one."""
    db = str(demo_db_path)
    assert cli("--db", db, "rfq", "new", "H100 64", *NEED).code == 0
    assert cli("--db", db, "rfq", "send", "H100 64", "-p", "阿里云", "--out", str(tmp_path / "a")).code == 0
    before = _invites(demo_db_path)
    _full_disk_on_the_second_workbook(monkeypatch)
    folder = tmp_path / "b"
    done = cli("--db", db, "rfq", "send", "H100 64", *PROVIDERS, "--out", str(folder))
    assert done.code == 2 and "No space left" in done.err
    assert _invites(demo_db_path) == before  # 阿里云's as it was (state, reference, day sent); 腾讯云 not invited
    assert list(folder.iterdir()) == []  # the first workbook this run wrote is gone too


def _reference(book: Path) -> str:
    return load_workbook(book, read_only=True)[RFQ_SHEET][IDENTITY_CELLS["reference"]].value


def test_two_sends_at_once_agree_on_the_reference(
    cli: Cli, demo_db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second send to the same new provider that records between the first one's checks and its recording (the
    TUI and the CLI at once): both folders' workbooks carry the reference the database holds (it is chosen under
    the RFQ's row lock, not before)."""
    import quotetui.services.rfq as rfq

    db = str(demo_db_path)
    assert cli("--db", db, "rfq", "new", "H100 64", *NEED).code == 0
    real, done = rfq._remove_left_parts, []

    def meanwhile(planned: object) -> None:
        if not done:
            done.append(True)
            other = cli("--db", db, "rfq", "send", "H100 64", "-p", "阿里云", "--out", str(tmp_path / "y"))
            assert other.code == 0, other.err
        real(planned)  # type: ignore[arg-type]

    monkeypatch.setattr(rfq, "_remove_left_parts", meanwhile)
    first = cli("--db", db, "rfq", "send", "H100 64", "-p", "阿里云", "--out", str(tmp_path / "x"))
    assert first.code == 0, first.err
    (x,), (y,) = (tmp_path / "x").glob("*.xlsx"), (tmp_path / "y").glob("*.xlsx")
    assert _reference(x) == _reference(y) == _invites(demo_db_path)["阿里云"][1]


def test_a_failed_resend_keeps_the_files_sent_before(
    cli: Cli, demo_db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--force` over the files of an earlier send, failing on the second workbook (a full disk): no file is
    replaced (each is written aside and renamed into place only once all are written)."""
    db = str(demo_db_path)
    assert cli("--db", db, "rfq", "new", "H100 64", *NEED).code == 0
    folder = tmp_path / "out"
    assert cli("--db", db, "rfq", "send", "H100 64", *PROVIDERS, "--out", str(folder)).code == 0
    files = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert cli("--db", db, "rfq", "edit", "H100 64", "--gpus", "72").code == 0
    _full_disk_on_the_second_workbook(monkeypatch)
    done = cli("--db", db, "rfq", "send", "H100 64", *PROVIDERS, "--out", str(folder), "--force")
    assert done.code == 2 and "No space left" in done.err
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == files  # the revision-1 files, untouched
