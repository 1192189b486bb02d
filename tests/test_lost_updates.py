"""No lost updates: every edited row carries a version; a form saved after its row was changed elsewhere (the
CLI, an import, another buyer on the server) is refused with "changed since you opened it" and can be filled
again; the TUI notices other programs' writes (and F5 reads everything again)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from quotetui.domain.enums import Mover
from quotetui.domain.errors import Conflict
from quotetui.services import editing
from quotetui.store.engine import Database
from quotetui.tui.app import QuotetuiApp
from quotetui.tui.dialogs.form_screen import FormScreen
from tests.conftest import Cli, dump, sql
from tests.test_tui import RecordingApp, settle

H100 = "8×H100 SXM5 整机"  # offer 1, of 一万网络 (provider 1)
OFFER = 1


def _import(cli: Cli, db: Path, tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = cli("--db", str(db), "import", str(path))
    assert result.code == 0, result.err


CHANGES = {  # what another program changes meanwhile, as an import does
    "offer": ("offers.csv", "provider,offer,gpu,gpus_per_node,billing,region\n"
              f"一万网络,{H100},H100,8,monthly,乌兰察布\n"),
    "provider": ("providers.csv", "name,kind,website\n一万网络,lessor,https://changed.example\n"),
    "SLA": ("sla.csv", f"provider,offer,credits\n一万网络,{H100},\"99.9:10, 99:30\"\n"),
    "round": ("negotiation.csv", "provider,offer,round,mover,quoted_at,price,unit,currency,term_months\n"
              f"一万网络,{H100},1,list,2026-11-30,170000,node_month,CNY,1\n"),
}  # fmt: skip


def _forms(db: Database) -> dict[str, tuple[object, object]]:
    """Each editable thing of offer 2: the form as opened now, and how to save it."""
    offer = editing.offer_form(db, OFFER)
    provider = editing.provider_form(db, 1)
    sla = editing.sla_form(db, OFFER)
    round_id = _rounds(db)[0][0]
    rnd = editing.revision_edit_form(db, round_id)
    mine = {"notes": "mine"}
    return {
        "offer": (offer, lambda: editing.save_offer(db, offer.values | mine, OFFER, offer.version)),
        "provider": (provider, lambda: editing.save_provider(db, provider.values | mine, 1, provider.version)),
        "SLA": (sla, lambda: editing.save_sla(db, OFFER, sla.values | mine, sla.version)),
        "round": (rnd, lambda: editing.update_revision(db, round_id, rnd.values | {"round_note": "mine"}, rnd.version)),
    }  # fmt: skip


def _rounds(db: Database) -> list[tuple[int]]:
    with db.engine.connect() as conn:
        query = f"SELECT id FROM quote_revision WHERE offer_id = {OFFER} ORDER BY seq"
        return [tuple(r) for r in conn.exec_driver_sql(query)]


@pytest.mark.parametrize("what", sorted(CHANGES))
def test_a_form_saved_after_its_row_changed_elsewhere_is_refused(
    what: str, cli: Cli, demo_db: Database, demo_db_path: Path, tmp_path: Path
) -> None:
    _, save = _forms(demo_db)[what]
    _import(cli, demo_db_path, tmp_path, *CHANGES[what])  # another program, after the form was opened
    changed = dump(demo_db_path)
    with pytest.raises(Conflict, match="changed since you opened it"):
        save()  # type: ignore[operator]
    assert dump(demo_db_path) == changed  # the other program's change stands; nothing of the form was saved
    _, save_fresh = _forms(demo_db)[what]
    save_fresh()  # type: ignore[operator]  # filled again from the current values, it saves


def test_an_unchanged_row_saves_and_its_version_counts_up(demo_db: Database, demo_db_path: Path) -> None:
    [(before,)] = sql(demo_db_path, f"SELECT version FROM offer WHERE id = {OFFER}")
    form = editing.offer_form(demo_db, OFFER)
    editing.save_offer(demo_db, form.values | {"notes": "first"}, OFFER, form.version)
    [(after,)] = sql(demo_db_path, f"SELECT version FROM offer WHERE id = {OFFER}")
    assert after == before + 1
    with pytest.raises(Conflict):  # the same, now stale, form a second time
        editing.save_offer(demo_db, form.values | {"notes": "second"}, OFFER, form.version)


def test_every_write_and_only_a_write_moves_the_data_version(
    cli: Cli, demo_db: Database, demo_db_path: Path, tmp_path: Path
) -> None:
    start = demo_db.data_version()
    _import(cli, demo_db_path, tmp_path, *CHANGES["offer"])
    moved = demo_db.data_version()
    assert moved > start
    _import(cli, demo_db_path, tmp_path, *CHANGES["offer"])  # the same again: nothing changes
    assert cli("--db", str(demo_db_path), "offers").code == 0
    assert demo_db.data_version() == moved
    editing.save_revision(demo_db, 2, editing.revision_form(demo_db, 2, Mover.COUNTER).values | {"amount": "1"})
    assert demo_db.data_version() == moved + 1


async def test_the_tui_form_says_changed_since_you_opened_it_and_fills_again(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        app.open_offer(OFFER)
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, FormScreen)
        form.query_one("#f-notes", Input).value = "typed in the TUI"
        _import(cli, demo_db_path, tmp_path, *CHANGES["offer"])  # the CLI, meanwhile
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert any("changed since you opened it" in m for m, _ in app.told)
        await pilot.press("y")  # fill the form again
        await settle(pilot)
        assert isinstance(app.screen, FormScreen)
        assert app.screen.query_one("#f-region", Input).value == "乌兰察布"
        await pilot.press("ctrl+s")
        await settle(pilot)
    assert sql(demo_db_path, f"SELECT region, notes FROM offer WHERE id = {OFFER}")[0][0] == "乌兰察布"


async def test_the_tui_notices_another_programs_write(
    cli: Cli, demo_db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(QuotetuiApp, "POLL_SECONDS", 0.2)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.market is not None and len(app.market.rows) == 20
        _import(cli, demo_db_path, tmp_path, "offers.csv", "provider,offer,gpu,gpus_per_node,billing\n"
                "一万网络,8×H200 new,H200,8,monthly\n")  # fmt: skip
        _import(cli, demo_db_path, tmp_path, "negotiation.csv",
                "provider,offer,round,mover,quoted_at,price,unit,currency,term_months\n"
                "一万网络,8×H200 new,1,list,2026-11-30,200000,node_month,CNY,1\n")  # fmt: skip
        for _ in range(30):
            await pilot.pause(0.2)
            await settle(pilot)
            if app.market is not None and len(app.market.rows) == 21:
                break
        assert app.market is not None and len(app.market.rows) == 21
        assert any("changed by another program" in m for m, _ in app.told)


async def test_f5_reads_everything_again(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        _import(cli, demo_db_path, tmp_path, *CHANGES["offer"])
        await pilot.press("f5")
        await settle(pilot)
        assert app.market is not None and app.market.row(OFFER).offer.region == "乌兰察布"  # type: ignore[union-attr]
