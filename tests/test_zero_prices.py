"""A zero compute price is not a quote: refused at input with its cell named; one stored before that rule is
listed as not compared (with the reason), never ranked first, never a BATNA, and the export still works."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import Cli, dump, execute

HEAD = "provider,offer,round,mover,quoted_at,price,unit,currency,term_months\n"
A100 = "8×A100 80GB SXM4 整机"


@pytest.mark.parametrize("price", ["0", "0.000000", "-1", "０"])
def test_a_zero_or_negative_price_is_refused_with_its_cell(
    cli: Cli, demo_db_path: Path, tmp_path: Path, price: str
) -> None:
    before = dump(demo_db_path)
    rounds = tmp_path / "negotiation.csv"
    rounds.write_text(HEAD + f"一万网络,{A100},9,provider,2026-12-01 10:00+08:00,{price},node_month,CNY,1\n",
                      encoding="utf-8")  # fmt: skip
    result = cli("--db", str(demo_db_path), "import", str(rounds))
    assert result.code == 2
    reason = "must not be negative" if price.startswith("-") else "must be more than zero"
    assert f"negotiation.csv › row 2 › column 'price': {reason}" in result.err, result.err
    assert dump(demo_db_path) == before


def test_a_stored_zero_price_is_not_compared_and_breaks_nothing(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    # as a database made before the rule could hold it: offer #3's current round priced at zero
    execute(demo_db_path, "UPDATE revision_price SET amount = 0, amount_high = NULL WHERE revision_id IN "
                          "(SELECT id FROM quote_revision WHERE offer_id = 3)")  # fmt: skip
    ranking = json.loads(cli("--db", str(demo_db_path), "offers", "--json").out)
    [three] = [o for o in ranking if o["id"] == 3]
    assert three["rank"] is None
    assert three["not_compared"] == "offer #3's current price (monthly) is 0 CNY, not more than zero: correct the round"
    board = cli("--db", str(demo_db_path), "export", str(tmp_path / "board.xlsx"))
    assert board.code == 0, board.err
    explained = cli("--db", str(demo_db_path), "explain", "3")
    assert explained.code == 2 and "offer #3's current price" in explained.err and "not more than zero" in explained.err
    negotiation = json.loads(cli("--db", str(demo_db_path), "explain", "2", "--json").out)
    assert "#3 " not in json.dumps(negotiation.get("negotiation", {}), ensure_ascii=False)  # never a BATNA
    # and nothing else prices with it: a training run's cost, a contract
    train = cli("--db", str(demo_db_path), "calc", "train", "--gpus", "8", "--flops", "1e22", "--offer", "3")
    assert train.code == 2 and "not more than zero" in train.err
    before = dump(demo_db_path)
    sign = cli("--db", str(demo_db_path), "contracts", "add", "--offer", "3", "--start", "2026-12-01",
               "--term-months", "12")  # fmt: skip
    assert sign.code == 2 and "not more than zero" in sign.err
    assert dump(demo_db_path) == before


def test_an_sla_of_no_availability_is_refused_and_a_stored_one_breaks_nothing(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    """An SLA availability of 0 % made every command that ranks (offers, explain, export) fail on a division by
    zero and left the TUI without a market: it is refused at input (the same bound as the default availability),
    and one stored before that is listed as not compared, with the reason."""
    before = dump(demo_db_path)
    refused = cli("--db", str(demo_db_path), "sla", "set", "1", "--availability", "0")
    assert (refused.code, refused.err) == (2, "quotetui: --availability: must be at least 50 %\n")
    assert dump(demo_db_path) == before
    execute(demo_db_path, "UPDATE sla_term SET availability = '0' WHERE offer_id = 1")
    ranking = json.loads(cli("--db", str(demo_db_path), "offers", "--json").out)
    [one] = [o for o in ranking if o["id"] == 1]
    assert one["rank"] is None and one["not_compared"].startswith("it delivers no compute (availability 0.0 %")
    assert [o["id"] for o in ranking if o.get("not_compared")] == [1]  # the others are compared as before
    assert sum(1 for o in ranking if o["rank"] is not None) == 16  # 20 offers, 3 the scenario cannot run on
    assert cli("--db", str(demo_db_path), "export", str(tmp_path / "board.xlsx")).code == 0
    explained = cli("--db", str(demo_db_path), "explain", "1")
    assert explained.code == 2 and "it delivers no compute" in explained.err
