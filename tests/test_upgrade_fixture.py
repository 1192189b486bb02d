"""A database made with the first released schema (revision 0001, ``tests/fixtures/upgrade``) upgrades to
the newest with every row and every money sum unchanged, and the pre-upgrade backup is kept."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from sqlmodel import SQLModel

import quotetui.store.models  # noqa: F401  (the tables' metadata)
from quotetui.services.database import open_database
from quotetui.store import migrate
from quotetui.store.types import ScaledDecimal

pytestmark = pytest.mark.sqlite_only  # opens SQLite files directly; PostgreSQL: test_postgres.py

FIXTURE = Path(__file__).parent / "fixtures" / "upgrade" / "schema-0001.db"


def _money_columns() -> dict[str, list[str]]:
    return {
        table.name: [c.name for c in table.columns if isinstance(c.type, ScaledDecimal)]
        for table in SQLModel.metadata.sorted_tables
    }


def _state(db: Path) -> tuple[dict[str, int], dict[str, int]]:
    """Row counts of every table, and the exact sum (in stored micro-units) of every money column."""
    counts, sums = {}, {}
    with sqlite3.connect(db) as con:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        for table, columns in _money_columns().items():
            if table not in tables:
                continue
            counts[table] = con.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0]
            present = {r[1] for r in con.execute(f'PRAGMA table_info("{table}")')}
            for column in columns:
                if column in present:
                    sums[f"{table}.{column}"] = con.execute(f'SELECT TOTAL("{column}") FROM "{table}"').fetchone()[0]
    return counts, sums


def test_the_first_schema_upgrades_without_loss(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    shutil.copy(FIXTURE, db)
    before_counts, before_sums = _state(db)
    assert before_counts["offer"] == 20 and before_counts["contract"] == 1 and before_counts["evidence"] == 2
    assert sum(1 for v in before_sums.values() if v) >= 8  # real money in many columns

    opened = open_database(str(db))
    opened.db.dispose()
    assert any("from revision 0001 to" in m for m in opened.messages)
    after_counts, after_sums = _state(db)
    # every table keeps its rows; the settings gain the data version an upgrade adds (migration 0005), and the
    # catalog gains the models added to the built-ins since (with their aliases), losing none
    from quotetui.domain.gpus import BUILTIN

    catalog = ("setting", "gpu_model", "gpu_alias")
    kept = {t: n for t, n in before_counts.items() if t not in catalog}
    assert {t: after_counts[t] for t in kept} == kept
    assert before_counts["gpu_model"] == 13 and after_counts["gpu_model"] == len(BUILTIN) > 13
    assert after_counts["gpu_alias"] > before_counts["gpu_alias"]
    assert after_counts["setting"] == before_counts["setting"] + 1
    assert {k: after_sums[k] for k in before_sums} == before_sums
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT version_num FROM alembic_version").fetchone()[0] == migrate.head_revision()
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert con.execute("PRAGMA foreign_key_check").fetchone() is None
        # evidence gained its offer through its verified results
        assert con.execute("SELECT DISTINCT offer_id FROM evidence").fetchall() == [(1,)]
    [backup] = tmp_path.glob("old.db.*.bak")
    assert _state(backup) == (before_counts, before_sums)
    with sqlite3.connect(backup) as con:
        assert con.execute("SELECT version_num FROM alembic_version").fetchone()[0] == "0001"


def test_the_upgraded_fixture_computes_like_a_new_database(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "old.db"
    shutil.copy(FIXTURE, db)
    result = cli("--db", str(db), "contracts", "show", "1", "--on", "2026-03-31", "--json")
    assert result.code == 0, result.err
    assert '"credits_owed": "71400.00"' in result.out and '"prepayment": "12345.678901"' in result.out
    assert cli("--db", str(db), "offers", "--json").code == 0
