"""Absent is not empty: a column missing from a file leaves that field of existing rows alone, a present empty
cell clears it, and the dry run says field by field what would change. Two rows for one key, or a look-alike
of a known name, are not taken for two things."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

from tests.conftest import Cli, dump, sql, url_of

H100 = "8×H100 SXM5 整机"
STAMPS = frozenset({"updated_at", "version"})


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _facts(db: Path) -> str:
    """Every row but write stamps: versions, ``updated_at``, the data version a write moves, the offers'
    evaluation stamps (``offer_stamp``: a counter of writes, like versions) and the audit trail (which records
    the change: ``test_history.py``)."""
    lines = dump(db, STAMPS, without=frozenset({"change_log", "offer_stamp"})).splitlines()
    return "\n".join(line for line in lines if "'data_version'" not in line)


def _offer(db: Path, column: str) -> object:
    return sql(db, f"SELECT {column} FROM offer WHERE name = '{H100}'")[0][0]


def test_a_missing_column_leaves_the_field_as_it_is(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    cpu, ram, notes = _offer(demo_db_path, "cpu"), _offer(demo_db_path, "ram_gb"), _offer(demo_db_path, "notes")
    assert cpu and ram and notes
    before = _facts(demo_db_path).replace("深圳 / 北京 / 上海", "乌兰察布")
    offers = _write(tmp_path, "offers.csv", f"provider,offer,gpu,gpus_per_node,billing,region\n"
                    f"一万网络,{H100},H100 SXM5,8,monthly,乌兰察布\n")  # fmt: skip
    result = cli("--db", str(demo_db_path), "import", str(offers), "--json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert report["counts"]["offers"] == {"added": 0, "changed": 1, "unchanged": 0}
    assert report["changes"] == [
        {"entity": "Offers", "row": f"一万网络 / {H100}", "field": "region", "old": "'深圳 / 北京 / 上海'",
         "new": "'乌兰察布'"}
    ]  # fmt: skip
    assert _facts(demo_db_path) == before  # cpu, RAM, notes, status, fabric … all as they were


def test_a_present_empty_cell_clears_the_field_and_a_default_comes_back(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    offers = _write(tmp_path, "offers.csv", f"provider,offer,gpu,gpus_per_node,billing,notes,intra_fabric\n"
                    f"一万网络,{H100},H100 SXM5,8,monthly,,\n")  # fmt: skip
    assert cli("--db", str(demo_db_path), "import", str(offers)).code == 0
    assert _offer(demo_db_path, "notes") is None
    assert _offer(demo_db_path, "intra_fabric") == "unknown"  # an empty choice is its declared default
    assert _offer(demo_db_path, "cpu") is not None


def test_the_dry_run_lists_each_field_it_would_change_and_writes_nothing(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    before = dump(demo_db_path)
    kept = "SELECT regions, certifications, website FROM provider WHERE name = '一万网络'"
    lists = sql(demo_db_path, kept)
    providers = _write(tmp_path, "providers.csv", "name,kind,parent\n一万网络,lessor,朗玥科技集团\n")
    result = cli("--db", str(demo_db_path), "import", str(providers), "--dry-run")
    assert result.code == 0, result.err
    assert "Would change in existing rows:" in result.out
    assert "Providers 一万网络: parent " in result.out and "→ '朗玥科技集团'" in result.out
    assert dump(demo_db_path) == before
    # the regions and certifications the file does not mention stay
    assert cli("--db", str(demo_db_path), "import", str(providers)).code == 0
    assert sql(demo_db_path, kept) == lists and "[]" not in str(lists)


def test_two_rows_for_one_key_are_refused_with_both_places(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    before = dump(demo_db_path)
    offers = _write(tmp_path, "offers.csv", "provider,offer,gpu,gpus_per_node,billing,region\n"
                    "一万网络,twin,H100 SXM5,8,monthly,A\n一万网络,twin,H100 SXM5,8,monthly,B\n")  # fmt: skip
    result = cli("--db", str(demo_db_path), "import", str(offers), "--json")
    assert result.code == 2
    [problem] = json.loads(result.out)["problems"]
    assert problem["row"] == 3 and "also on row 2" in problem["reason"]
    assert dump(demo_db_path) == before


def test_a_look_alike_name_is_the_same_provider_and_a_hidden_character_is_refused(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    add = _write(tmp_path, "providers.csv", "name,kind\nLambda Labs,gpu_cloud\n")
    assert cli("--db", str(demo_db_path), "import", str(add)).code == 0
    again = _write(tmp_path, "providers2.csv", "name,kind,website\nＬＡＭＢＤＡ  labs,gpu_cloud,lambda.ai\n")
    result = cli("--db", str(demo_db_path), "import", str(again), "--json")
    assert result.code == 0, result.out
    assert json.loads(result.out)["counts"]["providers"] == {"added": 0, "changed": 1, "unchanged": 0}
    rows = sql(demo_db_path, "SELECT name, website FROM provider")
    assert [row for row in rows if "ambda" in str(row[0]).lower()] == [("Lambda Labs", "lambda.ai")]
    hidden = _write(tmp_path, "providers3.csv", "name,kind\nLambda\u200b Labs,gpu_cloud\n")
    result = cli("--db", str(demo_db_path), "import", str(hidden), "--json")
    assert result.code == 2
    [problem] = json.loads(result.out)["problems"]
    assert "invisible character (ZERO WIDTH SPACE, U+200B)" in problem["reason"] and problem["row"] == 2


def test_a_rule_is_checked_on_the_row_as_the_import_would_leave_it(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    """A price range stored 80,000–120,000: a file that raises the price to 130,000 and has no price_high
    column would leave the range upside down; it is refused on its row, not by the database."""
    [(offer, high)] = sql(
        demo_db_path,
        "SELECT o.name, p.amount_high FROM revision_price p JOIN quote_revision r ON r.id = p.revision_id "
        "JOIN offer o ON o.id = r.offer_id WHERE p.amount_high IS NOT NULL AND o.provider_id = 1 AND r.seq = 1 "
        "AND p.term_months = 1 ORDER BY o.id LIMIT 1",
    )
    before = dump(demo_db_path)
    header = "provider,offer,round,mover,quoted_at,price,unit,currency,term_months\n"
    rounds = _write(
        tmp_path, "negotiation.csv", f"{header}一万网络,{offer},1,list,2026-11-30,999999999,node_month,CNY,1\n"
    )
    result = cli("--db", str(demo_db_path), "import", str(rounds), "--json")
    assert result.code == 2, result.out
    [problem] = json.loads(result.out)["problems"]
    assert problem["row"] == 2 and "below the price 999999999" in problem["reason"]
    assert "the stored amount high the file leaves as it is" in problem["reason"] and high is not None
    assert dump(demo_db_path) == before


def test_an_amount_beyond_what_is_stored_exactly_is_refused_with_its_cell(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    from quotetui.domain.money import MAX_MONEY, MONEY_PLACES

    assert MAX_MONEY.scaleb(MONEY_PLACES) < 2**63  # SQLite keeps money as a 64-bit count of millionths
    header = "provider,offer,round,mover,quoted_at,price,unit,currency,term_months\n"
    rounds = _write(
        tmp_path, "negotiation.csv", f"{header}一万网络,{H100},9,list,2026-11-30,9500000000000,node_month,CNY,1\n"
    )
    result = cli("--db", str(demo_db_path), "import", str(rounds), "--json")
    [problem] = json.loads(result.out)["problems"]
    assert result.code == 2 and problem["column"] == "column 'price'" and "too large" in problem["reason"]


A100 = "8×A100 80GB SXM4 整机"
ROUND_HEAD = "provider,offer,round,mover,quoted_at,price,unit,currency,term_months\n"


def _options(db: Path, seq: int) -> list[tuple[int, str, int]]:
    """(term, unit, amount in millionths): SQLite stores amounts as integers of 10⁻⁶, PostgreSQL as NUMERIC."""
    query = (
        "SELECT rp.term_months, rp.unit, rp.amount FROM revision_price rp JOIN quote_revision r ON r.id = "
        f"rp.revision_id JOIN offer o ON o.id = r.offer_id WHERE o.name = '{A100}' AND r.seq = {seq}"
    )
    rows = sql(db, query)
    return sorted(
        (t, u, a if isinstance(a, int) else int(a * 10**6))  # type: ignore[operator]
        for t, u, a in rows  # type: ignore[misc]
    )


def test_a_price_option_the_file_does_not_list_is_kept_and_an_added_one_is_shown(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    before = _options(demo_db_path, 1)
    assert [(t, u) for t, u, _ in before] == [(1, "node_month"), (12, "term_total")]
    rounds = _write(tmp_path, "negotiation.csv", ROUND_HEAD +
                    f"一万网络,{A100},1,list,2026-11-30 00:00+08:00,500000,term_total,CNY,6\n")  # fmt: skip
    dry = cli("--db", str(demo_db_path), "import", str(rounds), "--dry-run", "--json")
    assert dry.code == 0, dry.err
    report = json.loads(dry.out)
    assert report["counts"]["revisions"] == {"added": 0, "changed": 1, "unchanged": 0}
    assert report["changes"] == [
        {"entity": "Negotiation", "row": f"一万网络 / {A100} round 1", "field": "price option", "old": "'(none)'",
         "new": "'6 months, term_total'"}
    ]  # fmt: skip
    assert cli("--db", str(demo_db_path), "import", str(rounds)).code == 0
    # the 1- and 12-month options the file does not list are as they were, the 6-month one is added
    assert _options(demo_db_path, 1) == sorted([*before, (6, "term_total", 500_000 * 10**6)])


def test_rows_of_one_round_that_disagree_on_who_moved_or_when_are_refused(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    before = dump(demo_db_path)
    rounds = _write(tmp_path, "negotiation.csv", ROUND_HEAD +
                    f"一万网络,{A100},9,provider,2026-12-01 10:00+08:00,80000,node_month,CNY,1\n"
                    f"一万网络,{A100},9,counter,2026-12-01 10:00+08:00,700000,term_total,CNY,12\n")  # fmt: skip
    result = cli("--db", str(demo_db_path), "import", str(rounds))
    assert result.code == 2
    assert "row 3" in result.err and "round 9 has mover 'provider' on row 2 but 'counter' here" in result.err
    assert dump(demo_db_path) == before


def test_rows_of_one_round_in_two_files_must_agree(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    before = dump(demo_db_path)
    (tmp_path / "b").mkdir()
    first = _write(tmp_path, "negotiation.csv", ROUND_HEAD +
                   f"一万网络,{A100},4,counter,2026-12-08 10:00+08:00,70000,node_month,CNY,1\n")  # fmt: skip
    second = _write(tmp_path / "b", "negotiation.csv", ROUND_HEAD +
                    f"一万网络,{A100},4,final,2026-12-09 10:00+08:00,700000,term_total,CNY,12\n")  # fmt: skip
    result = cli("--db", str(demo_db_path), "import", str(first), str(second), "--dry-run")
    assert result.code == 2
    assert "round 4 has mover 'counter' on row 2 of negotiation.csv but 'final' here" in result.err, result.err
    assert "round 4 has quoted_at" in result.err
    assert dump(demo_db_path) == before


def test_rows_of_one_round_with_two_sources_are_refused(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    before = dump(demo_db_path)
    rounds = _write(tmp_path, "negotiation.csv", ROUND_HEAD.replace("\n", ",source\n") +
                    f"一万网络,{A100},5,provider,2026-12-01 10:00+08:00,80000,node_month,CNY,1,srcA\n"
                    f"一万网络,{A100},5,provider,2026-12-01 10:00+08:00,700000,term_total,CNY,12,srcB\n")  # fmt: skip
    result = cli("--db", str(demo_db_path), "import", str(rounds))
    assert result.code == 2
    assert "round 5 has source 'srcA' on row 2 but 'srcB' here" in result.err, result.err
    assert dump(demo_db_path) == before


def test_a_price_option_twice_in_one_import_names_the_first_row_even_in_another_file_or_a_disagreeing_row(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    """A round's option (term, unit) appears once in an import: a second row for it names the first, in the same
    file, in another file of the import, or a row that was refused for disagreeing with its round."""
    before = dump(demo_db_path)
    head = "provider,offer,round,quoted_at,mover,price,unit,currency,term_months\n"
    offer = "天下数据,8×H100 SXM 企业级,9"
    first = _write(tmp_path, "a.csv", head
                   + f"{offer},2026-11-30,provider,200000,node_month,CNY,1\n"   # row 2
                   + f"{offer},2026-11-29,provider,190000,node_month,CNY,12\n"  # row 3: another date than row 2's
                   + f"{offer},2026-11-30,provider,180000,node_month,CNY,12\n")  # row 4: row 3's option  # fmt: skip
    second = _write(tmp_path, "b.csv", head + f"{offer},2026-11-30,provider,210000,node_month,CNY,1\n")
    result = cli("--db", str(demo_db_path), "import", str(first), str(second), "--json")
    assert result.code == 2
    problems = [(p["file"], p["row"], p["reason"]) for p in json.loads(result.out)["problems"]]
    assert problems == [
        ("a.csv", 3, "round 9 has quoted_at '2026-11-30T00:00Z' on row 2 but '2026-11-29T00:00Z' here: every row "
                     "of a round must agree"),
        ("a.csv", 4, "round 9's 12-month node_month price is also on row 3: each appears once in an import"),
        ("b.csv", 2, "round 9's 1-month node_month price is also on row 2 of a.csv: each appears once in an import"),
    ]  # fmt: skip
    assert dump(demo_db_path) == before


def test_an_sla_credit_schedule_is_replaced_by_a_later_import_and_each_tier_logged(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    """The first import adds the schedule's tiers; a second with another schedule removes the old tiers and adds
    the new (each on the change log), and says what changed; the same schedule again changes nothing."""
    offer = "一万网络,8×H100 SXM5 整机"
    log = "SELECT entity, action FROM change_log WHERE entity = 'sla_credit_tier' ORDER BY id"

    def sla(name: str, credits: str) -> dict[str, Any]:
        path = _write(tmp_path, name, f'provider,offer,credits\n{offer},"{credits}"\n')
        result = cli("--db", str(demo_db_path), "import", str(path), "--json")
        assert result.code == 0, result.out + result.err
        return json.loads(result.out)

    first = sla("a.csv", "99.9:10, 99:25")
    assert first["counts"]["SLA"] == {"added": 0, "changed": 1, "unchanged": 0}
    assert stored_tiers(demo_db_path) == [(Decimal("0.99"), Decimal("0.25")), (Decimal("0.999"), Decimal("0.1"))]
    second = sla("b.csv", "99.5:15")
    assert second["counts"]["SLA"] == {"added": 0, "changed": 1, "unchanged": 0}
    assert [c["field"] for c in second["changes"]] == ["credits"]
    assert stored_tiers(demo_db_path) == [(Decimal("0.995"), Decimal("0.15"))]
    assert sql(demo_db_path, log) == [("sla_credit_tier", "added")] * 2 + [("sla_credit_tier", "removed")] * 2 + [
        ("sla_credit_tier", "added")
    ]
    third = sla("c.csv", "99.5:15")
    assert third["counts"]["SLA"] == {"added": 0, "changed": 0, "unchanged": 1}


def stored_tiers(db: Path) -> list[tuple[object, ...]]:
    """The stored credit tiers (below, credit) through their column types: the same Decimals on SQLite (stored in
    millionths) and PostgreSQL (numeric)."""
    import sqlalchemy as sa

    from quotetui.store.models import SlaCreditTier

    engine = sa.create_engine(url_of(db))
    try:
        with engine.connect() as conn:
            query = sa.select(SlaCreditTier.below, SlaCreditTier.credit).order_by(SlaCreditTier.below)  # type: ignore[arg-type]
            return [tuple(row) for row in conn.execute(query)]
    finally:
        engine.dispose()
