"""The assumptions every figure rests on can be changed (`quotetui settings`), and every figure, `explain`
and the export use the same ones: hours a month, the default MFU and availability, the display time zone."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from openpyxl import load_workbook

from tests.conftest import Cli, execute, sql


def _offer(cli: Cli, db: Path, offer_id: int) -> dict:  # type: ignore[type-arg]
    return next(o for o in json.loads(cli("--db", str(db), "offers", "--json").out) if o["id"] == offer_id)


def test_changed_assumptions_move_every_figure(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    db = str(demo_db_path)
    result = cli("--db", db, "settings", "set", "--hours-per-month", "720", "--default-mfu", "35%")
    assert result.code == 0, result.err
    assert "Hours a month: 720" in result.out and "Default MFU (no evidence): 35 %" in result.out
    o = _offer(cli, demo_db_path, 18)  # 腾讯云 80,000 a node-month, no MFU evidence, no SLA
    assert o["price_per_gpu_hour"] == "13.888889"  # 80,000 ÷ (8 × 720), not ÷ (8 × 730)
    assert (o["mfu"], o["mfu_source"]) == ("0.35", "default")
    expected = Decimal(o["cost_per_gpu_hour"]) * 1000 / (989 * Decimal("0.35") * Decimal("0.99"))
    assert abs(Decimal(o["cost_per_pflop_hour"]) - expected) < Decimal("0.00001")
    assert o["assumptions"]["hours_per_month"] == 720
    explained = cli("--db", db, "explain", "18").out
    assert "assumptions: 720 hours a month; default MFU 35 %" in explained
    # the downtime's formula names the year it computes with: 12 × 720 = 8,640 hours, not the default 8,760
    assert "how: (1 − availability) × 8,640 h a year\n  · (1 − 99 %) × 8,640\n" in explained
    out = tmp_path / "board.xlsx"
    assert cli("--db", db, "export", str(out)).code == 0
    tco = load_workbook(out)["TCO"]
    assert (tco["A3"].value, tco["B3"].value) == ("Hours a month", 720)
    # an empty value puts the default back
    assert cli("--db", db, "settings", "set", "--hours-per-month", "").code == 0
    assert _offer(cli, demo_db_path, 18)["price_per_gpu_hour"] == "13.69863"


def test_bad_settings_are_refused_with_their_flag(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    for args, message in (
        (("--hours-per-month", "9999"), "--hours-per-month: must be at most 744"),
        (("--default-mfu", "90%"), "--default-mfu: must be at most 75 %"),
        (("--time-zone", "Mars/Base"), "--time-zone: 'Mars/Base' is not a time zone name"),
        (("--default-availability", "0.99"), "did you mean 99%?"),
        (("--default-availability", "1"), "is ambiguous"),
    ):
        result = cli("--db", db, "settings", "set", *args)
        assert result.code == 2 and message in result.err, (args, result.err)
    shown = json.loads(cli("--db", db, "settings", "--json").out)
    assert all(v["default"] for v in shown.values())


@pytest.mark.sqlite_only  # compares the stored text of two SQLite files
def test_dates_are_shown_and_exported_in_the_users_time_zone(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    db = str(demo_db_path)
    # 一万网络's 8×A100 list price was quoted on 2026-11-30 in Beijing: 2026-11-29 16:00 in UTC
    [(stored,)] = sql(demo_db_path, "SELECT quoted_at FROM quote_revision WHERE offer_id = 3 AND seq = 1")
    assert str(stored).startswith("2026-11-29 16:00")
    assert cli("--db", db, "settings", "set", "--time-zone", "Asia/Shanghai").code == 0
    out = tmp_path / "board.xlsx"
    assert cli("--db", db, "export", str(out)).code == 0
    sheet = load_workbook(out, read_only=True)["Negotiation"]
    rows = sheet.iter_rows(values_only=True)
    header = list(next(rows))
    shown = {r[header.index("quoted_at")] for r in rows if r[header.index("offer")] == "8×A100 80GB SXM4 整机"}
    assert shown == {"2026-11-30 00:00+08:00"}
    # it reads back to the same instant
    again = tmp_path / "again.db"
    assert cli("--db", str(again), "import", str(out)).code == 0
    assert sql(again, "SELECT quoted_at FROM quote_revision r JOIN offer o ON o.id = r.offer_id "
                      "WHERE o.name = '8×A100 80GB SXM4 整机'") == [(stored,)]  # fmt: skip
    # the offer's rounds, as the TUI shows them, are on the Beijing day
    from quotetui.domain.timeutil import local_day
    from quotetui.services.database import open_database
    from quotetui.services.offer_detail import load_offer_detail

    opened = open_database(db)
    detail = load_offer_detail(opened.db, 3)
    opened.db.dispose()
    assert detail.time_zone == "Asia/Shanghai"
    assert local_day(detail.rounds[0].revision.quoted_at, detail.time_zone).isoformat() == "2026-11-30"


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)])
async def test_the_tui_settings_form_changes_every_figure(demo_db_path: Path, size: tuple[int, int]) -> None:
    from textual.widgets import Button, Input

    from tests.test_tui import RecordingApp, settle

    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        app.action_settings()
        await settle(pilot)
        hours = app.screen.query_one("#f-hours_per_month", Input)
        assert hours.value == "730" and app.screen.query_one("#f-default_mfu", Input).value == "40"
        save = app.screen.query_one("#save", Button)
        assert save.region.height > 0 and save.region.bottom <= size[1]
        hours.value = "9999"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "must be at most 744" in str(app.screen.query_one("#e-hours_per_month").render())
        hours.value = "720"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.market is not None and app.market.assumptions.hours_per_month == 720
        row = next(r for r in app.market.rows if r.offer.id == 18)
        assert row.evaluation is not None and row.evaluation.price_per_gpu_hour == Fraction(80000, 8 * 720)


def test_a_stored_setting_this_machine_cannot_use_is_named_with_its_fix(cli: Cli, demo_db_path: Path) -> None:
    """Issue 31, point 5: a time zone this machine's tzdata lacks (a shared database written by a newer one) or
    hours a month of 0 from an older version: every command that needs them names the setting and the fix, never
    an internal error; `settings` shows them as unreadable and `settings set` repairs them."""
    db = str(demo_db_path)
    for key, value in (("assumption.time_zone", "Mars/Olympus_Mons"), ("assumption.hours_per_month", "0")):
        execute(demo_db_path, 'DELETE FROM setting WHERE "key" = :k', {"k": key})  # SQLite or PostgreSQL
        execute(demo_db_path, 'INSERT INTO setting ("key", value) VALUES (:k, :v)', {"k": key, "v": value})
    for args in (("offers",), ("explain", "1"), ("calc", "rent-vs-buy", "--purchase", "1", "--offer", "13")):
        result = cli("--db", db, *args)
        assert result.code != 0 and "internal error" not in result.err, (args, result.err)
        assert (
            "the setting time_zone ('Mars/Olympus_Mons': 'Mars/Olympus_Mons' is not a time zone this machine knows)"
            in result.err
        )
        assert "`quotetui settings set --hours-per-month VALUE`" in result.err
    shown = json.loads(cli("--db", db, "settings", "--json").out)
    assert (
        shown["time_zone"]["unreadable"].startswith("'Mars/Olympus_Mons'") and "unreadable" not in shown["default_mfu"]
    )
    assert cli("--db", db, "settings", "set", "--time-zone", "", "--hours-per-month", "730").code == 0
    assert cli("--db", db, "offers").code == 0
