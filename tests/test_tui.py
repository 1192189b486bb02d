"""The TUI, driven like a buyer drives it (Textual's pilot)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from sqlmodel import select
from textual.widgets import DataTable, Input, Select, Static

from quotetui.domain.enums import Tone
from quotetui.services.database import open_database
from quotetui.store.models import Offer, QuoteRevision
from quotetui.tui.app import QuotetuiApp
from quotetui.tui.dialogs.form_screen import FormScreen
from quotetui.tui.offer_rows import at
from quotetui.tui.screens.offer_detail import OfferDetailScreen
from quotetui.tui.tones import STYLE
from quotetui.tui.widgets.virtual_table import VirtualTable

TODAY = date(2026, 11, 30)


class RecordingApp(QuotetuiApp):
    """Keeps every notification so tests can read what the user was told."""

    def __init__(self, db: str | None) -> None:
        super().__init__(db, today=TODAY)
        self.told: list[tuple[str, str]] = []

    def notify(self, message: str, *, severity: str = "information", **kwargs) -> None:  # type: ignore[override]
        self.told.append((message, severity))
        super().notify(message, severity=severity, **kwargs)  # type: ignore[arg-type]


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    """Every worker done, three times over. A worker cancelled because a newer one of its exclusive group
    replaced it (the 3 s data-version poll) is done too; any other failure is raised."""
    import asyncio

    from textual.worker import WorkerCancelled

    for _ in range(3):
        results = await asyncio.gather(*(w.wait() for w in list(pilot.app.workers)), return_exceptions=True)
        for result in results:
            if isinstance(result, BaseException) and not isinstance(result, WorkerCancelled):
                raise result
        await pilot.pause()


async def typed(pilot) -> None:  # type: ignore[no-untyped-def]
    """After typing into a calculator: it recalculates a moment after the last key, in a worker."""
    from quotetui.tui.screens.calculator import DEBOUNCE_S

    await pilot.pause(DEBOUNCE_S * 2)
    await settle(pilot)


def plain(content: object, width: int = 200) -> str:
    """What a Static shows, as plain text (its content may be a Rich table)."""
    from rich.console import Console

    if isinstance(content, str):
        return content
    console = Console(width=width, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(content)
    return console.export_text()


def text_of(app: QuotetuiApp, selector: str) -> str:
    return plain(app.screen.query_one(selector, Static).content)


def count_rows(path: Path, model: type) -> int:
    opened = open_database(str(path))
    with opened.db.session() as session:
        n = len(session.exec(select(model)).all())
    opened.db.dispose()
    return n


async def test_dashboard_shows_the_week_at_a_glance(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.sub_title.endswith("scenario: 8×H100 一年训练")
        best = text_of(app, "#best")
        assert "H100 SXM5" in best and "13.70" in best and "A100 80GB SXM4" in best
        flags = text_of(app, "#flags")
        assert "impossible" in flags and "547 % MFU" in flags
        assert "quoted" in text_of(app, "#by-status")
        assert not app.screen.query_one("#deadlines").display  # no contracts yet: no section


async def test_first_frame_does_not_wait_for_the_database(demo_db_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import threading

    import quotetui.services.market_view as market_view

    release = threading.Event()
    real = market_view.load_offers_view

    def slow(*args, **kwargs):  # type: ignore[no-untyped-def]
        assert release.wait(10)
        return real(*args, **kwargs)

    monkeypatch.setattr(market_view, "load_offers_view", slow)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.screen.query_one("#dashboard").loading  # painted, still loading
        release.set()
        await settle(pilot)
        assert not app.screen.query_one("#dashboard").loading


async def test_filter_and_sort_the_offers(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        table = app.screen.query_one(VirtualTable)
        assert len(table.view_rows) == 20
        assert [c.label for c in table.columns[:3]] == ["Rank", "ID", "Provider"]
        assert table.view_rows[0].cells[:3] == ["1", "18", "腾讯云"]  # rank 1: cost per delivered PFLOP-hour
        await pilot.press("slash")
        await pilot.press(*"阿里云")
        await pilot.pause()
        assert {r.cells[2] for r in table.view_rows} == {"阿里云"} and len(table.view_rows) == 4
        await pilot.press("escape")
        assert len(table.view_rows) == 20
        app.screen.query_one("#gpu-filter", Select).value = "A100 80GB SXM4"
        await pilot.pause()
        assert {r.cells[4] for r in table.view_rows} == {"A100 80GB SXM4"}
        await pilot.press("escape")
        for _ in range(6):  # Rank → ID → Provider → Offer → GPU → PFLOP-h → GPU-h
            await pilot.press("greater_than_sign")
        assert table.columns[table.sort_column or 0].key == "gpu_hour"
        prices = [Decimal(r.cells[6].replace(",", "")) for r in table.view_rows]
        assert prices == sorted(prices)
        await pilot.press("minus")
        prices = [Decimal(r.cells[6].replace(",", "")) for r in table.view_rows]
        assert prices == sorted(prices, reverse=True)


async def test_pin_and_compare_side_by_side(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        await pilot.press("space", "down", "space")
        assert app.pinned == (18, 14)
        for _ in range(4):
            await pilot.press("down", "space")
        assert len(app.pinned) == 4 and any("At most 4" in m for m, _ in app.told)
        await pilot.press("c")
        await settle(pilot)
        table = app.screen.query_one(DataTable)
        assert len(table.columns) == 5  # the figure names + 4 offers
        row = table.get_row_at(
            next(i for i in range(table.row_count) if str(table.get_row_at(i)[0]) == "Cost per delivered PFLOP-hour")
        )
        best = [cell for cell in row[1:] if STYLE[Tone.SUCCESS] in str(cell.style)]
        assert [str(c) for c in best] == ["≥ 34.98"]  # the best value in the row is highlighted, with its mark
        await pilot.press("x")
        assert app.pinned == ()


async def test_switch_scenario_and_every_figure_follows(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        before = {r.key: r.cells[at("tco")] for r in app.screen.query_one(VirtualTable).rows}
        await pilot.press("s")
        await settle(pilot)
        await pilot.press("down", "down", "enter")  # A100 微调 (8 卡, 3 个月, 60 %)
        await settle(pilot)
        assert app.market is not None and app.market.scenario.name.startswith("A100 微调")
        assert "A100 微调" in app.sub_title
        after = {r.key: r.cells[at("tco")] for r in app.screen.query_one(VirtualTable).rows}
        assert before != after  # the TCO column follows the scenario
        await pilot.press("d")
        await settle(pilot)
        assert "A100 微调" in text_of(app, "#scenario-line")


async def test_add_an_offer_through_the_form(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        await pilot.press("n")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, FormScreen)
        form.query_one("#f-provider", Select).value = "阿里云"
        form.query_one("#f-name", Input).value = "ecs.gn8v 8×H200（包月）"
        form.query_one("#f-gpu", Input).value = "NVIDIA H200"
        form.query_one("#f-amount", Input).value = "110000"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not isinstance(app.screen, FormScreen)
        table = app.screen.query_one(VirtualTable)
        new = [r for r in table.rows if r.cells[at("name")] == "ecs.gn8v 8×H200（包月）"]
        assert new and new[0].cells[at("gpu")] == "H200 SXM" and new[0].cells[at("provider")] == "阿里云"
    assert count_rows(demo_db_path, Offer) == 21


async def test_bad_input_in_every_field_gives_inline_messages_and_saves_nothing(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        await pilot.press("n")
        await pilot.pause()
        form = app.screen
        bad = {
            "name": "",
            "gpu": "H1000",
            "gpus_per_node": "0",
            "nodes_available": "-1",
            "valid_until": "2026-13-40",
            "inter_gbps_per_gpu": "fast",
            "ram_gb": "1.5",
            "nvme_tb": "-3",
            "lead_time_days": "x",
            "amount": "-5",
            "amount_high": "1.1234567",
            "currency": "XYZ",
            "term_months": "abc",
        }
        for name, value in bad.items():
            form.query_one(f"#f-{name}", Input).value = value
        form.query_one("#f-provider", Select).clear()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        for name in [*bad, "provider"]:
            message = plain(form.query_one(f"#e-{name}", Static).content)
            assert message, f"{name} shows no message"
        assert "closest matches: H100 SXM5" in plain(form.query_one("#e-gpu", Static).content)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, FormScreen)
    assert count_rows(demo_db_path, Offer) == 20


async def test_a_counter_offer_and_a_new_round_update_savings_and_target(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.open_offer(12)  # 阿里云 8×A100 reserved, 42,000 a node-month
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, OfferDetailScreen)
        await pilot.press("3")
        before = text_of(app, "#position")
        assert "target: at most" in before and "saved" not in before
        await pilot.press("k")
        await pilot.pause()
        app.screen.query_one("#f-amount", Input).value = "30000"
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("a")
        await pilot.pause()
        app.screen.query_one("#f-amount", Input).value = "36000"
        await pilot.press("ctrl+s")
        await settle(pilot)
        after = text_of(app, "#position")
        assert "current round 3 (provider): 36,000.00 CNY" in after
        assert "vs list price (round 1): 14.29 % saved" in after
        assert before.split("target:")[1] != after.split("target:")[1]
        rounds = text_of(app, "#rounds")
        assert "counter" in rounds and "30,000" in rounds
    assert count_rows(demo_db_path, QuoteRevision) == 22


async def test_rent_vs_buy_inputs_change_the_break_even(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("b")
        await settle(pilot)
        result = text_of(app, "#rb-result") + text_of(app, "#rb-notes")
        # the demo's purchase option, part by part: colocation 15,000 + power 4,000 × 10.2/5.6 kW × PUE 1.56 =
        # 11,365.71 + spares 2,500,000 × 5 % / 12 = 10,416.67 → 36,782.38 a month;
        # 2,500,000 ÷ (180,000 − 36,782.38) = 17.46
        assert "power 11,365.71 CNY a month" in result and "spares 10,416.67 CNY a month" in result
        assert "Break-even after 17.46 months" in result
        app.screen.query_one("#rb-rent_monthly", Input).value = "100000"
        await typed(pilot)
        # 2,500,000 ÷ (100,000 − 36,782.38) = 39.5 > 36: no break-even month; only the resale at month 36
        # (625,000, 25 % on the resale curve) brings owning ahead in all, 3,199,165.71 against 3,600,000 of rent
        shown = text_of(app, "#rb-result")
        assert "Break-even: not within 36 months" in shown and "counting the resale at month 36" in shown
        app.screen.query_one("#rb-staff_monthly", Input).value = "20000"
        await typed(pilot)  # a typed part takes the place of its recorded one, the others stay
        assert "staff 20,000.00 CNY a month (given)" in text_of(app, "#rb-notes")
        assert "colocation 15,000.00 CNY a month" in text_of(app, "#rb-notes")
        app.screen.query_one("#rb-capex", Input).value = "-1"
        await typed(pilot)
        assert "Capex (servers, network): must not be negative" in text_of(app, "#rb-result")


async def test_rent_vs_buy_nets_the_capex_vat_and_counts_power_by_use_on_the_screen(demo_db_path: Path) -> None:
    """Issue 30, point 10, from the keyboard: with costs net of VAT a capex of 2,500,000 with 13 % and a 专票
    is 2,500,000 ÷ 1.13 = 2,212,389.38; an idle draw of 30 % makes power follow use."""
    from quotetui.services.database import open_database
    from quotetui.services.settings import save_settings

    db = open_database(str(demo_db_path)).db
    save_settings(db, {"net_of_vat": "yes"})
    db.dispose()
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("b")
        await settle(pilot)
        app.screen.query_one("#rb-capex_vat_rate", Input).value = "13"
        app.screen.query_one("#rb-capex_special_invoice", Input).value = "yes"
        app.screen.query_one("#rb-idle_share", Input).value = "30"
        await typed(pilot)
        notes = " ".join(text_of(app, "#rb-notes").split())  # as rendered, wrapped to the screen
        assert "capex 2,212,389.38 CNY" in notes and "÷ (1 + 13 %) VAT recovered with the 专票" in notes
        assert "by use from an idle draw of 30 % of it (given)" in notes
        app.screen.query_one("#rb-capex_special_invoice", Input).value = "maybe"
        await typed(pilot)
        assert "专票" in text_of(app, "#rb-result")  # the field is named, nothing computed from a bad value


async def test_training_planner_costs_a_run_per_offer(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        app.screen.query_one("#tr-gpus", Input).value = "32"  # the default scenario's 8, as the DESIGN check
        app.screen.query_one("#tr-mfu", Input).value = "50"
        app.screen.query_one("#tr-scaling", Input).value = "100"
        await typed(pilot)
        result = text_of(app, "#tr-result")
        assert "229.7" in result and "#18" in result  # the DESIGN check, on every H100 offer


async def test_help_lists_every_binding(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await pilot.pause()
        shown = " ".join(plain(s.content) for s in app.screen.query(Static))
        for words in (
            "Dashboard",
            "Pin",
            "Our counter",
            "Command palette",
            "Cancel (nothing saved)",
            "Reset inputs",
            "Import logs",
            "Sign contract",
            "Contracts",
            "Incident",
            "Invoice",
        ):
            assert words in shown
        await pilot.press("escape")


async def test_a_bad_database_is_an_error_notification_not_a_crash(tmp_path: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_text("not a database")
    app = RecordingApp(str(bad))
    async with app.run_test() as pilot:
        await settle(pilot)
        assert any("not a quotetui database" in m and s == "error" for m, s in app.told)


@pytest.mark.parametrize("size", [(80, 24)])
async def test_usable_at_80x24(demo_db_path: Path, size: tuple[int, int]) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        table = app.screen.query_one(VirtualTable)
        assert table.size.height >= 15  # most of the screen is the table
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, OfferDetailScreen)


async def test_edit_and_delete_recorded_rows_with_confirmation(demo_db_path: Path) -> None:
    from quotetui.store.models import Discount
    from quotetui.tui.dialogs.confirm import ConfirmDialog
    from quotetui.tui.dialogs.pick import PickDialog

    before = count_rows(demo_db_path, Discount)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.open_offer(2)  # 一万网络 8×H100 (官网价): one term discount of 15 %
        await settle(pilot)
        await pilot.press("I")
        await pilot.pause()
        assert isinstance(app.screen, PickDialog)
        await pilot.press("enter")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, FormScreen)
        form.query_one("#f-rate", Input).value = "20"
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("2")
        assert "× (1 − 20.00 %) term discount 20 %" in text_of(app, "#figures")
        await pilot.press("I")
        await pilot.pause()
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("escape")  # cancelled: nothing deleted
        await settle(pilot)
        assert count_rows(demo_db_path, Discount) == before
        await pilot.press("I")
        await pilot.pause()
        await pilot.press("x")
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot)
    assert count_rows(demo_db_path, Discount) == before - 1


async def test_a_modes_key_shows_its_own_screen_again_from_a_screen_opened_over_it(demo_db_path: Path) -> None:
    """`o` on an offer opened from the offers table did nothing, although the footer offers it."""
    from quotetui.tui.screens.offer_detail import OfferDetailScreen
    from quotetui.tui.screens.offers import OffersScreen

    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, OfferDetailScreen)
        await pilot.press("o")
        await settle(pilot)
        assert isinstance(app.screen, OffersScreen)
        await pilot.press("enter", "d", "o")  # another mode and back: the table again, not the offer
        await settle(pilot)
        assert isinstance(app.screen, OfferDetailScreen)
        await pilot.press("o")
        await settle(pilot)
        assert isinstance(app.screen, OffersScreen)


async def test_an_open_quote_past_its_valid_until_day_is_flagged(cli, demo_db_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A quote valid until 1900 ranked as an open offer with nothing said (review): it is flagged, in yellow."""
    from quotetui.tui.offer_rows import at
    from quotetui.tui.widgets.virtual_table import VirtualTable

    assert cli("--db", str(demo_db_path), "offer", "edit", "20", "--valid-until", "2026-11-29").code == 0
    app = RecordingApp(str(demo_db_path))  # today 2026-11-30: the day after
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        table = app.screen.query_one(VirtualTable)
        rows = {row.key: row for row in table.rows}
        assert rows[20].cells[at("flags")].endswith("! lapsed 2026-11-29")  # as `offers` flags it
        assert rows[20].styles == {at("flags"): Tone.WARNING}
        assert "lapsed" not in rows[18].cells[at("flags")]
        await pilot.press("d")  # the dashboard lists it with the quotes about to expire
        await settle(pilot)
        card = text_of(app, "#expiring")
        assert "Quotes lapsed or expiring within 14 days" in card and "#20" in card and "lapsed" in card
    listed = cli("--db", str(demo_db_path), "offers").out
    assert "! #20: quote lapsed 2026-11-29 (valid until): ask for a new one" in listed
