"""The TUI used carelessly and against other programs: a form on a row deleted elsewhere, a form at 80×24, an
old control character in a form field, an import whose file changed after its dry run, dates out of range."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from textual.widgets import Button, Input, Static

from quotetui.services import editing
from quotetui.services.database import open_database
from quotetui.tui.dialogs.form_screen import FormScreen
from quotetui.tui.dialogs.transfer import ImportDialog
from tests.conftest import dump
from tests.test_tui import RecordingApp, settle


async def test_a_form_on_a_row_deleted_elsewhere_says_so_and_the_app_goes_on(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.open_offer(5)
        await settle(pilot)
        other = open_database(str(demo_db_path))  # another window deletes the offer meanwhile
        editing.delete_offer(other.db, 5)
        other.db.dispose()
        await pilot.press("a")  # a new round on the offer that is gone
        await settle(pilot)
        assert not isinstance(app.screen, FormScreen)
        assert any("no offer with id 5" in m for m, _ in app.told)
        await pilot.press("escape", "o")
        await settle(pilot)
        assert app.is_running


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_long_form_keeps_its_buttons_in_view(demo_db_path: Path, size: tuple[int, int]) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        app.open_offer(1)
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        assert isinstance(app.screen, FormScreen)
        save = app.screen.query_one("#save", Button)
        assert save.region.height > 0 and save.region.bottom <= size[1], save.region
        notes = app.screen.query_one("#f-notes", Input)
        notes.focus()
        for _ in range(100):  # focusing scrolls the form (animated): give a loaded machine time
            await pilot.pause(0.02)
            if notes.region.height > 0 and notes.region.bottom <= size[1]:
                break
        assert notes.region.height > 0 and notes.region.bottom <= size[1]  # the last field scrolls into view


@pytest.mark.sqlite_only
async def test_an_old_control_character_is_a_mark_in_the_form_never_raw(demo_db_path: Path) -> None:
    with sqlite3.connect(demo_db_path) as con:
        con.execute("UPDATE offer SET notes = ? WHERE id = 1", ("esc\x1b[2J\x1b]0;HACKED\x07 end",))
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.open_offer(1)
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        value = app.screen.query_one("#f-notes", Input).value
        assert value == "esc␛[2J␛]0;HACKED␇ end"
        assert "\x1b" not in app.export_screenshot()


async def test_an_import_whose_file_changed_after_its_dry_run_is_checked_again(
    demo_db_path: Path, tmp_path: Path
) -> None:
    offers = tmp_path / "offers.csv"
    header = "provider,offer,gpu,gpus_per_node,billing,region\n"
    offers.write_text(f"{header}一万网络,8×H100 SXM5 整机,H100,8,monthly,checked\n", encoding="utf-8")
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+s")  # nothing yet: there is no dialog to confirm
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert isinstance(app.screen, ImportDialog)
        await pilot.press("ctrl+s")  # confirm before any check
        await pilot.pause()
        assert "Check the files first" in str(app.screen.query_one("#report", Static).content)
        app.screen.query_one("#paths", Input).value = str(offers)
        await pilot.press("enter")
        await settle(pilot)
        before = dump(demo_db_path)
        offers.write_text(offers.read_text(encoding="utf-8").replace("checked", "swapped"), encoding="utf-8")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, ImportDialog)  # not imported: checked again, the new content shown
        assert "'swapped'" in str(app.screen.query_one("#report", Static).content)
        assert dump(demo_db_path) == before
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not isinstance(app.screen, ImportDialog)
    assert "swapped" in dump(demo_db_path)


def test_a_date_time_outside_the_years_says_so() -> None:
    from quotetui.domain import entities as E
    from quotetui.domain.errors import BadInput
    from quotetui.domain.fields import parse_value

    for text in ("2200-01-01", "1899-12-31"):
        with pytest.raises(BadInput, match="outside the years 1900–2199"):
            parse_value(E.QUOTED_AT, text)
