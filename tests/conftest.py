"""Shared fixtures: isolated user folders, a demo database, and an in-process CLI runner."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterator
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest

from quotetui.cli import main
from quotetui.services.database import open_database
from quotetui.store.engine import Database


@pytest.fixture(autouse=True)
def isolated_user_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Never touch the real user data folder or an inherited $QUOTETUI_DB."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.delenv("QUOTETUI_DB", raising=False)
    return home


@dataclass
class CliResult:
    code: int
    out: str
    err: str


def run_cli(*args: str) -> CliResult:
    """Run ``quotetui ARGS`` in-process through the real entry point (exit-status mapping included)."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with redirect_stdout(out), redirect_stderr(err):
        try:
            main(list(args))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return CliResult(code, out.getvalue(), err.getvalue())


Cli = Callable[..., CliResult]
"""The type of the ``cli`` fixture: ``cli("--db", path, "offers")``."""


@pytest.fixture
def cli() -> Cli:
    return run_cli


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "quotes.db"


@pytest.fixture
def empty_db(db_path: Path) -> Iterator[Database]:
    opened = open_database(str(db_path))
    yield opened.db
    opened.db.dispose()


@pytest.fixture(scope="session")
def demo_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A demo database built once per test session; tests copy it."""
    from quotetui.services.demo import load_demo

    path = tmp_path_factory.mktemp("demo") / "demo.db"
    opened = open_database(str(path))
    load_demo(opened.db)
    opened.db.dispose()
    return path


@pytest.fixture
def demo_db_path(demo_template: Path, tmp_path: Path) -> Path:
    import sqlite3

    dest = tmp_path / "demo.db"
    src = sqlite3.connect(demo_template)
    dst = sqlite3.connect(dest)
    src.backup(dst)
    src.close()
    dst.close()
    return dest


@pytest.fixture
def demo_db(demo_db_path: Path) -> Iterator[Database]:
    opened = open_database(str(demo_db_path))
    yield opened.db
    opened.db.dispose()


def python() -> str:
    return sys.executable
