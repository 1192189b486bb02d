"""Rankings kept in process (services/ranking_cache.py): instant when asked again, never stale.

A write by another connection (through quotetui, or around it), a scenario edit or another day each give a
new ranking; asking again with nothing changed gives the very same evaluations; a kept ranking says exactly
what a cold one says."""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from sqlmodel import col, select

from quotetui.domain.economics.costing import base_option
from quotetui.domain.enums import PriceUnit
from quotetui.services.database import open_database
from quotetui.services.economics import rank_offers, ranking_json
from quotetui.services.ranking import Ranking
from quotetui.services.ranking_cache import RANKINGS, RankingCache
from quotetui.store.engine import Database
from quotetui.store.models import QuoteRevision, RevisionPrice, Scenario
from tests.conftest import BACKEND

DAY = date(2026, 11, 20)


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    RANKINGS.clear()


def _node_month_offer(ranking: Ranking) -> tuple[int, int]:
    """An offer priced per node-month (one price, no range): its id and GPUs per node."""
    for e in ranking.evaluations:
        base = base_option(e.offer.options)
        if base.unit is PriceUnit.NODE_MONTH and base.amount_high is None and len(e.offer.options) == 1:
            return e.offer.id, e.offer.gpus_per_node
    raise AssertionError("the demo market has no offer priced per node-month")


def _by_id(ranking: Ranking, offer_id: int) -> Fraction:
    return next(e.quoted_gpu_hour for e in ranking.evaluations if e.offer.id == offer_id)


def _set_price(db: Database, offer_id: int, amount: str) -> None:
    with db.write() as session:
        revisions = select(QuoteRevision.id).where(QuoteRevision.offer_id == offer_id)
        for price in session.exec(select(RevisionPrice).where(col(RevisionPrice.revision_id).in_(revisions))):
            price.amount = Decimal(amount)


ALONE_ON_THE_SERVER = pytest.mark.skipif(
    BACKEND == "postgres" and "PYTEST_XDIST_WORKER" in os.environ,
    reason="on a server the key holds its transaction id (server_stamp), which other workers' writes move",
)
"""A kept ranking is found again only while nothing else writes on the server: under pytest-xdist the other
workers write to their own databases on it, so these run on PostgreSQL when the suite runs in one process."""


@ALONE_ON_THE_SERVER
def test_asking_again_gives_the_kept_ranking_and_it_equals_a_cold_one(demo_db: Database) -> None:
    first = rank_offers(demo_db, on=DAY, history=False)
    again = rank_offers(demo_db, on=DAY, history=False)
    assert again.evaluations and all(a is b for a, b in zip(again.evaluations, first.evaluations, strict=True))
    again.evaluations.pop()  # a caller's list is its own: the kept ranking is not changed by it
    RANKINGS.clear()
    cold = rank_offers(demo_db, on=DAY, history=False)
    assert cold.evaluations[0] is not first.evaluations[0]
    kept = rank_offers(demo_db, on=DAY, history=False)
    assert json.dumps(ranking_json(kept)) == json.dumps(ranking_json(cold)) == json.dumps(ranking_json(first))


def test_a_write_by_another_connection_is_seen(demo_db: Database, demo_db_path: Path) -> None:
    before = rank_offers(demo_db, on=DAY, history=False)
    offer_id, gpus = _node_month_offer(before)
    other = open_database(str(demo_db_path)).db
    try:
        _set_price(other, offer_id, "123456.78")
    finally:
        other.dispose()
    after = rank_offers(demo_db, on=DAY, history=False)
    assert _by_id(after, offer_id) == Fraction(12345678, 100) / (gpus * 730) != _by_id(before, offer_id)


@pytest.mark.sqlite_only
def test_a_write_around_quotetui_is_seen(demo_db: Database, demo_db_path: Path) -> None:
    """The sqlite3 shell does not bump the data version: the file's stamp tells."""
    before = rank_offers(demo_db, on=DAY, history=False)
    offer_id, gpus = _node_month_offer(before)
    conn = sqlite3.connect(demo_db_path)
    with conn:
        conn.execute(
            "UPDATE revision_price SET amount = 99000000000 "  # 99,000 stored as millionths
            "WHERE revision_id IN (SELECT id FROM quote_revision WHERE offer_id = ?)",
            (offer_id,),
        )
    conn.close()
    after = rank_offers(demo_db, on=DAY, history=False)
    assert _by_id(after, offer_id) == Fraction(99000) / (gpus * 730)


@pytest.mark.sqlite_only
def test_every_write_of_a_sqlite3_session_held_open_is_seen_after_the_log_restarts(
    demo_db: Database, demo_db_path: Path
) -> None:
    """A sqlite3 shell left open: after a checkpoint the log restarts from its beginning, keeping its size and
    header, and the main file is not touched; each write after that must still be a new ranking (the WAL
    index in the -shm tells). Each price is worked out here by hand: amount / (GPUs per node × 730 h)."""
    before = rank_offers(demo_db, on=DAY, history=False)
    offer_id, gpus = _node_month_offer(before)
    holder = sqlite3.connect(demo_db_path)  # another reader keeps the log from being removed
    holder.execute("SELECT count(*) FROM offer").fetchall()
    shell = sqlite3.connect(demo_db_path, isolation_level=None)
    where = "WHERE revision_id IN (SELECT id FROM quote_revision WHERE offer_id = ?)"
    try:
        for i in range(60):  # a log of many pages, then checkpointed whole: the next write restarts it
            shell.execute(f"UPDATE revision_price SET note = ? {where}", ("x" * 3000 + str(i), offer_id))
        assert shell.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()[0][0] == 0
        rank_offers(demo_db, on=DAY, history=False)
        for amount in (60_000, 50_000, 40_000):
            shell.execute(f"UPDATE revision_price SET amount = ? {where}", (amount * 1_000_000, offer_id))
            after = rank_offers(demo_db, on=DAY, history=False)
            assert _by_id(after, offer_id) == Fraction(amount) / (gpus * 730)
    finally:
        shell.close()
        holder.close()


def test_a_scenario_edit_and_another_day_are_new_rankings(demo_db: Database) -> None:
    before = rank_offers(demo_db, on=DAY, history=False)
    with demo_db.write() as session:
        row = session.exec(select(Scenario).where(Scenario.name == before.scenario.name)).one()
        row.gpu_count = before.scenario.gpu_count * 2
        row.months = 7
    after = rank_offers(demo_db, on=DAY, history=False)
    assert after.scenario.gpu_count == before.scenario.gpu_count * 2
    e = after.evaluations[0]
    assert e.used_gpu_hours == after.scenario.gpu_count * 730 * Fraction(after.scenario.utilisation) * 7
    later = rank_offers(demo_db, on=date(2026, 11, 21), history=False)
    assert later.on == date(2026, 11, 21) and later.evaluations[0] is not after.evaluations[0]


@ALONE_ON_THE_SERVER
def test_switching_back_to_a_scenario_is_the_kept_ranking(demo_db: Database) -> None:
    with demo_db.write() as session:
        session.add(Scenario(name="two nodes", gpu_count=16, months=6, utilisation=Decimal(1), home_currency="CNY"))
    first = rank_offers(demo_db, on=DAY, history=False)
    other = rank_offers(demo_db, "two nodes", on=DAY, history=False)
    back = rank_offers(demo_db, on=DAY, history=False)
    assert other.scenario.gpu_count == 16 and other.scenario.name != first.scenario.name
    assert back.evaluations[0] is first.evaluations[0]


@dataclass
class _Sized:
    evaluations: list[object]
    skipped: list[object]


def test_the_cache_is_bounded_by_rankings_and_by_offers() -> None:
    cache = RankingCache(max_rankings=2, max_offers=5)
    cache.put(("a",), _Sized([1, 2], []))  # type: ignore[arg-type]
    cache.put(("b",), _Sized([1], [2]))  # type: ignore[arg-type]
    assert cache.get(("a",)) is not None  # used last: b goes first
    cache.put(("c",), _Sized([1], []))  # type: ignore[arg-type]
    assert cache.get(("b",)) is None and cache.get(("a",)) is not None and len(cache) == 2
    cache.put(("d",), _Sized([1, 2, 3, 4], []))  # type: ignore[arg-type]
    assert len(cache) == 1 and cache.get(("d",)) is not None  # 2 + 4 offers would be over 5
    cache.put(("e",), _Sized([1] * 6, []))  # type: ignore[arg-type]
    assert cache.get(("e",)) is None  # larger than the whole cache: never kept
