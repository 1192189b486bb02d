"""The current round, defined once (domain/economics/rounds.py): the provider's latest priced round; our
counter-offer is what we asked for, never the price. The ranking, the negotiation figures, the export and
signing a contract all use it, so after we counter 40,000 on an 80,000 offer nothing says 40,000."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl

from tests.conftest import Cli

OFFER = "provider,offer,gpu,gpus_per_node,billing\n一万网络,8×H100 test,H100 SXM5,8,monthly\n"
HEAD = "provider,offer,round,mover,quoted_at,price,unit,currency,term_months\n"
PROVIDER_80K = "一万网络,8×H100 test,1,provider,2026-11-02 10:00+08:00,80000,node_month,CNY,1\n"
COUNTER_40K = "一万网络,8×H100 test,2,counter,2026-11-03 10:00+08:00,40000,node_month,CNY,1\n"
FINAL_60K = "一万网络,8×H100 test,3,final,2026-11-05 10:00+08:00,60000,node_month,CNY,1\n"


def _import(cli: Cli, db: Path, tmp_path: Path, *rounds: str) -> int:
    (tmp_path / "offers.csv").write_text(OFFER, encoding="utf-8")
    (tmp_path / "negotiation.csv").write_text(HEAD + "".join(rounds), encoding="utf-8")
    result = cli("--db", str(db), "import", str(tmp_path / "offers.csv"), str(tmp_path / "negotiation.csv"))
    assert result.code == 0, result.err
    offers = json.loads(cli("--db", str(db), "offers", "--json").out)
    return next(o["id"] for o in offers if o["name"] == "8×H100 test")


def _sign(cli: Cli, db: Path, offer: int, *more: str):  # type: ignore[no-untyped-def]
    return cli("--db", str(db), "contracts", "add", "--offer", str(offer), "--start", "2026-12-01",
               "--term-months", "12", *more, "--json")  # fmt: skip


def test_signing_after_our_counter_is_refused_naming_the_rounds(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    offer = _import(cli, demo_db_path, tmp_path, PROVIDER_80K, COUNTER_40K)
    refused = _sign(cli, demo_db_path, offer)
    assert refused.code == 2
    assert "the last round (2) is our counter-offer" in refused.err
    assert "the provider's current offer is round 1" in refused.err
    ours = _sign(cli, demo_db_path, offer, "--revision", "2")
    assert ours.code == 2 and "round 2 is our counter-offer, not a price the provider gave" in ours.err
    # signing the provider's round explicitly: their 80,000 a node-month, one node, no discounts
    signed = _sign(cli, demo_db_path, offer, "--revision", "1")
    assert signed.code == 0, signed.err
    contract = json.loads(signed.out)
    assert contract["monthly_charge"] == {"amount": "80000.00", "currency": "CNY"}
    assert contract["price"] == {"amount": "80000.00", "currency": "CNY", "unit": "node_month"}


def test_a_final_round_after_our_counter_is_what_is_signed(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    offer = _import(cli, demo_db_path, tmp_path, PROVIDER_80K, COUNTER_40K, FINAL_60K)
    signed = _sign(cli, demo_db_path, offer)
    assert signed.code == 0, signed.err
    assert json.loads(signed.out)["monthly_charge"] == {"amount": "60000.00", "currency": "CNY"}


def test_ranking_explain_and_export_price_the_provider_round_not_our_counter(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    offer = _import(cli, demo_db_path, tmp_path, PROVIDER_80K, COUNTER_40K)
    row = next(o for o in json.loads(cli("--db", str(demo_db_path), "offers", "--json").out) if o["id"] == offer)
    # 80,000 a node-month over 8 GPUs × 730 hours = 13.69863… a GPU-hour (40,000 would be 6.85)
    assert row["quoted_price"]["amount"] == "80000.00" and row["price_per_gpu_hour"] == "13.69863"
    out = tmp_path / "board.xlsx"
    assert cli("--db", str(demo_db_path), "export", str(out)).code == 0
    sheet = openpyxl.load_workbook(out, read_only=True)["Offers"]
    header = [c.value for c in next(sheet.iter_rows(min_row=1, max_row=1))]
    for values in sheet.iter_rows(min_row=2, values_only=True):
        if values[header.index("offer")] == "8×H100 test":
            assert values[header.index("quoted price")] == 80000
            break
    else:
        raise AssertionError("the offer is not on the Offers sheet")


def test_the_current_round_is_the_providers_latest_priced_round() -> None:
    from quotetui.domain.economics.rounds import current_round, round_to_sign

    rounds = [(1, "list", True), (2, "provider", True), (3, "counter", True), (4, "provider", False)]

    def pick(rs: list[tuple[int, str, bool]]) -> int | None:
        found = current_round(rs, lambda r: r[1], lambda r: r[2])
        return None if found is None else found[0]

    assert pick(rounds) == 2  # round 4 has no price yet, round 3 is ours
    assert pick([*rounds, (5, "final", True)]) == 5
    assert pick([(1, "counter", True)]) is None  # only our ask: nothing to rank
    assert round_to_sign(rounds, lambda r: r[0], lambda r: r[1], lambda r: r[2], None)[0] == 2  # last is not ours
