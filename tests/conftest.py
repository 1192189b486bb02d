"""Shared fixtures: isolated user folders, a demo database, and an in-process CLI runner."""

from __future__ import annotations

import io
import os
import sys
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest
import sqlalchemy as sa

from quotetui.cli import main
from quotetui.services.database import open_database
from quotetui.store.engine import Database


@pytest.fixture(autouse=True)
def isolated_user_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Never touch the real user data or cache folder or an inherited $QUOTETUI_DB, nor read the real config file."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("QUOTETUI_CACHE_DIR", str(home / ".cache" / "quotetui"))  # listings kept between launches
    monkeypatch.delenv("QUOTETUI_DB", raising=False)
    monkeypatch.delenv("QUOTETUI_CONFIG", raising=False)
    monkeypatch.setenv("QUOTETUI_LANG", "en")  # tests read English unless they ask for another language
    return home


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    """A test that switches the language or the money style (``--lang``, the TUI's settings) leaves English
    and plain amounts to the next one."""
    yield
    from quotetui import language
    from quotetui.domain.economics import display

    language.use(language.ENGLISH, "default")
    display.use_money_style("plain")


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


os.environ["TZ"] = "UTC"  # the display zone defaults to the system's (``inputs.system_zone``): tests read UTC days
BACKEND = os.environ.get("QUOTETUI_TEST_BACKEND", "sqlite")
"""``postgres`` runs the suite against the server named by ``QUOTETUI_TEST_PG`` (``.ci/run`` does both):
the database fixtures then hand out fresh databases on that server, and the tests marked ``sqlite_only``
(they open SQLite files directly, or test SQLite's own behaviour) are skipped."""
PG_SERVER = os.environ.get("QUOTETUI_TEST_PG")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only: inspects SQLite files directly; skipped on PostgreSQL")
    if BACKEND == "postgres" and not PG_SERVER:
        raise pytest.UsageError("QUOTETUI_TEST_BACKEND=postgres needs QUOTETUI_TEST_PG (a server URL)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if BACKEND != "postgres":
        return
    skip = pytest.mark.skip(reason="inspects SQLite files directly (run on SQLite)")
    for item in items:
        if "sqlite_only" in item.keywords:
            item.add_marker(skip)


class PgDatabase(str):
    """A database on the test server, where SQLite tests use a file path: ``str()`` of it is its URL."""


def _pg_admin() -> sa.Engine:
    assert PG_SERVER is not None
    return sa.create_engine(PG_SERVER, isolation_level="AUTOCOMMIT")


def _pg_create(template: str | None = None) -> PgDatabase:
    name = f"qt_{uuid.uuid4().hex[:16]}"
    admin = _pg_admin()
    with admin.connect() as conn:
        clause = f' TEMPLATE "{template}"' if template else ""
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"{clause}')
    admin.dispose()
    assert PG_SERVER is not None
    return PgDatabase(sa.engine.make_url(PG_SERVER).set(database=name).render_as_string(hide_password=False))


def _pg_drop(url: str) -> None:
    admin = _pg_admin()
    with admin.connect() as conn:
        conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{sa.engine.make_url(url).database}" WITH (FORCE)')
    admin.dispose()


@pytest.fixture
def db_path(tmp_path: Path) -> Iterator[Path]:
    if BACKEND == "postgres":
        url = _pg_create()
        yield url  # type: ignore[misc]
        _pg_drop(url)
    else:
        yield tmp_path / "quotes.db"


@pytest.fixture
def empty_db(db_path: Path) -> Iterator[Database]:
    opened = open_database(str(db_path))
    yield opened.db
    opened.db.dispose()


def url_of(db: Path | str) -> str:
    """The SQLAlchemy URL of a test database: a PostgreSQL URL as it is, a file path as SQLite."""
    return str(db) if "://" in str(db) else f"sqlite:///{db}"


def sql(db: Path | str, query: str) -> list[tuple[object, ...]]:
    """Rows of a query on a test database, SQLite file or PostgreSQL URL alike."""
    engine = sa.create_engine(url_of(db))
    try:
        with engine.connect() as conn:
            return [tuple(row) for row in conn.exec_driver_sql(query)]
    finally:
        engine.dispose()


def execute(db: Path | str, statement: str, params: dict[str, object] | None = None) -> None:
    """Run one write statement (named ``:params``) on a test database, SQLite file or PostgreSQL URL."""
    engine = sa.create_engine(url_of(db))
    try:
        with engine.begin() as conn:
            conn.execute(sa.text(statement), params or {})
    finally:
        engine.dispose()


def probe_bundle(folder: Path, host: str, logs: Iterable[Path]) -> Path:
    """A probe bundle (``quotetui/probe``) for ``host`` holding ``logs`` as its commands' output: evidence that
    names the machine it came from, as the probe writes it (the sample logs' GPU UUIDs made the host's own:
    two machines never share a GPU)."""
    import hashlib
    import json

    from quotetui.probe.gpu_probe import BUNDLE_KEY, BUNDLE_VERSION

    own = hashlib.sha256(host.encode()).hexdigest()  # the samples' GPU UUIDs, made this machine's own
    commands = [
        {
            "name": p.stem,
            "returncode": 0,
            "stdout": p.read_text(encoding="utf-8").replace("4f1c-9a7e", f"{own[:4]}-{own[4:8]}"),
        }
        for p in logs
    ]
    data = {BUNDLE_KEY: BUNDLE_VERSION, "host": host, "started_at": "2026-11-30T08:00:00Z", "commands": commands}
    path = folder / f"probe-{host}.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


WRITE_STAMPS = frozenset({"created_at", "updated_at", "imported_at", "at"})
"""Columns that say when a row was written (``at``: the change log's), not what it says: two complete imports of
the same file differ only in these."""

DERIVED = frozenset({"stored_evaluation", "evaluation_set"})
"""The stored ranking (``services/stored_ranking.py``): computed from the data, with the times it was computed;
never what a buyer entered, so never part of "what the database holds" in a comparison."""


def dump(db: Path | str, skip: frozenset[str] = frozenset(), without: frozenset[str] = frozenset()) -> str:
    """Every row of every table a buyer's data lives in, sorted: equal dumps mean equal contents (SQLite or
    PostgreSQL). Columns named in ``skip`` (write-time stamps, say) and tables named in ``without`` are left
    out, and so is the stored ranking (:data:`DERIVED`)."""
    engine = sa.create_engine(url_of(db))
    try:
        with engine.connect() as conn:
            inspector = sa.inspect(conn)
            lines = []
            for table in sorted(set(inspector.get_table_names()) - without - DERIVED):
                names = [c["name"] for c in inspector.get_columns(table) if c["name"] not in skip]
                query = f'SELECT {", ".join(f"{chr(34)}{n}{chr(34)}" for n in names)} FROM "{table}"'
                lines += [f"{table}: {row}" for row in sorted(repr(tuple(r)) for r in conn.exec_driver_sql(query))]
    finally:
        engine.dispose()
    return "\n".join(lines)


@pytest.fixture
def new_db(tmp_path: Path) -> Iterator[Callable[[str], Path]]:
    """Makes fresh, empty database locations: a file in ``tmp_path``, or a new database on the server."""
    made: list[str] = []

    def make(name: str = "fresh.db") -> Path:
        if BACKEND == "postgres":
            url = _pg_create()
            made.append(url)
            return url  # type: ignore[return-value]
        return tmp_path / name

    yield make
    for url in made:
        _pg_drop(url)


@pytest.fixture(scope="session")
def demo_template(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A demo database built once per test session; tests copy it (on PostgreSQL: a template database)."""
    from quotetui.services.demo import load_demo

    if BACKEND == "postgres":
        url = _pg_create()
        opened = open_database(url)
        load_demo(opened.db)
        opened.db.dispose()
        yield url  # type: ignore[misc]
        _pg_drop(url)
        return
    path = tmp_path_factory.mktemp("demo") / "demo.db"
    opened = open_database(str(path))
    load_demo(opened.db)
    opened.db.dispose()
    yield path


def copy_demo(demo_template: Path, dest: Path) -> Path:
    """A copy of the demo template: a file at ``dest`` on SQLite, a database cloned from it on PostgreSQL."""
    if BACKEND == "postgres":
        return _pg_create(template=sa.engine.make_url(str(demo_template)).database)  # type: ignore[return-value]
    import shutil

    shutil.copy(demo_template, dest)
    return dest


@pytest.fixture
def demo_db_path(demo_template: Path, tmp_path: Path) -> Iterator[Path]:
    if BACKEND == "postgres":
        url = _pg_create(template=sa.engine.make_url(str(demo_template)).database)
        yield url  # type: ignore[misc]
        _pg_drop(url)
        return
    import sqlite3

    dest = tmp_path / "demo.db"
    src = sqlite3.connect(demo_template)
    dst = sqlite3.connect(dest)
    src.backup(dst)
    src.close()
    dst.close()
    yield dest


@pytest.fixture
def demo_db(demo_db_path: Path) -> Iterator[Database]:
    opened = open_database(str(demo_db_path))
    yield opened.db
    opened.db.dispose()


def python() -> str:
    return sys.executable
