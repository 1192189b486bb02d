"""Export a market, import it into an empty database: the same offers, rounds and figures; re-import is a no-op."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
import sqlalchemy as sa

from benchmarks.roundtrip import TABLES
from tests.conftest import Cli, dump, sql, url_of

DEFAULT = "8 GPUs for 12 months"  # seeded in every database, so both sides rank for the same scenario


def table_counts(db: Path) -> dict[str, object]:
    return {n: sql(db, f"select count(*) from {n}")[0][0] for n in TABLES}  # what the workbook carries


@pytest.fixture
def exported(cli: Cli, demo_db_path: Path, tmp_path: Path) -> Path:
    out = tmp_path / "market.xlsx"
    rate = ("fx", "add", "USD", "CNY", "7.1234", "--date", "2026-11-02", "--source", "PBOC")
    assert cli("--db", str(demo_db_path), *rate).code == 0
    result = cli("--db", str(demo_db_path), "export", str(out))
    assert result.code == 0, result.err
    return out


@pytest.mark.parametrize("chunk", [None, 7])
def test_exported_workbook_round_trips_into_an_empty_database(
    new_db: Callable[[str], Path],
    cli: Cli,
    demo_db_path: Path,
    exported: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    chunk: int | None,
) -> None:
    """Also with the rounds inserted 7 at a time (a big import inserts them a chunk at a time): the same rows."""
    if chunk is not None:
        from quotetui.services import import_writer

        monkeypatch.setattr(import_writer, "INSERT_CHUNK", chunk)
    fresh = new_db("fresh.db")
    result = cli("--db", str(fresh), "import", str(exported), "--json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert report["counts"]["offers"] == {"added": 20, "changed": 0, "unchanged": 0}
    assert report["counts"]["FX rates"]["added"] == 1
    source = table_counts(demo_db_path)
    assert table_counts(fresh) == source
    for scenario in (DEFAULT,):
        before = json.loads(cli("--db", str(demo_db_path), "offers", "--json", "--scenario", scenario).out)
        after = json.loads(cli("--db", str(fresh), "offers", "--json", "--scenario", scenario).out)
        assert after == before  # every figure, every explanation, every rank
    # the negotiation history survives too: rounds, their prices and what each saved
    for offer in (2, 14):
        before = json.loads(cli("--db", str(demo_db_path), "explain", str(offer), "--json", "--scenario", DEFAULT).out)
        after = json.loads(cli("--db", str(fresh), "explain", str(offer), "--json", "--scenario", DEFAULT).out)
        assert after == before
    # and every recorded field of every row, not only what the figures use
    assert facts(fresh) == facts(demo_db_path)


def test_reimporting_the_same_file_changes_nothing(
    new_db: Callable[[str], Path], cli: Cli, exported: Path, tmp_path: Path
) -> None:
    fresh = new_db("fresh.db")
    assert cli("--db", str(fresh), "import", str(exported)).code == 0
    before = table_counts(fresh)
    dump_before = dump(fresh)
    again = cli("--db", str(fresh), "import", str(exported), "--json")
    assert again.code == 0, again.err
    counts = json.loads(again.out)["counts"]
    assert all(c["added"] == 0 and c["changed"] == 0 for c in counts.values()), counts
    assert sum(c["unchanged"] for c in counts.values()) > 50
    assert table_counts(fresh) == before
    assert dump(fresh) == dump_before


def test_a_database_importing_its_own_export_changes_nothing(cli: Cli, demo_db_path: Path, exported: Path) -> None:
    """The demo's assumptions are its defaults, which its workbook writes out: read back, they set nothing (they
    were stored as seven settings and said "settings: 1 added")."""
    dump_before = dump(demo_db_path)
    result = cli("--db", str(demo_db_path), "import", str(exported), "--json")
    assert result.code == 0, result.err
    counts = json.loads(result.out)["counts"]
    assert counts["settings"] == {"added": 0, "changed": 0, "unchanged": 1}
    assert all(c["added"] == 0 and c["changed"] == 0 for c in counts.values()), counts
    assert dump(demo_db_path) == dump_before


def test_dry_run_reports_and_writes_nothing(
    new_db: Callable[[str], Path], cli: Cli, exported: Path, tmp_path: Path
) -> None:
    fresh = new_db("fresh.db")
    assert cli("--db", str(fresh), "scenario", "list").code == 0  # creates the empty database
    empty = table_counts(fresh)
    result = cli("--db", str(fresh), "import", str(exported), "--dry-run")
    assert result.code == 0, result.err
    assert "Would import (dry run, nothing written):" in result.out
    assert "offers: 20 added, 0 changed, 0 unchanged" in result.out
    assert "TCO: not imported (figures are recomputed)" in result.err
    assert table_counts(fresh) == empty


def test_a_changed_price_is_reported_as_changed(
    new_db: Callable[[str], Path], cli: Cli, exported: Path, tmp_path: Path
) -> None:
    from openpyxl import load_workbook

    fresh = new_db("fresh.db")
    assert cli("--db", str(fresh), "import", str(exported)).code == 0
    book = load_workbook(exported)
    rounds = book["Negotiation"]
    price = [c.value for c in rounds[1]].index("price") + 1
    rounds.cell(row=2, column=price).value += 1000
    offers = book["Offers"]
    region = [c.value for c in offers[1]].index("region") + 1
    offers.cell(row=3, column=region).value = "乌兰察布"
    edited = tmp_path / "edited.xlsx"
    book.save(edited)
    offer_name = offers.cell(row=3, column=[c.value for c in offers[1]].index("offer") + 1).value
    touched = f"SELECT id, region, updated_at FROM offer WHERE name = '{offer_name}'"
    [(offer_id, _, updated_before)] = sql(fresh, touched)
    log_before = sql(fresh, "SELECT MAX(id) FROM change_log")[0][0]
    result = cli("--db", str(fresh), "import", str(edited), "--json")
    assert result.code == 0, result.err
    counts = json.loads(result.out)["counts"]
    assert counts["offers"] == {"added": 0, "changed": 1, "unchanged": 19}
    assert counts["revisions"] == {"added": 0, "changed": 1, "unchanged": 19}
    assert counts["providers"] == {"added": 0, "changed": 0, "unchanged": 5}
    # written, dated and on the record: the offer's region, its updated_at, one entry per changed row
    [(_, region, updated_after)] = sql(fresh, touched)
    assert region == "乌兰察布" and updated_after > updated_before
    logged = sql(fresh, f"SELECT entity, action, row_id FROM change_log WHERE id > {log_before} ORDER BY id")
    assert sorted((t, a) for t, a, _ in logged) == [("offer", "changed"), ("revision_price", "changed")]
    assert ("offer", "changed", offer_id) in logged


def test_problems_are_all_listed_with_their_place_and_nothing_is_written(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    offers = tmp_path / "offers.csv"
    offers.write_text(
        "provider,offer,gpu,gpus per node,billing\n"
        "一万网络,8×H100 new,H100 SXM5,8,monthly\n"
        "一万网络,8×H100 worse,H100 SXM5,eight,monthly\n"
        "一万网络,8×B200,Z9000,8,weekly\n",
        encoding="utf-8",
    )
    rounds = tmp_path / "谈判.csv"  # the Chinese sheet name works as a file name too
    rounds.write_text(
        "供应商,方案,轮次,谁出价,日期,价格,单位,币种,期限\n"
        "一万网络,8×H100 new,1,list,2026-11-02,52000,node_month,CNY,1\n"
        "Nobody Ltd,8×H100 new,1,list,2026-11-02,-1,node_month,XXX,1\n",
        encoding="utf-8",
    )
    before = table_counts(demo_db_path)
    result = cli("--db", str(demo_db_path), "import", str(offers), str(rounds), "--json")
    assert result.code == 2
    problems = json.loads(result.out)["problems"]
    found = {(p["file"], p["row"], (p["column"] or "").split(" (")[0]) for p in problems}
    assert ("offers.csv", 3, "column 'gpus per node'") in found  # 'eight' is not a number
    assert ("offers.csv", 4, "column 'gpu'") in found  # no such GPU
    assert ("offers.csv", 4, "column 'billing'") in found  # not a billing basis
    assert ("谈判.csv", 3, "column '价格'") in found  # negative price
    assert ("谈判.csv", 3, "column '币种'") in found  # not a currency
    assert table_counts(demo_db_path) == before
    text = cli("--db", str(demo_db_path), "import", str(offers), str(rounds))
    assert text.code == 2
    assert "nothing was imported" in text.err
    assert "offers.csv › row 3 › column 'gpus per node': " in text.err


ENTITY_TABLES = (
    "provider", "offer", "quote_revision", "revision_price", "discount", "extra_cost", "sla_term", "sla_credit_tier",
    "benchmark_result", "fx_rate",
)  # fmt: skip
NOT_FACTS = frozenset({"id", "created_at", "updated_at", "source_id", "version"})


def facts(db: Path) -> list[str]:
    """What the user recorded, table by table: every column but row ids, stamps and source links (an import
    makes its own source rows, named after the workbook). Exact numbers kept as text compare by value
    (``1.75E+11`` is ``175000000000``)."""
    import re
    from decimal import Decimal

    number = re.compile(r"-?\d+(\.\d+)?(E[+-]?\d+)?")
    engine = sa.create_engine(url_of(db))
    inspector = sa.inspect(engine)
    lines = []
    for table in ENTITY_TABLES:
        columns = [c["name"] for c in inspector.get_columns(table) if c["name"] not in NOT_FACTS]
        for row in sql(db, f"SELECT {', '.join(columns)} FROM {table}"):
            values = [Decimal(v).normalize() if isinstance(v, str) and number.fullmatch(v) else v for v in row]
            lines.append(f"{table}: {values!r}")
    engine.dispose()
    return sorted(lines)


def test_a_changed_claim_is_written_and_the_others_stay_as_they_were(
    new_db: Callable[[str], Path], cli: Cli, exported: Path, tmp_path: Path
) -> None:
    """Stored claims are compared with the file's: the one whose value moved is changed, every other one is left
    untouched."""
    from openpyxl import load_workbook

    fresh = new_db("fresh.db")
    assert cli("--db", str(fresh), "import", str(exported)).code == 0
    claims = "SELECT id, metric, value FROM benchmark_result WHERE provenance = 'claimed' ORDER BY id"
    before = sql(fresh, claims)
    book = load_workbook(exported)
    sheet = book["Benchmarks"]
    head = [c.value for c in sheet[1]]
    row = next(r for r in range(2, sheet.max_row + 1) if sheet.cell(r, head.index("metric") + 1).value == "mfu")
    sheet.cell(row, head.index("value") + 1).value = 0.42
    edited = tmp_path / "edited.xlsx"
    book.save(edited)
    result = cli("--db", str(fresh), "import", str(edited), "--json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert report["counts"]["claims"] == {"added": 0, "changed": 1, "unchanged": len(before) - 1}
    after = sql(fresh, claims)
    moved = [(b, a) for b, a in zip(before, after, strict=True) if b != a]
    assert len(moved) == 1
    [(was, now)] = moved
    assert was[1] == now[1] == "mfu" and now[2] != was[2]
    # and the change is on the change log, as an offer's or a round's is
    logged = sql(fresh, f"SELECT action, subject, changes FROM change_log WHERE entity = 'benchmark_result' "
                        f"AND row_id = {now[0]} ORDER BY id")  # fmt: skip
    assert [(a, s) for a, s, _ in logged] == [("added", "claimed mfu"), ("changed", "claimed mfu")]
    changes = logged[-1][2]
    changes = json.loads(changes) if isinstance(changes, str) else changes
    assert list(changes) == ["value"] and changes["value"][1] == "0.42"
