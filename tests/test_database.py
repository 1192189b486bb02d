"""Where the database lives, how every connection is configured, and what a bad file does."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa

from quotetui.domain.enums import BillingBasis, FormFactor
from quotetui.domain.errors import DatabaseProblem
from quotetui.services.database import open_database
from quotetui.store import migrate
from quotetui.store.engine import BUSY_TIMEOUT_MS, Database, default_db_path, resolve_target
from quotetui.store.models import Offer

pytestmark = pytest.mark.sqlite_only  # opens SQLite files directly; PostgreSQL: test_postgres.py


def test_every_connection_has_wal_foreign_keys_and_busy_timeout(empty_db: Database) -> None:
    for _ in range(2):  # each session gets a fresh connection: the pragmas are per connection
        with empty_db.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar_one() == "wal"
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar_one() == 1
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar_one() == BUSY_TIMEOUT_MS


def test_foreign_keys_are_enforced(empty_db: Database) -> None:
    with pytest.raises(sa.exc.IntegrityError, match="FOREIGN KEY"), empty_db.write() as session:
        session.add(
            Offer(
                provider_id=999,
                gpu_model_id=1,
                name="ghost",
                form_factor=FormFactor.SXM,
                gpus_per_node=8,
                billing_basis=BillingBasis.MONTHLY,
            )
        )
    with empty_db.session() as session:
        assert session.exec(sa.select(sa.func.count()).select_from(Offer)).scalar_one() == 0


def test_check_constraints_guard_impossible_rows(demo_db: Database) -> None:
    with pytest.raises(sa.exc.IntegrityError, match="CHECK"), demo_db.write() as session:
        offer = session.get(Offer, 1)
        assert offer is not None
        offer.gpus_per_node = 0


def test_resolution_order_flag_then_env_then_default(tmp_path: Path) -> None:
    env = {"QUOTETUI_DB": str(tmp_path / "env.db")}
    assert resolve_target(str(tmp_path / "flag.db"), env).path == tmp_path / "flag.db"
    assert resolve_target(None, env).path == tmp_path / "env.db"
    default = resolve_target(None, {})
    assert default.is_default and default.path == default_db_path()
    assert default.path.name == "quotetui.db" and "quotetui" in default.path.parts


def test_urls_are_accepted_and_passwords_hidden(tmp_path: Path) -> None:
    sqlite_url = resolve_target(f"sqlite:///{tmp_path}/u.db", {})
    assert sqlite_url.path == tmp_path / "u.db"
    pg = resolve_target("postgresql+psycopg://buyer:secret@db.internal/quotes", {})
    assert pg.path is None and "secret" not in pg.label and "db.internal" in pg.label
    with pytest.raises(DatabaseProblem, match="in-memory"):
        resolve_target("sqlite://", {})


def test_a_text_file_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("these are my notes, not a database\n" * 10)
    before = path.read_bytes()
    with pytest.raises(DatabaseProblem, match="not a quotetui database"):
        open_database(str(path))
    assert path.read_bytes() == before
    assert not (tmp_path / "notes.db-wal").exists()


def test_a_foreign_sqlite_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(DatabaseProblem, match="no quotetui schema revision"):
        open_database(str(path))
    conn = sqlite3.connect(path)
    assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")] == ["customers"]
    conn.close()


def test_a_schema_newer_than_the_program_is_refused(db_path: Path) -> None:
    open_database(str(db_path)).db.dispose()
    conn = sqlite3.connect(db_path)
    conn.execute("UPDATE alembic_version SET version_num = '9999'")
    conn.commit()
    conn.close()
    with pytest.raises(DatabaseProblem, match="was made by a newer quotetui"):
        open_database(str(db_path))


def test_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DatabaseProblem, match="does not exist"):
        open_database(str(tmp_path / "nowhere" / "q.db"))


def test_new_database_is_at_head_and_passes_check(db_path: Path) -> None:
    opened = open_database(str(db_path))
    opened.db.dispose()
    assert opened.messages == [f"Created a new database at {db_path}."]  # not the default: no demo
    report = migrate.check(resolve_target(str(db_path)))
    assert report.ok and report.revision == migrate.head_revision()
