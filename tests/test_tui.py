"""The first TUI: providers and offers of the database, a footer of bindings, q to quit."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable, Footer

from quotetui.tui.app import QuotetuiApp


class RecordingApp(QuotetuiApp):
    """Keeps every notification so tests can read what the user was told."""

    def __init__(self, db: str | None) -> None:
        super().__init__(db)
        self.told: list[tuple[str, str]] = []

    def notify(self, message: str, *, severity: str = "information", **kwargs) -> None:  # type: ignore[override]
        self.told.append((message, severity))
        super().notify(message, severity=severity, **kwargs)  # type: ignore[arg-type]


async def test_lists_providers_and_offers_and_filters_by_provider(demo_db_path: Path) -> None:
    app = QuotetuiApp(str(demo_db_path))
    async with app.run_test(size=(120, 32)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        providers = app.screen.query_one("#providers", DataTable)
        offers = app.screen.query_one("#offers", DataTable)
        assert providers.row_count == 6  # "All providers" + 5
        assert offers.row_count == 20
        assert app.sub_title == str(demo_db_path)
        assert providers.get_row_at(1)[0] == "一万网络"
        await pilot.press("down")  # highlight 一万网络
        await pilot.pause()
        assert offers.row_count == 8
        assert {offers.get_row_at(i)[1] for i in range(offers.row_count)} == {"一万网络"}
        await pilot.press("down", "down")  # 阿里云
        await pilot.pause()
        assert offers.row_count == 4
        footer_keys = {b.key for b in app.screen.active_bindings.values() for b in [b.binding]}
        assert {"q", "r"} <= footer_keys
        assert app.screen.query(Footer)
        await pilot.press("q")
    assert app.return_code == 0


async def test_first_frame_does_not_wait_for_the_database(demo_db_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import threading

    import quotetui.tui.screens.market as market_screen

    release = threading.Event()
    real_open = market_screen.open_database

    def slow_open(db):  # type: ignore[no-untyped-def]
        assert release.wait(10)
        return real_open(db)

    monkeypatch.setattr(market_screen, "open_database", slow_open)
    app = QuotetuiApp(str(demo_db_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        offers = app.screen.query_one("#offers", DataTable)
        assert offers.loading and offers.row_count == 0  # painted, still loading
        release.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert offers.row_count == 20 and not offers.loading


async def test_a_bad_database_is_an_error_notification_not_a_crash(tmp_path: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_text("not a database")
    app = RecordingApp(str(bad))
    async with app.run_test() as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert any("not a quotetui database" in m and s == "error" for m, s in app.told)
        assert app.screen.query_one("#offers", DataTable).row_count == 0


async def test_first_run_on_the_default_database_announces_the_demo() -> None:
    app = RecordingApp(None)
    async with app.run_test() as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert any("Loaded the demo market" in m for m, _ in app.told)
        assert app.screen.query_one("#offers", DataTable).row_count == 20
