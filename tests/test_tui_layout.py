"""Layouts at 80x24, 120x40 and 200x60: what must stay in view when the terminal is small (the pictures are in
test_snapshots.py; these say in words what they must show)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from rich.cells import cell_len
from textual.widgets import DataTable, Label, Static
from textual.widgets._footer import FooterKey
from textual.widgets._header import HeaderTitle

from quotetui.tui.screens.compare import page_hint, page_size
from quotetui.tui.titles import fit_sub_title
from quotetui.tui.widgets.footer import KeysFooter
from tests.test_tui import RecordingApp, plain, settle

SCENARIO = "8×H100 一年训练"


async def _pin_four(app: RecordingApp, pilot) -> list[int]:  # type: ignore[no-untyped-def]
    await settle(pilot)
    assert app.market is not None
    ids = [r.offer.id for r in app.market.evaluations[:4]]
    app.pinned = tuple(ids)
    await pilot.press("c")
    await settle(pilot)
    return ids


def _shown(app: RecordingApp) -> list[int]:
    table = app.screen.query_one("#compare", DataTable)
    return [int(str(c.key.value)) for c in table.ordered_columns[1:]]


def _hint(app: RecordingApp) -> str:
    label = app.screen.query_one("#compare-page", Label)
    return str(label.content) if label.display else ""


async def test_compare_pages_four_pins_at_80_columns(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(80, 24)) as pilot:
        ids = await _pin_four(app, pilot)
        assert _shown(app) == ids[:2]
        assert _hint(app).startswith("offers 1–2 of 4 →")
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert _shown(app) == ids[2:]
        assert _hint(app).startswith("← offers 3–4 of 4")
        assert "→" not in _hint(app).split("(")[0]
        await pilot.press("right_square_bracket")  # the last page: nothing further
        await pilot.pause()
        assert _shown(app) == ids[2:]
        await pilot.press("left")  # ← works as [ does
        await pilot.pause()
        assert _shown(app) == ids[:2]
        await pilot.press("right")
        await pilot.pause()
        assert _shown(app) == ids[2:]


async def test_compare_shows_every_pin_where_they_fit(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(200, 60)) as pilot:
        ids = await _pin_four(app, pilot)
        assert _shown(app) == ids
        assert _hint(app) == ""
        footer_keys = [k.description for k in app.screen.query_one(KeysFooter).query(FooterKey)]
        assert "Next" not in footer_keys  # nothing to page to: no paging keys
        await pilot.resize_terminal(100, 40)
        await settle(pilot)
        assert _shown(app) == ids[:3]
        assert _hint(app).startswith("offers 1–3 of 4 →")
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert _shown(app) == ids[3:]
        assert _hint(app).startswith("← offer 4 of 4")


def test_page_size_and_hint() -> None:
    assert page_size(80, 4)[0] == 2
    assert page_size(100, 4)[0] == 3
    assert page_size(120, 4)[0] == 4
    assert page_size(200, 4)[0] == 4
    assert page_size(40, 4)[0] == 1  # at least one, however narrow
    assert page_size(200, 2) == (2, 40)  # two pins on a wide screen: columns no wider than their text needs
    assert page_hint(0, 2, 4) == "offers 1–2 of 4 →  (] next, [ previous)"
    assert page_hint(2, 2, 4) == "← offers 3–4 of 4  (] next, [ previous)"
    assert page_hint(0, 4, 4) == "offers 1–4 of 4"


async def test_training_planner_keeps_the_offer_column_at_80_columns(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        result = app.screen.query_one("#tr-result", Static)
        headers = [str(c.header) for c in result.content.columns]  # type: ignore[attr-defined]
        assert headers[0] == "offer" and "cost" in headers and "days" in headers
        shown = plain(result.content, width=result.content_region.width)
        assert "#18 腾讯云" in shown  # the cheapest offer, named in its row
        assert all(cell_len(line) <= result.content_region.width for line in shown.splitlines())
        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        await pilot.pause()
        headers = [str(c.header) for c in result.content.columns]  # type: ignore[attr-defined]
        assert headers == ["offer", "days", "MFU", "scaling", "cost", "billed"]  # room for every figure
        await pilot.resize_terminal(200, 60)
        await settle(pilot)
        await pilot.pause()
        headers = [str(c.header) for c in result.content.columns]  # type: ignore[attr-defined]
        assert headers == ["offer", "days", "MFU", "MFU source", "scaling", "cost", "billed"]  # and its source
        first = plain(result.content, width=result.content_region.width).splitlines()[2].split()
        # issue 35: the MFU read "40.0 d" (d: default, said nowhere on the screen): a share, its source in words
        assert first[first.index("1,148.3") + 1 :][:4] == ["40.0", "%", "default", "1.00"]


@pytest.mark.sqlite_only  # the header shows the SQLite file's path
async def test_title_keeps_the_scenario_at_80_columns(demo_db_path: Path, tmp_path: Path) -> None:
    deep = tmp_path / "a-rather-long-folder-name" / "for-the-quotes-of" / "the-gpu-purchase-2026"
    deep.mkdir(parents=True)
    db = deep / "quotes-round-two.db"
    shutil.copy(demo_db_path, db)
    app = RecordingApp(str(db))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        title = app.screen.query_one(HeaderTitle)
        shown = str(title.content)
        assert shown.endswith(f"…/quotes-round-two.db · scenario: {SCENARIO}"), shown
        assert cell_len(shown) <= title.content_region.width
        await pilot.resize_terminal(200, 60)
        await pilot.pause()
        wide = str(title.content)  # room for more of the path (pytest's own folders are long)
        assert wide.endswith(f"/for-the-quotes-of/the-gpu-purchase-2026/quotes-round-two.db · scenario: {SCENARIO}")
        assert cell_len(wide) <= title.content_region.width
        await pilot.resize_terminal(60, 24)
        await pilot.pause()
        assert str(title.content).endswith(SCENARIO)
        assert cell_len(str(title.content)) <= title.content_region.width


def test_fit_sub_title_shortens_the_path_first() -> None:
    path = "/home/buyer/quotes/2026/round-two.db"
    full = f"{path} · scenario: 8×H100"
    assert fit_sub_title(path, "8×H100", 100) == full
    assert fit_sub_title(path, "8×H100", cell_len(full) - 1) == "…/buyer/quotes/2026/round-two.db · scenario: 8×H100"
    assert fit_sub_title(path, "8×H100", 35) == "…/round-two.db · scenario: 8×H100"
    assert fit_sub_title(path, "8×H100", 32) == "round-two.db · scenario: 8×H100"
    assert fit_sub_title(path, "8×H100", 22) == "round-two.db · 8×H100"
    short = fit_sub_title(path, "8×H100", 16)
    assert short.endswith(" · 8×H100") and "…" in short and cell_len(short) <= 16
    assert fit_sub_title(path, "8×H100", 8) == "8×H100"
    assert fit_sub_title(r"C:\Users\buyer\quotes.db", "s", 25) == "…\\quotes.db · scenario: s"
    assert fit_sub_title("postgresql://buyer@db.example/quotes", "s", 25) == "…/quotes · scenario: s"


SCREENS = ["d", "o", "c", "r", "b", "t", "f"]


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_footers_show_whole_keys_and_help(demo_db_path: Path, size: tuple[int, int]) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        for key in SCREENS:
            await pilot.press(key)
            await settle(pilot)
            footer = app.screen.query_one(KeysFooter)
            keys = list(footer.query(FooterKey))
            assert "Help" in [k.description for k in keys], key
            assert all(k.region.right <= footer.region.right for k in keys), key  # none cut at the edge


async def test_footer_shows_the_focused_widgets_keys_first(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        keys = [k.description for k in app.screen.query_one(KeysFooter).query(FooterKey)]
        assert keys[:3] == ["Open", "Filter", "Pin"]  # the table's, then the offers screen's
        await pilot.press("enter")
        await settle(pilot)
        for tab, wanted, unwanted in (("2", "Discount", "Our counter"), ("3", "Our counter", "Discount"),
                                      ("4", "SLA", "Discount"), ("6", "Sign contract", "SLA")):  # fmt: skip
            await pilot.press(tab)
            await settle(pilot)
            keys = [k.description for k in app.screen.query_one(KeysFooter).query(FooterKey)]
            assert wanted in keys and unwanted not in keys and "Help" in keys and keys[0] == "Back", keys


async def test_dialogs_show_their_own_keys(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("s")
        await settle(pilot)
        keys = [k.description for k in app.screen.query_one(KeysFooter).query(FooterKey)]
        assert "Cancel" in keys and "Dashboard" not in keys  # the picker's, not the dashboard's underneath
        options = str(app.screen.query_one("#scenarios").get_option_at_index(0).prompt)
        assert "at 100 %" in options and "100.0000" not in options
        await pilot.press("escape", "f1")
        await settle(pilot)
        keys = [k.description for k in app.screen.query_one(KeysFooter).query(FooterKey)]
        assert keys == ["Close"]


async def test_compare_never_cuts_a_price_in_the_middle(demo_db_path: Path) -> None:
    """#2's range 80,000.00–120,000.00 CNY/node-mo read '80,000.00–120,000.0' / '0 CNY/node-mo' at 120 columns:
    the amount stays on one line, its currency and unit on the next."""
    from textual.widgets import DataTable

    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.toggle_pin(2)
        await pilot.press("c")
        await settle(pilot)
        table = app.screen.query_one(DataTable)
        rows = [table.get_row_at(i) for i in range(table.row_count)]
        (price,) = [row for row in rows if str(row[0]) == "Quoted price"]
        assert str(price[1]).split("\n") == ["80,000.00–120,000.00", "CNY/node-mo"]


async def test_the_last_offer_can_be_reached_at_80_columns(demo_db_path: Path) -> None:
    """At 80x24 the offers table scrolls sideways; its scrollbar hid the row the cursor was on after End."""
    from quotetui.tui.widgets.virtual_table import VirtualTable

    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        table = app.screen.query_one(VirtualTable)
        table.focus()
        await pilot.press("end")
        await pilot.pause()
        assert table.cursor == len(table.view_rows) - 1
        rows_in_view = table.scrollable_content_region.height - 1  # below the header
        assert round(table.scroll_y) <= table.cursor < round(table.scroll_y) + rows_in_view
        assert table.show_horizontal_scrollbar  # the case that hid it
