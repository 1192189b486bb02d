"""A second launch shows the offers table the first one kept (tui/offer_preview.py) before it ranks: the very
rows a cold load shows (cells, sort orders, filters, styles), and only when nothing they depend on changed."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Label

import quotetui.services.market_view as market_view
from quotetui.services import listing_store
from quotetui.services.ranking_cache import RANKINGS
from quotetui.tui import offer_preview
from quotetui.tui.offer_preview import PreviewRow, _item
from quotetui.tui.offer_rows import KEYS
from quotetui.tui.widgets.virtual_table import VirtualTable
from tests.test_tui import RecordingApp, settle
from tests.test_tui_first_rows import held_cards, until

pytestmark = pytest.mark.sqlite_only  # a shared server's transaction ids move with every other database's writes


def _entries() -> list[Path]:
    folder = listing_store.cache_dir()
    assert folder is not None
    return sorted(folder.glob("*" + listing_store.SUFFIX)) if folder.exists() else []


def _seen(table: VirtualTable) -> dict[str, Any]:
    """What a user sees and does with the table: every row as drawn, and the order of each column's sort
    (both ways), and what a filter keeps."""
    rows = [(r.key, list(r.cells), r.search, r.style, r.styles) for r in table.rows]
    orders = {}
    for column in range(len(table.columns)):
        for reverse in (False, True):
            table.sort_by(column, reverse)
            orders[(column, reverse)] = [r.key for r in table.view_rows]
    table.sort_by(0)
    return {"rows": rows, "orders": orders}


def _held_ranking(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    release = threading.Event()
    real = market_view.rank_offers

    def slow(*args, **kwargs):  # type: ignore[no-untyped-def]
        assert release.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(market_view, "rank_offers", slow)
    return release


async def _cold(path: Path) -> dict[str, Any]:
    app = RecordingApp(str(path))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.market is not None and app.market.cards_ready)
        await settle(pilot)
        await pilot.press("o")
        await pilot.pause()
        seen = _seen(app.screen.query_one(VirtualTable))
    RANKINGS.clear()
    return seen


async def test_a_second_launch_shows_the_kept_table_before_ranking(
    demo_db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cold = await _cold(demo_db_path)
    assert len(_entries()) == 2  # the table, and its first page on its own
    release = _held_ranking(monkeypatch)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("o")
        table = app.screen.query_one(VirtualTable)
        await until(pilot, lambda: bool(table.rows))
        assert app.market is None and not table.loading  # nothing ranked yet
        assert all(isinstance(r, PreviewRow) for r in table.rows)
        assert _seen(table) == cold
        app.screen.query_one("#filter", Input).value = "h100"
        await pilot.pause()
        kept = [r.key for r in table.view_rows]
        assert 0 < len(kept) < len(table.rows)
        cards = held_cards(monkeypatch)
        release.set()
        await until(pilot, lambda: app.market is not None)
        await pilot.pause()
        assert all(isinstance(r, PreviewRow) for r in table.rows)  # complete rows, not "pending" ones meanwhile
        cards.set()
        await until(pilot, lambda: app.market is not None and app.market.cards_ready)
        await settle(pilot)
        assert not any(isinstance(r, PreviewRow) for r in table.rows)
        assert [r.key for r in table.view_rows] == kept  # the same filter keeps the same offers
        app.screen.query_one("#filter", Input).value = ""
        await pilot.pause()
        assert _seen(table) == cold


async def test_a_changed_database_shows_no_kept_table(demo_db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kept table is not shown; the stored ranking's first page is (``services/stored_ranking.py``), with
    the changed offer already recomputed: never the old name."""
    await _cold(demo_db_path)
    conn = sqlite3.connect(demo_db_path)  # around quotetui: the file's stamp moves, not the data version
    with conn:
        conn.execute("UPDATE offer SET name = name || ' (renamed)' WHERE id = 18")
    conn.close()
    release = _held_ranking(monkeypatch)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("o")
        table = app.screen.query_one(VirtualTable)
        await until(pilot, lambda: bool(table.rows))
        assert app.market is None and not any(isinstance(r, PreviewRow) for r in table.rows)
        assert [r.key for r in table.rows][:3] == [18, 14, 2]  # the demo's best three, in the engine's order
        assert "(renamed)" in table.rows[0].cells[3]
        release.set()
        await until(pilot, lambda: app.market is not None and app.market.cards_ready)
        await settle(pilot)
        assert any("(renamed)" in r.cells[3] for r in table.rows)


async def test_a_write_during_the_launch_replaces_the_kept_table_at_once(
    demo_db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _cold(demo_db_path)
    release, cards = _held_ranking(monkeypatch), held_cards(monkeypatch)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("o")
        table = app.screen.query_one(VirtualTable)
        await until(pilot, lambda: bool(table.rows))
        assert all(isinstance(r, PreviewRow) for r in table.rows)
        conn = sqlite3.connect(demo_db_path)  # another program writes before the ranking reads
        with conn:
            conn.execute("UPDATE offer SET name = name || ' (renamed)' WHERE id = 18")
        conn.close()
        release.set()
        await until(pilot, lambda: app.market is not None)
        await pilot.pause()
        assert not any(isinstance(r, PreviewRow) for r in table.rows)  # the new ranking's rows, claims pending
        assert any("(renamed)" in r.cells[3] for r in table.rows)
        cards.set()
        await until(pilot, lambda: app.market is not None and app.market.cards_ready)
        await settle(pilot)


def _first_page_held(monkeypatch: pytest.MonkeyPatch, page: int) -> threading.Event:
    """A kept table's first ``page`` rows are shown, and the rest waits for the returned event."""
    monkeypatch.setattr(offer_preview, "FIRST_PAGE", page)
    release, real = threading.Event(), offer_preview.previews

    def held(*args, **kwargs):  # type: ignore[no-untyped-def]
        shown = real(*args, **kwargs)
        yield next(shown)
        assert release.wait(30)
        yield from shown

    monkeypatch.setattr(offer_preview, "previews", held)
    return release


def _status(app: RecordingApp) -> str:
    return str(app.screen.query_one("#offers-status", Label).render())


async def test_a_long_kept_table_shows_its_first_page_then_all_of_it(
    demo_db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cold = await _cold(demo_db_path)
    rest = _first_page_held(monkeypatch, 5)
    release = _held_ranking(monkeypatch)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("o")
        table = app.screen.query_one(VirtualTable)
        await until(pilot, lambda: bool(table.rows))
        assert app.preview is not None and not app.preview.complete
        assert [(r.key, list(r.cells)) for r in table.rows] == [(k, c) for k, c, *_ in cold["rows"][:5]]
        assert "5 of the first 5 of 20 offers (reading the rest…)" in _status(app)
        rest.set()
        await until(pilot, lambda: len(table.rows) == 20)
        assert app.market is None and app.preview.complete
        assert _seen(table) == cold
        assert _status(app).startswith("20 of 20 offers")
        release.set()
        await until(pilot, lambda: app.market is not None and app.market.cards_ready)
        await settle(pilot)
        assert _seen(table) == cold


async def _offers_settled(app: RecordingApp, pilot) -> VirtualTable:  # type: ignore[no-untyped-def]
    """The offers table once its first rows are shown and whatever kept rows follow had time to come."""
    await pilot.press("o")
    table = app.screen.query_one(VirtualTable)
    await until(pilot, lambda: bool(table.rows))
    for _ in range(10):
        await pilot.pause(0.05)
    return table


async def test_a_bad_row_after_the_first_page_leaves_it_to_the_ranking(
    demo_db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cold = await _cold(demo_db_path)
    monkeypatch.setattr(offer_preview, "FIRST_PAGE", 5)
    calls = iter(range(1000))  # the head and five rows pass; the seventh row of the file is of the wrong shape
    monkeypatch.setattr(offer_preview, "_item", lambda item: next(calls) != 7 and _item(item))
    release, cards = _held_ranking(monkeypatch), held_cards(monkeypatch)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        table = await _offers_settled(app, pilot)
        assert len(table.rows) == 5 and not app.preview.complete  # the first page stays; the rest never came
        release.set()
        await until(pilot, lambda: app.market is not None)
        await pilot.pause()
        assert len(table.rows) == 20  # the ranking's own rows (claims pending), not the five kept ones
        assert not any(isinstance(r, PreviewRow) for r in table.rows)
        cards.set()
        await until(pilot, lambda: app.market is not None and app.market.cards_ready)
        await settle(pilot)
        assert _seen(table) == cold


GOOD_ROW = [
    "row",
    7,
    json.dumps(["1"] * len(KEYS)),
    [1, 7, "p", *([None] * (len(KEYS) - 3))],
    "p",
    "",
    [],
    ["H100", None, "quoted"],
]


@pytest.mark.parametrize(
    ("where", "value"),
    [
        (2, json.dumps(["1"] * (len(KEYS) - 1))),  # a cell short
        (2, json.dumps([1] * len(KEYS))),  # cells that are not text
        (2, "not json"),
        (2, ["1"] * len(KEYS)),  # cells as a list, not their text
        (3, [[1]] * len(KEYS)),  # a sort value that is not plain
        (6, [[99, "bold red"]]),  # a style for a column that does not exist
        (7, ["H100", None]),  # a facet short
        (1, "7"),  # a key that is not a number
    ],
)
def test_a_kept_row_of_the_wrong_shape_is_refused(where: int, value: object) -> None:
    assert _item(GOOD_ROW)
    bad = list(GOOD_ROW)
    bad[where] = value
    assert not _item(bad)


def _entry_of(kind: str) -> Path:
    """The kept entry of ``kind`` (its header names it)."""
    import gzip

    def kind_of(path: Path) -> str:
        with gzip.open(path) as text:
            return str(json.loads(text.readline())["kind"])

    [path] = [p for p in _entries() if kind_of(p) == kind]
    return path


@pytest.mark.parametrize("kept", ["first page only", "whole table only"])
async def test_either_kept_entry_alone_shows_the_kept_rows(
    demo_db_path: Path, monkeypatch: pytest.MonkeyPatch, kept: str
) -> None:
    """A launch shows the first page from its own small entry before it reads the whole table (at 10,000 offers
    the whole table takes a tenth of a second to check); either entry alone still shows the kept rows: the first
    page's alone its rows (the rest is left to the ranking), the whole table's alone all of them."""
    cold = await _cold(demo_db_path)
    monkeypatch.setattr(offer_preview, "FIRST_PAGE", 5)
    _entry_of(offer_preview.KIND if kept == "first page only" else offer_preview.FIRST_KIND).unlink()
    release = _held_ranking(monkeypatch)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        table = await _offers_settled(app, pilot)
        assert app.market is None and all(isinstance(r, PreviewRow) for r in table.rows)
        if kept == "first page only":
            assert [(r.key, list(r.cells)) for r in table.rows] == [(k, c) for k, c, *_ in cold["rows"][:5]]
            assert "5 of the first 5 of 20 offers (reading the rest…)" in _status(app)
        else:  # the whole table's entry is read and checked before it shows: on a busy machine past the pauses
            await until(pilot, lambda: _seen(table) == cold)
        release.set()
        await until(pilot, lambda: app.market is not None and app.market.cards_ready)
        await settle(pilot)
        assert _seen(table) == cold


def _rewrite(path: Path, items: list[Any], kind: str) -> None:
    """``path``'s entry with ``items`` in place of its own, its header, count and digest made right (as
    someone with write access to the cache folder could)."""
    import gzip
    import hashlib

    with gzip.open(path) as text:
        header = text.readline()
    lines = [listing_store._line({"item": item}) for item in items]
    digest = hashlib.sha256(b"".join(lines)).hexdigest()
    assert json.loads(header)["kind"] == kind
    with gzip.open(path, "wb") as out:
        out.write(header + b"".join(lines) + listing_store._line({"end": len(lines), "sha256": digest}))


def _shown(db_path: Path) -> list[tuple[int, int]]:
    """(rows, total) of each page ``previews`` gives, until it ends or refuses (ValueError: the page stays)."""
    from quotetui.services.database import open_database
    from tests.test_tui import TODAY

    db = open_database(str(db_path)).db
    pages = []
    try:
        for page in offer_preview.previews(db, None, TODAY):
            pages.append((len(page.rows), page.total))
    except ValueError:
        pages.append((-1, -1))
    finally:
        db.dispose()
    return pages


async def test_a_kept_first_page_is_trusted_only_as_far_as_it_agrees(demo_db_path: Path) -> None:
    """The first page's entry is read only up to what it may hold (a file of a million lines is not read on),
    an empty line is damage, and the whole table must begin with the very rows the first page showed."""
    import gzip

    await _cold(demo_db_path)
    first, whole = _entry_of(offer_preview.FIRST_KIND), _entry_of(offer_preview.KIND)
    with gzip.open(first) as text:
        items = [json.loads(line)["item"] for line in text.readlines()[1:-1]]
    assert _shown(demo_db_path) == [(20, 20)]  # the demo's 20 rows: the first page is the whole table
    kept = first.read_bytes()
    _rewrite(first, [items[0], *items[1:] * 6], offer_preview.FIRST_KIND)  # 120 rows: more than it may hold
    assert _shown(demo_db_path) == [(20, 20)]  # not trusted: the whole table's entry shows them
    with gzip.open(first, "wb") as out:  # a header, then a flood of empty lines
        out.write(gzip.decompress(kept).splitlines(keepends=True)[0] + b"\n" * 2_000_000)
    assert _shown(demo_db_path) == [(20, 20)]
    first.write_bytes(kept)
    swapped = [[*items[0][:4], 20], items[2], items[1], *items[3:]]  # its first two rows swapped
    _rewrite(first, swapped, offer_preview.FIRST_KIND)
    assert _shown(demo_db_path) == [(20, 20)]  # as told: its 20 rows are the whole table (a forged file)
    _rewrite(first, [[*items[0][:4], 20], items[2], items[1]], offer_preview.FIRST_KIND)
    assert _shown(demo_db_path) == [(2, 20), (-1, -1)]  # the whole table does not begin with them: refused
    whole.unlink()
    assert _shown(demo_db_path) == [(2, 20)]  # the first page alone


async def test_offers_opened_at_launch_get_the_whole_kept_table(
    demo_db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`o` pressed at launch: the offers screen is open but its widgets are not yet mounted when the kept table's
    first page comes; it shows that page on mount, then the rest when it comes (the first page once raised on
    the screen's missing widgets, which ended the reading: the rest of the table never came)."""
    cold = await _cold(demo_db_path)
    monkeypatch.setattr(offer_preview, "FIRST_PAGE", 5)
    release = _held_ranking(monkeypatch)
    app = RecordingApp(str(demo_db_path))
    previewed, pages = app._previewed, []

    def opened_first(preview: offer_preview.Preview, generation: int) -> None:
        if not pages:
            app.switch_mode("offers")  # not awaited: the screen is on the stack, not yet mounted
            assert not app.screen.is_mounted
        pages.append(len(preview.rows))
        previewed(preview, generation)

    app._previewed = opened_first  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: len(pages) == 2)
        await pilot.pause()
        assert pages == [5, 20] and app.market is None
        assert _seen(app.screen.query_one(VirtualTable)) == cold
        release.set()
        await until(pilot, lambda: app.market is not None and app.market.cards_ready)
        await settle(pilot)
