"""China's invoices: an offer records the VAT its prices include and whether it issues a 专票 (special VAT
invoice); with the setting "net of recoverable VAT" a 专票 offer is costed without the VAT the buyer recovers.
Figures by hand: 106,000 a node-month with 6 % VAT is 100,000 net."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from openpyxl import load_workbook

from quotetui.services.database import open_database
from quotetui.services.export_data import gather
from quotetui.services.transfer import export_file
from tests.conftest import Cli
from tests.test_export_libreoffice import SOFFICE, app, cents, recalculate, tco_rows

OFFERS = (
    "provider,offer,gpu,gpus_per_node,billing,税率,专票\n"
    "一万网络,专票 8×H100,H100 SXM5,8,monthly,6%,yes\n"
    "一万网络,普票 8×H100,H100 SXM5,8,monthly,6%,no\n"
)
ROUNDS = (
    "provider,offer,round,mover,quoted_at,price,unit,currency,term_months\n"
    "一万网络,专票 8×H100,1,provider,2026-11-02 10:00+08:00,106000,node_month,CNY,1\n"
    "一万网络,普票 8×H100,1,provider,2026-11-02 10:00+08:00,103000,node_month,CNY,1\n"
)
EXTRAS = "provider,offer,kind,basis,amount,currency\n一万网络,专票 8×H100,egress,per_gb,0.53,CNY\n"


@pytest.fixture
def market(cli: Cli, demo_db_path: Path, tmp_path: Path) -> Path:
    files = {"offers.csv": OFFERS, "negotiation.csv": ROUNDS, "extra costs.csv": EXTRAS}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    result = cli("--db", str(demo_db_path), "import", *(str(tmp_path / n) for n in files))
    assert result.code == 0, result.err
    return demo_db_path


def _two(cli: Cli, db: Path) -> dict[str, dict]:  # type: ignore[type-arg]
    result = cli("--db", str(db), "offers", "--json")  # the default scenario: 8 GPUs (1 node), 12 months, 1 TB
    assert result.code == 0, result.err
    return {o["name"]: o for o in json.loads(result.out) if o["name"].endswith("8×H100")}


def test_net_of_recoverable_vat_reorders_the_offers(cli: Cli, market: Path) -> None:
    gross = _two(cli, market)
    # as invoiced: 12 × 106,000 + 12 × 1,000 GB × 0.53 = 1,278,360 against 12 × 103,000 = 1,236,000 (no egress
    # charge recorded for the second: a lower bound)
    assert gross["专票 8×H100"]["total_cost"] == "1278360.00" and gross["普票 8×H100"]["total_cost"] == "1236000.00"
    assert gross["专票 8×H100"]["vat"] == {"rate": "0.06", "special_invoice": True, "recovered": False}
    assert gross["普票 8×H100"]["rank"] < gross["专票 8×H100"]["rank"]
    assert cli("--db", str(market), "settings", "set", "--net-of-vat", "yes").code == 0
    net = _two(cli, market)
    # net: 106,000 ÷ 1.06 = 100,000 a month and 0.53 ÷ 1.06 = 0.50 a GB: 1,200,000 + 6,000 = 1,206,000; the
    # 普票 offer's VAT cannot be recovered, so it stays at 1,236,000
    assert net["专票 8×H100"]["total_cost"] == "1206000.00" and net["普票 8×H100"]["total_cost"] == "1236000.00"
    assert net["专票 8×H100"]["vat"]["recovered"] is True and net["专票 8×H100"]["assumptions"]["net_of_vat"]
    assert net["专票 8×H100"]["rank"] < net["普票 8×H100"]["rank"]
    ids = {name: o["id"] for name, o in net.items()}
    shown = cli("--db", str(market), "explain", str(ids["专票 8×H100"])).out
    assert "÷ (1 + 6.00 %) VAT recovered with the 专票: 106,000.00 CNY → 100,000.00 CNY" in shown
    assert "costs net of recoverable VAT" in shown  # in the assumptions line
    other = cli("--db", str(market), "explain", str(ids["普票 8×H100"])).out
    assert "no 专票: the VAT cannot be recovered, costed as invoiced" in other


@pytest.mark.parametrize(
    ("cells", "message"),
    [("60%,yes", "at most 25 %"), ("0.06,yes", "0.06 would be 0.06 %: did you mean 6%?"), ("6%,maybe", "专票")],
)
def test_vat_fields_are_refused_when_absurd(
    cli: Cli, demo_db_path: Path, tmp_path: Path, cells: str, message: str
) -> None:
    (tmp_path / "offers.csv").write_text(OFFERS.replace("6%,yes", cells), encoding="utf-8")
    result = cli("--db", str(demo_db_path), "import", str(tmp_path / "offers.csv"))
    assert result.code != 0 and message in result.err and "nothing" in result.err.lower(), result.err


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (libreoffice-calc-nogui) is not installed")
def test_the_tco_sheets_vat_cell_recalculates_like_the_setting(cli: Cli, market: Path, tmp_path: Path) -> None:
    db = open_database(str(market)).db
    try:
        gross_book = export_file(db, tmp_path / "gross.xlsx", None)
        book = load_workbook(gross_book)
        sheet = book["TCO"]
        assert sheet["A12"].value.startswith("Net of VAT") and sheet["B12"].value == 0
        sheet["B12"] = 1  # the CFO switches the workbook to net
        book.save(tmp_path / "switched.xlsx")
        assert cli("--db", str(market), "settings", "set", "--net-of-vat", "yes").code == 0
        net = gather(db, None)
    finally:
        db.dispose()
    (switched,) = recalculate([tmp_path / "switched.xlsx"], tmp_path / "out", tmp_path / "profile")
    rows = tco_rows(switched)
    for e in net.ranking.evaluations:
        assert cents(rows[e.offer.id]["V"]) == app(e.best.total), e.offer.name
    vat_offer = next(e for e in net.ranking.evaluations if e.offer.name == "专票 8×H100")
    assert cents(rows[vat_offer.offer.id]["V"]) == 1_206_000
