"""Offer stamps: a number per offer that the database bumps on every change to anything its evaluation reads.

Triggers keep ``offer_stamp`` (``store/models/ranking.py``), so a write from any program — quotetui, an import,
the sqlite3 shell, psql — makes the offer's stored evaluations stale (``services/stored_ranking.py``).

The triggers are not part of any one migration: ``db/env.py`` drops them before migrations run and installs
them again after (:func:`install`), because rebuilding a table on SQLite (alembic's batch mode) fails while a
trigger on another table names it. Installing also gives every offer a stamp and clears every stored
evaluation: a migration may have changed what an offer reads without a trigger seeing it.
"""

from __future__ import annotations

import sqlalchemy as sa

DEPENDS = {
    "provider": "SELECT id FROM offer WHERE provider_id = {row}.id",
    "quote_revision": "{row}.offer_id",
    "revision_price": "SELECT offer_id FROM quote_revision WHERE id = {row}.revision_id",
    "discount": "{row}.offer_id",
    "extra_cost": "{row}.offer_id",
    "sla_term": "{row}.offer_id",
    "sla_credit_tier": "SELECT offer_id FROM sla_term WHERE id = {row}.sla_term_id",
    "benchmark_result": "{row}.offer_id",
    "source": "SELECT offer_id FROM benchmark_result WHERE source_id = {row}.id",
    "evidence": "SELECT offer_id FROM benchmark_result WHERE evidence_id = {row}.id",
}
"""Each table an offer's evaluation reads besides ``offer`` (``services/inputs.py: offer_inputs``), and the
offers one of its rows belongs to. A test holds this to the tables ``offer_inputs`` reads."""

PREFIX = "stamp_"
BUMP = "UPDATE offer_stamp SET stamp = stamp + 1 WHERE offer_id IN ({offers});"
NEW_STAMP = (
    "INSERT INTO offer_stamp (offer_id, stamp) VALUES (NEW.id, 1) "
    "ON CONFLICT (offer_id) DO UPDATE SET stamp = offer_stamp.stamp + 1;"
)
GONE = "DELETE FROM offer_stamp WHERE offer_id = OLD.id; DELETE FROM stored_evaluation WHERE offer_id = OLD.id;"


def _bump(table: str, row: str) -> str:
    offers = f"{row}.id" if table == "offer" else DEPENDS[table].format(row=row)
    return BUMP.format(offers=offers)


def sqlite_triggers() -> list[str]:
    out = [
        f"CREATE TRIGGER {PREFIX}offer_insert AFTER INSERT ON offer BEGIN {NEW_STAMP} END",
        f"CREATE TRIGGER {PREFIX}offer_update AFTER UPDATE ON offer BEGIN {_bump('offer', 'OLD')} "
        f"{_bump('offer', 'NEW')} END",
        f"CREATE TRIGGER {PREFIX}offer_delete AFTER DELETE ON offer BEGIN {GONE} END",
    ]
    for table in DEPENDS:
        out += [
            f"CREATE TRIGGER {PREFIX}{table}_insert AFTER INSERT ON {table} BEGIN {_bump(table, 'NEW')} END",
            f"CREATE TRIGGER {PREFIX}{table}_update AFTER UPDATE ON {table} BEGIN {_bump(table, 'OLD')} "
            f"{_bump(table, 'NEW')} END",
            f"CREATE TRIGGER {PREFIX}{table}_delete AFTER DELETE ON {table} BEGIN {_bump(table, 'OLD')} END",
        ]
    return out


def server_triggers() -> list[str]:
    """PostgreSQL: one plpgsql function and one row trigger per table."""
    out = [
        f"CREATE FUNCTION {PREFIX}offer() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        f"IF TG_OP = 'INSERT' THEN {NEW_STAMP} "
        f"ELSIF TG_OP = 'UPDATE' THEN {_bump('offer', 'OLD')} {_bump('offer', 'NEW')} "
        f"ELSE {GONE} END IF; RETURN NULL; END $$",
        f"CREATE TRIGGER {PREFIX}offer AFTER INSERT OR UPDATE OR DELETE ON offer "
        f"FOR EACH ROW EXECUTE FUNCTION {PREFIX}offer()",
    ]
    for table in DEPENDS:
        out += [
            f"CREATE FUNCTION {PREFIX}{table}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            f"IF TG_OP <> 'INSERT' THEN {_bump(table, 'OLD')} END IF; "
            f"IF TG_OP <> 'DELETE' THEN {_bump(table, 'NEW')} END IF; RETURN NULL; END $$",
            f"CREATE TRIGGER {PREFIX}{table} AFTER INSERT OR UPDATE OR DELETE ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION {PREFIX}{table}()",
        ]
    return out


def _server(conn: sa.Connection) -> bool:
    return conn.dialect.name == "postgresql"


def drop(conn: sa.Connection) -> None:
    """Remove every stamp trigger (before migrations run)."""
    if _server(conn):
        rows = conn.exec_driver_sql(
            "SELECT t.tgname, c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
            "WHERE NOT t.tgisinternal AND left(t.tgname, 6) = 'stamp_'"
        ).fetchall()
        for name, table in rows:
            conn.exec_driver_sql(f'DROP TRIGGER IF EXISTS "{name}" ON "{table}"')
        for (name,) in conn.exec_driver_sql(
            "SELECT proname FROM pg_proc WHERE left(proname, 6) = 'stamp_' AND prorettype = 'trigger'::regtype"
        ).fetchall():
            conn.exec_driver_sql(f'DROP FUNCTION IF EXISTS "{name}"()')
        return
    for (name,) in conn.exec_driver_sql(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' AND substr(name, 1, 6) = 'stamp_'"
    ).fetchall():
        conn.exec_driver_sql(f'DROP TRIGGER IF EXISTS "{name}"')


def install(conn: sa.Connection) -> None:
    """The stamp triggers, after migrations ran (nothing before the schema has ``offer_stamp``)."""
    if not sa.inspect(conn).has_table("offer_stamp"):
        return
    drop(conn)
    for statement in server_triggers() if _server(conn) else sqlite_triggers():
        conn.exec_driver_sql(statement)
    conn.exec_driver_sql(
        "INSERT INTO offer_stamp (offer_id, stamp) SELECT id, 1 FROM offer "
        "WHERE id NOT IN (SELECT offer_id FROM offer_stamp)"
    )
    conn.exec_driver_sql("DELETE FROM offer_stamp WHERE offer_id NOT IN (SELECT id FROM offer)")
    conn.exec_driver_sql("DELETE FROM stored_evaluation")


__all__ = ["DEPENDS", "drop", "install", "server_triggers", "sqlite_triggers"]
