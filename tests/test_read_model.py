"""One read model (``store/read_model.py``): the engine reads each row as a named record whose columns and
conversions come from the field declarations, so what the engine sees of an offer is what the ORM holds, field
by field, and a declared offer field that ``OfferInput`` has is read without a second list naming it."""

from __future__ import annotations

import re
from dataclasses import fields
from decimal import Decimal
from pathlib import Path

import pytest

from quotetui.domain import entities as E
from quotetui.domain.economics.inputs import OfferInput
from quotetui.domain.enums import Choice, OfferStatus
from quotetui.domain.errors import DatabaseProblem
from quotetui.services.database import open_database
from quotetui.services.engine_inputs import offer_inputs, read_models
from quotetui.store.catalog import load_catalog_of
from quotetui.store.engine import Database
from quotetui.store.read_model import Column, Rows, fields_of
from quotetui.store.reader import reading
from tests.conftest import Cli


def test_every_declared_offer_field_the_engine_has_is_read() -> None:
    declared = {f.name for f in E.OFFER.fields if f.kind not in ("ref", "gpu")}
    engine = {f.name for f in fields(OfferInput)}
    assert set(read_models().offer_fields) == declared & engine
    assert {"gpus_per_node", "nodes_available", "billing_basis", "vat_rate", "valid_until"} <= declared & engine


def test_what_the_engine_reads_of_each_offer_is_what_the_orm_holds(demo_db: Database) -> None:
    from sqlmodel import select

    from quotetui.store.models import Offer

    with reading(demo_db) as reader:
        _, gpus = load_catalog_of(reader)
        read = {o.id: o for o in offer_inputs(reader, gpus)}
    with demo_db.session() as session:
        stored = {o.id: o for o in session.exec(select(Offer))}
    assert len(read) == 20
    for oid, offer in read.items():
        for name in read_models().offer_fields:
            value, held = getattr(offer, name), getattr(stored[oid], name)
            assert value == held, (oid, name, value, held)
            if isinstance(held, Choice):
                assert type(value) is type(held), (oid, name)  # a member, not its text
            if isinstance(held, Decimal):
                assert str(value) == str(held), (oid, name)  # the same places


def test_a_record_reads_by_name_and_names_a_code_no_one_writes(demo_db: Database) -> None:
    rows = Rows("Row", "offer", (Column("id", "id"), *fields_of(E.OFFER, ("status", "vat_rate", "name"))), "offer")
    with reading(demo_db) as reader:
        first = next(rows.each(reader, " ORDER BY id"))
        assert first._fields == ("id", "status", "vat_rate", "name") and isinstance(first.status, OfferStatus)
    with demo_db.write() as session:
        from sqlalchemy import text

        session.execute(text("UPDATE offer SET status = 'haggling' WHERE id = 2"))
    with reading(demo_db) as reader, pytest.raises(DatabaseProblem) as caught:
        list(rows.each(reader, " ORDER BY id"))
    assert "'haggling' in offer #2, status, a value quotetui never writes" in str(caught.value)


def _raw(db: Database, sql: str) -> None:
    with db.write() as session:
        from sqlalchemy import text

        session.execute(text(sql))


def _inputs(db: Database, *, history: bool = False) -> list[OfferInput]:
    with reading(db) as reader:
        _, gpus = load_catalog_of(reader)
        return offer_inputs(reader, gpus, history=history)


def test_a_strange_value_in_a_row_the_engine_does_not_read_stops_nothing(cli: Cli, demo_db_path: Path) -> None:
    """Only the rows a ranking uses are converted: an unpriced offer's, or an old round's price, as before."""
    assert cli("--db", str(demo_db_path), "round", "add", "2", "--amount", "115000").code == 0  # round 2 is current
    opened = open_database(str(demo_db_path))
    db = opened.db
    try:
        before = _inputs(db)
        _raw(db, "DELETE FROM revision_price WHERE revision_id IN (SELECT id FROM quote_revision WHERE offer_id = 5)")
        _raw(db, "UPDATE offer SET status = 'zombie' WHERE id = 5")
        _raw(db, "UPDATE revision_price SET unit = 'gpu_fortnight' WHERE revision_id IN "
                 "(SELECT id FROM quote_revision WHERE offer_id = 2 AND seq = 1)")  # fmt: skip
        assert [o.id for o in _inputs(db)] == [o.id for o in before if o.id != 5]
        with pytest.raises(DatabaseProblem, match="'gpu_fortnight' in revision_price of round #"):
            _inputs(db, history=True)  # every round's prices: that one too
    finally:
        db.dispose()


@pytest.mark.parametrize(
    ("column", "value", "said"),
    [
        ("valid_until", "'garbage'", "'garbage' in offer #3, valid_until, which is not a date"),
        ("inter_gbps_per_gpu", "'fast'", "'fast' in offer #3, inter_gbps_per_gpu, which is not a number"),
        ("gpus_per_node", "'eight'", "'eight' in offer #3, gpus_per_node, which is not a whole number"),
    ],
)
def test_a_value_that_is_not_what_its_column_holds_is_named(
    demo_db: Database, column: str, value: str, said: str
) -> None:
    """Another program's value a column cannot hold (SQLite keeps any): a database problem naming the table,
    the row and the column, never an internal error."""
    if not demo_db.target.is_sqlite:
        pytest.skip("a server refuses such a value when it is written")
    _raw(demo_db, f"UPDATE offer SET {column} = {value} WHERE id = 3")
    with pytest.raises(DatabaseProblem, match=re.escape(said)):
        _inputs(demo_db)


CONTRACT = "contracts add --offer 2 --start 2026-01-31 --term-months 12 --notice-days 30 --auto-renew --gpus 16"
A_CLAIM = "(SELECT MIN(id) FROM benchmark_result WHERE provenance <> 'verified')"
NOT_INT = "which is not a whole number"


@pytest.mark.sqlite_only  # a server refuses such values when they are written
@pytest.mark.parametrize(
    ("sql", "command", "said"),
    [
        ("UPDATE contract SET gpu_count = 'sixteen'", "contracts", f"'sixteen' in contract #1, gpu_count, {NOT_INT}"),
        ("UPDATE contract SET renewal_term_months = 'x'", "contracts show 1", "'x' in contract #1, renewal_term"),
        (
            "UPDATE contract SET auto_renew = 'false'",
            "contracts show 1",
            "in contract #1, auto_renew, which is not a flag",
        ),
        ("UPDATE contract SET snapshot = '[1,2]'", "contracts", "in contract #1, snapshot, which is not a JSON object"),
        (f"UPDATE benchmark_result SET value = 'NaN' WHERE id = {A_CLAIM}", "claims", ", value, which is not a number"),
        (f"UPDATE benchmark_result SET conditions = '{{bad' WHERE id = {A_CLAIM}", "claims", ", conditions, which"),
        ("UPDATE gpu_model SET nvlink_gbs = '900GB' WHERE id = 1", "offers", f"in gpu_model #1, nvlink_gbs, {NOT_INT}"),
    ],
)
def test_a_strange_stored_value_is_a_database_problem_in_every_reader(
    cli: Cli, demo_db_path: Path, sql: str, command: str, said: str
) -> None:
    """Contracts, claims and the catalog are read through the read model too: a value another program wrote that
    its column cannot hold is one line naming the table, the row and the column (these were internal errors, or,
    for a flag written as 'false', read as true)."""
    from tests.conftest import execute

    db = str(demo_db_path)
    assert cli("--db", db, *CONTRACT.split()).code == 0
    execute(demo_db_path, sql)
    done = cli("--db", db, *command.split())
    assert done.code != 0 and said in done.err and "internal error" not in done.err, done.err
