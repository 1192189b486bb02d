"""Contracts in the TUI: sign an offer (S), see it on the Contracts screen (r) and the dashboard's key
dates, open it, record an incident (i) and an invoice (v) and see the credits and the invoice check."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Checkbox, Input

from quotetui.services.database import open_database
from quotetui.services.editing import save_sla
from quotetui.tui.dialogs.confirm import ConfirmDialog
from quotetui.tui.dialogs.form_screen import FormScreen
from quotetui.tui.screens.contract_detail import ContractDetailScreen
from quotetui.tui.widgets.virtual_table import VirtualTable
from tests.conftest import Cli, sql
from tests.test_tui import RecordingApp, count_rows, settle, text_of


def _fill(app: RecordingApp, **values: str | bool) -> None:
    for name, value in values.items():
        widget = app.screen.query_one(f"#f-{name}")
        if isinstance(widget, Checkbox):
            widget.value = bool(value)
        else:
            assert isinstance(widget, Input)
            widget.value = str(value)


async def test_sign_then_follow_a_contract(demo_db_path: Path) -> None:
    from quotetui.store.models import Contract, Incident, Invoice

    opened = open_database(str(demo_db_path))
    save_sla(opened.db, 2, {"availability": "99.9", "preemption": "none", "credits": "99.9:10, 99:25"})
    opened.db.dispose()
    app = RecordingApp(str(demo_db_path))  # today: 2026-11-30
    async with app.run_test(size=(150, 50)) as pilot:
        await settle(pilot)
        app.open_offer(2)
        await settle(pilot)
        await pilot.press("S")
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        _fill(app, start="2026-13-01", term_months="0")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)  # both fields refused, nothing saved
        assert "not a date" in str(app.screen.query_one("#e-start").render())
        assert count_rows(demo_db_path, Contract) == 0
        _fill(app, start="2026-01-31", term_months="12", notice_days="30", auto_renew=True, gpus="16",
              reference="YW-H100-01", committed="2448000")  # fmt: skip
        await pilot.press("ctrl+s")
        await settle(pilot)
        # offer #2 does not state its stock: two nodes are asked about, with the monthly charge, before signing
        assert isinstance(app.screen, ConfirmDialog)
        asked = " ".join(str(w.render()) for w in app.screen.query("Label, Static"))
        assert "Sign beyond the offer's stated stock?" in asked
        assert "commits to 16 GPUs (2 nodes) at 204,000.00 CNY a month" in asked
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, FormScreen) and count_rows(demo_db_path, Contract) == 0
        assert ("Nothing was saved.", "information") in app.told
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await settle(pilot)
        assert ("contract #1 signed; r shows the contracts", "information") in app.told
        assert sql(demo_db_path, "SELECT via FROM change_log WHERE entity = 'contract'") == [("tui",)]

        await pilot.press("escape")
        await pilot.press("d")
        await settle(pilot)
        dates = text_of(app, "#deadlines")
        assert "within 30 days" in dates and "2026-12-31" in dates and "notice deadline: YW-H100-01" in dates
        assert "overdue" in dates  # the monthly payments so far have no paid invoice

        await pilot.press("r")
        await settle(pilot)
        table = app.screen.query_one("#contracts", VirtualTable)
        [row] = table.rows
        assert row.cells[1] == "YW-H100-01" and row.cells[7] == "204,000.00"
        dates = app.screen.query_one("#key-dates", VirtualTable)
        notice = [r for r in dates.rows if r.cells[3].startswith("notice deadline: YW-H100-01")]
        assert len(notice) == 1 and notice[0].cells[1] == "2027-01-01" and "renews for 12 months" in notice[0].cells[3]
        assert "date" in text_of(app, "#key-dates-title") and "within 90 days" in text_of(app, "#key-dates-title")
        dates.focus()
        dates.move_to(notice[0].key)
        await pilot.press("enter")  # a key date opens its contract
        await settle(pilot)
        assert isinstance(app.screen, ContractDetailScreen)
        await pilot.press("escape")
        await settle(pilot)
        table.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ContractDetailScreen)
        body = text_of(app, "#contract-body")
        assert "monthly charge 204,000.00 CNY" in body and "below 99.90 %: 10.0 %" in body

        await pilot.press("i")
        await pilot.pause()
        _fill(app, started_at="2026-02-27T20:00Z", ended_at="2026-03-01T04:00Z", affected_gpus="8",
              description="NVLink fault")  # fmt: skip
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("v")
        await pilot.pause()
        _fill(app, period_start="2026-01-31", period_end="2026-02-27", amount="204000.01", paid=True)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, ContractDetailScreen)
        body = text_of(app, "#contract-body")
        assert "97.917 %" in body and "25.0 % = 51,000.00" in body
        assert "204,000.01" in body and "0.01" in body
        assert "credits owed 71,400.00 CNY" in body

        await pilot.press("m")  # an amendment: a third node from March
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        _fill(app, effective="2026-03-01", gpus="24", reason="a third node for the March run")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)  # more nodes on an unstated stock: asked, as at signing
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, ContractDetailScreen), app.told
        assert ("amendment 1 of contract #1 recorded", "information") in app.told
        body = text_of(app, "#contract-body")
        assert "GPUs 16 → 24; nodes 2 → 3" in body and "a third node for the March run" in body
        assert "25.0 % = 51,000.00" in body  # February keeps the charge and the GPUs it had
    assert count_rows(demo_db_path, Incident) == 1 and count_rows(demo_db_path, Invoice) == 1
    assert sql(demo_db_path, "SELECT via FROM change_log WHERE entity = 'contract_amendment'") == [("tui",)]


async def test_sign_after_our_counter_says_why_and_opens_no_form(demo_db_path: Path, tmp_path: Path) -> None:
    from tests.conftest import run_cli, sql

    [(last,)] = sql(demo_db_path, "SELECT MAX(seq) FROM quote_revision WHERE offer_id = 1")
    rounds = tmp_path / "negotiation.csv"
    rounds.write_text("provider,offer,round,mover,quoted_at,price,unit,currency,term_months\n"
                      f"一万网络,8×H100 SXM5 整机,{last + 1},counter,2026-11-29 10:00+08:00,60000,node_month,CNY,1\n",
                      encoding="utf-8")  # fmt: skip
    assert run_cli("--db", str(demo_db_path), "import", str(rounds)).code == 0
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.open_offer(1)
        await settle(pilot)
        await pilot.press("S")
        await pilot.pause()
        assert not isinstance(app.screen, FormScreen)
        told = " ".join(text for text, _ in app.told)
        assert f"the last round ({last + 1}) is our counter-offer" in told
        assert f"the provider's current offer is round {last}" in told


async def test_the_contract_screen_shows_the_acceptance_checklist_and_a_accepts(
    demo_db_path: Path, tmp_path: Path
) -> None:
    from tests.conftest import probe_bundle, run_cli, sql

    samples = Path(__file__).parent.parent / "imports" / "samples" / "h100-clean"
    db = str(demo_db_path)
    for host in ("node01", "node02"):  # two nodes sold: both machines' logs
        bundle = probe_bundle(tmp_path, host, sorted(samples.iterdir()))
        assert run_cli("--db", db, "bench", "import", str(bundle), "--offer", "9").code == 0
    assert run_cli("--db", db, "contracts", "add", "--offer", "9", "--start", "2026-12-01", "--term-months", "12",
                   "--gpus", "16").code == 0  # fmt: skip
    app = RecordingApp(db)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.push_screen(ContractDetailScreen(1))
        await settle(pilot)
        body = text_of(app, "#contract-body")
        assert "Acceptance (a accepts, w waives an item): blocked by Scale-out AllReduce" in body
        assert "GEMM ≥ 70 % of peak" in body and "median 792.8 TFLOPS = 80.2 % of 989" in body
        await pilot.press("a")
        await settle(pilot)
        assert any("cannot be accepted:\nscale_out (Scale-out AllReduce) missing: " in text for text, _ in app.told)
        assert sql(demo_db_path, "SELECT accepted_on FROM contract") == [(None,)]
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        await pilot.press("ctrl+s")  # no reason, no name: refused in place, nothing saved
        await pilot.pause()
        assert isinstance(app.screen, FormScreen) and "required" in str(app.screen.query_one("#e-reason").render())
        assert sql(demo_db_path, "SELECT COUNT(*) FROM acceptance_waiver") == [(0,)]
        _fill(app, reason="one node is enough for the first month", by="Li Wei")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, ContractDetailScreen)
        assert sql(demo_db_path, "SELECT item, waived_by, waived_on FROM acceptance_waiver") in (
            [("scale_out", "Li Wei", "2026-11-30")],
            [("scale_out", "Li Wei", __import__("datetime").date(2026, 11, 30))],
        )
        body = " ".join(text_of(app, "#contract-body").split())  # the cell wraps
        assert "Scale-out AllReduce waived no multi-host" in body
        assert "waived by Li Wei on 2026-11-30: one node is enough for the first month" in body
        await pilot.press("a")
        await settle(pilot)
        assert ("contract #1 accepted", "information") in app.told
        assert "Acceptance: accepted on 2026-11-30" in text_of(app, "#contract-body")


async def test_an_ended_contract_screen_says_what_contracts_show_says(cli: Cli, demo_db_path: Path) -> None:
    """A hostile review: the paid figure lacked its currency (``已付 180,000.00``), an exact invoice's difference
    read ``0``, and an ended contract showed a key-dates table of nothing but its header; `contracts show`
    says ``（已付 180,000.00 CNY）`` and ``关键日期：暂无后续日期``."""
    from quotetui import language

    db = str(demo_db_path)
    assert cli("--db", db, "contracts", "add", "--offer", "1", "--start", "2025-01-01", "--term-months", "6").code == 0
    invoice = ("contracts", "invoice", "add", "1", "--from", "2025-01-01", "--to", "2025-01-31")
    assert cli("--db", db, *invoice, "--amount", "180000", "--currency", "CNY", "--paid").code == 0
    shown = cli("--db", db, "--lang", "zh-CN", "contracts", "show", "1").out
    assert "截至当日已消费 180,000.00 CNY（已付 180,000.00 CNY）" in shown and "关键日期：暂无后续日期" in shown
    language.use("zh-CN")
    try:
        app = RecordingApp(db)  # today: 2026-11-30, the contract ended 2025-07-01
        async with app.run_test(size=(150, 50)) as pilot:
            await settle(pilot)
            app.push_screen(ContractDetailScreen(1))
            await settle(pilot)
            body = text_of(app, "#contract-body")
            assert "截至当日已消费 180,000.00 CNY（已付 180,000.00 CNY）" in body
            assert "关键日期：暂无后续日期" in body
            row = next(line for line in body.splitlines() if line.startswith("1 ") and "2025-01-31" in line)
            assert row.split()[-2:] == ["0.00", "是"], row  # the difference, then paid
    finally:
        language.use(language.ENGLISH)
