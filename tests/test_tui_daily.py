"""Daily use in the TUI (issue 15): FX rates and scenarios added and edited through the same services and
field declarations as the CLI, and an import that shows its progress and can be cancelled."""

from __future__ import annotations

import threading
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import pytest
from sqlmodel import select
from textual.widgets import Button, DataTable, Input, Label, OptionList, Static
from textual.widgets._footer import FooterKey

from quotetui.services.database import open_database
from quotetui.services.importing import EVERY, ImportProgress
from quotetui.store.models import FxRate, Provider
from quotetui.tui.dialogs.form_screen import FormScreen
from quotetui.tui.dialogs.fx_rates import FxRatesDialog
from quotetui.tui.dialogs.scenario_picker import ScenarioPicker
from quotetui.tui.dialogs.transfer import ImportDialog
from tests.conftest import dump
from tests.test_tui import RecordingApp, count_rows, plain, settle

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
        assert app.market is not None
        seen = app.market.data_version
        palette = {c.title: c for c in app.get_system_commands(app.screen)}
        palette["FX rates…"].callback()
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, FxRatesDialog)
        assert dialog.query_one(DataTable).row_count == 0
        title = dialog.query_one(".dialog-title", Label)
        assert str(title.render()).startswith("No FX rates recorded yet")
        await pilot.press("n")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, FormScreen)
        assert form.query_one("#f-as_of", Input).value == "2026-11-30"  # today, as the app sees it
        fill(form, base="USD", quote="CNY", rate="7.1", as_of="2026-12-01", source="PBOC")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form  # nothing saved: the date is after today
        assert "2026-12-01 is after today (2026-11-30)" in error_under(form, "as_of")
        assert rates_in(demo_db_path) == []
        fill(form, as_of="2026-11-02", source="[b]PBOC[/b]")  # text is data: shown as typed, never as markup
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is dialog
        assert ("Saved FX rate 1 USD = 7.1 CNY on 2026-11-02 ([b]PBOC[/b])", "information") in app.told
        assert app.market.data_version != seen  # read again at once: not taken for another program's write
        table = dialog.query_one(DataTable)
        assert [plain(c).strip() for c in table.get_row_at(0)] == ["USD→CNY", "7.1", "2026-11-02", "[b]PBOC[/b]"]
        assert str(title.render()).startswith("FX rates: 1 base = rate quote")  # no longer "none recorded"
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
        assert ("Nothing was saved: 2 fields to correct (GPU model, Months needed).", "error") in app.told
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


# -- import: progress and cancel ------------------------------------------------------------------------
class Gate:
    """Holds the import's worker thread at one progress report until the test has acted (pressed Esc), so
    "mid-way" is a place in the import, not a guess about timing. The import itself runs unchanged."""

    def __init__(self, dialog: ImportDialog, when: Callable[[ImportProgress], bool]) -> None:
        self.reached, self.release, self.when, self.told = threading.Event(), threading.Event(), when, dialog._progress
        dialog._progress = self.report  # type: ignore[method-assign]

    def report(self, progress: ImportProgress) -> None:
        if not self.reached.is_set() and self.when(progress):
            self.reached.set()
            self.release.wait(30)
        self.told(progress)  # shows it, or stops the import when the user cancelled

    async def wait(self, pilot) -> None:  # type: ignore[no-untyped-def]
        for _ in range(600):
            if self.reached.is_set():
                return
            await pilot.pause(0.05)
        raise AssertionError("the import never got there")


async def until_said(pilot, text: str) -> str:  # type: ignore[no-untyped-def]
    """The import dialog's report once it says ``text`` (a cancelled worker rolls back after Esc returns)."""
    for _ in range(600):
        shown = str(pilot.app.screen.query_one("#report", Static).content)
        if text in shown:
            return shown
        await pilot.pause(0.05)
    raise AssertionError(f"never said {text!r}; says {shown!r}")


def big_providers_csv(folder: Path, rows: int = 6 * EVERY) -> Path:
    path = folder / "providers.csv"
    lines = ["name,kind,regions,notes"] + [f"导入 {i:05d},gpu_cloud,cn-east,row {i}" for i in range(rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


async def open_import(pilot, path: Path) -> ImportDialog:  # type: ignore[no-untyped-def]
    await pilot.press("ctrl+o")
    await pilot.pause()
    dialog = pilot.app.screen
    assert isinstance(dialog, ImportDialog)
    dialog.query_one("#paths", Input).value = str(path)
    return dialog


async def test_an_import_shows_its_progress_and_esc_cancels_it_with_nothing_changed(
    demo_db_path: Path, tmp_path: Path
) -> None:
    big = big_providers_csv(tmp_path)
    rows = 6 * EVERY
    before = dump(demo_db_path)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        dialog = await open_import(pilot, big)
        await pilot.press("enter")  # the dry run first
        await settle(pilot)
        assert f"providers: {rows:,} added" in str(dialog.query_one("#report", Static).content)
        gate = Gate(dialog, lambda p: not p.dry_run and p.stage == "writing" and p.rows_written >= 2 * EVERY)
        await pilot.press("ctrl+s")
        await gate.wait(pilot)
        shown = str(dialog.query_one("#report", Static).content)  # the last report before the gate
        assert shown == (
            f"Importing… 1 of 1 file read, {rows:,} rows; {rows:,} checked; {EVERY:,} of {rows:,} written\nEsc cancels."
        )
        await pilot.press("escape")
        assert app.screen is dialog  # Esc stops the import; the dialog stays to say what happened
        gate.release.set()
        await until_said(pilot, "Import cancelled; nothing changed.")
        await settle(pilot)
        assert ("Import cancelled; nothing changed.", "information") in app.told
        assert not dialog.query_one("#confirm", Button).disabled  # checked still: it may be imported again
        await pilot.press("escape")  # nothing running: Esc closes the dialog
        await settle(pilot)
        assert not isinstance(app.screen, ImportDialog)
    assert dump(demo_db_path) == before
    assert count_rows(demo_db_path, Provider) == 5


async def test_the_cancel_button_stops_a_check_and_the_import_then_runs_to_the_end(
    demo_db_path: Path, tmp_path: Path
) -> None:
    big = big_providers_csv(tmp_path)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        dialog = await open_import(pilot, big)
        gate = Gate(dialog, lambda p: p.stage == "checking" and p.rows_checked >= EVERY)
        await pilot.press("enter")
        await gate.wait(pilot)
        assert "Checking… 1 of 1 file read" in str(dialog.query_one("#report", Static).content)
        await pilot.click("#cancel")
        gate.release.set()
        await until_said(pilot, "Check cancelled; nothing was imported.")
        await settle(pilot)
        assert dialog.query_one("#confirm", Button).disabled  # not checked: nothing to import yet
        await pilot.click("#check")
        await settle(pilot)
        assert "Ctrl+S imports it." in str(dialog.query_one("#report", Static).content)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not isinstance(app.screen, ImportDialog)
        assert any(f"providers: {6 * EVERY:,} added" in m for m, _ in app.told)
    assert count_rows(demo_db_path, Provider) == 5 + 6 * EVERY


@pytest.mark.parametrize("open_it", ["fx_rates", "pick_scenario"])
async def test_the_new_and_edit_keys_are_in_the_dialogs_footer_at_80x24(demo_db_path: Path, open_it: str) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        getattr(app, f"action_{open_it}")()
        await settle(pilot)
        keys = {k.key: k.description for k in app.screen.query(FooterKey)}
        assert keys.get("n", "").startswith("New") and keys.get("e", "").startswith("Edit")
        assert "o" not in keys  # the dialog's keys, not the dashboard's underneath
