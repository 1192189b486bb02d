"""Schema migrations: in sync with the models, automatic upgrade with a backup, all or nothing."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from quotetui.domain.errors import DatabaseProblem
from quotetui.services.database import open_database
from quotetui.store import migrate
from quotetui.store.models import metadata

EXTRA_REVISION = """
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "{down}"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("offer") as batch:
        batch.add_column(sa.Column("test_flag", sa.Boolean(), nullable=False, server_default=sa.false()))
{extra}

def downgrade() -> None:
    with op.batch_alter_table("offer") as batch:
        batch.drop_column("test_flag")
"""


def _counts(path: Path) -> dict[str, int]:
    conn = sqlite3.connect(path)
    tables = [
        r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'")
    ]
    counts = {t: conn.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables if t != "alembic_version"}
    conn.close()
    return counts


def _money_sum(path: Path) -> int:
    conn = sqlite3.connect(path)
    total = conn.execute("SELECT sum(amount) + sum(coalesce(amount_high, 0)) FROM revision_price").fetchone()[0]
    conn.close()
    return total


@pytest.fixture
def newer_migrations(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """A copy of db/ with one more revision that rebuilds the offer table (batch mode)."""

    def make(extra: str = "") -> Path:
        folder = tmp_path / "db"
        shutil.copytree(migrate.migrations_dir(), folder, ignore=shutil.ignore_patterns("__pycache__"))
        (folder / "versions" / "0002_test.py").write_text(
            EXTRA_REVISION.format(down=migrate.head_revision(), extra=extra)
        )
        monkeypatch.setattr(migrate, "migrations_dir", lambda: folder)
        return folder

    return make


def test_migrations_produce_exactly_the_models(db_path: Path) -> None:
    open_database(str(db_path)).db.dispose()
    engine = sa.create_engine(f"sqlite:///{db_path}")
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), metadata)
    engine.dispose()
    assert diff == []


def test_older_database_is_backed_up_then_upgraded_without_loss(demo_db_path: Path, newer_migrations) -> None:  # type: ignore[no-untyped-def]
    before = _counts(demo_db_path)
    money_before = _money_sum(demo_db_path)
    newer_migrations()

    opened = open_database(str(demo_db_path))
    opened.db.dispose()

    backups = list(demo_db_path.parent.glob("demo.db.*.bak"))
    assert len(backups) == 1
    assert any("Backed up" in m and str(backups[0]) in m for m in opened.messages)
    assert any("from revision 0001 to 0002" in m for m in opened.messages)
    # the rebuilt offer table did not cascade-delete its children
    assert _counts(demo_db_path) == before
    assert _money_sum(demo_db_path) == money_before
    with sqlite3.connect(demo_db_path) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone()[0] == "0002"
        assert conn.execute("SELECT count(*) FROM offer WHERE test_flag = 0").fetchone()[0] == before["offer"]
        assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 0  # plain sqlite3 default, untouched
    # the backup is the pre-upgrade database, intact
    with sqlite3.connect(backups[0]) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone()[0] == "0001"
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert _counts(backups[0]) == before


def test_a_failing_migration_changes_nothing(demo_db_path: Path, newer_migrations) -> None:  # type: ignore[no-untyped-def]
    before = _counts(demo_db_path)
    newer_migrations(extra='    op.execute("INSERT INTO offer (id) VALUES (NULL)")  # violates NOT NULL\n')
    with pytest.raises(DatabaseProblem):
        open_database(str(demo_db_path))
    with sqlite3.connect(demo_db_path) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone()[0] == "0001"
        columns = [r[1] for r in conn.execute("PRAGMA table_info(offer)")]
    assert "test_flag" not in columns
    assert _counts(demo_db_path) == before


def test_db_upgrade_command_reports_and_upgrades(cli, demo_db_path: Path, newer_migrations) -> None:  # type: ignore[no-untyped-def]
    result = cli("--db", str(demo_db_path), "db", "upgrade")
    assert result.code == 0 and "newest schema (0001)" in result.out
    newer_migrations()
    result = cli("--db", str(demo_db_path), "db", "upgrade")
    assert result.code == 0, result.err
    assert "Backed up" in result.out and "to 0002" in result.out
    check = cli("--db", str(demo_db_path), "db", "check", "--json")
    assert check.code == 0 and '"revision": "0002"' in check.out
