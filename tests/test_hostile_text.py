"""Text is data: names with Rich/Textual markup, ``@click`` actions and terminal control characters are shown
exactly as typed in every TUI screen and every CLI output, never run, never a crash; imports refuse hidden and
duplicate sheets."""

from __future__ import annotations

import html
import json
import re
import sqlite3
from pathlib import Path

import pytest
from openpyxl import Workbook

from tests.conftest import Cli, dump
from tests.test_tui import RecordingApp, settle

CLICK = "CoreWeave [beta] [@click=app.screenshot('{path}')]x[/]"
OFFER = "[b]H100 box[/b]"
NOTE = "[link=https://example.com]y[/link] [red]"


@pytest.fixture
def hostile(cli: Cli, demo_db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """The demo market plus providers and an offer whose names are markup; and where a click would write (a
    path relative to the test's folder: an absolute one can make the name longer than names may be)."""
    monkeypatch.chdir(tmp_path)
    trap = tmp_path / "pwned.svg"
    click = CLICK.format(path=trap.name)
    files = {
        "providers.csv": f'name,kind\nEvil[/]Co,lessor\n"{click}",gpu_cloud\n',
        "offers.csv": "provider,offer,gpu,gpus_per_node,billing,notes\n"
        f'Evil[/]Co,{OFFER},H100,8,monthly,"{NOTE}"\n"{click}",8x H100 [beta],H100,8,monthly,\n',
        "negotiation.csv": "provider,offer,round,mover,quoted_at,price,unit,currency,term_months,note\n"
        f"Evil[/]Co,{OFFER},1,provider,2026-11-01,90000,node_month,CNY,1,[/]\n"
        f'"{click}",8x H100 [beta],1,provider,2026-11-01,95000,node_month,CNY,1,\n',
    }
    paths = []
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        paths.append(str(tmp_path / name))
    result = cli("--db", str(demo_db_path), "import", *paths)
    assert result.code == 0, result.err
    if "://" not in str(demo_db_path):  # a name written by an older version, control characters and all
        with sqlite3.connect(demo_db_path) as con:
            con.execute("UPDATE provider SET parent = ? WHERE name = 'Evil[/]Co'", ("Old\x1b]52;c;ZXZpbA==\x07Co",))
    return demo_db_path, trap


def screen_text(app: RecordingApp) -> str:
    svg = app.export_screenshot()
    return html.unescape(re.sub(r"<[^>]+>", "", svg)).replace("\xa0", " ")


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)])
async def test_every_screen_shows_markup_names_as_typed_and_runs_no_action(
    hostile: tuple[Path, Path], size: tuple[int, int]
) -> None:
    db, trap = hostile
    app = RecordingApp(str(db))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        await pilot.press("slash", *"evil", "enter")
        await settle(pilot)
        seen = screen_text(app)
        assert "Evil[/]Co" in seen or "Evil[/]…" in seen
        await pilot.press("space", "escape")  # pin it
        await pilot.press("slash", *"coreweave", "enter", "space")
        await settle(pilot)
        await pilot.click("#offers", offset=(10, 1))  # where the @click text is drawn
        await pilot.press("c")
        await settle(pilot)
        compare = screen_text(app)
        assert "#23 CoreWeave [beta]" in compare or "CoreWeave [b" in compare
        await pilot.press("o", "enter")
        await settle(pilot)
        for tab in "123456":
            await pilot.press(tab)
            await settle(pilot)
            shown = screen_text(app)
            if tab == "1":
                assert "CoreWeave [beta] [@click=app.screenshot(" in shown.replace("\n", "") or size[0] < 120
        await pilot.press("e")  # the edit form: a Select of provider names
        await settle(pilot)
        assert "[@click" in screen_text(app) or size[0] < 200
        await pilot.press("escape", "escape", "d")
        await settle(pilot)
        await pilot.press("s")
        await settle(pilot)
        await pilot.press("escape", "r")
        await settle(pilot)
    assert not trap.exists()  # the @click action never ran
    assert not [m for m, severity in app.told if severity == "error"], app.told


async def test_an_old_control_character_is_shown_as_a_mark_not_sent_to_the_terminal(
    hostile: tuple[Path, Path],
) -> None:
    db, _ = hostile
    if "://" in str(db):
        pytest.skip("the old value is written with SQLite")
    app = RecordingApp(str(db))
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(pilot)
        await pilot.press("o", "slash", *"evil", "enter", "enter", "1")
        await settle(pilot)
        shown, svg = screen_text(app), app.export_screenshot()
    assert "Old␛]52;c;ZXZpbA==␇Co" in shown and "\x1b" not in svg and "\x07" not in svg


def test_the_cli_shows_markup_names_as_typed_and_control_characters_as_marks(
    cli: Cli, hostile: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    db, _ = hostile
    monkeypatch.setenv("COLUMNS", "400")  # a wide terminal: no cell is cut
    for args in (("offers",), ("providers",), ("explain", "21"), ("claims",), ("contracts",), ("scenario", "list")):
        result = cli("--db", str(db), *args)
        assert result.code == 0, (args, result.err)
        assert "\x1b" not in result.out + result.err and "\x07" not in result.out
    assert "Evil[/]Co" in cli("--db", str(db), "providers").out
    assert "[b]H100 box[/b]" in cli("--db", str(db), "explain", "21").out
    if "://" not in str(db):
        assert "Old␛]52;c;ZXZpbA==␇Co" in cli("--db", str(db), "providers").out
        data = cli("--db", str(db), "providers", "--json").out
        assert "\\u001b]52" in data and json.loads(data)[5]["parent"] == "Old\x1b]52;c;ZXZpbA==\x07Co"


def test_control_characters_from_flags_are_refused_and_nothing_is_stored(cli: Cli, demo_db_path: Path) -> None:
    before = dump(demo_db_path)
    for args in (
        ("scenario", "add", "evil\x1b[2J", "--gpus", "8", "--months", "1"),
        ("scenario", "add", "x", "--gpus", "8", "--months", "1", "--description", "bell\x07"),
        ("fx", "add", "USD", "CNY", "7.1", "--date", "2026-11-01", "--source", "osc\x1b]52;c;eA==\x07"),
        ("contracts", "add", "--offer", "2", "--start", "2026-01-01", "--term-months", "1", "--reference", "a\u202eb"),
    ):
        result = cli("--db", str(demo_db_path), *args)
        assert result.code == 2, (args, result.out)
        assert "control" in result.err or "bidirectional" in result.err, result.err
        assert "\x1b" not in result.err and "\x07" not in result.err
    assert dump(demo_db_path) == before


def test_an_error_quoting_a_hostile_file_name_prints_it_visibly(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    name = tmp_path / "evil\x1b]52;c;ZXZpbA==\x07.csv"
    name.write_text("what,is,this\n1,2,3\n", encoding="utf-8")
    result = cli("--db", str(demo_db_path), "import", str(name))
    assert result.code == 2 and "evil␛]52;c;ZXZpbA==␇.csv" in result.err and "\x1b" not in result.err


# -- sheets that are not what they look like ---------------------------------------------------------------
def _book(path: Path, sheets: list[tuple[str, str]]) -> Path:
    book = Workbook()
    book.remove(book.active)
    for title, state in sheets:
        sheet = book.create_sheet(title)
        sheet.append(["name", "kind"])
        sheet.append([f"From {title}", "lessor"])
        sheet.sheet_state = state
    book.save(path)
    return path


@pytest.mark.parametrize("state", ["hidden", "veryHidden"])
def test_a_hidden_sheet_is_refused_by_name(cli: Cli, demo_db_path: Path, tmp_path: Path, state: str) -> None:
    before = dump(demo_db_path)
    path = _book(tmp_path / "book.xlsx", [("Providers", "visible"), ("Providers (old)", state)])
    result = cli("--db", str(demo_db_path), "import", str(path), "--json")
    assert result.code == 2
    [problem] = json.loads(result.out)["problems"]
    assert problem["sheet"] == "Providers (old)"
    assert f"the sheet is {'very hidden' if state == 'veryHidden' else 'hidden'}" in problem["reason"]
    assert dump(demo_db_path) == before


def test_two_sheets_of_one_name_are_refused(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    import zipfile

    made = _book(tmp_path / "made.xlsx", [("Providers", "visible"), ("Other", "visible")])
    crafted = tmp_path / "crafted.xlsx"
    with zipfile.ZipFile(made) as source, zipfile.ZipFile(crafted, "w") as out:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "xl/workbook.xml":
                data = data.replace(b'name="Other"', b'name="providers"')
            out.writestr(item, data)
    before = dump(demo_db_path)
    result = cli("--db", str(demo_db_path), "import", str(crafted), "--json")
    assert result.code == 2
    [problem] = json.loads(result.out)["problems"]
    assert problem["sheet"] == "providers" and "two sheets are named 'Providers'" in problem["reason"]
    assert dump(demo_db_path) == before
