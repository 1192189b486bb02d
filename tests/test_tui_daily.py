"""Daily use in the TUI (issue 15): FX rates and scenarios added and edited through the same services and
field declarations as the CLI, and an import that shows its progress and can be cancelled."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from sqlmodel import select
from textual.widgets import DataTable, Input, Static

from quotetui.services.database import open_database
from quotetui.store.models import FxRate
from quotetui.tui.dialogs.form import FormScreen
from quotetui.tui.dialogs.fx_rates import FxRatesDialog
from tests.test_tui import RecordingApp, plain, settle


def rates_in(path: Path) -> list[tuple[str, str, Decimal, str, str]]:
    opened = open_database(str(path))
    with opened.db.session() as session:
        rows = [(r.base, r.quote, r.rate, r.as_of.isoformat(), r.source) for r in session.exec(select(FxRate))]
    opened.db.dispose()
    return rows


def fill(form: FormScreen, **values: str) -> None:
    for name, value in values.items():
        form.query_one(f"#f-{name}", Input).value = value


def error_under(form: FormScreen, name: str) -> str:
    return plain(form.query_one(f"#e-{name}", Static).content)


# -- FX rates --------------------------------------------------------------------------------------------
async def test_fx_rates_are_added_and_edited_from_the_palette(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        palette = {c.title: c for c in app.get_system_commands(app.screen)}
        palette["FX rates…"].callback()
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, FxRatesDialog)
        assert dialog.query_one(DataTable).row_count == 0
        await pilot.press("n")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, FormScreen)
        assert form.query_one("#f-as_of", Input).value == "2026-11-30"  # today, as the app sees it
        fill(form, base="USD", quote="CNY", rate="7.1", as_of="2026-12-01", source="PBOC")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form  # nothing saved: the date is after today
        assert "2026-12-01 is in the future" in error_under(form, "as_of")
        assert rates_in(demo_db_path) == []
        fill(form, as_of="2026-11-02")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is dialog
        assert ("Saved FX rate 1 USD = 7.1 CNY on 2026-11-02 (PBOC)", "information") in app.told
        table = dialog.query_one(DataTable)
        assert [plain(c).strip() for c in table.get_row_at(0)] == ["USD→CNY", "7.1", "2026-11-02", "PBOC"]
        await pilot.press("e")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, FormScreen)
        assert form.query_one("#f-rate", Input).value == "7.1"
        fill(form, rate="7,2")  # a decimal comma is not a number the parser accepts: said under the field
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form and error_under(form, "rate")
        fill(form, rate="7.2", source="中国人民银行")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is dialog
        await pilot.press("enter")  # Enter edits as e does
        await settle(pilot)
        assert isinstance(app.screen, FormScreen)
        await pilot.press("escape")  # cancelled: nothing saved
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, FxRatesDialog)
    assert rates_in(demo_db_path) == [("USD", "CNY", Decimal("7.2"), "2026-11-02", "中国人民银行")]
