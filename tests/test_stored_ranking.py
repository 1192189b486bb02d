"""Stored evaluations (issue 33): the ranking is computed when the data changes and read when the buyer looks.

What a buyer relies on: the stored order is the engine's exact order, page edges included; a write by any program
to anything an offer's evaluation reads makes that offer's entry stale, and a stale entry is recomputed, never
served; a refresh after one change evaluates that one offer only."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from quotetui.services import stored_ranking
from quotetui.services.database import open_database
from quotetui.services.economics import rank_offers
from quotetui.services.engine_inputs import offer_inputs
from quotetui.store.engine import Database
from quotetui.store.reader import sqlite_connection_reader
from quotetui.store.stamps import DEPENDS


def engine_order(db: Database) -> list[tuple[int | None, int]]:
    """(rank, offer id) as the engine ranks every offer now, the not comparable ones last."""
    ranking = rank_offers(db, history=False)
    return [(i, e.offer.id) for i, e in ranking.ranked] + [(None, o.id) for o, _ in ranking.skipped]


def page_order(db: Database, limit: int = 10_000) -> list[tuple[int | None, int]]:
    page = stored_ranking.first_page(db, limit=limit)
    assert page is not None
    return [(rank, offer.id) for rank, offer, _, _ in page.evaluations]


def raw(db: Database, sql: str) -> None:
    """A write that does not go through quotetui (the sqlite3 shell, psql)."""
    with db.engine.begin() as conn:
        conn.exec_driver_sql(sql)


def test_the_stored_order_is_the_engines_on_the_demo(demo_db: Database) -> None:
    assert page_order(demo_db) == engine_order(demo_db)
    assert page_order(demo_db, 5) == engine_order(demo_db)[:5]


def test_the_demos_writes_left_its_ranking_stored_and_a_refresh_evaluates_nothing(demo_db: Database) -> None:
    """Every write through quotetui brings the default scenario's set up to date in the command that wrote
    (``after_write``): the demo's creation did, so a reader evaluates nothing."""
    assert stored_ranking.refresh(demo_db).evaluated == 0
    raw(demo_db, "DELETE FROM stored_evaluation")
    first = stored_ranking.refresh(demo_db)
    again = stored_ranking.refresh(demo_db)
    assert first.evaluated == first.offers == 20  # the demo's 20 offers, every one evaluated once
    assert again.set_id == first.set_id and again.evaluated == 0


def test_a_write_through_quotetui_refreshes_the_offer_it_changed(demo_db: Database) -> None:
    from quotetui.store.models import Offer

    stored_ranking.refresh(demo_db)
    with demo_db.write() as session:
        offer = session.get(Offer, 14)
        assert offer is not None
        offer.gpus_per_node = 4
    assert stored_ranking.refresh(demo_db).evaluated == 0  # the write's own command did it
    assert page_order(demo_db) == engine_order(demo_db)


@pytest.mark.parametrize(
    "change",
    [
        "UPDATE revision_price SET amount = amount * 10 WHERE revision_id IN "
        "(SELECT id FROM quote_revision WHERE offer_id = {o})",
        "UPDATE offer SET gpus_per_node = 4 WHERE id = {o}",
        "DELETE FROM sla_term WHERE offer_id = 14",  # the demo's second offer: #18 has no SLA
        "UPDATE provider SET name = name || ' (renamed)' WHERE id = (SELECT provider_id FROM offer WHERE id = {o})",
    ],
)
def test_a_write_by_another_program_makes_that_offer_stale_and_it_is_recomputed(demo_db: Database, change: str) -> None:
    """Offer #18 is the demo's first; a change by the sqlite3 shell (no quotetui code ran) to its price, node,
    SLA or provider is seen, the next read recomputes that offer (and its provider's other offers), never serves
    the old place, and the order is again exactly the engine's."""
    stored_ranking.refresh(demo_db)
    raw(demo_db, change.format(o=18))
    redone = stored_ranking.refresh(demo_db)
    assert 1 <= redone.evaluated < 20
    assert page_order(demo_db) == engine_order(demo_db)


def test_a_price_ten_times_higher_moves_the_first_offer_down(demo_db: Database) -> None:
    assert page_order(demo_db, 1) == [(1, 18)]
    raw(demo_db, "UPDATE revision_price SET amount = amount * 10 WHERE revision_id IN "
        "(SELECT id FROM quote_revision WHERE offer_id = 18)")  # fmt: skip
    assert page_order(demo_db, 1) == [(1, 14)]  # the demo's second: #18 is no longer first


def test_a_deleted_offer_leaves_the_stored_ranking(demo_db: Database) -> None:
    stored_ranking.refresh(demo_db)
    raw(demo_db, "DELETE FROM offer WHERE id = 18")
    assert 18 not in [oid for _, oid in page_order(demo_db)]
    assert page_order(demo_db) == engine_order(demo_db)


def test_every_table_an_offer_reads_bumps_its_stamp(demo_db: Database) -> None:
    """``DEPENDS`` must name every table ``offer_inputs`` reads: its SQL is traced here, so a table added to
    the engine's inputs without a trigger fails this test."""
    read: set[str] = set()
    path = demo_db.target.path
    if path is None:
        pytest.skip("the SQL is traced through SQLite's own connection")
    conn = sqlite3.connect(str(path))
    conn.set_trace_callback(lambda sql: read.update(re.findall(r"\b(?:FROM|JOIN)\s+(\w+)", sql)))
    reader = sqlite_connection_reader(conn)
    from quotetui.store.catalog import load_catalog_of

    _, gpus = load_catalog_of(reader)  # the catalog is the evaluation set's context, not the offer's
    read.clear()
    assert offer_inputs(reader, gpus, history=True)
    conn.close()
    assert read == set(DEPENDS)


def _stamp(db: Database, offer_id: int) -> int:
    with db.engine.connect() as conn:
        return int(conn.exec_driver_sql(f"SELECT stamp FROM offer_stamp WHERE offer_id = {offer_id}").scalar_one())


@pytest.mark.parametrize(
    "offer, change",
    [
        (18, "UPDATE offer SET name = name WHERE id = 18"),
        (18, "UPDATE provider SET name = name WHERE id = (SELECT provider_id FROM offer WHERE id = 18)"),
        (18, "UPDATE quote_revision SET mover = mover WHERE offer_id = 18"),
        (18, "UPDATE revision_price SET amount = amount WHERE revision_id IN "
         "(SELECT id FROM quote_revision WHERE offer_id = 18)"),
        (2, "DELETE FROM discount WHERE offer_id = 2"),
        (11, "UPDATE extra_cost SET amount = amount WHERE offer_id = 11"),
        (14, "UPDATE sla_term SET availability = availability WHERE offer_id = 14"),
        (14, "INSERT INTO sla_credit_tier (sla_term_id, below, credit) "
         "SELECT id, 990000, 100000 FROM sla_term WHERE offer_id = 14"),  # 99 % and 10 %, in millionths
    ],
)  # fmt: skip
def test_each_dependency_bumps_the_offers_stamp(demo_db: Database, offer: int, change: str) -> None:
    """Even a write that changes no value (the sqlite3 shell's ``SET x = x``) counts: the stamp says "written"."""
    before = _stamp(demo_db, offer)
    raw(demo_db, change)
    assert _stamp(demo_db, offer) > before


def test_ties_on_the_index_are_broken_exactly_at_the_page_edge(
    demo_db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With an index 10^6 times coarser (whole currency units, so most demo offers tie on it), every page is
    still exactly the engine's order: ties at the edge are brought in and sorted on the exact key."""
    monkeypatch.setattr(stored_ranking, "KEY_SCALE", 1)
    expected = engine_order(demo_db)
    for limit in (1, 2, 3, 5, 8, 13, 20):
        assert page_order(demo_db, limit) == expected[:limit]


def test_a_database_opened_read_only_is_never_written(demo_db_path: Path) -> None:
    opened = open_database(str(demo_db_path))
    try:
        read_only = Database(opened.db.target, read_only=True)
        assert stored_ranking.first_page(read_only) is None
    finally:
        opened.db.dispose()


def test_a_market_of_2000_offers_in_the_engines_order(tmp_path: Path) -> None:
    """The benchmark market (every billing, tier, extra and currency it makes): the stored order of all 2,000
    offers is the engine's, and a refresh after one price change evaluates one offer."""
    from benchmarks.market import build

    opened = open_database(str(tmp_path / "m.db"), load_demo_if_new=False)
    db = opened.db
    try:
        build(db, 2_000)
        expected = engine_order(db)
        assert page_order(db) == expected
        assert page_order(db, 50) == expected[:50]
        oid = expected[0][1]
        raw(db, f"UPDATE revision_price SET amount = amount + 1 WHERE revision_id IN "
            f"(SELECT id FROM quote_revision WHERE offer_id = {oid})")  # fmt: skip
        assert stored_ranking.refresh(db).evaluated == 1
        assert page_order(db) == engine_order(db)
    finally:
        db.dispose()


def _positions(db: Database, offers: list[int]) -> dict[int, tuple[object, ...]]:
    """Each offer's rank, BATNA, target and the words ``explain`` prints, as ``negotiation`` gives them."""
    from quotetui.services.negotiation import negotiation

    out: dict[int, tuple[object, ...]] = {}
    for oid in offers:
        try:
            n = negotiation(db, oid)
        except Exception as exc:
            out[oid] = (type(exc).__name__, str(exc))
            continue
        out[oid] = (n.rank, None if n.batna is None else n.batna.offer.id, n.target, tuple(n.lines()))
    return out


def _in_memory(db: Database) -> Database:
    """The same database opened read-only: ``negotiation`` then ranks every offer in memory, as before issue 33."""
    return Database(db.target, read_only=True)


def test_explain_reads_its_rank_and_batna_from_the_store_as_the_whole_ranking_gives_them(demo_db: Database) -> None:
    """Every demo offer (and one that does not exist): the same rank, BATNA, target and words as ranking all."""
    from quotetui.domain.economics.negotiation import batnas

    offers = list(range(1, 22))
    stored = _positions(demo_db, offers)
    assert stored == _positions(_in_memory(demo_db), offers)
    ranking = rank_offers(demo_db)
    expected = batnas(ranking.evaluations, ranking.on)  # the domain's one-pass rule, independently
    for oid, found in expected.items():
        assert stored[oid][1] == (None if found is None else found.offer.id)
    assert stored[18][:2] == (1, 14)  # the demo's best: its BATNA is the second, another provider's
    assert stored[21][0] == "BadInput"  # no offer 21


def test_a_lapsed_best_alternative_is_passed_over_chunk_by_chunk(
    demo_db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With one candidate read at a time and the three best alternatives' quotes lapsed, the BATNA is the next
    one still on the table, as the whole ranking finds it."""
    monkeypatch.setattr(stored_ranking, "BATNA_CHUNK", 1)
    raw(demo_db, "UPDATE offer SET valid_until = '2020-01-01' WHERE id IN (14, 2, 17)")
    offers = [18, 14, 2, 13]
    stored = _positions(demo_db, offers)
    assert stored == _positions(_in_memory(demo_db), offers)
    assert stored[18][1] not in (14, 2, 17, None)


def test_explain_on_a_market_of_2000_offers_agrees_with_the_whole_ranking(tmp_path: Path) -> None:
    from benchmarks.market import build

    opened = open_database(str(tmp_path / "m.db"), load_demo_if_new=False)
    db = opened.db
    try:
        build(db, 2_000)
        ranked = [oid for _, oid in engine_order(db)]
        sample = ranked[:5] + ranked[995:1000] + ranked[-5:]  # the best, the middle, the blocked and not comparable
        assert _positions(db, sample) == _positions(_in_memory(db), sample)
    finally:
        db.dispose()


@pytest.mark.parametrize("chunk", [stored_ranking.REFRESH_CHUNK, 128])
def test_a_settings_change_re_evaluates_every_offer_in_the_command_that_saved_it_and_says_how_far(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    """A new default MFU changes every figure (a new context): the save's own command re-evaluates all 600
    offers of the market, telling the front end (done, of) every 512 offers, and a reader then evaluates none.
    Read and evaluated 128 offers at a time (a 100,000-offer market holds one chunk, not all), it is the same."""
    from benchmarks.market import build
    from quotetui.services.settings import save_settings

    monkeypatch.setattr(stored_ranking, "REFRESH_CHUNK", chunk)
    opened = open_database(str(tmp_path / "m.db"), load_demo_if_new=False)
    db = opened.db
    try:
        build(db, 600)
        told: list[tuple[int, int]] = []
        db.refresh_progress = lambda done, of: told.append((done, of))
        save_settings(db, {"default_mfu": "41"})
        assert told == [(0, 600), (512, 600), (600, 600)]
        assert stored_ranking.refresh(db).evaluated == 0
        assert page_order(db, 50) == engine_order(db)[:50]
    finally:
        db.dispose()


TWO_BUYERS = """
import random, sys, time
from pathlib import Path
from quotetui.services.database import open_database
from quotetui.services.editing import save_revision
from quotetui.services import stored_ranking

target, go, offer, seed = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
db = open_database(target).db
rng = random.Random(seed)
while not go.exists():
    time.sleep(0.005)
for i in range(25):
    save_revision(db, offer, {"mover": "provider", "quoted_at": "2026-11-30", "amount": str(rng.randint(40000, 160000)),
                              "unit": "node_month", "currency": "CNY", "term_months": "1"})
    stored_ranking.first_page(db, limit=5)  # a reader between the writes, as an open TUI would be
print("done")
"""


def test_two_buyers_writing_at_once_leave_the_stored_ranking_the_engines(demo_db_path: Path, tmp_path: Path) -> None:
    """Two programs save 25 new prices each on two offers (#18 and #14, the demo's best two) at the same time,
    each reading the stored first page between its saves; every save refreshes in its own command, and on a
    server the two refreshes race. Afterwards the stored order is exactly the engine's (SQLite or PostgreSQL)."""
    import subprocess
    import sys

    go = tmp_path / "go"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", TWO_BUYERS, str(demo_db_path), str(go), str(offer), str(seed)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for offer, seed in ((18, 1), (14, 2))
    ]
    import time

    time.sleep(1.0)
    go.touch()
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0 and out.startswith("done"), err
    opened = open_database(str(demo_db_path))
    try:
        assert page_order(opened.db) == engine_order(opened.db)
    finally:
        opened.db.dispose()


def test_a_replace_by_the_sqlite3_shell_that_moves_a_price_to_another_offer_is_seen(demo_db: Database) -> None:
    """Found by a hostile pass: ``REPLACE INTO revision_price`` with the id of #18's price, on another offer's
    round, removes #18's row without firing its delete trigger. The row's offers are bumped before the insert,
    so #18 (now without that price) is re-evaluated, and the order is the engine's."""
    if demo_db.target.path is None:
        pytest.skip("REPLACE is SQLite's: a server's upsert is an update, and fires the update trigger")
    stored_ranking.refresh(demo_db)
    conn = sqlite3.connect(str(demo_db.target.path))
    with conn:
        price, revision = conn.execute(
            "SELECT p.id, (SELECT MAX(id) FROM quote_revision WHERE offer_id = 5) FROM revision_price p "
            "JOIN quote_revision r ON r.id = p.revision_id WHERE r.offer_id = 18 ORDER BY p.id LIMIT 1"
        ).fetchone()
        conn.execute(
            "REPLACE INTO revision_price (id, revision_id, term_months, unit, amount, currency, prepay, is_estimate, "
            "version) VALUES (?, ?, 12, 'node_month', 45000000000, 'CNY', 0, 0, 1)",
            (price, revision),
        )
    conn.close()
    assert page_order(demo_db) == engine_order(demo_db)
    assert _positions(demo_db, [18, 5, 14]) == _positions(_in_memory(demo_db), [18, 5, 14])


def test_a_write_between_the_refresh_and_the_read_is_refreshed_again(
    demo_db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by a hostile pass: another program writes just after a reader's refresh and before its read (#18's
    price ten times higher). The read's own snapshot has a stale entry, so it refreshes again: never the old
    order, and #18 never silently missing."""
    raw(demo_db, "DELETE FROM stored_evaluation")  # a reader that must refresh before it reads
    real = stored_ranking.refresh
    calls = []

    def then_another_program_writes(*args, **kwargs):  # type: ignore[no-untyped-def]
        done = real(*args, **kwargs)
        if not calls:
            raw(demo_db, "UPDATE revision_price SET amount = amount * 10 WHERE revision_id IN "
                "(SELECT id FROM quote_revision WHERE offer_id = 18)")  # fmt: skip
        calls.append(done)
        return done

    monkeypatch.setattr(stored_ranking, "refresh", then_another_program_writes)
    assert page_order(demo_db) == engine_order(demo_db)
    assert len(calls) == 2 and calls[1].evaluated == 1
    calls.clear()
    raw(demo_db, "UPDATE revision_price SET amount = amount / 10 WHERE revision_id IN "
        "(SELECT id FROM quote_revision WHERE offer_id = 18)")  # fmt: skip
    assert _positions(demo_db, [18, 14]) == _positions(_in_memory(demo_db), [18, 14])


@pytest.mark.sqlite_only
def test_a_file_marked_read_only_for_everyone_is_not_written_even_by_root(
    cli,
    demo_db_path: Path,
    tmp_path: Path,  # type: ignore[no-untyped-def]
) -> None:
    """Found by a hostile pass: ``chmod a-w`` on the file, and root (who may write anyway) ran ``explain``,
    whose refresh wrote the stored ranking. A file no one may write is opened read-only: nothing is written,
    and the figures are the in-memory ranking's."""
    import hashlib
    import os
    import stat

    folder = tmp_path / "theirs"
    folder.mkdir()
    path = folder / "quotes.db"
    path.write_bytes(Path(demo_db_path).read_bytes())
    conn = sqlite3.connect(path)
    with conn:  # another program's write: the stored entries of #18 are stale
        conn.execute("UPDATE revision_price SET amount = amount * 10 WHERE revision_id IN "
                     "(SELECT id FROM quote_revision WHERE offer_id = 18)")  # fmt: skip
    conn.close()
    os.chmod(path, stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    try:
        result = cli("--db", str(path), "explain", "18", "--json")
        assert result.code == 0, result.err
        assert "read-only" in result.err
        assert hashlib.sha256(path.read_bytes()).hexdigest() == before
        wal = folder / "quotes.db-wal"  # a read of a WAL database may make an empty one: never a written page
        assert not wal.exists() or wal.stat().st_size == 0
        import json

        assert json.loads(result.out)["rank"] != 1  # ten times dearer: no longer the best
    finally:
        os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)


def test_a_clock_set_back_never_drops_the_set_just_made(demo_db: Database) -> None:
    """Found by a hostile pass: 16 sets refreshed "in the future" (a clock that was a year ahead) made every new
    set the least recently used, dropped as soon as it was made, so every read ranked everything again."""
    raw(demo_db, "DELETE FROM stored_evaluation")
    raw(demo_db, "DELETE FROM evaluation_set")
    ahead = "'2027-12-01 00:00:00.000000'"
    for n in range(stored_ranking.MAX_SETS):
        raw(demo_db, "INSERT INTO evaluation_set (context, scenario, created_at, used_at) "
            f"VALUES ('{n:064d}', 'elsewhere', {ahead}, {ahead})")  # fmt: skip
    first = stored_ranking.refresh(demo_db)
    assert first.evaluated == 20 and first.offers == 20
    assert stored_ranking.refresh(demo_db).evaluated == 0
    with demo_db.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT COUNT(*) FROM evaluation_set").scalar_one() == stored_ranking.MAX_SETS


def test_a_set_outlives_the_day_until_a_new_rate_is_known(demo_db: Database) -> None:
    """The figures depend on the rates known on the day, not on the day itself (``FxTable.known``): the next
    day reads the same set and evaluates nothing, until a rate dated on or before it arrives."""
    from datetime import date

    from quotetui.services.fx import add_rate

    add_rate(demo_db, "USD", "CNY", "7.1", date(2026, 9, 1), "bank", today=date(2026, 12, 5))
    first = stored_ranking.refresh(demo_db, on=date(2026, 10, 1))
    later = stored_ranking.refresh(demo_db, on=date(2026, 10, 20))
    assert later.set_id == first.set_id and later.evaluated == 0
    add_rate(demo_db, "USD", "CNY", "7.2", date(2026, 11, 1), "bank", today=date(2026, 12, 5))
    assert stored_ranking.refresh(demo_db, on=date(2026, 10, 20)).evaluated == 0  # not known on the 20th
    known = stored_ranking.refresh(demo_db, on=date(2026, 11, 10))
    # a new set, made already by the write's own command: today knows the same two rates
    assert known.set_id != first.set_id and known.evaluated == 0 and known.offers == 20
    page = stored_ranking.first_page(demo_db, on=date(2026, 11, 10), limit=100)
    assert page is not None
    ranking = rank_offers(demo_db, on=date(2026, 11, 10), history=False)
    assert [(r, o.id) for r, o, _, _ in page.evaluations] == [(i, e.offer.id) for i, e in ranking.ranked] + [
        (None, o.id) for o, _ in ranking.skipped
    ]


def test_an_import_refreshes_the_ranking_once_after_it_let_go_of_its_rows(demo_db: Database, tmp_path: Path) -> None:
    """An import pauses the garbage collector while it holds every row read; the stored ranking is refreshed
    once the import is over (collector running again, its rows released), once for the whole import."""
    import gc

    from quotetui.services.importing import import_files

    sheet = tmp_path / "negotiation.csv"
    sheet.write_text(
        "provider,offer,round,quoted_at,mover,price,unit,currency,term_months\n"
        "天下数据,8×H100 SXM 企业级,9,2026-11-30,provider,200000,node_month,CNY,1\n",
        encoding="utf-8",
    )
    calls: list[bool] = []
    refresh = demo_db.after_write
    assert refresh is not None

    def after(db: Database) -> None:
        calls.append(gc.isenabled())
        refresh(db)

    demo_db.after_write = after
    report = import_files(demo_db, [sheet])
    assert report.counts["revisions"].added == 1
    assert calls == [True]
    assert stored_ranking.refresh(demo_db).evaluated == 0
    assert page_order(demo_db) == engine_order(demo_db)
