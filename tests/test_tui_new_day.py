"""An app left open past midnight moves on to the new day: the figures are read again for it (hostile-user
pass: the day was fixed at start-up, so yesterday's open quotes and FX day stayed on screen)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quotetui.tui import app as app_module
from quotetui.tui.app import QuotetuiApp
from tests.test_tui import settle


async def test_the_poll_after_midnight_reads_the_figures_again_for_the_new_day(
    demo_db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [datetime(2026, 12, 2, 23, 59, 50, tzinfo=UTC)]
    monkeypatch.setattr(app_module, "utcnow", lambda: clock[0])
    told: list[str] = []
    app = QuotetuiApp(str(demo_db_path))
    monkeypatch.setattr(app, "notify", lambda message, **kwargs: told.append(message))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.market is not None and app.market.on.isoformat() == "2026-12-02"
        app._poll()  # the same day: nothing to read again
        await settle(pilot)
        assert app.market.on.isoformat() == "2026-12-02" and not told
        clock[0] += timedelta(seconds=20)
        app._poll()
        await settle(pilot)
        assert app.market is not None and app.market.on.isoformat() == "2026-12-03"
        assert told == ["A new day: the figures are read again for 2026-12-03."]
