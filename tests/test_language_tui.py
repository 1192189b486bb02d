"""The TUI through the catalog (issue 35): the app runs in the pseudo-locale (tests/pseudo_locale.py) and visits
each screen and dialog a buyer meets; an English word left on the screen is a string that does not pass through
gettext. A screen wraps and cuts messages across lines and panes, where the pseudo-locale's brackets cannot be
paired, so here each message's letters carry the mark themselves (:class:`Accented`: ``Offers`` is ``Óƒƒéŕś``,
one cell a letter as in English): any plain English word is a leak. Data (names as typed, the GPU catalog's
names, the sources' sentences) is read from the command line's JSON of the same database, as
tests/test_language_cli.py does; keys, codes and units are the short lists below, each with its reason."""

from __future__ import annotations

import io
import json
import re
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing
from datetime import date
from pathlib import Path

import pytest
from rich.console import Console
from textual.app import App

from quotetui import language
from quotetui.domain.enums import Choice
from quotetui.domain.gpu_table import VIA_BRIDGE
from quotetui.domain.verification.findings import FindingCode
from quotetui.tui.app import QuotetuiApp
from tests.conftest import execute, run_cli
from tests.pseudo_locale import CLOSE, OPEN, Pseudo, data_words, english_words

pytestmark = pytest.mark.sqlite_only  # one SQLite file, read by the app and by the command line

SIZE = (200, 60)  # wide enough that a message is seldom cut: a cut one cannot be told from English left bare

KEYS = {
    "esc", "Esc", "Enter", "enter", "space", "tab", "shift", "ctrl", "super", "up", "down", "left", "right", "pageup",
    "pagedown", "home", "end", "square", "bracket",
}  # fmt: skip
"""Key names, as the footer and the keys' help show them (the keymap's names: ``left_square_bracket, left``)."""

CODES = {
    "quotetui",  # the program's name
    "od", "mp",  # the term column's codes (12mp: 12 months prepaid), which its legend explains
    "FLOPs", "NVSwitch",  # a unit and a product's name, as datasheets write them
    "tokens", "sec", "gpu",  # a throughput, as logs and the sources' claims write it (tokens/sec/gpu)
    "e",  # a number typed as 3.14e23 in the training calculator's field
}  # fmt: skip

CUT = re.compile(r"[A-Za-z]+(?=…|█|$)|(?<=█)[A-Za-z]+", re.M)
"""A word cut short by the screen's edge, a column's width (``NVSwitc…``) or a dialog drawn over it: what is
left of it is not a word to judge (the whole of it is judged where it is shown uncut)."""

FILES = re.compile(r"\S*/\S*|\S+\.xlsx\b")
"""Paths, file names and units with a slash (``/tmp/…/rfq-H100-256``, ``offers.xlsx``, ``Gb/s``)."""

BILINGUAL = re.compile(r"[A-Za-z][A-Za-z ,]* / (?=[\u4e00-\u9fff])")
"""An RFQ's requirement and answers labelled in both languages (``GPU models / 可接受型号``), as the response
workbook the provider fills in labels them: the English half stays."""

_DATA_KEYS = {
    "name", "provider", "offer", "gpu", "gpu_model", "aliases", "memory_type", "topo_signature", "parent", "regions",
    "certifications", "scenario", "statement", "source", "workload", "notes", "model", "quote", "description",
    "reference",
}  # fmt: skip
"""The JSON keys whose values are data as typed or as a source wrote it. Not a code's key: a price's or a claim's
``unit`` (``node_month``, ``days``), a claim's ``metric`` (``training_days``) and ``qualifier`` (``at_least``) and a
GPU's ``nvlink_note`` (``via bridge``) are codes with a word declared beside them, which a screen shows instead."""

FINDING_CODES = re.compile("|".join(sorted((c.value for c in FindingCode if "-" in c.value), key=len, reverse=True)))
"""A finding's code, shown whole in bold before its title (``gemm-below-peak``): the code as one token, not its
words one by one (``below``, ``low``, ``price`` would let those words through anywhere)."""


def _choices(kind: type[Choice] = Choice) -> Iterator[type[Choice]]:
    for sub in kind.__subclasses__():
        yield sub
        yield from _choices(sub)


RAW_CODES = re.compile(
    r"(?<![\w/.-])(?:[a-z0-9]+(?:_[a-z0-9]+)+|"
    + "|".join(sorted({m.value.replace("_", "-") for c in _choices() for m in c if "_" in m.value}, key=len)[::-1])
    + r")(?![\w/.-])"
)
"""A code as stored, whatever words the data allows: a ``snake_case`` token (``training_days``, ``platform_fee``) or
a code of two words hyphenated for show (``node-month``), which no message and no name as typed writes."""

_ACCENTS = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", "áƀçďéƒĝĥíĵķĺḿñóṕʠŕśţúṽŵẋýźÁƁÇĎÉƑĜĤÍĴĶĹḾÑÓṔɊŔŚŢÚṼŴẊÝŹ"
)
_RUN = re.compile(f"{OPEN}([^{OPEN}{CLOSE}]*){CLOSE}")


def accented(said: str) -> str:
    """The pseudo-locale's wrapped runs with their letters accented instead of bracketed (placeholders bare)."""
    return _RUN.sub(lambda run: run.group(1).translate(_ACCENTS), said)


class Accented(Pseudo):
    """The pseudo-locale, each message's letters accented: a message is marked in every cell it reaches."""

    def gettext(self, message: str) -> str:
        return accented(super().gettext(message))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return accented(super().ngettext(singular, plural, n))

    def pgettext(self, context: str, message: str) -> str:
        return accented(super().pgettext(context, message))


@pytest.fixture(scope="module")
def market(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, set[str]]:
    """The demo with a signed contract and an RFQ sent (every screen has something to show), and the words
    its data brings."""
    folder = tmp_path_factory.mktemp("pseudo-tui")
    db = str(folder / "demo.db")
    assert run_cli("--db", db, "demo").code == 0
    signed = run_cli("--db", db, "contracts", "add", "--offer", "2", "--start", "2026-01-31", "--term-months", "12",
                     "--notice-days", "30", "--reference", "YW-H100-01")  # fmt: skip
    assert signed.code == 0, signed.err
    made = run_cli("--db", db, "rfq", "new", "H100 256", "--gpu", "H100 SXM5,H800 SXM5", "--gpus", "256", "--months",
                   "12", "--start", "2027-01-01", "--respond-by", "2026-12-20")  # fmt: skip
    assert made.code == 0, made.err
    sent = run_cli("--db", db, "rfq", "send", "H100 256", "-p", "一万网络", "--out", str(folder / "rfq"), "--force")
    assert sent.code == 0, sent.err
    execute(db, "UPDATE rfq_invite SET sent_at = '2026-11-29 09:00:00.000000'")
    added = run_cli(
        "--db", db, "extra", "add", "2", "--kind", "platform_fee", "--basis", "per_month", "--amount", "500"
    )
    assert added.code == 0, added.err  # the contract's offer then has each kind of record its tabs show
    allowed = {code.value for code in FindingCode if "-" not in code.value}  # vgpu, mig, configuration
    for command in ("providers", "offers", "gpus", "claims", "scenario list", "rfq list"):
        done = run_cli("--db", db, *command.split(), "--json")
        assert done.code == 0, done.err
        data = json.loads(done.out)
        data_words(data, _DATA_KEYS, allowed)
        if command == "gpus":  # a vendor's interconnect by its name (HCCS, Infinity Fabric) is data
            allowed.update(w for g in data if g["nvlink_note"] != VIA_BRIDGE for w in g["nvlink_note"].split())
    with closing(sqlite3.connect(db)) as conn:  # what the buyer typed on an offer and its SLA, no JSON shows it
        typed = conn.execute("SELECT cpu, notes, stock_note FROM offer UNION ALL SELECT notes, '', '' FROM sla_term")
        allowed.update(w for row in typed for text in row if text for w in re.findall(r"[A-Za-z][A-Za-z']+", text))
    return Path(db), allowed


def _text(app: App[object], size: tuple[int, int] = SIZE) -> str:
    """The screen as a buyer reads it, dialogs over their screens and toasts included (as
    ``App.export_screenshot`` draws it, in text)."""
    console = Console(width=size[0], height=size[1], file=io.StringIO(), record=True, legacy_windows=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


VISITS: list[tuple[str, tuple[str, ...], Callable[[QuotetuiApp], object] | None]] = [
    # (what is shown, the keys pressed to get there, then what the app is asked that has no key of its own)
    ("dashboard", (), None),
    ("offers", ("o", "space", "down", "space"), None),
    ("compare", ("down", "space", "c"), None),
    ("offer: spec", ("o",), lambda app: app.open_offer(2)),  # the contract's: a discount, an extra, an SLA, claims
    ("offer: pricing", ("2",), None),
    ("offer: negotiation", ("3",), None),
    ("offer: SLA", ("4",), None),
    ("offer: benchmarks", ("5",), None),
    ("offer: contract", ("6",), None),
    ("confirm dialog (delete an offer)", ("escape", "x"), None),
    ("new offer form", ("escape", "n"), None),
    ("edit offer form", ("escape", "e"), None),
    ("rent vs buy", ("escape", "b"), None),
    ("training", ("t",), None),
    ("contracts", ("r",), None),
    ("contract detail", ("enter",), None),
    ("sourcing", ("escape", "f"), None),
    ("send RFQ dialog", ("p",), None),
    ("scenario picker", ("escape", "d", "s"), None),
    ("help", ("escape", "f1"), None),
    ("settings form", ("escape",), QuotetuiApp.action_settings),
    ("FX rates", ("escape",), QuotetuiApp.action_fx_rates),
    ("a toast (no rate to edit)", ("e",), None),
    ("import dialog", ("escape", "ctrl+o"), None),
    ("export dialog", ("escape", "ctrl+e"), None),
]
"""Each screen and dialog, in one run of the app: a screen's keys are pressed where it is shown."""

SHOWN = {
    "dashboard": "DashboardScreen",
    "offers": "OffersScreen",
    "compare": "CompareScreen",
    "offer: spec": "OfferDetailScreen",
    "confirm dialog (delete an offer)": "ConfirmDialog",
    "new offer form": "FormScreen",
    "edit offer form": "FormScreen",
    "rent vs buy": "RentBuyScreen",
    "training": "TrainingScreen",
    "contracts": "ContractsScreen",
    "contract detail": "ContractDetailScreen",
    "sourcing": "SourcingScreen",
    "send RFQ dialog": "SendRfqDialog",
    "scenario picker": "ScenarioPicker",
    "help": "HelpScreen",
    "settings form": "FormScreen",
    "FX rates": "FxRatesDialog",
    "import dialog": "ImportDialog",
    "export dialog": "ExportDialog",
}
"""The screen each visit must be on (its class): a key that went astray would check another screen twice."""


@pytest.fixture
def pseudo(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    from textual.widgets import Input

    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)  # the cursor's blink, not a word
    monkeypatch.setattr(QuotetuiApp, "POLL_SECONDS", 3600.0)
    language.install(Accented(), "qps")
    yield


async def test_every_word_the_tui_shows_passes_through_the_catalog(
    market: tuple[Path, set[str]], pseudo: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    db, allowed = market
    monkeypatch.chdir(tmp_path)  # the export dialog proposes a file in the current folder
    allowed = allowed | KEYS | CODES
    app = QuotetuiApp(str(db), today=date(2026, 11, 30))
    leaks: list[str] = []
    async with app.run_test(size=SIZE) as pilot:

        async def settle() -> None:
            for _ in range(2):
                await pilot.app.workers.wait_for_complete()
                await pilot.pause()

        await settle()
        for what, presses, action in VISITS:
            for key in presses:
                await pilot.press(key)
                await settle()
            if action is not None:
                action(app)
                await settle()
            if what in SHOWN:
                assert type(app.screen).__name__ == SHOWN[what], what
            text = _text(app)
            assert re.search("[ĺ-ź]", text), f"{what}: nothing in the pseudo-locale"
            for line in FILES.sub(" ", CUT.sub(" ", FINDING_CODES.sub(" ", BILINGUAL.sub(" ", text)))).splitlines():
                codes = [code for code in RAW_CODES.findall(line) if not set(code.split("_")) <= KEYS]  # a key's name
                if words := english_words(line, allowed) + codes:
                    leaks.append(f"{what}: {' '.join(words)}: {line.strip()}")
    assert not leaks, "\n".join(leaks[:40])


def test_an_empty_message_is_empty() -> None:
    """gettext answers ``""`` with the catalog's header: a form field with no hint showed
    "Project-Id-Version: quotetui 0.1.0" as its placeholder in Chinese."""
    language.use("zh-CN")
    assert language._("") == ""
    assert language._("Offers") == "报价"


def test_a_contract_shows_its_way_to_buy_in_the_language_in_use() -> None:
    """A contract stores the way to buy as signed, in English (compared later); its screen shows it in Chinese."""
    from quotetui.domain.economics.inputs import stored_label_shown

    assert stored_label_shown("annual prepaid · term discount", 12, True) == "annual prepaid · term discount"
    language.use("zh-CN")
    assert stored_label_shown("annual prepaid · term discount", 12, True) == "包年预付 · 期限折扣"
    assert stored_label_shown("monthly", 1, False) == "包月"
    assert stored_label_shown("3 months + monthly", 4, False) == "3 months + monthly"  # no option says it so: as stored


async def test_a_chart_lays_out_chinese_words_by_cells() -> None:
    """plotext gives each character one column; a Chinese caption took twice its room, overran its row and broke
    onto the next ("…最佳替代方案（BA" / "TNA）的目标价"). Each row is the chart's width, the caption whole on one."""
    from textual.app import App, ComposeResult

    from quotetui.language.cells import width
    from quotetui.tui.widgets.chart import Chart, Line

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield Chart()

    caption = "各轮次每节点月价格（CNY）；红色：目标价"
    app = One()
    async with app.run_test(size=(60, 12)) as pilot:
        chart = app.query_one(Chart)
        chart.lines([Line("公开标价", [1, 2], [120_000, 100_000])], title=caption, xlabel="轮次", hline=90_000)
        await pilot.pause()
        rows = _text(app, (60, 12)).splitlines()
    assert all(width(row) == 60 for row in rows[:12])
    assert any(caption in row for row in rows)
    assert any("公开标价" in row for row in rows) and any("轮次" in row for row in rows)


def test_a_paragraph_breaks_between_chinese_characters_never_inside_a_figure() -> None:
    """Issue 35: Textual breaks only at spaces and cuts a run of Chinese anywhere (the sourcing summary at 80×24
    read ``已谢绝 1`` / ``家；…`` and ``若得到确认：39,1`` / ``68,000.00 CNY``); a :class:`Paragraph` breaks as the
    language does."""
    from rich.text import Text

    from quotetui.tui.widgets.paragraph import broken

    summary = (
        "H100 256（#1，版本 1）：256 × H100 SXM5 或 H800 SXM5，自 2027年1月1日起共 12 个月；回复截止日 2026年12月20日；"
        "邀请：已发送 1 家、已谢绝 1 家；符合要求：#2、#9（待确认项：#2、#9）；"
        "没有已确认的授标；若得到确认：39,168,000.00 CNY"
    )
    text = Text()
    text.append("H100 256", style="bold")
    text.append(summary.removeprefix("H100 256"))
    shown = broken(text, 37)
    assert shown.plain.splitlines() == [
        "H100 256（#1，版本 1）：256 × H100",
        "SXM5 或 H800 SXM5，自 2027年1月1日起",
        "共 12 个月；回复截止日",  # a date is one word: never "2026年12月" / "20日"
        "2026年12月20日；邀请：已发送 1 家、已",
        "谢绝 1 家；符合要求：#2、#9（待确认",
        "项：#2、#9）；没有已确认的授标；若得",
        "到确认：39,168,000.00 CNY",
    ]
    assert [(s.start, s.end, s.style) for s in shown.spans] == [(0, 8, "bold")]  # the styles kept
    assert broken(Text("一二三四五六七八九十"), 6).plain.splitlines() == ["一二三", "四五六", "七八九", "十"]
