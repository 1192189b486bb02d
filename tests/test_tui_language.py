"""The TUI's language, switched while it runs (issue 35): from the command palette every screen speaks the new
language at once, and the choice is kept in the config file for the next start; the money style likewise.
Textual's own words (the keys panel, the command palette's) are in the language in use too. Expected texts are
written by hand."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from textual.command import CommandInput, CommandList, CommandPalette
from textual.widgets import Input, Select, Static
from textual.widgets._footer import FooterKey

from quotetui import language
from quotetui.domain.economics import display
from quotetui.domain.errors import BadInput
from quotetui.io.preferences import example, load, save_setting, with_setting
from quotetui.tui.screens.offers import OffersScreen
from quotetui.tui.widgets.keys_panel import SaidBindingsTable
from quotetui.tui.widgets.virtual_table import VirtualTable
from tests.conftest import Cli
from tests.test_tui import RecordingApp, plain, settle

CONFIG = """\
# the team's settings: keep this comment
theme = "nord"  # our colours

# a note about the keys
[keymap]
# offers = "f2"
"""


def footer(app: RecordingApp) -> list[str]:
    return [f"{k.key_display} {k.description}" for k in app.screen.query(FooterKey)]


def dashboard(app: RecordingApp) -> dict[str, str]:
    """What the dashboard shows: the header's sub-title, each card's text, the footer."""
    cards = {f"#{s.id}": plain(s.content) for s in app.screen.query(Static) if s.id}
    return {"sub-title": app.sub_title, **cards, "footer": " | ".join(footer(app))}


def offers(app: RecordingApp) -> dict[str, object]:
    """What the offers screen shows: the filters' words, the table's headers and rows, the footer."""
    screen = app.screen
    assert isinstance(screen, OffersScreen)
    table = screen.query_one(VirtualTable)
    return {
        "filter": screen.query_one("#filter", Input).placeholder,
        "prompts": [screen.query_one(f"#{i}", Select).prompt for i in ("gpu-filter", "kind-filter", "status-filter")],
        "headers": [c.label for c in table.columns],
        "rows": [r.cells for r in table.view_rows],
        "footer": footer(app),
    }


async def run_command(pilot, typed: str) -> None:  # type: ignore[no-untyped-def]
    """The command palette's first hit for what is typed, chosen with Enter."""
    await pilot.press("ctrl+p")
    await settle(pilot)
    await pilot.press(*typed)
    await pilot.pause(0.3)  # the palette gathers hits a moment after typing
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)
    await settle(pilot)


async def test_the_language_switches_on_every_screen_at_once_and_back(
    demo_db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(CONFIG, encoding="utf-8")
    monkeypatch.setenv("QUOTETUI_CONFIG", str(config))
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("o")  # the offers screen exists before the switch: its words must change too
        await settle(pilot)
        english_offers = offers(app)
        await pilot.press("d")
        await settle(pilot)
        english = dashboard(app)
        assert "Offers by status" in english["#by-status"]

        await run_command(pilot, "language")
        assert language.current() == "zh-CN"
        chinese = dashboard(app)
        assert chinese["sub-title"] == f"{demo_db_path} · 场景：8×H100 一年训练"
        assert "各状态报价" in chinese["#by-status"] and "Offers by status" not in chinese["#by-status"]
        assert "场景 8×H100 一年训练" in chinese["#scenario-line"]
        assert chinese["footer"] == "f1 帮助 | d 总览 | o 报价 | c 对比 | s 场景 | q 退出 | ^p 命令面板"
        await pilot.press("o")
        await settle(pilot)
        shown = offers(app)
        assert shown["filter"] == "/ 筛选 供应商、报价、GPU…"
        assert shown["prompts"] == ["GPU", "类型", "状态"]
        assert shown["headers"][:4] == ["排名", "ID", "供应商", "报价"] and "有效期至" in shown["headers"]
        assert shown["footer"][:3] == ["⏎ 打开", "/ 筛选", "space 固定"]
        text = config.read_text(encoding="utf-8")
        assert text == CONFIG.replace("\n# a note", '\nlanguage = "zh-CN"\n\n# a note')  # nothing else moved
        assert load().language == "zh-CN" and load().theme == "nord"

        await run_command(pilot, "english")  # "界面语言：English"
        assert language.current() == "en"
        assert offers(app) == english_offers
        await pilot.press("d")
        await settle(pilot)
        assert dashboard(app) == english
        assert load().language == "en"
        assert f"Language: English; kept in the config file {config}" in [m for m, _ in app.told]


def screen_text(app: RecordingApp) -> str:
    """Every character on the screen, in order (the text of Textual's own picture of it)."""
    import html
    import re

    runs = re.findall(r"<text[^>]*>(.*?)</text>", app.export_screenshot())
    return "".join(html.unescape(run) for run in runs).replace("\xa0", " ")


async def visit(app: RecordingApp, pilot) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """Each mode's screen, then a contract's and an offer's (its negotiation tab), as the buyer sees them; the two
    are left open, each on its mode's stack (the offer's in front)."""
    seen = {}
    for mode in "docbtfr":
        await pilot.press(mode)
        await settle(pilot)
        await pilot.pause(0.3)  # the calculators work a moment after their inputs are filled
        await settle(pilot)
        seen[mode] = screen_text(app)
    await pilot.press("enter")
    await settle(pilot)
    seen["contract"] = screen_text(app)
    await pilot.press("o")  # the contract stays open on the contracts' stack
    await settle(pilot)
    app.open_offer(2)
    await settle(pilot)
    await pilot.press("3")
    await settle(pilot)
    seen["offer"] = screen_text(app)
    return seen


async def switched_and_closed(app: RecordingApp, pilot, tag: str) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """Switch to ``tag`` while the offer and the contract are open: what they show then; both closed after."""
    app.switch_language(tag)
    await settle(pilot)
    seen = {"offer": screen_text(app)}
    await pilot.press("r")  # the contracts' stack: its contract in front
    await settle(pilot)
    seen["contract"] = screen_text(app)
    for key in ("r", "o", "o"):  # back to the contracts' list, to the offer, to the offers' table
        await pilot.press(key)
        await settle(pilot)
    return seen


async def test_after_a_switch_every_screen_shows_what_a_start_in_that_language_shows(
    demo_db_path: Path, cli: Cli
) -> None:
    """The screens made before the switch (every mode, a contract, an offer's tab, open during the switch) show,
    after it, exactly what they show when the app starts in that language: no word left in the other one; and
    back to English, exactly what they showed before."""
    db = str(demo_db_path)
    assert cli("--db", db, "contracts", "add", "--offer", "2", "--start", "2026-01-31", "--term-months", "12").code == 0
    rfq = ("rfq", "new", "H100 256", "--gpu", "H100 SXM5", "--gpus", "256", "--months", "12", "--start", "2027-01-01")
    assert cli("--db", db, *rfq).code == 0
    language.use("zh-CN")
    started_in_chinese = RecordingApp(db)
    async with started_in_chinese.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        chinese = await visit(started_in_chinese, pilot)
    language.use("en")
    app = RecordingApp(db)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        english = await visit(app, pilot)
        assert "Scenario: 8×H100 一年训练" in english["t"] and "H100 256" in english["f"]
        assert "contract #1" in english["contract"] and "BATNA" in english["offer"]
        assert await switched_and_closed(app, pilot, "zh-CN") == {k: chinese[k] for k in ("offer", "contract")}
        switched = await visit(app, pilot)
        assert "场景：8×H100 一年训练" in switched["t"] and "Scenario" not in switched["t"]
        assert switched == chinese
        assert await switched_and_closed(app, pilot, "en") == {k: english[k] for k in ("offer", "contract")}
        assert await visit(app, pilot) == english


@pytest.mark.parametrize("where", ["under a file", "in /proc"])
async def test_a_config_folder_that_cannot_be_written_leaves_the_switch_for_the_session(
    demo_db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """The user config folder cannot be made (a file where a folder should be; a file system that refuses
    folders, which stands in for a read-only one, as root writes anywhere): a warning says the language holds
    for this session only, and it does."""
    if where == "in /proc":
        if not Path("/proc/self").exists():
            pytest.skip("no /proc here")
        folder = Path("/proc") / f"quotetui-test-{tmp_path.name}"
        why = "无法创建文件夹 "
    else:
        blocked = tmp_path / "a file"
        blocked.write_text("not a folder")
        folder = blocked / "config"
        why = "配置文件 "  # the file could not even be looked for (the start said so too)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder))
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await run_command(pilot, "language")
        assert language.current() == "zh-CN"
        assert "各状态报价" in plain(app.screen.query_one("#by-status", Static).content)
        said, severity = app.told[-1]
        assert severity == "warning" and said.startswith(f"界面语言：简体中文，仅本次有效：未能存入配置文件（{why}")


async def test_a_missing_config_folder_is_made_with_the_example_file(
    demo_db_path: Path, isolated_user_dirs: Path
) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await run_command(pilot, "money style")
        assert display.money_style() == "wan"
        assert "金额" not in app.sub_title  # the language did not change
    written = (isolated_user_dirs / ".config" / "quotetui" / "config.toml").read_text(encoding="utf-8")
    assert written == example().replace('# money_style = "wan"\n', '# money_style = "wan"\nmoney_style = "wan"\n')


async def test_the_money_style_switches_the_amounts_on_screen(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        price = [c.label for c in app.screen.query_one(VirtualTable).columns].index("Price (own unit)")
        first = app.screen.query_one(VirtualTable).view_rows[0].cells
        assert first[1] == "18" and first[price] == "80,000.00 CNY/node-mo"
        await run_command(pilot, "money style")
        assert app.screen.query_one(VirtualTable).view_rows[0].cells[price] == "8.00万 CNY/node-mo"
        await run_command(pilot, "money style")  # "Money style: in full"
        assert app.screen.query_one(VirtualTable).view_rows[0].cells[price] == "80,000.00 CNY/node-mo"


async def test_the_switch_is_offered_on_screens_not_over_a_dialog(demo_db_path: Path) -> None:
    from tests.test_tui_palette import palette_hits

    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert "Language: 简体中文" in await palette_hits(app, pilot, "language")
        app.open_offer(2)
        await settle(pilot)
        assert "Language: 简体中文" in await palette_hits(app, pilot, "language")
        app.action_new_provider()  # a form: its words were composed for the language it opened in
        await settle(pilot)
        assert not [t for t in await palette_hits(app, pilot, "language") if t.startswith("Language")]


async def test_the_offer_tabs_and_the_help_speak_the_new_language(demo_db_path: Path) -> None:
    from textual.widgets import TabbedContent

    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.open_offer(2)
        await settle(pilot)
        app.switch_language("zh-CN")
        await settle(pilot)
        tabs = app.screen.query_one(TabbedContent)
        titles = [tabs.get_tab(pane).label.plain for pane in ("spec", "pricing", "negotiation")]
        assert titles == ["1 规格", "2 价格", "3 议价"]
        await pilot.press("f1")
        await settle(pilot)
        help_text = " ".join(plain(s.content) for s in app.screen.query(Static))
        assert "快捷键" in help_text and "Everywhere" not in help_text


# -- Textual's own words ---------------------------------------------------------------------------------


async def test_the_keys_panel_speaks_chinese(demo_db_path: Path) -> None:
    language.use("zh-CN")
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        await run_command(pilot, "快捷键")  # Textual's "Keys"
        await pilot.press("slash")  # the filter has the focus: its keys are listed
        await settle(pilot)
        table = app.screen.query_one(SaidBindingsTable)
        shown = plain(table.render_bindings_table(), width=80)
        # the input's keys under its group's title, the screen's, the app's, a tooltip
        chinese = ("输入框", "光标左移", "向左删除一个字符", "从剪贴板粘贴", "聚焦下一项", "筛选", "帮助", "退出应用")
        for words in chinese:
            assert words in shown, words
        for english in ("Input", "Move cursor", "Delete", "Focus", "Filter", "Help", "Quit"):
            assert english not in shown, english
        app.switch_language("en")  # the panel follows a switch
        await settle(pilot)
        again = plain(app.screen.query_one(SaidBindingsTable).render_bindings_table(), width=80)
        assert "Move cursor left" in again and "光标左移" not in again


async def test_the_command_palette_says_no_matches_in_chinese(demo_db_path: Path) -> None:
    language.use("zh-CN")
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await settle(pilot)
        palette = app.screen
        assert isinstance(palette, CommandPalette)
        assert palette.query_one(CommandInput).placeholder == "搜索命令……"
        await pilot.press(*"zqxzqx")
        await pilot.pause(1.0)  # Textual says so half a second after the search
        await settle(pilot)
        found = palette.query_one(CommandList)
        assert [str(found.get_option_at_index(i).prompt.renderable) for i in range(found.option_count)] == [
            "未找到匹配项"
        ]


async def test_the_theme_picker_speaks_chinese(demo_db_path: Path) -> None:
    language.use("zh-CN")
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await run_command(pilot, "主题")
        assert isinstance(app.screen, CommandPalette)
        assert app.screen.query_one(CommandInput).placeholder == "搜索主题……"


def test_every_textual_word_a_buyer_meets_is_translated() -> None:
    """The keys of Textual's widgets the screens use (the keys panel lists the focused one's), its screens' and
    app's: each description, tooltip and group title has a Chinese translation (a Textual upgrade that adds a
    key fails here until its words are declared in ``app_keys.TEXTUAL_WORDS`` and translated)."""
    from textual.app import App
    from textual.binding import Binding
    from textual.containers import ScrollableContainer
    from textual.screen import Screen
    from textual.widgets import Button, Checkbox, DataTable, OptionList, SelectionList, Tabs
    from textual.widgets._select import SelectOverlay

    from quotetui.tui.app_keys import TEXTUAL_WORDS

    words: set[str] = set()
    for widget in (App, Screen, Button, Checkbox, DataTable, Input, OptionList, Select, SelectOverlay,
                   SelectionList, Tabs, ScrollableContainer):  # fmt: skip
        for cls in widget.__mro__:
            for binding in cls.__dict__.get("BINDINGS", []):
                b = binding if isinstance(binding, Binding) else Binding(*binding)
                words |= {w for w in (b.description, b.tooltip) if w}
            if cls.__dict__.get("BINDING_GROUP_TITLE"):
                words.add(cls.__dict__["BINDING_GROUP_TITLE"])
    assert words - set(TEXTUAL_WORDS) == set()
    zh = language.catalog("zh-CN")
    assert [w for w in sorted(words) if zh.gettext(w) == w] == []


# -- the config file, written -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (  # the setting's own line: its value changes, its comment stays
            'language = "en"   # mine\ntheme = "nord"\n',
            'language = "zh-CN"   # mine\ntheme = "nord"\n',
        ),
        (  # under its commented example
            '# language = "zh-CN"\ntheme = "nord"\n',
            '# language = "zh-CN"\nlanguage = "zh-CN"\ntheme = "nord"\n',
        ),
        (  # before the first table and the comments about it
            'theme = "nord"\n\n# keys\n[keymap]\noffers = "f2"\n',
            'theme = "nord"\n\nlanguage = "zh-CN"\n\n# keys\n[keymap]\noffers = "f2"\n',
        ),
        ('theme = "nord"', 'theme = "nord"\nlanguage = "zh-CN"\n'),  # at the end, after a last line without \n
        ("a = 1\r\n[keymap]\r\n", 'a = 1\r\nlanguage = "zh-CN"\r\n\r\n[keymap]\r\n'),  # Windows line ends kept
    ],
)
def test_a_setting_is_written_keeping_the_rest_of_the_file(before: str, after: str) -> None:
    assert with_setting(before, "language", "zh-CN") == after


def test_saving_keeps_the_file_and_its_permissions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "config.toml"
    config.write_text(CONFIG, encoding="utf-8")
    config.chmod(0o600)
    monkeypatch.setenv("QUOTETUI_CONFIG", str(config))
    assert save_setting("money_style", "wan") == config
    assert config.read_text(encoding="utf-8") == CONFIG.replace("\n# a note", '\nmoney_style = "wan"\n\n# a note')
    assert stat.S_IMODE(config.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["config.toml"]  # no temporary file left


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('theme = "nord\n', "not valid TOML"),  # the user's file is broken: never written over
        ('note = """\nlanguage = "x"\n"""\n', "cannot be written there without touching other lines"),
    ],
)
def test_a_file_that_cannot_be_edited_safely_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, reason: str
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(text, encoding="utf-8")
    monkeypatch.setenv("QUOTETUI_CONFIG", str(config))
    with pytest.raises(BadInput, match=reason):
        save_setting("language", "zh-CN")
    assert config.read_text(encoding="utf-8") == text


@pytest.mark.parametrize(
    ("tag", "said"),
    [
        (
            "en",
            "Language: 简体中文; kept in the config file {path} (at the next start --lang chooses the language again)",
        ),
        ("zh-CN", "界面语言：简体中文，已存入配置文件 {path}（下次启动时仍由 --lang 决定语言）"),
    ],
)
def test_a_language_kept_that_the_command_line_chose_says_so_in_an_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tag: str, said: str
) -> None:
    """The toast joined its note with a space: ``c.toml （下次启动时…）``; an aside is the language's own."""
    from quotetui.tui.preferences import save_preference

    config = tmp_path / "c.toml"
    config.write_text("", encoding="utf-8")
    monkeypatch.setenv("QUOTETUI_CONFIG", str(config))
    language.use(tag, by="--lang")
    assert save_preference("language", "zh-CN") == (said.format(path=config), "information")


@pytest.mark.parametrize(
    ("tag", "said"),
    [
        ("en", "Money style: 万 and 亿 (96.00万 CNY); kept in the config file {path}"),
        ("zh-CN", "金额写法：万/亿（96.00万 CNY），已存入配置文件 {path}"),
    ],
)
def test_the_money_style_kept_is_said_in_words_not_as_the_line_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tag: str, said: str
) -> None:
    """Issue 35: the toast said the config file's line (``money_style = wan：已存入 …``); it names the style as
    the palette's command does."""
    from quotetui.tui.preferences import save_preference

    config = tmp_path / "c.toml"
    config.write_text("", encoding="utf-8")
    monkeypatch.setenv("QUOTETUI_CONFIG", str(config))
    language.use(tag)
    assert save_preference("money_style", "wan") == (said.format(path=config), "information")
    assert config.read_text(encoding="utf-8") == 'money_style = "wan"\n'


async def test_the_offer_spec_lists_and_asides_as_the_language_writes_them(demo_db_path: Path) -> None:
    """Words listed with 、 and an aside in （…） in Chinese (``language/lists.py``), as before in English; the
    switch redraws them."""
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        app.open_offer(1)
        await settle(pilot)
        english = " ".join(plain(s.content, 300) for s in app.screen.query(Static))
        assert "一万网络 (lessor) · 朗玥科技" in english
        assert "增值电信业务经营许可证, 国家高新技术企业, 专精特新中小企业, NVIDIA NPN 成员" in english
        assert "80 GB HBM3, 3.35 TB/s" in english
        app.switch_language("zh-CN")
        await settle(pilot)
        chinese = " ".join(plain(s.content, 300) for s in app.screen.query(Static))
        assert "一万网络（出租方） · 朗玥科技" in chinese
        assert "增值电信业务经营许可证、国家高新技术企业、专精特新中小企业、NVIDIA NPN 成员" in chinese
        assert "8 × H100 SXM5（SXM）" in chinese and "(lessor)" not in chinese
        assert "80 GB HBM3，3.35 TB/s" in chinese  # a name and its detail (``detail``), not a list: no 、
        assert "、3.35 TB/s" not in chinese
        app.open_offer(11)  # a vendor RDMA network and its Gb/s per GPU: a name and its detail too
        await settle(pilot)
        chinese = " ".join(plain(s.content, 300) for s in app.screen.query(Static))
        assert "厂商 RDMA，每 GPU 12.5 Gb/s" in chinese and "、每 GPU" not in chinese


async def test_in_chinese_the_palette_finds_the_switches_by_their_english_words_too(demo_db_path: Path) -> None:
    """A buyer who types the English name (``language``, ``money``) finds the switch as one who types 语言 or 金额
    does; the title shown stays Chinese, the other language named in itself, apart from the Chinese around it."""
    from quotetui.tui.preferences import language_commands
    from tests.test_tui_palette import palette_hits

    language.use("zh-CN")
    assert [(title, help_text) for title, help_text, _tag in language_commands()] == [
        ("界面语言：English", "所有界面立即改用 English，并存入配置文件，下次启动沿用")
    ]
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert "界面语言：English" in await palette_hits(app, pilot, "语言")
        assert "界面语言：English" in await palette_hits(app, pilot, "language")
        assert "金额写法：万/亿（96.00万 CNY）" in await palette_hits(app, pilot, "金额")
        assert "金额写法：万/亿（96.00万 CNY）" in await palette_hits(app, pilot, "money")
        assert not [t for t in await palette_hits(app, pilot, "language") if t.startswith("Language")]
