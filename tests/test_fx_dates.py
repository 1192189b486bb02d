"""Each foreign-currency price converts at the rate of the day it was quoted (in the user's time zone), named;
with no rate on or before that day, the first recorded after it, said so. The TCO sheet lists each rate used."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quotetui.services.database import open_database
from quotetui.services.export_data import gather
from quotetui.services.transfer import export_file
from tests.conftest import Cli
from tests.test_export_libreoffice import SOFFICE, app, cents, recalculate, tco_rows

OFFERS = (
    "provider,offer,gpu,gpus_per_node,billing\n"
    "Lambda,early,H100 SXM5,8,on_demand\nLambda,late,H100 SXM5,8,on_demand\nLambda,before,H100 SXM5,8,on_demand\n"
)
ROUNDS = (
    "provider,offer,round,mover,quoted_at,price,unit,currency,term_months\n"
    "Lambda,early,1,list,2026-11-02 10:00+00:00,2.00,gpu_hour,USD,0\n"
    "Lambda,late,1,list,2026-11-25 10:00+00:00,2.00,gpu_hour,USD,0\n"
    "Lambda,before,1,list,2026-10-15 10:00+00:00,2.00,gpu_hour,USD,0\n"
)


@pytest.fixture
def market(cli: Cli, demo_db_path: Path, tmp_path: Path) -> Path:
    (tmp_path / "providers.csv").write_text("name,kind\nLambda,gpu_cloud\n", encoding="utf-8")
    (tmp_path / "offers.csv").write_text(OFFERS, encoding="utf-8")
    (tmp_path / "negotiation.csv").write_text(ROUNDS, encoding="utf-8")
    db = str(demo_db_path)
    files = [str(tmp_path / n) for n in ("providers.csv", "offers.csv", "negotiation.csv")]
    for args in (
        ("import", *files),
        ("fx", "add", "USD", "CNY", "7.10", "--date", "2026-11-01", "--source", "PBOC"),
        ("fx", "add", "USD", "CNY", "7.20", "--date", "2026-11-20", "--source", "PBOC"),
    ):
        result = cli("--db", db, *args)
        assert result.code == 0, result.err
    return demo_db_path


def test_each_price_converts_at_its_quote_days_rate(cli: Cli, market: Path) -> None:
    ranked = json.loads(cli("--db", str(market), "offers", "--json").out)
    lambdas = {o["name"]: o for o in ranked if o["provider"] == "Lambda"}
    # 8 GPUs × 730 h × 12 months × 2.00 USD = 140,160 USD; at 7.10 = 995,136, at 7.20 = 1,009,152
    assert lambdas["early"]["total_cost"] == "995136.00" and "on 2026-11-01" in lambdas["early"]["fx"]
    assert lambdas["late"]["total_cost"] == "1009152.00" and "on 2026-11-20" in lambdas["late"]["fx"]
    # quoted before any rate was recorded: the first rate after the quote day, said so
    assert lambdas["before"]["total_cost"] == "995136.00"
    assert "the first rate after the quote day 2026-10-15" in lambdas["before"]["fx"]
    shown = cli("--db", str(market), "explain", str(lambdas["late"]["id"])).out
    assert "converted at 1 USD = 7.2 CNY on 2026-11-20 (PBOC)" in shown


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (libreoffice-calc-nogui) is not installed")
def test_the_tco_sheet_lists_each_rate_used(market: Path, tmp_path: Path) -> None:
    db = open_database(str(market)).db
    try:
        book = export_file(db, tmp_path / "fx.xlsx", None)
        data = gather(db, None)
    finally:
        db.dispose()
    (done,) = recalculate([book], tmp_path / "out", tmp_path / "profile")
    rows = tco_rows(done)
    for e in data.ranking.evaluations:
        assert cents(rows[e.offer.id]["V"]) == app(e.best.total), e.offer.name
    from openpyxl import load_workbook

    sheet = load_workbook(done, data_only=True)["TCO"]
    usd = [(sheet.cell(row=r, column=2).value, sheet.cell(row=r, column=3).value) for r in range(15, 20)
           if sheet.cell(row=r, column=1).value == "USD"]  # fmt: skip
    assert [rate for rate, _ in usd] == [7.1, 7.2]
