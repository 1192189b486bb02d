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

pytestmark = pytest.mark.sqlite_only  # SQLite files, backups and batch mode; test_postgres.py migrates a server

EXTRA_REVISION = """
import sqlalchemy as sa
from alembic import op

revision = "9001"
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
        (folder / "versions" / "9001_test.py").write_text(
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
    head = migrate.head_revision()
    newer_migrations()

    opened = open_database(str(demo_db_path))
    opened.db.dispose()

    backups = list(demo_db_path.parent.glob("demo.db.*.bak"))
    assert len(backups) == 1
    assert any("Backed up" in m and str(backups[0]) in m for m in opened.messages)
    assert any(f"from revision {head} to 9001" in m for m in opened.messages)
    # the rebuilt offer table did not cascade-delete its children; stored evaluations (computed, not entered)
    # are cleared by an upgrade, every offer keeps a stamp, and the triggers that keep stamps are back
    after = _counts(demo_db_path)
    assert after.pop("stored_evaluation") == 0 and before.pop("stored_evaluation") > 0
    assert after == before and after["offer_stamp"] == after["offer"]
    with sqlite3.connect(demo_db_path) as conn:
        triggers = {r[0] for r in conn.execute("SELECT tbl_name FROM sqlite_master WHERE type = 'trigger'")}
    assert {"offer", "provider", "revision_price", "sla_credit_tier", "evidence"} <= triggers
    assert _money_sum(demo_db_path) == money_before
    with sqlite3.connect(demo_db_path) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone()[0] == "9001"
        assert conn.execute("SELECT count(*) FROM offer WHERE test_flag = 0").fetchone()[0] == before["offer"]
        assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 0  # plain sqlite3 default, untouched
    # the backup is the pre-upgrade database, intact
    with sqlite3.connect(backups[0]) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone()[0] == head
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert {k: v for k, v in _counts(backups[0]).items() if k != "stored_evaluation"} == before


def test_a_failing_migration_changes_nothing(demo_db_path: Path, newer_migrations) -> None:  # type: ignore[no-untyped-def]
    before = _counts(demo_db_path)
    head = migrate.head_revision()
    newer_migrations(extra='    op.execute("INSERT INTO offer (id) VALUES (NULL)")  # violates NOT NULL\n')
    with pytest.raises(DatabaseProblem):
        open_database(str(demo_db_path))
    with sqlite3.connect(demo_db_path) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone()[0] == head
        columns = [r[1] for r in conn.execute("PRAGMA table_info(offer)")]
    assert "test_flag" not in columns
    assert _counts(demo_db_path) == before


def test_db_upgrade_command_reports_and_upgrades(cli, demo_db_path: Path, newer_migrations) -> None:  # type: ignore[no-untyped-def]
    result = cli("--db", str(demo_db_path), "db", "upgrade")
    assert result.code == 0 and f"newest schema ({migrate.head_revision()})" in result.out
    newer_migrations()
    result = cli("--db", str(demo_db_path), "db", "upgrade")
    assert result.code == 0, result.err
    assert "Backed up" in result.out and "to 9001" in result.out
    check = cli("--db", str(demo_db_path), "db", "check", "--json")
    assert check.code == 0 and '"revision": "9001"' in check.out


def test_a_first_schema_database_upgrades_to_the_newest(db_path: Path) -> None:
    """A database made with revision 0001 (the first released schema) gains the newer columns."""
    from quotetui.store.engine import resolve_target

    migrate.upgrade(resolve_target(str(db_path)), "0001")
    with sqlite3.connect(db_path) as conn:
        conn.execute(
            "INSERT INTO provider (name, kind, regions, certifications, created_at, updated_at) "
            "VALUES ('老客户', 'lessor', '[]', '[]', '2026-01-01 00:00:00', '2026-01-01 00:00:00')"
        )
        conn.execute(
            "INSERT INTO gpu_model (key, name, form_factor, memory_gb, memory_type, memory_bw_tbs, "
            "bf16_tflops, nvlink_note, tdp_w, consumer, builtin) VALUES ('h100-sxm5', 'H100 SXM5', 'sxm', "
            "80, 'HBM3', '3.35', '989', '', 700, 0, 1)"
        )
        conn.execute(
            "INSERT INTO offer (provider_id, gpu_model_id, name, form_factor, gpus_per_node, intra_fabric, "
            "inter_fabric, bare_metal, billing_basis, status, is_estimate, created_at, updated_at) VALUES "
            "(1, 1, 'old', 'sxm', 8, 'nvswitch', 'none', 1, 'monthly', 'quoted', 0, '2026-01-01', '2026-01-01')"
        )
    opened = open_database(str(db_path))
    opened.db.dispose()
    assert any("from revision 0001 to" in m for m in opened.messages)
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone()[0] == migrate.head_revision()
        assert conn.execute("SELECT name, prorata_days FROM offer").fetchall() == [("old", 0)]
    assert list(db_path.parent.glob("quotes.db.*.bak"))


def test_the_head_read_from_the_scripts_is_alembics_head() -> None:
    from alembic.script import ScriptDirectory

    assert migrate.head_revision() == ScriptDirectory.from_config(migrate.alembic_config()).get_current_head()
    assert migrate.known_revisions() == {
        r.revision for r in ScriptDirectory.from_config(migrate.alembic_config()).walk_revisions()
    }


def test_opening_a_current_database_does_not_load_alembic(db_path: Path) -> None:
    import subprocess
    import sys

    open_database(str(db_path)).db.dispose()
    code = (
        "import sys\nfrom quotetui.services.database import open_database\n"
        f"open_database({str(db_path)!r}).db.dispose()\nprint('alembic' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
