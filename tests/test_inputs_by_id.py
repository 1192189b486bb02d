"""Naming offers to read (``services/engine_inputs.py: id_filter``): a short list as parameters, a long one as one JSON
array the database unpacks (SQLite ``json_each``, PostgreSQL ``json_array_elements_text``). Either way exactly
the offers named are read, as reading all and keeping them would give."""

from __future__ import annotations

import random
from pathlib import Path

from quotetui.services.database import open_database
from quotetui.services.engine_inputs import IN_LIST_MAX, offer_inputs
from quotetui.store.catalog import load_catalog_of
from quotetui.store.reader import reading


def test_a_long_and_a_short_list_of_ids_read_exactly_those_offers(db_path: Path) -> None:
    from benchmarks.market import build

    opened = open_database(str(db_path), load_demo_if_new=False)
    db = opened.db
    try:
        build(db, 1_200)
        with reading(db) as reader:
            _, gpus = load_catalog_of(reader)
            every = {o.id: o for o in offer_inputs(reader, gpus)}
            rng = random.Random(33)
            for size in (1, IN_LIST_MAX, IN_LIST_MAX + 1, 900):
                ids = rng.sample(sorted(every), size) + [10**9]  # and one that does not exist
                got = offer_inputs(reader, gpus, ids)
                assert [o.id for o in got] == sorted(i for i in ids if i in every)
                assert got == [every[o.id] for o in got]  # the same rounds, prices, fine print and evidence
    finally:
        db.dispose()
