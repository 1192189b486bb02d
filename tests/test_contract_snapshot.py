"""Issue 31, point 1: a contract keeps what was sold. Later edits of the offer (by the CLI, or an RFQ answer that
reuses the offer's name) never change what acceptance judges against: H800 logs fail an H100 contract's
inventory item however the offer reads afterwards."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import Cli, sql
from tests.test_rfq_answers import ROWS, _filled, _sent

SAMPLES = Path(__file__).parent.parent / "imports" / "samples"


def _items(cli: Cli, db: str, *args: str) -> dict[str, dict]:  # type: ignore[type-arg]
    shown = cli("--db", db, "acceptance", "show", *args, "--json")
    assert shown.code == 0, shown.err
    return {i["item"]: i for i in json.loads(shown.out)["items"]}


def test_an_offer_edited_to_another_model_leaves_the_contract_judging_what_was_sold(
    cli: Cli, demo_db_path: Path
) -> None:
    db = str(demo_db_path)
    signed = cli("--db", db, "contracts", "add", "--offer", "9", "--start", "2026-06-01", "--term-months", "12",
                 "--gpus", "16", "--json")  # fmt: skip
    assert signed.code == 0, signed.err
    [(cid,)] = sql(demo_db_path, "SELECT id FROM contract")
    shown = json.loads(cli("--db", db, "contracts", "show", str(cid), "--json").out)["agreed"]["sold"]
    assert (shown["gpu_name"], shown["gpus_per_node"], shown["nodes"]) == ("H100 SXM5", 8, 2)
    assert (shown["intra_fabric"], shown["inter_fabric"]) == ("nvswitch", "infiniband_ndr")
    logs = [str(p) for p in sorted((SAMPLES / "h800-as-h100").iterdir())]
    assert cli("--db", db, "bench", "import", *logs, "--offer", "9").code == 0
    before = _items(cli, db, "--contract", str(cid))
    assert (
        before["inventory"]["status"] == "failed"
        and "H800 SXM5 reported, H100 SXM5 sold" in before["inventory"]["reason"]
    )
    edited = cli("--db", db, "offer", "edit", "9", "--gpu", "H800", "--gpus-per-node", "4")
    assert edited.code == 0, edited.err
    assert f"note: contract #{cid} keeps what was sold (H100 SXM5, 8 GPUs a node" in edited.err
    after = _items(cli, db, "--contract", str(cid))
    assert after["inventory"] == before["inventory"]  # judged against what was sold, not the offer as it reads now
    assert _items(cli, db, "--offer", "9")["inventory"]["status"] == "passed"  # the offer itself: H800 logs fit H800
    again = json.loads(cli("--db", db, "contracts", "show", str(cid), "--json").out)["agreed"]["sold"]
    assert (
        again == shown
        and json.loads(cli("--db", db, "acceptance", "show", "--contract", str(cid), "--json").out)["nodes"] == 2
    )
    text = cli("--db", db, "contracts", "show", str(cid)).out
    assert "sold: H100 SXM5, 2 nodes of 8 GPUs; NVSwitch in a node, IB NDR across" in text


def test_an_rfq_answer_reusing_the_offers_name_leaves_the_contract_as_signed(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    db = str(demo_db_path)
    book = _sent(cli, demo_db_path, tmp_path)
    first = cli("--db", db, "import", str(_filled(book, tmp_path / "a1.xlsx")), "--as-of", "2026-12-03")
    assert first.code == 0, first.err
    [(offer_id,)] = sql(demo_db_path, "SELECT id FROM offer WHERE name = 'HGX H100 集群'")
    signed = cli("--db", db, "contracts", "add", "--offer", str(offer_id), "--start", "2027-01-01",
                 "--term-months", "12", "--gpus", "16")  # fmt: skip
    assert signed.code == 0, signed.err
    [(cid,)] = sql(demo_db_path, "SELECT id FROM contract")
    h800 = [{**ROWS[0], "gpu": "H800 SXM5", "amount": 80000}]
    second = cli("--db", db, "import", str(_filled(book, tmp_path / "a2.xlsx", h800)), "--as-of", "2026-12-04")
    assert second.code == 0, second.err
    said = f"offer #{offer_id}: contract #{cid} keeps what was sold (H100 SXM5, 8 GPUs a node"
    assert said in second.out + second.err  # the answer changed the offer, not the contract: the import says so
    assert sql(
        demo_db_path, f"SELECT g.name FROM offer o JOIN gpu_model g ON g.id = o.gpu_model_id WHERE o.id = {offer_id}"
    ) == [("H800 SXM5",)]
    logs = [str(p) for p in sorted((SAMPLES / "h800-as-h100").iterdir())]
    assert cli("--db", db, "bench", "import", *logs, "--offer", str(offer_id)).code == 0
    items = _items(cli, db, "--contract", str(cid))
    assert items["inventory"]["status"] == "failed" and "H100 SXM5 sold" in items["inventory"]["reason"]
    agreed = json.loads(cli("--db", db, "contracts", "show", str(cid), "--json").out)["agreed"]
    assert agreed["sold"]["gpu_name"] == "H100 SXM5" and agreed["round"] == 1


def test_a_contract_beyond_an_unstated_stock_is_not_recorded_without_a_word(cli: Cli, demo_db_path: Path) -> None:
    """100,000 GPUs on #9 (8 a node, 250,000 CNY a node-month, no stock stated): 12,500 nodes ×
    250,000 = 3,125,000,000 CNY a month, said on stderr; JSON on stdout stays clean."""
    db = str(demo_db_path)
    big = cli("--db", db, "contracts", "add", "--offer", "9", "--start", "2026-06-01", "--term-months", "12",
              "--gpus", "100000", "--json")  # fmt: skip
    assert big.code == 0, big.err
    assert json.loads(big.out)["gpus"] == 100_000
    assert (
        "warning: offer #9 does not state its stock: contract #1 commits to 100,000 GPUs (12,500 nodes) at "
        "3,125,000,000.00 CNY a month; confirm the provider can deliver them"
    ) in big.err
    one = cli("--db", db, "contracts", "add", "--offer", "9", "--start", "2026-06-01", "--term-months", "12")
    assert one.code == 0 and "warning" not in one.err  # one node: nothing to confirm


def test_a_contract_signed_before_snapshots_kept_what_was_sold_is_frozen_at_the_upgrade(
    cli: Cli, tmp_path: Path
) -> None:
    """Migration 0012 keeps, for a contract signed before, what its offer sold as it read at the upgrade: a
    later edit no longer moves what acceptance judges."""
    import shutil

    db = tmp_path / "old.db"
    shutil.copy(Path(__file__).parent / "fixtures" / "upgrade" / "schema-0001.db", db)
    shown = cli("--db", str(db), "contracts", "show", "1", "--json")
    assert shown.code == 0, shown.err
    sold = json.loads(shown.out)["agreed"]["sold"]
    assert (sold["gpu_name"], sold["nodes"]) == ("H100 SXM5", 2) and "upgrade" in sold["from"]
    edited = cli("--db", str(db), "offer", "edit", "2", "--gpus-per-node", "16", "--gpu", "A100")
    assert edited.code == 0 and "contract #1 keeps what was sold (H100 SXM5" in edited.err
    state = json.loads(cli("--db", str(db), "acceptance", "show", "--contract", "1", "--json").out)
    assert state["nodes"] == 2


def test_signed_terms_keep_the_terms_not_the_engines_links() -> None:
    """A contract's snapshot keeps each option's terms only: an option a discount implies links the quoted one
    it is priced as (``PriceOption.priced_as``), which is not a term and is not written, so the snapshot is
    plain JSON and reads back to the same options."""
    from decimal import Decimal

    from quotetui.domain.economics.assumptions import Assumptions
    from quotetui.domain.economics.costing import price_options
    from quotetui.domain.economics.inputs import DiscountTerm
    from quotetui.domain.economics.signed_terms import as_signed, terms_record
    from quotetui.domain.enums import DiscountKind
    from tests.econ_helpers import fx, offer, option

    quoted = offer(option("90000"), discounts=(DiscountTerm(1, DiscountKind.TERM, Decimal("0.1"), min_term_months=12),))
    options = price_options(quoted)
    implied = options[-1]
    assert implied.from_discount == 1 and implied.priced_as is quoted.options[0]
    record = terms_record(quoted, options, Assumptions(), fx())
    assert all("priced_as" not in o for o in record["options"])
    text = json.dumps(record)  # would fail on a PriceOption object
    _, signed = as_signed(quoted, json.loads(text))
    assert signed == options  # equal terms (the link is not compared)
