"""Stored evaluations: the ranking is computed when the data changes, and read when the buyer looks.

Each offer's place in a scenario's ranking (its group, the ranking key exact and as an index, its total) is kept
in ``stored_evaluation`` under an *evaluation set*: one per context, the SHA-256 of everything every entry
depends on besides the offer itself — the scenario's content, the assumptions, the FX rates known on the day,
the GPU catalog and quotetui's code (:func:`context_of`). An entry also records its offer's *stamp*, which database
triggers bump on every change to anything the offer's evaluation reads (``store/stamps.py``), whoever writes it.
An entry is served only while its stamp is its offer's: a stale or missing one is recomputed first, never served.

* :func:`refresh` brings a context's set up to date: it evaluates, through the engine
  (``domain/economics/evaluate.py: evaluate``), exactly the offers whose entry is stale or missing, and writes
  them, in one write transaction that reads the inputs it evaluates (SQLite: ``BEGIN IMMEDIATE``; PostgreSQL:
  ``REPEATABLE READ``). It never bumps the data version: it changes no figure a buyer entered.
* :func:`first_page` reads the best ``limit`` offers in the ranking's order from the index (the key in
  millionths, rounded down, never contradicts the exact order), breaking ties at the page's edge on the exact
  key and total (``evaluate.rank_key``), and evaluates only those offers for their figures.

The order is :func:`~quotetui.domain.economics.evaluate.rank_key`'s: confirmed, asked (a question open),
blocked, then offers that cannot be compared (an FX rate missing), each by cost per delivered PFLOP-hour, total
cost and id. A database opened read-only is never written: its readers rank as before.
"""

from __future__ import annotations

import hashlib
import math
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from enum import IntEnum
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from quotetui.domain.cancel import EVERY, check_cancelled
from quotetui.domain.economics.evaluate import NOT_COMPARABLE, Evaluation, evaluate, rank_key
from quotetui.domain.timeutil import utcnow
from quotetui.language import _
from quotetui.services.engine_inputs import fx_day, fx_table_of, load_assumptions_of, offer_inputs
from quotetui.store.catalog import load_catalog_of
from quotetui.store.reader import Reader, connection_reader, reading, sqlite_connection_reader

if TYPE_CHECKING:
    from quotetui.domain.economics.assumptions import Assumptions
    from quotetui.domain.economics.inputs import OfferInput, ScenarioInput
    from quotetui.domain.fx import FxTable
    from quotetui.domain.gpus import GpuCatalog, GpuSpec
    from quotetui.store.engine import Database

FORMAT = "quotetui-stored-evaluation/1"
MAX_SETS = 16
"""Evaluation sets kept (contexts: scenarios, rates, settings), the least recently used dropped first."""
KEY_SCALE = 10**6
KEY_LIMIT = 2**62  # the index column is a BIGINT: a key beyond it sorts last among the index's, exactly after
BUSY_MS = 2000  # a refresh waits this long for another program's write, then leaves the entries for later


class Group(IntEnum):
    """Where an offer stands in the ranking, in its order (``evaluate.rank_key``'s first two parts)."""

    CONFIRMED = 0
    ASKED = 1  # feasible once a question is answered
    BLOCKED = 2
    BLOCKED_ASKED = 3
    NOT_COMPARABLE = 4  # an FX rate missing: listed after the ranked, with the reason
    UNPRICED = 5  # no price yet: not listed at all


def group_of(e: Evaluation) -> Group:
    """The engine's first two ranking parts (``rank_key``: not feasible, a question open) as one group."""
    blocked, asked, *_ = rank_key(e)
    return Group(2 * blocked + asked)


def key_index(value: Fraction) -> int:
    """The ranking key as the index stores it: millionths, rounded down (monotone: a ≤ b gives index(a) ≤
    index(b), so the index's order only ever leaves ties to the exact key)."""
    return max(-KEY_LIMIT, min(KEY_LIMIT, math.floor(value * KEY_SCALE)))


def fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


@dataclass(frozen=True, slots=True)
class Context:
    """What every entry of a set depends on besides its offer, read in one snapshot."""

    catalog: GpuCatalog
    gpus: dict[int, GpuSpec]
    scenario: ScenarioInput
    fx: FxTable
    assumptions: Assumptions
    digest: str  # SHA-256 of the scenario, assumptions, rates known on the day, catalog, code, language, money style


def context_of(db: Database, reader: Reader, scenario: str | None, day: date) -> Context:
    from quotetui.services.listing_store import code_fingerprint
    from quotetui.services.ranking_cache import scenario_input

    catalog, gpus = load_catalog_of(reader)
    wanted = scenario_input(db, reader, scenario, gpus)
    fx = fx_table_of(reader, fx_day(day))
    assumptions = load_assumptions_of(reader)
    # the rates known, not the day: a set outlives the day until a new rate arrives (``FxTable.known``); the
    # language and money style in use, as an entry's reason (why an offer cannot be compared) is kept in words
    from quotetui.domain.economics.display import style_key

    parts = (FORMAT, code_fingerprint(), style_key(), wanted, assumptions, fx.known, sorted(gpus.items()))
    return Context(catalog, gpus, wanted, fx, assumptions, hashlib.sha256(repr(parts).encode()).hexdigest())


# -- the write side ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Writer:
    """One write transaction that reads what it writes from: SQL with named parameters on either backend
    (``execute`` takes one row's parameters, or a list of rows)."""

    reader: Reader
    execute: Callable[[str, dict[str, Any] | Sequence[dict[str, Any]]], None]


@contextmanager
def _writing(db: Database) -> Iterator[_Writer]:
    path = db.target.path
    if path is not None:
        conn = sqlite3.connect(str(path), timeout=BUSY_MS / 1000, check_same_thread=False)
        try:
            conn.isolation_level = None
            conn.execute("BEGIN IMMEDIATE")

            def run(sql: str, params: Any) -> None:
                if isinstance(params, dict):
                    conn.execute(sql, params)
                else:
                    conn.executemany(sql, params)

            yield _Writer(sqlite_connection_reader(conn), run)
            conn.execute("COMMIT")
        finally:
            if conn.in_transaction:
                conn.rollback()
            conn.close()
        return
    import sqlalchemy as sa

    with db.engine.connect() as connection:
        connection = connection.execution_options(isolation_level="REPEATABLE READ")
        with connection.begin():

            def run_server(sql: str, params: Any) -> None:
                connection.execute(sa.text(sql), params)

            yield _Writer(connection_reader(connection), run_server)


def _set_id(w: _Writer, ctx: Context) -> int:
    now = utcnow()
    found = w.reader.one("SELECT id FROM evaluation_set WHERE context = :c", {"c": ctx.digest})
    if found is not None:
        w.execute("UPDATE evaluation_set SET used_at = :t WHERE id = :i", {"t": _when(w, now), "i": found[0]})
        return int(found[0])
    w.execute(
        "INSERT INTO evaluation_set (context, scenario, created_at, used_at) VALUES (:c, :s, :t, :t)",
        {"c": ctx.digest, "s": ctx.scenario.name, "t": _when(w, now)},
    )
    made = w.reader.one("SELECT id FROM evaluation_set WHERE context = :c", {"c": ctx.digest})
    assert made is not None
    others = "SELECT id FROM evaluation_set WHERE id <> :made ORDER BY used_at DESC, id DESC"
    old = w.reader.rows(  # the least recently refreshed beyond MAX_SETS; never the one just made (a clock set back)
        others + (" LIMIT -1 OFFSET :n" if w.reader.sqlite else " OFFSET :n"), {"made": made[0], "n": MAX_SETS - 1}
    )
    for (dropped,) in old:
        w.execute("DELETE FROM stored_evaluation WHERE set_id = :i", {"i": dropped})
        w.execute("DELETE FROM evaluation_set WHERE id = :i", {"i": dropped})
    return int(made[0])


def _when(w: _Writer, value: Any) -> Any:
    return value.replace(tzinfo=None).strftime("%Y-%m-%d %H:%M:%S.%f") if w.reader.sqlite else value


STALE = (
    "SELECT o.id, s.stamp FROM offer o LEFT OUTER JOIN offer_stamp s ON s.offer_id = o.id "
    "LEFT OUTER JOIN stored_evaluation e ON e.set_id = :set AND e.offer_id = o.id "
    "WHERE s.stamp IS NULL OR e.stamp IS NULL OR e.stamp <> s.stamp ORDER BY o.id"
)
UPSERT = (
    "INSERT INTO stored_evaluation (set_id, offer_id, stamp, grp, key_micros, key_exact, total_exact, reason) "
    "VALUES (:set, :offer, :stamp, :grp, :micros, :key, :total, :reason) "
    "ON CONFLICT (set_id, offer_id) DO UPDATE SET stamp = excluded.stamp, grp = excluded.grp, "
    "key_micros = excluded.key_micros, key_exact = excluded.key_exact, total_exact = excluded.total_exact, "
    "reason = excluded.reason"
)


def _row(
    set_id: int, offer_id: int, stamp: int, grp: Group, key: Fraction | None = None, total: Fraction | None = None,
    reason: str | None = None,
) -> dict[str, Any]:  # fmt: skip
    """A ``stored_evaluation`` row's values (:data:`UPSERT`'s parameters)."""
    return {
        "set": set_id, "offer": offer_id, "stamp": stamp, "grp": grp,
        "micros": None if key is None else key_index(key),
        "key": None if key is None else fraction_text(key),
        "total": None if total is None else fraction_text(total),
        "reason": reason,
    }  # fmt: skip


def entry(set_id: int, offer: OfferInput, stamp: int, ctx: Context) -> dict[str, Any]:
    """An offer's entry, from the engine's evaluation and its ranking key (or why it cannot be compared)."""
    try:
        e = evaluate(offer, ctx.scenario, ctx.fx, ctx.assumptions)
    except NOT_COMPARABLE as exc:
        return _row(set_id, offer.id, stamp, Group.NOT_COMPARABLE, reason=str(exc))
    _, _, key, total, _ = rank_key(e)
    return _row(set_id, offer.id, stamp, group_of(e), key, total)


@dataclass(frozen=True, slots=True)
class Refreshed:
    set_id: int
    evaluated: int  # offers evaluated now (their entries were stale or missing)
    offers: int  # offers with an entry in the set


def _entries(reader: Reader, set_id: int) -> int:
    found = reader.one("SELECT COUNT(*) FROM stored_evaluation WHERE set_id = :s", {"s": set_id})
    return int(found[0]) if found else 0


Progress = Callable[[int, int], None]
"""Called with (done, of) while a refresh evaluates: the CLI's and the TUI's progress bars."""

PROGRESS_SHOWN_FROM = 2_000
"""A refresh of at least this many offers (a settings or FX change) is shown by the front ends as it goes."""


def _current(db: Database, scenario: str | None, day: date) -> Refreshed | None:
    """The set of the context, when it exists and no entry is stale or missing: read only (a warm read writes
    nothing, so it moves neither the file's stamp nor another reader's snapshot)."""
    with reading(db) as reader:
        set_id = current_set(reader, context_of(db, reader, scenario, day))
        if set_id is None:
            return None
        return Refreshed(set_id, 0, _entries(reader, set_id))


def refresh(
    db: Database, scenario: str | None = None, on: date | None = None, progress: Progress | None = None
) -> Refreshed:
    """The set of ``scenario``'s context as of ``on`` (today), every entry current: the stale and missing ones
    evaluated and written in one transaction (nothing written when none is). Raises ``sqlite3.OperationalError``
    (or SQLAlchemy's) when the database is busy beyond :data:`BUSY_MS` or cannot be written: callers that only
    want a shortcut catch it."""
    day = on or utcnow().date()
    current = _current(db, scenario, day)
    if current is not None:
        return current
    with _writing(db) as w:
        ctx = context_of(db, w.reader, scenario, day)
        set_id = _set_id(w, ctx)
        stale = w.reader.rows(STALE, {"set": set_id})
        missing = [oid for oid, stamp in stale if stamp is None]
        if missing:  # an offer without a stamp (written before the triggers, or by hand): give it one
            w.execute("INSERT INTO offer_stamp (offer_id, stamp) VALUES (:o, 1)", [{"o": o} for o in missing])
        stamps = {oid: 1 if stamp is None else stamp for oid, stamp in stale}
        ids = list(stamps)
        for start in range(0, len(ids), REFRESH_CHUNK):  # a chunk's inputs read, evaluated and written, then let go
            chunk = ids[start : start + REFRESH_CHUNK]
            offers = offer_inputs(w.reader, ctx.gpus, chunk, history=False)
            rows: list[dict[str, Any]] = []
            for n, offer in enumerate(offers, start):
                if not n % EVERY:
                    check_cancelled()
                    if progress is not None:
                        progress(n, len(ids))
                rows.append(entry(set_id, offer, stamps[offer.id], ctx))
            priced = {o.id for o in offers}
            rows += [_row(set_id, oid, stamps[oid], Group.UNPRICED) for oid in chunk if oid not in priced]
            w.execute(UPSERT, rows)
        if ids and progress is not None:
            progress(len(ids), len(ids))
        return Refreshed(set_id, len(ids), _entries(w.reader, set_id))


REFRESH_CHUNK = 5_000
"""Offers a refresh reads and evaluates at a time: a settings change at 100,000 offers holds one chunk's inputs and
evaluations, not all of them."""


KEEP_WARM = 4
"""After a write, the sets of this many scenarios (the default and the most recently refreshed) are refreshed."""


def after_write(db: Database) -> None:
    """After a committed write (``Database.after_write``): the default scenario's set and those of the most
    recently refreshed scenarios brought up to date, so the next launch reads its first rows instead of ranking.
    Quietly nothing on a database that cannot be written or is busy: the next reader refreshes."""
    if db.read_only:
        return
    with reading(db) as reader:
        recent = [
            name
            for (name,) in reader.rows(
                "SELECT scenario FROM evaluation_set GROUP BY scenario ORDER BY MAX(used_at) DESC LIMIT :n",
                {"n": KEEP_WARM},
            )
        ]
    from quotetui.domain.errors import QuotetuiError

    for name in dict.fromkeys([None, *recent]):
        try:
            refresh(db, name, progress=db.refresh_progress)
        except busy_errors(db):
            return  # busy, or a concurrent refresh on a server: the next reader refreshes
        except QuotetuiError:  # a scenario renamed or removed since its set was made
            continue


# -- the read side -----------------------------------------------------------------------------------------

ORDERED_FROM = (
    " FROM stored_evaluation e JOIN offer_stamp s ON s.offer_id = e.offer_id AND s.stamp = e.stamp "
    "JOIN offer o ON o.id = e.offer_id WHERE e.set_id = :set AND e.grp < :unpriced"
)
"""A set's current entries of listed offers: its stamp the offer's, and the offer still there (a row the
sqlite3 shell's REPLACE removed fires no trigger)."""
ORDERED = "SELECT e.offer_id, e.grp, e.key_micros, e.key_exact, e.total_exact" + ORDERED_FROM


def _exact(row: Sequence[Any]) -> tuple[int, Fraction, Fraction, int]:
    oid, grp, _, key, total = row
    return (grp, Fraction(key or 0), Fraction(total or 0), oid)


@dataclass(frozen=True, slots=True)
class Page:
    """The best offers of a stored ranking, in order, each with the rank it shows (None: blocked or not
    comparable), their evaluations (None: not comparable, with the reason), and the counts of the whole."""

    context: Context
    day: date
    evaluations: list[tuple[int | None, OfferInput, Evaluation | None, str | None]]
    total: int  # offers listed in the whole ranking
    blocked: int  # of which the scenario cannot run on


def ordered_ids(reader: Reader, set_id: int, limit: int) -> list[tuple[int, int]]:
    """The first ``limit`` (offer id, group) of the set's order, exact: the index's order, with every offer
    that ties the page's last one on the index brought in and all sorted by the exact key."""
    params = {"set": set_id, "unpriced": Group.UNPRICED, "n": limit}
    page = reader.rows(ORDERED + " ORDER BY e.grp, e.key_micros, e.offer_id LIMIT :n", params)
    if not page:
        return []
    last = page[-1]
    tied = reader.rows(
        ORDERED + " AND e.grp = :g AND " + ("e.key_micros IS NULL" if last[2] is None else "e.key_micros = :m"),
        params | {"g": last[1], "m": last[2]},
    )
    rows = {r[0]: r for r in page} | {r[0]: r for r in tied}
    return [(r[0], r[1]) for r in sorted(rows.values(), key=_exact)[:limit]]


def busy_errors(db: Database) -> tuple[type[Exception], ...]:
    """What a refresh raises when the database is busy or cannot be written (SQLAlchemy is imported only for a
    server: on SQLite the refresh runs through the stdlib)."""
    if db.target.path is not None:
        return (sqlite3.OperationalError,)
    import sqlalchemy as sa

    return (sa.exc.OperationalError, sa.exc.DBAPIError)


@contextmanager
def fresh_snapshot(db: Database, scenario: str | None, day: date) -> Iterator[tuple[Reader, Context, int] | None]:
    """A snapshot to serve from: one that has no stale entry, read at once when the set is current (a warm read
    checks once and writes nothing), else after a refresh (another program's write between the refresh and the
    read is refreshed again). ``None`` when there is none: the database cannot be written, is busy, or was
    written again between the refresh and the read three times; the caller then ranks in memory."""
    if not db.read_only:
        for refreshed in range(4):  # read; when stale, refresh and read again (three refreshes at most)
            with reading(db) as reader:
                ctx = context_of(db, reader, scenario, day)
                set_id = current_set(reader, ctx)
                if set_id is not None:
                    yield reader, ctx, set_id
                    return
            if refreshed == 3:
                break
            try:
                refresh(db, scenario, day)
            except busy_errors(db):
                break
    yield None


def first_page(db: Database, scenario: str | None = None, on: date | None = None, limit: int = 50) -> Page | None:
    """The best ``limit`` offers of ``scenario`` as of ``on``, from the stored ranking (:func:`fresh_snapshot`);
    None when it cannot be read: the caller ranks instead."""
    day = on or utcnow().date()
    with fresh_snapshot(db, scenario, day) as fresh:
        if fresh is None:
            return None
        reader, ctx, set_id = fresh
        order = ordered_ids(reader, set_id, limit)
        counts = reader.one(
            "SELECT COUNT(*), SUM(CASE WHEN e.grp IN (:b, :ba) THEN 1 ELSE 0 END)" + ORDERED_FROM,
            {"set": set_id, "unpriced": Group.UNPRICED, "b": Group.BLOCKED, "ba": Group.BLOCKED_ASKED},
        )
        offers = {o.id: o for o in offer_inputs(reader, ctx.gpus, [oid for oid, _ in order], history=False)}
    assert counts is not None
    return _page(ctx, day, order, offers, int(counts[0] or 0), int(counts[1] or 0))


def current_set(reader: Reader, ctx: Context) -> int | None:
    """The id of ``ctx``'s set when it exists and, in ``reader``'s snapshot, no entry of it is stale or
    missing: the only state a reader may serve from."""
    found = reader.one("SELECT id FROM evaluation_set WHERE context = :c", {"c": ctx.digest})
    if found is None or reader.one(STALE + " LIMIT 1", {"set": found[0]}) is not None:
        return None
    return int(found[0])


def _page(
    ctx: Context, day: date, order: list[tuple[int, int]], offers: dict[int, OfferInput], total: int, blocked: int
) -> Page:
    """The page's offers evaluated by the engine (they were read in the snapshot the order was read in)."""
    out: list[tuple[int | None, OfferInput, Evaluation | None, str | None]] = []
    rank = 0
    for oid, grp in order:
        offer = offers[oid]
        try:
            e = evaluate(offer, ctx.scenario, ctx.fx, ctx.assumptions)
        except NOT_COMPARABLE as exc:
            out.append((None, offer, None, str(exc)))
            continue
        assert group_of(e) is Group(grp), f"offer {oid}: a stored group that is not the engine's"
        if e.feasibility.ok:
            rank += 1
        out.append((rank if e.feasibility.ok else None, offer, e, None))
    return Page(ctx, day, out, total, blocked)


# -- one offer's standing: its rank and its BATNA ----------------------------------------------------------

BATNA_CHUNK = 64
"""Candidates for a BATNA read at a time, in the stored order (more only when all of them are lapsed)."""

COUNT = "SELECT COUNT(*)" + ORDERED_FROM
CANDIDATES = (
    "SELECT e.offer_id, e.key_micros, e.key_exact FROM stored_evaluation e "
    "JOIN offer_stamp s ON s.offer_id = e.offer_id AND s.stamp = e.stamp JOIN offer o ON o.id = e.offer_id "
    "LEFT OUTER JOIN provider p ON p.id = o.provider_id "
    "WHERE e.set_id = :set AND e.grp = :confirmed AND o.status NOT IN (:rejected, :expired) "
    "AND p.name IS DISTINCT FROM :provider"
)


@dataclass(frozen=True, slots=True)
class Standing:
    """One offer's place in the stored ranking: its evaluation (every round loaded), the rank it shows (None:
    blocked) and its BATNA (``domain/economics/negotiation.py: find_batna``, among every other offer)."""

    context: Context
    day: date
    evaluation: Evaluation
    rank: int | None
    batna: Evaluation | None


def _rank(reader: Reader, set_id: int, this: Evaluation) -> int | None:
    """1 + the feasible offers ranked before ``this``: counted on the index, the ties on it compared exactly."""
    if not this.feasibility.ok:
        return None
    _, _, key, total, oid = rank_key(this)
    grp = group_of(this)
    params = {"set": set_id, "unpriced": Group.UNPRICED, "g": grp, "m": key_index(key)}
    found = reader.one(COUNT + " AND (e.grp < :g OR (e.grp = :g AND e.key_micros < :m))", params)
    ties = reader.rows(ORDERED + " AND e.grp = :g AND e.key_micros = :m", params)
    mine = (grp, key, total, oid)
    return (int(found[0]) if found else 0) + sum(1 for r in ties if _exact(r) < mine) + 1


def _batna(reader: Reader, set_id: int, ctx: Context, this: Evaluation, day: date) -> Evaluation | None:
    """The best confirmed offer of another provider still on the table as of ``day``, read in the stored order a
    chunk at a time: every offer after a chunk has a larger index, so a larger exact key, so the first chunk
    holding a candidate holds the BATNA (the domain's rule picks it: :func:`find_batna`)."""
    from quotetui.domain.economics.negotiation import find_batna
    from quotetui.domain.enums import OfferStatus

    params: dict[str, Any] = {
        "set": set_id,
        "confirmed": Group.CONFIRMED,
        "rejected": OfferStatus.REJECTED.value,
        "expired": OfferStatus.EXPIRED.value,
        "provider": this.offer.provider,
        "n": BATNA_CHUNK,
    }
    after: int | None = None
    while True:
        check_cancelled()
        beyond = "" if after is None else " AND e.key_micros > :after"
        chunk = reader.rows(
            CANDIDATES + beyond + " ORDER BY e.key_micros, e.offer_id LIMIT :n", params | {"after": after}
        )
        if not chunk:
            return None
        last = chunk[-1][1]
        ids = {r[0] for r in chunk} | {
            r[0] for r in reader.rows(CANDIDATES + " AND e.key_micros = :m", params | {"m": last})
        }
        evaluations = []
        for offer in offer_inputs(reader, ctx.gpus, sorted(ids), history=False):
            try:
                evaluations.append(evaluate(offer, ctx.scenario, ctx.fx, ctx.assumptions))
            except NOT_COMPARABLE:
                continue  # never in the confirmed group: the rule below has the last word anyway
        found = find_batna(this, evaluations, day)
        if found is not None:
            whole = offer_inputs(reader, ctx.gpus, [found.offer.id])  # with its rounds, as a ranking's would be
            return evaluate(whole[0], ctx.scenario, ctx.fx, ctx.assumptions)
        after = last


def standing(db: Database, offer_id: int, scenario: str | None = None, on: date | None = None) -> Standing | None:
    """``offer_id``'s evaluation, rank and BATNA from the stored ranking (:func:`fresh_snapshot`), evaluating
    only the offer, its BATNA and the candidates read before it. BadInput for an offer with no price or that
    cannot be compared (the reason); None when the store cannot be read: the caller ranks instead."""
    from quotetui.domain.errors import BadInput

    day = on or utcnow().date()
    with fresh_snapshot(db, scenario, day) as fresh:
        if fresh is None:
            return None
        reader, ctx, set_id = fresh
        offers = offer_inputs(reader, ctx.gpus, [offer_id])
        if not offers:
            raise BadInput(_("no priced offer with id {id}; `quotetui offers` lists them").format(id=offer_id))
        try:
            this = evaluate(offers[0], ctx.scenario, ctx.fx, ctx.assumptions)
        except NOT_COMPARABLE as exc:
            raise BadInput(str(exc)) from None
        return Standing(ctx, day, this, _rank(reader, set_id, this), _batna(reader, set_id, ctx, this, day))


__all__ = ["Group", "Page", "Refreshed", "after_write", "first_page", "group_of", "key_index", "ordered_ids", "refresh"]
