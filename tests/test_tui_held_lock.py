"""A write lock held by another program never freezes the TUI.

Another program (the CLI, an import, a second window) holds the SQLite file's write lock with
``BEGIN IMMEDIATE``; the app's busy timeout makes its own write wait for it. Meanwhile the screen must answer:
an interval callback on the UI thread keeps ticking, a key press moves the focus. When the lock is released the
write goes through and says so. Forms are also filled off the UI thread: a slow read shows a loading form.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import pairwise
from pathlib import Path

import pytest
from textual.command import CommandPalette
from textual.widgets import Button, Input

from quotetui.services import editing
from quotetui.store.models import Offer, Provider
from quotetui.tui.dialogs.confirm import ConfirmDialog
from quotetui.tui.dialogs.form_screen import FormScreen
from quotetui.tui.screens.offers import OffersScreen
from tests.test_tui import RecordingApp, count_rows, settle

pytestmark = pytest.mark.sqlite_only  # the lock is taken on the SQLite file itself

TICK_S = 0.05
HELD_S = 2.0
"""How long the other program holds the lock: well under the busy timeout, well over a frame."""


@contextmanager
def write_lock(path: Path) -> Iterator[sqlite3.Connection]:
    """Another program's open write transaction on ``path``: every other writer waits until it ends."""
    con = sqlite3.connect(path, isolation_level=None, timeout=0)
    con.execute("BEGIN IMMEDIATE")
    try:
        yield con
    finally:
        con.rollback()
        con.close()


class Ticks:
    """An interval callback on the UI thread: if the thread is blocked, no tick comes and the gap grows."""

    def __init__(self, app: RecordingApp) -> None:
        self.times: list[float] = []
        self.timer = app.set_interval(TICK_S, lambda: self.times.append(time.monotonic()))

    def since(self, start: float) -> list[float]:
        return [t for t in self.times if t >= start]

    def longest_gap(self, start: float, end: float) -> float:
        marks = [start, *self.since(start), end]
        return max(b - a for a, b in pairwise(marks))


async def wait_held(pilot, ticks: Ticks) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """Let the app run for HELD_S while the lock is held; return when that began and ended."""
    start = time.monotonic()
    while time.monotonic() - start < HELD_S:
        await pilot.pause(TICK_S)
    return start, time.monotonic()


def assert_free(ticks: Ticks, start: float, end: float) -> None:
    # a frozen UI thread would show one gap as long as the lock was held (HELD_S); a loaded machine (two cores
    # shared by several test runs) may delay a tick now and then, never for most of the wait
    assert len(ticks.since(start)) >= 5, ticks.since(start)
    assert ticks.longest_gap(start, end) < HELD_S / 2


async def test_a_save_waits_for_a_held_lock_without_freezing_the_screen(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.action_new_provider()
        await settle(pilot)
        form = app.screen
        assert isinstance(form, FormScreen)
        await pilot.press(*"一万算力")
        ticks = Ticks(app)
        with write_lock(demo_db_path):
            await pilot.press("ctrl+s")
            await pilot.pause()
            save = form.query_one("#save", Button)
            assert save.disabled and str(save.label) == "Saving…"
            start, _ = await wait_held(pilot, ticks)
            await pilot.press("ctrl+s")  # a second save while the first waits: nothing happens
            assert len([w for w in app.workers if w.group == "form-save"]) == 1
            await pilot.press("escape")  # the form does not go while its save is in flight
            assert app.screen is form
            assert ("Still saving: the form closes when the save is done.", "information") in app.told
            assert app.focused is form.query_one("#f-name", Input)
            await pilot.press("tab")  # the screen answers keys meanwhile
            assert app.focused is not form.query_one("#f-name", Input)
            assert_free(ticks, start, time.monotonic())
            assert count_rows(demo_db_path, Provider) == 5  # still waiting: nothing written yet
            assert not any(m.startswith("Saved") for m, _ in app.told)
        await settle(pilot)
        assert app.screen is not form
        assert ("Saved provider 一万算力 (#6)", "information") in app.told
    assert count_rows(demo_db_path, Provider) == 6


async def test_a_save_that_ends_under_the_palette_closes_the_form_afterwards(demo_db_path: Path) -> None:
    """The save ends while the command palette is open over the form: the palette stays, and the form goes
    (saying what it saved) when the palette is closed; nothing else is closed in its place."""
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.action_new_provider()
        await settle(pilot)
        form = app.screen
        assert isinstance(form, FormScreen)
        await pilot.press(*"一万算力")
        with write_lock(demo_db_path):
            await pilot.press("ctrl+s")
            await pilot.pause()
            await pilot.press("ctrl+p")
            await pilot.pause()
            assert isinstance(app.screen, CommandPalette)
        await settle(pilot)
        assert ("Saved provider 一万算力 (#6)", "information") in app.told
        assert isinstance(app.screen, CommandPalette)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, (FormScreen, CommandPalette))
        assert app.screen.id != "_default" and app.is_running
    assert count_rows(demo_db_path, Provider) == 6


async def test_a_delete_waits_for_a_held_lock_without_freezing_the_screen(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        offers = app.screen
        assert isinstance(offers, OffersScreen)
        doomed = offers.table.current_key
        assert doomed is not None
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        ticks = Ticks(app)
        with write_lock(demo_db_path):
            await pilot.press("y")
            start, _ = await wait_held(pilot, ticks)
            assert app.screen is offers
            await pilot.press("slash")  # the screen answers keys meanwhile: the filter takes the focus
            assert app.focused is offers.query_one("#filter", Input)
            assert_free(ticks, start, time.monotonic())
            assert count_rows(demo_db_path, Offer) == 20  # still waiting
            assert (f"Deleting offer #{doomed}…", "information") in app.told
        await settle(pilot)
        assert (f"Deleted offer #{doomed}.", "information") in app.told
        assert app.market is not None and app.market.row(doomed) is None  # the figures were read again
    assert count_rows(demo_db_path, Offer) == 19


async def test_a_form_is_filled_off_the_ui_thread(demo_db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading the row a form shows may be slow (a busy server): the form opens at once, says it is loading,
    Save does nothing yet, and the screen answers meanwhile."""
    gate = threading.Event()
    real = editing.provider_form

    def slow(*args: object, **kwargs: object) -> object:
        gate.wait(10)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(editing, "provider_form", slow)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        ticks = Ticks(app)
        start = time.monotonic()
        app.action_new_provider()
        await pilot.pause()
        form = app.screen
        assert isinstance(form, FormScreen)
        assert form.query_one(".form-fields").loading
        assert form.query_one("#save", Button).disabled
        await pilot.press("ctrl+s")  # nothing to save yet
        for _ in range(10):
            await pilot.pause(TICK_S)
        assert len(ticks.since(start)) >= 5
        gate.set()
        await settle(pilot)
        assert app.screen is form and not form.query_one(".form-fields").loading
        assert app.focused is form.query_one("#f-name", Input)  # the first field, once it is there
        assert not any(m.startswith("Saved") for m, _ in app.told)
        await pilot.press(*"一万算力", "ctrl+s")
        await settle(pilot)
        assert ("Saved provider 一万算力 (#6)", "information") in app.told
