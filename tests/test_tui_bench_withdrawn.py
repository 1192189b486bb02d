"""The TUI's import dialog shows what an import withdrew, in the words ``bench import`` prints: offer #9 (H100)
holds mamf-finder's MSMF sweep (shared log 33, names no GPU) as verified; an nvidia-smi query of an H200 (log 11)
imported from the dialog withdraws it, and the dialog says so before it closes."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Button, Input, Static

from quotetui import language
from quotetui.services.bench_import import import_bench
from quotetui.services.database import open_database
from quotetui.tui.dialogs.bench import BenchImportDialog
from quotetui.tui.screens.offer_detail import OfferDetailScreen
from tests.conftest import sql
from tests.test_tui import RecordingApp, settle, text_of

SHARED = Path(__file__).parent / "fixtures" / "benchlogs" / "shared"
SWEEP = SHARED / "33-mamf-msmf-format-h200-mamfreadme.txt"
H200_QUERY = SHARED / "11-smi-query-h200-250fields-exporter.txt"


ENGLISH = (
    "offer #9: 1 log added, 0 already on record",
    "- evidence #1 33-mamf-msmf-format-h200-mamfreadme.txt: its figures no longer count as verified (it names no "
    "GPU, and the offer's other logs say H200 SXM reported, H100 SXM5 sold: not shown to be the H100 SXM5 sold, "
    "kept as evidence, not a verified figure)",
    "Close (Esc)",
    "1 log added, 0 already on record",
)
CHINESE = (
    "报价 #9：新增 1 份日志，0 份此前已有记录",
    "- 证据 #1 33-mamf-msmf-format-h200-mamfreadme.txt：其数据不再计为已验证（该日志未写明 GPU，而该报价的其他日志"
    "发现：日志报告为 H200 SXM，报价所售为 H100 SXM5；无法证明来自所售的 H100 SXM5，仅作为证据保留，不计为已验证数据）",
    "关闭（Esc）",
    "新增 1 份日志，0 份已有记录",
)


def _sweep_verified(db_path: Path) -> None:
    """Offer #9's MFU verified by the sweep that names no GPU, as it is before the H200 listing comes."""
    opened = open_database(str(db_path))
    try:
        import_bench(opened.db, 9, [SWEEP])
    finally:
        opened.db.dispose()


async def _dialog_on_offer_9(app: RecordingApp, pilot) -> None:  # type: ignore[no-untyped-def]
    """The benchmark import dialog, opened from offer #9's benchmarks tab."""
    await settle(pilot)
    app.open_offer(9)
    await settle(pilot)
    await pilot.press("5")
    await pilot.press("v")
    await pilot.pause()
    assert isinstance(app.screen, BenchImportDialog)


@pytest.mark.parametrize(("lang", "said"), [("en", ENGLISH), ("zh-CN", CHINESE)], ids=["en", "zh-CN"])
async def test_the_dialog_shows_the_figures_an_import_withdrew(
    demo_db_path: Path, lang: str, said: tuple[str, str, str, str]
) -> None:
    summary, note, close, toast = said
    _sweep_verified(demo_db_path)
    assert sql(demo_db_path, "SELECT evidence_id FROM benchmark_result WHERE provenance = 'verified'") == [(1,)]

    language.use(lang)
    try:
        app = RecordingApp(str(demo_db_path))
        async with app.run_test(size=(160, 50)) as pilot:
            await _dialog_on_offer_9(app, pilot)
            app.screen.query_one("#paths", Input).value = str(H200_QUERY)
            await pilot.press("enter")
            await settle(pilot)

            assert isinstance(app.screen, BenchImportDialog)  # open on its notes
            report = app.screen.query_one("#report", Static).content
            assert str(report).splitlines() == [summary, note]  # whole lines, as the CLI prints them
            assert str(app.screen.query_one("#cancel", Button).label) == close
            assert not app.screen.query_one("#go", Button).display
            actions = {b.action for _, b, _, _ in app.screen.active_bindings.values()}
            assert "close" in actions and "cancel" not in actions  # the footer says Close, not "nothing imported"
            assert sql(demo_db_path, "SELECT COUNT(*) FROM benchmark_result WHERE provenance = 'verified'") == [(0,)]

            await pilot.press("enter")  # the focused Close button; Esc does the same
            await settle(pilot)
            assert isinstance(app.screen, OfferDetailScreen)
            assert (toast, "information") in app.told
            assert "H200 SXM" in text_of(app, "#benchmarks-body")
    finally:
        language.use(language.ENGLISH)


async def test_an_import_that_withdrew_nothing_closes_at_once(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(160, 50)) as pilot:
        await _dialog_on_offer_9(app, pilot)
        app.screen.query_one("#paths", Input).value = str(SWEEP)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, OfferDetailScreen)
        assert ("1 log added, 0 already on record", "information") in app.told


def _rows(app: RecordingApp) -> list[str]:
    """The screen as it is drawn, a string a row."""
    drawn = app.screen._compositor.render_update(full=True)
    return ["".join(segment.text for segment in strip) for strip in drawn.strips]  # type: ignore[union-attr]


async def test_at_80x24_the_whole_note_and_the_close_button_are_reachable(demo_db_path: Path) -> None:
    """A note longer than the dialog's room: its body scrolls (PageDown, as the focused Close button leaves the
    keys to it) while the buttons stay in view; the hint breaks between words, never inside a tool's name."""
    _sweep_verified(demo_db_path)
    language.use("zh-CN")
    try:
        app = RecordingApp(str(demo_db_path))
        async with app.run_test(size=(80, 24)) as pilot:
            await _dialog_on_offer_9(app, pilot)
            hint = "".join(_rows(app)).replace("\xa0", " ")  # a no-break space, drawn as a space
            for token in ("p2pBandwidthLatencyTest", "-J JSON", "topo -m", "dcgmi diag", "`quotetui probe`"):
                assert token in hint, token
            app.screen.query_one("#paths", Input).value = str(H200_QUERY)
            await pilot.press("enter")
            await settle(pilot)
            close = app.screen.query_one("#cancel", Button)
            assert app.focused is close
            assert any("关闭（Esc）" in row for row in _rows(app))  # the button in view from the first
            await pilot.press("pagedown")
            await pilot.pause()
            rows = _rows(app)
            assert any("关闭（Esc）" in row for row in rows)
            inside = [row.split("█")[1] for row in rows if row.count("█") >= 2]  # within the dialog's border
            body = "".join(row.strip() for row in inside)  # its lines as one text
            assert CHINESE[0] in body
            assert CHINESE[1].replace(" ", "") in body.replace(" ", "")  # broken into lines where the words allow
            await pilot.press("enter")
            await settle(pilot)
            assert isinstance(app.screen, OfferDetailScreen)
    finally:
        language.use(language.ENGLISH)
