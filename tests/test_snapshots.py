"""Snapshot tests of the main screens at 80x24 and 120x40 (SVG, compared with tests/__snapshots__).

The demo database is copied to a fixed path and the app's "today" is fixed, so the pictures only change
when the screens do. Update after a deliberate change with `pytest tests/test_snapshots.py --snapshot-update`
and look at the SVGs before committing them.
"""

from __future__ import annotations

import shutil
import tempfile
from datetime import date
from pathlib import Path

import pytest

from quotetui.tui.app import QuotetuiApp

pytestmark = pytest.mark.sqlite_only  # the pictures show the SQLite file in the header

FIXED = Path(tempfile.gettempdir()) / "quotetui-snapshots" / "demo.db"
SIZES = [(80, 24), (120, 40)]


@pytest.fixture
def app(demo_db_path: Path) -> QuotetuiApp:
    FIXED.parent.mkdir(parents=True, exist_ok=True)
    for old in FIXED.parent.glob("demo.db*"):
        old.unlink()
    shutil.copy(demo_db_path, FIXED)
    return QuotetuiApp(str(FIXED), today=date(2026, 11, 30))


def keys(*presses: str):  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        for _ in range(3):
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
        for key in presses:
            await pilot.press(key)
            for _ in range(2):
                await pilot.app.workers.wait_for_complete()
                await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_dashboard(snap_compare, app: QuotetuiApp, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=size, run_before=keys())


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_offers(snap_compare, app: QuotetuiApp, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=size, run_before=keys("o", "space", "down", "space"))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_compare(snap_compare, app: QuotetuiApp, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=size, run_before=keys("o", "space", "down", "space", "down", "space", "c"))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_offer_pricing(snap_compare, app: QuotetuiApp, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=size, run_before=keys("o", "down", "down", "enter", "2"))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_negotiation(snap_compare, app: QuotetuiApp, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=size, run_before=keys("o", "down", "down", "enter", "3"))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_rent_vs_buy(snap_compare, app: QuotetuiApp, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=size, run_before=keys("b"))
