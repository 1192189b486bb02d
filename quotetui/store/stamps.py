"""Offer stamps: a number per offer that the database bumps on every change to anything its evaluation reads.

Triggers keep ``offer_stamp`` (``store/models/ranking.py``), so a write from any program — quotetui, an import,
the sqlite3 shell, psql — makes the offer's stored evaluations stale (``services/stored_ranking.py``).

The triggers are not part of any one migration: ``db/env.py`` drops them before migrations run and installs
them again after (:func:`install`), because rebuilding a table on SQLite (alembic's batch mode) fails while a
trigger on another table names it. So a change to the triggers here reaches existing databases with the next
migration revision: add one (an empty one will do) with the change. Installing also gives every offer a stamp
and clears every stored evaluation: a migration may have changed what an offer reads without a trigger seeing
it.
"""

from __future__ import annotations

import sqlalchemy as sa

DEPENDS = {
    "offer": ("id", "{keys}"),
    "provider": ("id", "SELECT id FROM offer WHERE provider_id IN ({keys})"),
    "quote_revision": ("offer_id", "{keys}"),
    "revision_price": ("revision_id", "SELECT offer_id FROM quote_revision WHERE id IN ({keys})"),
    "discount": ("offer_id", "{keys}"),
    "extra_cost": ("offer_id", "{keys}"),
    "sla_term": ("offer_id", "{keys}"),
    "sla_credit_tier": ("sla_term_id", "SELECT offer_id FROM sla_term WHERE id IN ({keys})"),
    "benchmark_result": ("offer_id", "{keys}"),
    "source": ("id", "SELECT offer_id FROM benchmark_result WHERE source_id IN ({keys})"),
    "evidence": ("id", "SELECT offer_id FROM benchmark_result WHERE evidence_id IN ({keys})"),
}
"""Each table an offer's evaluation reads (``services/engine_inputs.py: offer_inputs``): the column of a row that
leads to its offers, and the offers ``{keys}`` (values of that column) belong to. A test holds this to the
tables ``offer_inputs`` reads."""

PREFIX = "stamp_"
BUMP = "UPDATE offer_stamp SET stamp = stamp + 1 WHERE offer_id IN ({offers});"
NEW_STAMP = (
    "INSERT INTO offer_stamp (offer_id, stamp) VALUES (NEW.id, 1) "
    "ON CONFLICT (offer_id) DO UPDATE SET stamp = offer_stamp.stamp + 1;"
)
GONE = "DELETE FROM offer_stamp WHERE offer_id = OLD.id; DELETE FROM stored_evaluation WHERE offer_id = OLD.id;"

Uniques = dict[str, list[list[str]]]
"""Each table's sets of columns no two rows may share (its primary key, unique constraints and indexes)."""


def _bump(table: str, keys: str) -> str:
    return BUMP.format(offers=DEPENDS[table][1].format(keys=keys))


def _row(table: str, row: str) -> str:
    """The offers of the ``NEW`` or ``OLD`` row."""
    return _bump(table, f"{row}.{DEPENDS[table][0]}")


def _replaced(table: str, uniques: list[list[str]], update: bool) -> str:
    """The offers of the rows a ``REPLACE`` would remove to make room for ``NEW``: SQLite removes them without
    firing their delete triggers (``recursive_triggers`` is off unless the writer turns it on)."""
    clash = " OR ".join("(" + " AND ".join(f"x.{c} = NEW.{c}" for c in cols) + ")" for cols in uniques)
    other = " AND x.rowid <> OLD.rowid" if update else ""
    return _bump(table, f"SELECT x.{DEPENDS[table][0]} FROM {table} x WHERE ({clash}){other}")


def sqlite_triggers(uniques: Uniques) -> list[str]:
    """After each insert, update and delete, the offers of the row; before an insert or update, the offers of
    the rows it would replace (``INSERT OR REPLACE`` from the sqlite3 shell)."""
    out = [
        f"CREATE TRIGGER {PREFIX}offer_insert AFTER INSERT ON offer BEGIN {NEW_STAMP} END",
        f"CREATE TRIGGER {PREFIX}offer_update AFTER UPDATE ON offer BEGIN {_row('offer', 'OLD')} "
        f"{_row('offer', 'NEW')} END",
        f"CREATE TRIGGER {PREFIX}offer_delete AFTER DELETE ON offer BEGIN {GONE} END",
    ]
    for table in DEPENDS:
        if table != "offer":
            out += [
                f"CREATE TRIGGER {PREFIX}{table}_insert AFTER INSERT ON {table} BEGIN {_row(table, 'NEW')} END",
                f"CREATE TRIGGER {PREFIX}{table}_update AFTER UPDATE ON {table} BEGIN {_row(table, 'OLD')} "
                f"{_row(table, 'NEW')} END",
                f"CREATE TRIGGER {PREFIX}{table}_delete AFTER DELETE ON {table} BEGIN {_row(table, 'OLD')} END",
            ]
        if uniques.get(table):
            out += [
                f"CREATE TRIGGER {PREFIX}{table}_replace_insert BEFORE INSERT ON {table} "
                f"BEGIN {_replaced(table, uniques[table], False)} END",
                f"CREATE TRIGGER {PREFIX}{table}_replace_update BEFORE UPDATE ON {table} "
                f"BEGIN {_replaced(table, uniques[table], True)} END",
            ]
    return out


def uniques_of(conn: sa.Connection) -> Uniques:
    inspector = sa.inspect(conn)
    out: Uniques = {}
    for table in DEPENDS:
        found = [inspector.get_pk_constraint(table)["constrained_columns"]]
        found += [u["column_names"] for u in inspector.get_unique_constraints(table)]
        found += [i["column_names"] for i in inspector.get_indexes(table) if i.get("unique")]
        out[table] = [list(cols) for cols in dict.fromkeys(map(tuple, found)) if cols and all(cols)]
    return out


def server_triggers() -> list[str]:
    """PostgreSQL: one plpgsql function and one row trigger per table (no REPLACE there: an upsert's update
    fires the update trigger)."""
    out = [
        f"CREATE FUNCTION {PREFIX}offer() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        f"IF TG_OP = 'INSERT' THEN {NEW_STAMP} "
        f"ELSIF TG_OP = 'UPDATE' THEN {_row('offer', 'OLD')} {_row('offer', 'NEW')} "
        f"ELSE {GONE} END IF; RETURN NULL; END $$",
        f"CREATE TRIGGER {PREFIX}offer AFTER INSERT OR UPDATE OR DELETE ON offer "
        f"FOR EACH ROW EXECUTE FUNCTION {PREFIX}offer()",
    ]
    for table in DEPENDS:
        if table == "offer":
            continue
        out += [
            f"CREATE FUNCTION {PREFIX}{table}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            f"IF TG_OP <> 'INSERT' THEN {_row(table, 'OLD')} END IF; "
            f"IF TG_OP <> 'DELETE' THEN {_row(table, 'NEW')} END IF; RETURN NULL; END $$",
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
    for statement in server_triggers() if _server(conn) else sqlite_triggers(uniques_of(conn)):
        conn.exec_driver_sql(statement)
    conn.exec_driver_sql(
        "INSERT INTO offer_stamp (offer_id, stamp) SELECT id, 1 FROM offer "
        "WHERE id NOT IN (SELECT offer_id FROM offer_stamp)"
    )
    conn.exec_driver_sql("DELETE FROM offer_stamp WHERE offer_id NOT IN (SELECT id FROM offer)")
    conn.exec_driver_sql("DELETE FROM stored_evaluation")


__all__ = ["DEPENDS", "drop", "install", "server_triggers", "sqlite_triggers", "uniques_of"]
