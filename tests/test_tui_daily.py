"""Daily use in the TUI (issue 15): FX rates and scenarios added and edited through the same services and
field declarations as the CLI, and an import that shows its progress and can be cancelled."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from sqlmodel import select
from textual.widgets import DataTable, Input, OptionList, Static

from quotetui.services.database import open_database
from quotetui.store.models import FxRate
from quotetui.tui.dialogs.form import FormScreen
from quotetui.tui.dialogs.fx_rates import FxRatesDialog
from quotetui.tui.dialogs.scenario_picker import ScenarioPicker
from tests.test_tui import RecordingApp, plain, settle

H100_YEAR = "8×H100 一年训练"  # the demo market's default scenario


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
    return plain(form.query_one(f"#e-{name}", Static).content).strip()


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


# -- scenarios -------------------------------------------------------------------------------------------
async def open_picker(pilot) -> ScenarioPicker:  # type: ignore[no-untyped-def]
    await pilot.press("s")
    await settle(pilot)
    assert isinstance(pilot.app.screen, ScenarioPicker)
    return pilot.app.screen


def listed(picker: ScenarioPicker) -> list[str]:
    options = picker.query_one(OptionList)
    return [str(options.get_option_at_index(i).id) for i in range(options.option_count)]


async def test_the_active_scenario_is_edited_from_the_picker_and_every_figure_follows(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.market is not None and app.market.scenario.name == H100_YEAR
        before = {r.offer.id: r.evaluation.used_gpu_hours for r in app.market.rows if r.evaluation}
        picker = await open_picker(pilot)
        await pilot.press("e")  # the active scenario is highlighted when the picker opens
        await settle(pilot)
        form = app.screen
        assert isinstance(form, FormScreen)
        assert form.query_one("#f-months", Input).value == "12"
        assert form.query_one("#f-utilisation", Input).value == "100"  # a percentage in forms
        assert form.query_one("#f-gpu", Input).value == "H100 SXM5"  # the catalog's name
        fill(form, name="8×H100 两年训练", months="0", gpu="H999")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form  # every bad field under itself, nothing saved
        assert "at least 1" in error_under(form, "months") and error_under(form, "gpu")
        assert ("2 field(s) need attention; nothing was saved.", "error") in app.told
        fill(form, months="24", gpu="H100 SXM")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is picker
        assert ("Saved scenario 8×H100 两年训练 (the default)", "information") in app.told
        assert "8×H100 两年训练" in listed(picker) and H100_YEAR not in listed(picker)
        await pilot.press("escape")
        await settle(pilot)
        market = app.market
        assert market is not None and market.scenario.name == "8×H100 两年训练" and market.scenario.months == 24
        assert "8×H100 两年训练" in app.sub_title
        after = {r.offer.id: r.evaluation.used_gpu_hours for r in market.rows if r.evaluation}
        assert before.keys() == after.keys() and all(after[k] == 2 * before[k] for k in before)  # two years


async def test_a_new_scenario_from_the_picker_can_be_switched_to(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        picker = await open_picker(pilot)
        count = len(listed(picker))
        await pilot.press("n")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, FormScreen)
        assert app.focused is form.query_one("#f-name", Input)
        await pilot.press(*"16卡")
        assert form.query_one("#f-name", Input).value == "16卡"  # the first keystrokes go into the name
        fill(form, name="gpt-3 175b 预训练 (32×h100)")  # a demo scenario's name in another case: one name
        fill(form, gpu_count="16", months="2", utilisation="50")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form and "already exists" in error_under(form, "name")
        fill(form, name="16×H100 两个月")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is picker and len(listed(picker)) == count + 1
        assert app.market is not None and app.market.scenario.name == H100_YEAR  # added, not switched to
        await pilot.press("enter")  # the new one is highlighted: Enter switches to it
        await settle(pilot)
        market = app.market
        assert market is not None and market.scenario.name == "16×H100 两个月"
        assert (market.scenario.gpu_count, market.scenario.months, market.scenario.utilisation) == (
            16,
            2,
            Decimal("0.5"),
        )
