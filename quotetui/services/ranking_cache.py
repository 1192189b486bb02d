"""Rankings kept in this process, so that switching back to a scenario (or ranking again) is instant, and
never stale.

A ranking is kept under everything its figures depend on:

* the database: its target, and for a SQLite file its device and inode;
* ``setting.data_version``, read in the ranking's own snapshot: every write through ``Database.write`` bumps it
  (``store/versions.py``), atomically on PostgreSQL, so another program's or another buyer's write is seen;
* for a SQLite file, its stamp (size, modification time and change counter of the file, size and header of
  its ``-wal``), taken before the snapshot starts, so that a write that does not go through quotetui (the
  sqlite3 shell) is seen too; on PostgreSQL the snapshot's next transaction id plays that part
  (:func:`server_stamp`);
* the scenario's content (not only its name), the day of the figures, the GPU filter and ``history``.

The offers, prices, FX rates, assumptions and catalog are all data, so a change to any of them is a new data
version. At most :data:`MAX_RANKINGS` rankings and :data:`MAX_OFFERS` offers in all are kept, the least
recently used dropped first. Each caller gets its own lists (the evaluations themselves are immutable).

Across launches, ``services/listing_store.py`` keeps what ``quotetui offers`` prints under the same key
(:func:`disk_key`: the target without its password) and a fingerprint of the code.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from quotetui.domain.timeutil import utcnow
from quotetui.services.engine_inputs import fx_day, scenario_of
from quotetui.store.catalog import load_catalog_of
from quotetui.store.reader import Reader, reading

if TYPE_CHECKING:
    from quotetui.domain.economics.inputs import ScenarioInput
    from quotetui.domain.gpus import GpuCatalog, GpuSpec
    from quotetui.services.ranking import Key, Ranking
    from quotetui.store.engine import Database

MAX_RANKINGS = 8
MAX_OFFERS = 50_000


def _wal_stamp(path: Path) -> tuple[int, bytes, bytes | None] | None:
    """The ``-wal`` file's size and header (its salts change whenever the log restarts); None when it is absent
    or empty. Not its times: every first connection creates an empty one afresh, with nothing changed."""
    try:
        with open(path, "rb") as wal:
            header = wal.read(32)
            size = os.fstat(wal.fileno()).st_size
    except OSError:
        return None
    return (size, header, _wal_index_stamp(path.with_name(path.name[: -len("-wal")] + "-shm"))) if size else None


def _wal_index_stamp(path: Path) -> bytes | None:
    """The first copy of the WAL index header in the ``-shm`` file (48 bytes: its change counter, last valid
    frame and salts), which every commit rewrites. Without it, the writes after the log restarts (a
    checkpoint) leave the ``-wal`` its size and header, and a ranking of before them would be served.
    Not the bytes after it: readers write their marks there."""
    try:
        with open(path, "rb") as shm:
            return shm.read(48)
    except OSError:  # none (an immutable open) or unreadable: the other parts of the stamp still apply
        return None


def file_stamp(db: Database) -> Hashable:
    """The SQLite file's identity and state (None for a server): take it before the snapshot is read. Its
    header's change counter too (bytes 24-27, bumped by every transaction that writes the file outside WAL
    mode), so that a write within the same tick of the file's clock, leaving its size, is still seen."""
    path = db.target.path
    if path is None:
        return None
    try:
        with open(path, "rb") as file:
            st = os.fstat(file.fileno())
            counter = file.read(28)[24:]
    except OSError:
        return None
    wal = _wal_stamp(path.with_name(path.name + "-wal"))
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, counter, wal)


def data_version_of(reader: Reader) -> int:
    """``setting.data_version`` in the reader's snapshot (0 before the first write)."""
    row = reader.one('SELECT value FROM setting WHERE "key" = :k', {"k": "data_version"})
    return int(row[0]) if row is not None else 0


KEY_TARGET = 0  # where :func:`ranking_key` puts the database's target (its URL: it may hold a password)
KEY_DATA_VERSION = 2  # where :func:`ranking_key` puts the data version the ranking is read at


def ranking_key(
    db: Database,
    reader: Reader,
    stamp: Hashable,
    scenario: ScenarioInput,
    day: date,
    gpu: str | None,
    history: bool,
) -> Key:
    # the rates' day too (``inputs.fx_day``): it turns at Beijing's midnight, not the figures' day's; and the
    # language and money style in use: an evaluation's caveats are words (a cost not priced, why a figure is an
    # estimate), and either can change while the TUI runs
    from quotetui.domain.economics.display import style_key

    rates = fx_day(day)
    return (
        db.target.url, stamp, data_version_of(reader), server_stamp(reader), scenario, day, rates, gpu, history,
        style_key(),
    )  # fmt: skip


def scenario_input(db: Database, reader: Reader, name: str | None, gpus: dict[int, GpuSpec]) -> ScenarioInput:
    found = scenario_of(reader, name, gpus)
    if found is not None:
        return found
    from quotetui.services.scenarios import resolve_scenario  # another spelling of the name, or the error

    with db.session() as session:
        return resolve_scenario(session, name)


def ranking_key_now(
    db: Database, scenario: str | None = None, gpu: str | None = None, on: date | None = None, *, history: bool = True
) -> Key:
    """The key :func:`rank_offers` would keep its ranking under if it ranked now, read the same way (its own
    snapshot, the file stamp first) without reading a single offer: what a listing kept on disk is found by."""
    day = on or utcnow().date()
    stamp = file_stamp(db)
    with reading(db) as reader:
        return keyed(db, reader, stamp, scenario, gpu, day, history)[3]


def keyed(
    db: Database, reader: Reader, stamp: Hashable, scenario: str | None, gpu: str | None, day: date, history: bool
) -> tuple[GpuCatalog, dict[int, GpuSpec], ScenarioInput, Key]:
    """The catalog, the scenario and the ranking's key, read in ``reader``'s snapshot (``stamp`` taken before)."""
    catalog, gpus = load_catalog_of(reader)
    wanted = scenario_input(db, reader, scenario, gpus)
    return catalog, gpus, wanted, ranking_key(db, reader, stamp, wanted, day, gpu, history)


def disk_key(key: Key) -> Key:
    """``key`` as it may go into a file's name (hashed: ``services/listing_store.py``): the target's URL
    without its password, every other part as it is."""
    from quotetui.domain.redact import redact_url

    target = key[KEY_TARGET]
    return (redact_url(target) if isinstance(target, str) else target, *key[KEY_TARGET + 1 :])


def server_stamp(reader: Reader) -> int | None:
    """On a server, the next transaction id of the snapshot: it moves on with every transaction that wrote
    anything, so even a write that bypasses ``data_version`` (another tool) is a new key; None on SQLite."""
    if reader.sqlite:
        return None
    row = reader.one("SELECT txid_snapshot_xmax(txid_current_snapshot())")
    return None if row is None else int(row[0])


class RankingCache:
    """Least recently used rankings, bounded by count and by offers; safe across threads (the TUI's workers)."""

    def __init__(self, max_rankings: int = MAX_RANKINGS, max_offers: int = MAX_OFFERS) -> None:
        self.max_rankings = max_rankings
        self.max_offers = max_offers
        self._items: OrderedDict[Key, Ranking] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def _size(ranking: Ranking) -> int:
        return len(ranking.evaluations) + len(ranking.skipped)

    def get(self, key: Key) -> Ranking | None:
        with self._lock:
            found = self._items.get(key)
            if found is None:
                return None
            self._items.move_to_end(key)
        return replace(found, evaluations=list(found.evaluations), skipped=list(found.skipped))

    def put(self, key: Key, ranking: Ranking) -> None:
        if self._size(ranking) > self.max_offers:
            return
        kept = replace(ranking, evaluations=list(ranking.evaluations), skipped=list(ranking.skipped))
        with self._lock:
            self._items[key] = kept
            self._items.move_to_end(key)
            while len(self._items) > self.max_rankings or sum(map(self._size, self._items.values())) > self.max_offers:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


RANKINGS = RankingCache()
"""The process's rankings (``services/economics.py: rank_offers``)."""


__all__ = ["MAX_OFFERS", "MAX_RANKINGS", "RANKINGS", "RankingCache", "disk_key", "file_stamp", "ranking_key"]
