"""The command palette and the keys: every command is listed once, on every screen; a dialog whose work ends
while the palette is open over it closes after the palette, never in its place; no screen takes an app-wide
key for something else (Ctrl+R reads everything again on the calculators too; Ctrl+L resets their inputs)."""

from __future__ import annotations

import threading
from collections import Counter
from pathlib import Path

import pytest
from textual.command import CommandList, CommandPalette
from textual.widgets import Input

from quotetui.services import editing, transfer
from quotetui.services.database import open_database
from quotetui.tui.dialogs.transfer import ExportDialog
from quotetui.tui.screens.key_reference import binding_groups
from quotetui.tui.screens.offer_detail import OfferDetailScreen
from tests.test_tui import RecordingApp, settle
from tests.test_tui_forms import calm


async def palette_hits(app: RecordingApp, pilot, query: str = "") -> list[str]:  # type: ignore[no-untyped-def]
    """The titles the palette lists for ``query`` (nothing typed: what it offers on opening)."""
    await pilot.press("ctrl+p")
    await settle(pilot)
    palette = app.screen
    assert isinstance(palette, CommandPalette)
    if query:
        await pilot.press(*query)
        await pilot.pause(0.3)  # the palette gathers hits a moment after typing
        await settle(pilot)
    found = palette.query_one(CommandList)
    titles = [str(found.get_option_at_index(i).prompt).split("\n")[0] for i in range(found.option_count)]
    await pilot.press("escape")
    await settle(pilot)
    if app.screen is palette:  # the first Esc only closed the list of hits
        await pilot.press("escape")
        await settle(pilot)
    return titles


def same(title: str) -> str:
    """What makes two entries one command to a reader: "Switch scenario" and "Switch scenario…" are one."""
    return " ".join(title.removesuffix("…").casefold().split())


async def open_screen(app: RecordingApp, pilot, where: str) -> None:  # type: ignore[no-untyped-def]
    if where == "offer detail":
        app.open_offer(2)
    elif where == "form":
        app.action_new_provider()
    else:
        await pilot.press(where)
    await settle(pilot)


@pytest.mark.parametrize("where", ["d", "o", "c", "r", "b", "t", "offer detail", "form"])
async def test_every_palette_command_is_listed_once(demo_db_path: Path, where: str) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await open_screen(app, pilot, where)
        screen = app.screen
        for query in ("", "sc", "e", "go to"):
            titles = await palette_hits(app, pilot, query)
            assert app.screen is screen
            twice = [t for t, n in Counter(map(same, titles)).items() if n > 1]
            assert titles and not twice, (query, titles)
            if query in ("", "sc"):
                assert [t for t in titles if same(t) == "switch scenario"] == ["Switch scenario"]
        hits = await palette_hits(app, pilot, "go to offer")
        assert any(t.startswith("Go to offer #2 ") for t in hits)  # our provider still finds the offers


async def test_a_dialog_whose_work_ends_under_the_palette_closes_after_it(
    demo_db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The export finishes while the palette is open over its dialog: the palette stays; closing it closes
    the dialog, which says what it wrote. (The dialog used to close the palette in its place, and closing the
    dialog afterwards crashed the app.)"""
    gate = threading.Event()
    real = transfer.export_file

    def slow(*args: object, **kwargs: object) -> Path:
        gate.wait(10)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(transfer, "export_file", slow)
    out = tmp_path / "board.xlsx"
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+e")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ExportDialog)
        dialog.query_one("#path", Input).value = str(out)
        await pilot.press("enter")
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        gate.set()
        await settle(pilot)
        assert out.exists()
        assert isinstance(app.screen, CommandPalette)  # still open: the user is using it
        await pilot.press("escape")
        await settle(pilot)
        if isinstance(app.screen, CommandPalette):
            await pilot.press("escape")
            await settle(pilot)
        assert app.screen is not dialog and len(app.screen_stack) == 1
        assert (f"Wrote {out}", "information") in app.told
        await pilot.press("o")  # the app goes on
        await settle(pilot)
        assert app.is_running and app.return_code is None


async def test_a_command_clicked_while_the_screen_beneath_closes(demo_db_path: Path) -> None:
    """The offer under the palette is deleted by another program meanwhile: clicking a command still runs it,
    and the offer's screen closes once it would be on top again (it has nothing left to show)."""
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.open_offer(5)
        await settle(pilot)
        await pilot.press("ctrl+p")
        await settle(pilot)
        other = open_database(str(demo_db_path))
        editing.delete_offer(other.db, 5)
        other.db.dispose()
        app.reload()  # as the poll does when another program wrote
        await settle(pilot)
        assert ("no offer with id 5", "error") in app.told
        palette = app.screen
        assert isinstance(palette, CommandPalette)
        await pilot.press(*"Contracts")
        await pilot.pause(0.3)
        await settle(pilot)
        found = palette.query_one(CommandList)
        assert str(found.get_option_at_index(0).prompt).split("\n")[0] == "Contracts"
        await pilot.click(CommandList, offset=(2, 1))  # the first hit
        await settle(pilot)
        assert app.current_mode == "contracts" and app.is_running
        await pilot.press("d")
        await settle(pilot)
        assert not any(isinstance(s, OfferDetailScreen) for s in app.screen_stack)
        assert app.return_code is None


def test_no_screen_takes_an_app_wide_key_for_something_else() -> None:
    groups = binding_groups()
    everywhere = {key for b in groups[0][1] for key in b.key.split(",")}
    for name, bindings in groups[1:]:
        taken = {key for b in bindings for key in b.key.split(",")} & everywhere
        assert not taken, (name, taken)


@pytest.mark.parametrize(("mode", "field", "start"), [("b", "#rb-rent_monthly", "180000"), ("t", "#tr-gpus", "8")])
async def test_ctrl_r_reads_again_on_the_calculators_and_ctrl_l_resets_them(
    demo_db_path: Path, mode: str, field: str, start: str
) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press(mode)
        await calm(pilot)
        box = app.screen.query_one(field, Input)
        assert box.value == start
        box.focus()
        box.value = "77"
        await calm(pilot)
        read = app.market
        await pilot.press("ctrl+r")  # from inside the field
        await calm(pilot)
        assert app.market is not read  # read again
        assert box.value == "77"  # and what was typed stays
        await pilot.press("ctrl+l")
        await calm(pilot)
        assert box.value == start
