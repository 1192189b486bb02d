"""Export and import from the TUI: the same services as the CLI, a dry run before any import."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from openpyxl import load_workbook
from textual.widgets import Button, Input, Static

from quotetui.store.models import Offer, QuoteRevision
from quotetui.tui.dialogs.transfer import ExportDialog, ImportDialog, default_export_path
from tests.test_tui import RecordingApp, count_rows, settle


def report_text(app: RecordingApp) -> str:
    return str(app.screen.query_one("#report", Static).content)


async def test_export_writes_the_workbook_for_the_active_scenario_with_pins(demo_db_path: Path, tmp_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.toggle_pin(2)
        await pilot.press("ctrl+e")
        await pilot.pause()
        assert isinstance(app.screen, ExportDialog)
        field = app.screen.query_one("#path", Input)
        assert field.value.endswith(f"quotetui-8-H100-一年训练-{date(2026, 11, 30).isoformat()}.xlsx")
        out = tmp_path / "board.xlsx"
        field.value = str(out)
        await pilot.press("enter")
        await settle(pilot)
        assert not isinstance(app.screen, ExportDialog)
        assert (f"Wrote {out}", "information") in app.told
    book = load_workbook(out)
    assert book["Side by side"]["B3"].value == "#2 一万网络"  # the pinned offer
    assert "8×H100 一年训练" in book.properties.title


async def test_export_to_a_missing_folder_says_so_in_the_dialog(demo_db_path: Path, tmp_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.action_export()
        await pilot.pause()
        app.screen.query_one("#path", Input).value = str(tmp_path / "nowhere" / "x.xlsx")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ExportDialog)
        assert "does not exist" in str(app.screen.query_one("#status", Static).content)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ExportDialog)


async def test_import_checks_first_then_imports_on_confirm(demo_db_path: Path, tmp_path: Path) -> None:
    offers = tmp_path / "new offers.csv"
    offers.write_text(
        "provider,offer,gpu,gpus_per_node,billing\n一万网络,8×H200 月租,H200,8,monthly\n", encoding="utf-8"
    )
    rounds = tmp_path / "negotiation.csv"
    rounds.write_text(
        "provider,offer,round,mover,quoted_at,price,unit,currency,term_months\n"
        "一万网络,8×H200 月租,1,list,2026-11-20,150000,node_month,CNY,1\n",
        encoding="utf-8",
    )
    before = count_rows(demo_db_path, Offer)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert isinstance(app.screen, ImportDialog)
        app.screen.query_one("#paths", Input).value = f'"{offers}" {rounds}'
        await pilot.press("enter")
        await settle(pilot)
        text = report_text(app)
        assert "Would import (dry run, nothing written):" in text
        assert "offers: 1 added, 0 changed, 0 unchanged" in text
        assert count_rows(demo_db_path, Offer) == before  # the check wrote nothing
        assert not app.screen.query_one("#confirm", Button).disabled
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not isinstance(app.screen, ImportDialog)
        assert any("offers: 1 added" in m for m, _ in app.told)
        assert app.market is not None and any(r.offer.name == "8×H200 月租" for r in app.market.rows)
    assert count_rows(demo_db_path, Offer) == before + 1


async def test_import_problems_are_listed_and_nothing_can_be_confirmed(demo_db_path: Path, tmp_path: Path) -> None:
    bad = tmp_path / "negotiation.csv"
    bad.write_text(
        "provider,offer,round,mover,quoted_at,price,unit,currency,term_months\n"
        "一万网络,8×H100 SXM5 整机,9,provider,next week,[170000],node_month,CNY,1\n",
        encoding="utf-8",
    )
    before = count_rows(demo_db_path, QuoteRevision)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.action_import()
        await pilot.pause()
        app.screen.query_one("#paths", Input).value = str(bad)
        await pilot.press("enter")
        await settle(pilot)
        text = report_text(app)
        assert "2 problems; nothing was imported:" in text
        assert "negotiation.csv › row 2 › column 'quoted_at': 'next week' is not a date" in text
        assert "column 'price': '[170000]' is not a number" in text  # shown as typed, not as markup
        assert app.screen.query_one("#confirm", Button).disabled
        await pilot.press("ctrl+s")
        await pilot.press("escape")
        await settle(pilot)
    assert count_rows(demo_db_path, QuoteRevision) == before


def test_default_export_name_is_safe() -> None:
    assert default_export_path("A/B: 8×H100?", date(2026, 1, 2), Path("/x")) == Path(
        "/x/quotetui-A-B--8-H100-2026-01-02.xlsx"
    )


async def test_dashboard_shows_cloud_market_medians_once_price_lists_are_imported(demo_db_path: Path) -> None:
    from quotetui.services.database import open_database
    from quotetui.services.market_prices import market_medians
    from tests.conftest import run_cli

    catalog = Path(__file__).parent / "fixtures" / "market" / "skypilot-lambda-vms.csv"
    assert run_cli("--db", str(demo_db_path), "import", str(catalog), "--as-of", "2026-11-01").code == 0
    rate = ("fx", "add", "USD", "CNY", "7.1", "--date", "2026-11-01", "--source", "test")
    assert run_cli("--db", str(demo_db_path), *rate).code == 0
    opened = open_database(str(demo_db_path))
    medians, _ = market_medians(opened.db, "CNY", date(2026, 11, 30))
    opened.db.dispose()
    h100 = next(m for m in medians if m.gpu == "H100 SXM5")
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        from tests.test_tui import text_of

        best = text_of(app, "#best")
        assert "/GPU-h cloud median" in best
        line = next(line for line in best.splitlines() if line.strip().startswith("H100 SXM5"))
        assert line.rstrip().endswith(f"{float(h100.median_gpu_hour):,.2f}")
