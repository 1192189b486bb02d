"""The preferences file (theme, keymap, default database): each setting has its effect, the order --db >
$QUOTETUI_DB > config > built-in default holds, and a hostile file gives a message naming the file, the line
and the setting, and changes nothing."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from textual.widgets import Footer, Label
from textual.widgets._footer import FooterKey

from quotetui.io.preferences import MAX_BYTES, example, load
from quotetui.store.engine import choose_database
from quotetui.tui.app import QuotetuiApp
from tests.conftest import Cli


def config_file(home: Path, content: str | bytes) -> Path:
    path = home / ".config" / "quotetui" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def built_in(home: Path) -> Path:
    return home / ".local" / "share" / "quotetui" / "quotetui.db"


class RecordingApp(QuotetuiApp):
    def __init__(self, db: str | None) -> None:
        super().__init__(db)
        self.told: list[tuple[str, str]] = []

    def notify(self, message: str, *, severity: str = "information", **kwargs) -> None:  # type: ignore[override]
        self.told.append((message, severity))
        super().notify(message, severity=severity, **kwargs)  # type: ignore[arg-type]


def plain(content: object) -> str:
    from rich.console import Console

    if isinstance(content, str):
        return content
    console = Console(width=120, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(content)
    return console.export_text()


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    for _ in range(3):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()


# -- each setting has its effect --------------------------------------------------------------------------------


async def test_a_keymap_moves_a_binding_and_the_old_key_no_longer_does_it(
    isolated_user_dirs: Path, demo_db_path: Path
) -> None:
    config_file(isolated_user_dirs, '[keymap]\noffers = "f2"\nhelp = "f3"\npin = "p"\n')
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.current_mode == "dashboard"
        await pilot.press("o")
        await settle(pilot)
        assert app.current_mode == "dashboard"  # "o" no longer opens the offers
        footer_keys = {k.key: k.description for k in app.screen.query_one(Footer).query(FooterKey)}
        assert footer_keys.get("f2") == "Offers" and "o" not in footer_keys
        await pilot.press("f2")
        await settle(pilot)
        assert app.current_mode == "offers"
        status = str(app.screen.query_one("#offers-status", Label).render())
        assert "pinned: none (p pins, c compares)" in status  # the hints name the moved keys too
        await pilot.press("p")
        await settle(pilot)
        assert len(app.pinned) == 1
        await pilot.press("f3")  # the help lists the keys as moved
        await settle(pilot)
        from quotetui.tui.screens.help import HelpScreen

        assert isinstance(app.screen, HelpScreen)
        shown = "\n".join(plain(s.content) for s in app.screen.query("Static"))
        assert re.search(r"^f2 +Offers", shown, re.M) and re.search(r"^f3 +Help", shown, re.M)
        assert not re.search(r"^o +Offers", shown, re.M)
    assert not [m for m, severity in app.told if severity != "information"]


async def test_the_theme_is_applied_at_start_and_ctrl_t_toggles_from_it_and_back(
    isolated_user_dirs: Path, demo_db_path: Path
) -> None:
    config_file(isolated_user_dirs, 'theme = "nord"\n')
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.theme == "nord"
        await pilot.press("ctrl+t")
        assert app.theme == "textual-light"
        await pilot.press("ctrl+t")
        assert app.theme == "nord"


def test_ctrl_t_without_a_theme_is_dark_and_light_as_before() -> None:
    from quotetui.tui.preferences import toggled_theme

    assert toggled_theme("textual-dark", None) == "textual-light"
    assert toggled_theme("textual-light", None) == "textual-dark"
    assert toggled_theme("solarized-light", "solarized-light") == "textual-dark"  # a light theme's other side
    assert toggled_theme("textual-dark", "solarized-light") == "solarized-light"


@pytest.mark.sqlite_only
def test_offers_without_db_reads_the_config_database_relative_to_the_config_folder(
    isolated_user_dirs: Path, demo_db_path: Path, cli: Cli
) -> None:
    path = config_file(isolated_user_dirs, "database = 'quotes/work.db'\n")
    (path.parent / "quotes").mkdir()
    demo_db_path.rename(path.parent / "quotes" / "work.db")
    result = cli("offers", "--json")
    assert result.code == 0, result.err
    assert len(json.loads(result.out)) >= 15
    assert not built_in(isolated_user_dirs).exists()  # the built-in default was not opened (nor created)


@pytest.mark.sqlite_only
async def test_the_tui_opens_the_config_database(isolated_user_dirs: Path, demo_db_path: Path) -> None:
    config_file(isolated_user_dirs, f"database = '{demo_db_path}'\n")
    app = RecordingApp(None)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.database is not None and app.database.target.path == demo_db_path
        assert app.sub_title.startswith(str(demo_db_path))
    assert not built_in(isolated_user_dirs).exists()


@pytest.mark.sqlite_only
def test_a_home_relative_database_is_expanded(isolated_user_dirs: Path, demo_db_path: Path, cli: Cli) -> None:
    demo_db_path.rename(isolated_user_dirs / "mine.db")
    config_file(isolated_user_dirs, 'database = "~/mine.db"\n')
    shown = json.loads(cli("config", "--json").out)["database"]
    assert shown["value"] == str(isolated_user_dirs / "mine.db") and shown["from"] == "config file, line 1"
    assert cli("offers").code == 0


# -- precedence ---------------------------------------------------------------------------------------------------


def test_precedence_db_then_env_then_config_then_built_in() -> None:
    calls: list[int] = []

    def config() -> str:
        calls.append(1)
        return "/c.db"

    assert choose_database("/flag.db", {"QUOTETUI_DB": "/env.db"}, config) == ("/flag.db", "--db")
    assert choose_database(None, {"QUOTETUI_DB": "/env.db"}, config) == ("/env.db", "$QUOTETUI_DB")
    assert not calls  # the config file is not even read when --db or $QUOTETUI_DB decides
    assert choose_database(None, {}, config) == ("/c.db", "config file")
    assert choose_database(None, {}, lambda: None) == (None, "built-in default")


@pytest.mark.sqlite_only
def test_precedence_as_quotetui_config_reports_it(
    isolated_user_dirs: Path, tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    config_file(isolated_user_dirs, f"database = '{tmp_path / 'config.db'}'\n")

    def shown(*args: str) -> dict[str, str]:
        return json.loads(cli(*args, "config", "--json").out)["database"]

    assert shown() == {"value": str(tmp_path / "config.db"), "from": "config file, line 1"}
    monkeypatch.setenv("QUOTETUI_DB", str(tmp_path / "env.db"))
    assert shown() == {"value": str(tmp_path / "env.db"), "from": "$QUOTETUI_DB"}
    assert shown("--db", str(tmp_path / "flag.db")) == {"value": str(tmp_path / "flag.db"), "from": "--db"}
    monkeypatch.delenv("QUOTETUI_DB")
    (isolated_user_dirs / ".config" / "quotetui" / "config.toml").unlink()
    assert shown() == {"value": str(built_in(isolated_user_dirs)), "from": "built-in default"}


def test_quotetui_config_env_names_the_file(tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "elsewhere.toml"
    other.write_text('theme = "gruvbox"\n', encoding="utf-8")
    monkeypatch.setenv("QUOTETUI_CONFIG", str(other))
    data = json.loads(cli("config", "--json").out)
    assert data["path"] == str(other) and data["located_by"] == "$QUOTETUI_CONFIG"
    assert data["theme"] == {"value": "gruvbox", "from": "config file, line 1"}
    missing = tmp_path / "typo.toml"
    monkeypatch.setenv("QUOTETUI_CONFIG", str(missing))
    result = cli("offers")  # a file named on purpose that is not there is a typo, not "no preferences"
    assert result.code == 2 and f"{missing}: does not exist ($QUOTETUI_CONFIG names it)" in result.err


# -- config --init ------------------------------------------------------------------------------------------------


def test_init_writes_a_commented_example_and_refuses_to_overwrite(isolated_user_dirs: Path, cli: Cli) -> None:
    result = cli("config", "--init")
    path = isolated_user_dirs / ".config" / "quotetui" / "config.toml"
    assert result.code == 0 and str(path) in result.out
    assert path.read_text(encoding="utf-8") == example()
    assert load().problems == [] and load().exists  # the example is a valid file that changes nothing
    from textual.theme import BUILTIN_THEMES

    named = re.search(r"Textual's themes: (.*), …", example())
    assert named and set(named.group(1).split(", ")) <= set(BUILTIN_THEMES)
    path.write_text('theme = "nord"\n', encoding="utf-8")
    again = cli("config", "--init")
    assert again.code == 2 and "already exists" in again.err and "--force" in again.err
    assert path.read_text(encoding="utf-8") == 'theme = "nord"\n'
    assert cli("config", "--init", "--force").code == 0
    assert path.read_text(encoding="utf-8") == example()
    assert [p.name for p in path.parent.iterdir()] == ["config.toml"]  # no temporary file left


def test_init_in_chinese_writes_chinese_comments_around_the_same_settings(isolated_user_dirs: Path, cli: Cli) -> None:
    result = cli("--lang", "zh-CN", "config", "--init")
    path = isolated_user_dirs / ".config" / "quotetui" / "config.toml"
    assert result.code == 0, result.err
    written = path.read_text(encoding="utf-8")
    assert written.startswith("# quotetui 偏好设置。每项设置都可省略；删除某一行即恢复默认值。\n")
    assert "# 金额的写法：" in written and "quotetui preferences" not in written and "The TUI's" not in written
    comments = [line for line in written.splitlines() if line.startswith("# ") and " = " not in line]
    assert comments and not any("the " in line.lower() for line in comments)  # no English prose left
    settings = [line for line in written.splitlines() if not line.startswith("# ") or " = " in line]
    assert settings == [line for line in example().splitlines() if not line.startswith("# ") or " = " in line]
    assert load().problems == []  # still valid TOML, its keys English


@pytest.mark.parametrize(
    ("content", "english", "chinese"),
    [
        ('theme = "nord"\nlanguage = zh\n', 'line 2: not valid TOML at column 12 (the reader says "Invalid value")',
         "第 2 行：第 12 列不符合 TOML 语法（解析器提示：“Invalid value”）"),
        ('theme = "nord', 'not valid TOML at the end of the file (the reader says "Unterminated string")',
         "文件末尾不符合 TOML 语法（解析器提示：“Unterminated string”）"),
    ],
)  # fmt: skip
def test_a_toml_error_is_said_in_our_words_with_the_readers_detail_quoted(
    isolated_user_dirs: Path, cli: Cli, content: str, english: str, chinese: str
) -> None:
    path = config_file(isolated_user_dirs, content)
    assert f"config file {path}" in cli("config").err and english in cli("config").err
    said = cli("--lang", "zh-CN", "config").err
    assert f"配置文件 {path}" in said and chinese in said and "(at " not in said


def test_keys_lists_every_binding_id_with_its_key(isolated_user_dirs: Path, cli: Cli) -> None:
    config_file(isolated_user_dirs, '[keymap]\noffers = "f2"\n')
    out = cli("config", "--keys").out
    assert "keymap.offers" in out and "f2 (instead of o)" in out
    rows = {line.split()[0]: line.split()[1] for line in out.splitlines() if line[:1].islower() and "  " in line}
    assert rows["offers"] == "f2" and rows["scenario"] == "s" and rows["edit-offer"] == "e"


# -- hostile files: a message naming the file (and line, and setting), and nothing changed -------------------------


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('theme = "nord"\ndatabase = "x.db\n', ["line 2", "not valid TOML", "column"]),
        (b'# caf\xe9\ntheme = "nord"\n', ["line 1 is not UTF-8", "0xE9"]),
        ("databse = 'work.db'\n", ["line 1", "databse", "unknown setting", "did you mean 'database'"]),
        ("theme = 'nrod'\nline = 3\n", ["line 2: line: unknown setting 'line'"]),
        ("database = 3\n", ["line 1", "database", "should be a string in quotes, not a number"]),
        ('database = "work\\u001b[2J.db"\n', ["line 1", "database", "control character"]),
        ("database = ''\n", ["line 1", "database", "is empty"]),
        ("x" * (MAX_BYTES + 1), ["over the 65,536-byte limit"]),
    ],
    ids=["toml-syntax", "not-utf8", "unknown-key", "unknown-key-line", "wrong-type", "control-chars", "empty", "huge"],
)
def test_a_config_that_may_name_another_database_stops_the_cli(
    isolated_user_dirs: Path, cli: Cli, content: str | bytes, expected: list[str]
) -> None:
    path = config_file(isolated_user_dirs, content)
    before = path.read_bytes()
    result = cli("offers")
    assert result.code == 2
    assert result.err.startswith(f"quotetui: config file {path}") and "Traceback" not in result.err
    for part in expected:
        assert part in result.err
    assert "nrod" not in result.err  # only what made the command stop (the theme is the TUI's problem)
    assert "\x1b" not in result.err
    assert not built_in(isolated_user_dirs).exists()  # the built-in database was not opened in its place
    assert path.read_bytes() == before
    assert cli("config").code == 2  # `quotetui config` reports it too


@pytest.mark.sqlite_only
@pytest.mark.parametrize("kind", ["folder", "link-loop", "dangling-link"])
def test_a_config_path_that_is_not_a_file_stops_the_cli(isolated_user_dirs: Path, cli: Cli, kind: str) -> None:
    path = isolated_user_dirs / ".config" / "quotetui" / "config.toml"
    path.parent.mkdir(parents=True)
    if kind == "folder":
        path.mkdir()
    elif kind == "link-loop":
        other = path.with_name("other.toml")
        path.symlink_to(other)
        other.symlink_to(path)
    else:
        path.symlink_to(path.with_name("gone.toml"))
    result = cli("offers")
    assert result.code == 2 and result.err.startswith(f"quotetui: config file {path}: ")
    reason = {"folder": "is a folder", "link-loop": "symbolic links", "dangling-link": "is a link to nothing"}
    assert reason[kind] in result.err
    assert not built_in(isolated_user_dirs).exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_config_is_named(isolated_user_dirs: Path, cli: Cli) -> None:
    path = config_file(isolated_user_dirs, 'theme = "nord"\n')
    path.chmod(0)
    result = cli("offers")
    assert result.code == 2 and str(path) in result.err and "permission" in result.err


def test_given_a_database_the_config_is_not_read(isolated_user_dirs: Path, demo_db_path: Path, cli: Cli) -> None:
    config_file(isolated_user_dirs, "this is not TOML\n")
    assert cli("--db", str(demo_db_path), "offers").code == 0


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('theme = "[bold red]nord\\u0007"\n', "theme: the value contains a control character"),
        ('theme = "nrod"\n', "theme: no theme is called 'nrod'; did you mean 'nord'?"),
        ('[keymap]\nofers = "f2"\n', "line 2: keymap.ofers: no key binding has the id 'ofers'; did you mean 'offers'?"),
        ('[keymap]\noffers = ""\n', "line 2: keymap.offers: is empty"),
        ('[keymap]\noffers = "ctrl+"\n', "line 2: keymap.offers: 'ctrl+' ends with '+' and no key"),
        ('[keymap]\noffers = "ctl+x"\n', "keymap.offers: 'ctl+x': the modifiers are ctrl"),
        ('[keymap]\noffers = "ctrl+F2"\n', "keymap.offers: 'ctrl+F2': key names are in lower case ('ctrl+f2')"),
        ('[keymap]\noffers = "f2,,f3"\n', "has an empty key"),
        ('[keymap]\noffers = "a,b,c,d,e"\n', "names 5 keys (at most 4)"),
        ('[keymap]\noffers = "[red]boom"\n', "'[red]boom' is not a key name Textual knows"),
        ('[keymap]\noffers = "\\u001b[31m"\n', "keymap.offers: the value contains a control character"),
        ("[keymap]\noffers = 7\n", "keymap.offers: should be a string in quotes, not a number"),
        ("keymap = 'f2'\n", "keymap: should be a table"),
        (
            '[keymap]\nscenario = "o"\n',
            "keymap.scenario: 'o' is already the key of 'Offers' (offers, everywhere); it was not moved",
        ),
    ],
    ids=[
        "theme-markup",
        "theme-unknown",
        "unknown-binding",
        "empty-key",
        "modifier-only",
        "bad-modifier",
        "upper-case-name",
        "comma-too-many",
        "too-many-keys",
        "markup-key",
        "escape-key",
        "key-not-string",
        "keymap-not-table",
        "clash",
    ],
)
async def test_a_bad_theme_or_key_starts_the_tui_with_defaults_and_says_why(
    isolated_user_dirs: Path, demo_db_path: Path, cli: Cli, content: str, expected: str
) -> None:
    path = config_file(isolated_user_dirs, content)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.theme == "textual-dark"
        problems = [m for m, severity in app.told if severity == "warning"]
        assert len(problems) == 1 and problems[0].startswith(f"config file {path}") and expected in problems[0]
        assert "\x1b" not in problems[0] and "\x07" not in problems[0]
        await pilot.press("o")  # the default keys still work
        await settle(pilot)
        assert app.current_mode == "offers"
    result = cli("config")  # `quotetui config` reports it too
    assert result.code == 2 and expected in result.err
    assert load().check_database() is None  # and the CLI's commands are not stopped by it (the TUI's problem)


@pytest.mark.sqlite_only
async def test_the_tui_opens_no_database_when_the_config_may_name_another(isolated_user_dirs: Path) -> None:
    path = config_file(isolated_user_dirs, 'theme = "nord"\ndatabase = "work.db\n')
    app = RecordingApp(None)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.theme == "textual-dark"  # nothing of a file that cannot be read is applied
        errors = [m for m, severity in app.told if severity == "error"]
        assert any(m.startswith(f"config file {path}, line 2: not valid TOML") for m in errors), app.told
        assert app.database is None and app.sub_title == "no database"
    assert not built_in(isolated_user_dirs).exists()


def test_a_postgres_password_in_the_config_is_never_shown(isolated_user_dirs: Path, cli: Cli) -> None:
    config_file(isolated_user_dirs, 'database = "postgresql+psycopg://buyer:s3cret-pw@127.0.0.1:1/quotes"\n')
    shown = cli("config")
    assert shown.code == 0 and "s3cret-pw" not in shown.out and "127.0.0.1" in shown.out
    failed = cli("offers")
    assert failed.code == 2 and "s3cret-pw" not in failed.err
