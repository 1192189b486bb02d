"""Round trips: names with `` / ``, commas, quotes, a leading ``=`` or apostrophe survive export and import of
the workbook and of the CSV (the formula guard's apostrophe comes off again), the Benchmarks sheet's
"compared offers" included; the CSV export imports back unchanged."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from quotetui.io.compared import format_compared, parse_compared
from tests.conftest import Cli
from tests.test_import_roundtrip import facts

HOSTILE = [
    ("Evil / Co", "8×H100 / SXM"),
    ("Comma, Inc.", 'The "quoted" node'),
    ('=HYPERLINK("http://x")', "+1 spare, -2 bad"),
    ("'Apostrophe", "@mention; semi"),
]


def _csv(rows: list[list[str]]) -> str:
    import csv
    import io

    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    return buffer.getvalue()


@pytest.fixture
def hostile_market(cli: Cli, new_db: Callable[[str], Path], tmp_path: Path) -> Path:
    db = new_db("market.db")
    files = {
        "providers.csv": [["name", "kind"], *([p, "lessor"] for p, _ in HOSTILE)],
        "offers.csv": [["provider", "offer", "gpu", "gpus_per_node", "billing", "notes"],
                       *([p, o, "H100", "8", "monthly", f"={o}"] for p, o in HOSTILE)],
        "negotiation.csv": [["provider", "offer", "round", "mover", "quoted_at", "price", "unit", "currency",
                             "term_months", "note"],
                            *([p, o, "1", "provider", "2026-11-01", str(90000 + i), "node_month", "CNY", "1", "-5 %"]
                              for i, (p, o) in enumerate(HOSTILE))],
        "benchmarks.csv": [["provider", "offer", "metric", "value", "unit", "source", "compared offers"],
                           [HOSTILE[0][0], HOSTILE[0][1], "cheaper_than", "1", "claim", "=an article",
                            format_compared(HOSTILE[1:])]],
    }  # fmt: skip
    paths = []
    for name, rows in files.items():
        (tmp_path / name).write_text(_csv(rows), encoding="utf-8")
        paths.append(str(tmp_path / name))
    result = cli("--db", str(db), "import", *paths)
    assert result.code == 0, result.err
    return db


def test_the_compared_offers_cell_quotes_what_needs_quoting() -> None:
    text = format_compared(HOSTILE)
    assert parse_compared(text) == HOSTILE
    assert parse_compared("一万网络 / 8×H100 SXM5 整机; 阿里云 / ecs.gn8i") == [
        ("一万网络", "8×H100 SXM5 整机"),
        ("阿里云", "ecs.gn8i"),
    ]


def test_hostile_names_survive_the_workbook(
    cli: Cli, hostile_market: Path, new_db: Callable[[str], Path], tmp_path: Path
) -> None:
    book = tmp_path / "board.xlsx"
    assert cli("--db", str(hostile_market), "export", str(book)).code == 0
    fresh = new_db("fresh.db")
    result = cli("--db", str(fresh), "import", str(book), "--json")
    assert result.code == 0, result.out + result.err
    assert facts(fresh) == facts(hostile_market)
    again = json.loads(cli("--db", str(fresh), "import", str(book), "--json").out)
    assert all(c["added"] == 0 and c["changed"] == 0 for c in again["counts"].values()), again


def test_the_csv_export_imports_back_unchanged(cli: Cli, hostile_market: Path, tmp_path: Path) -> None:
    out = tmp_path / "board export.csv"  # any name: the header says what it is
    assert cli("--db", str(hostile_market), "export", str(out)).code == 0
    text = out.read_text(encoding="utf-8-sig")
    assert "'=HYPERLINK" in text and "''Apostrophe" in text and "'+1 spare" in text  # guarded for spreadsheets
    before = facts(hostile_market)
    result = cli("--db", str(hostile_market), "import", str(out), "--json")
    assert result.code == 0, result.out + result.err
    report = json.loads(result.out)
    assert report["counts"]["offers"] == {"added": 0, "changed": 0, "unchanged": len(HOSTILE)}, report
    assert report["changes"] == []
    assert facts(hostile_market) == before


def test_the_demo_csv_export_imports_back_unchanged(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "offers.csv"
    assert cli("--db", str(demo_db_path), "export", str(out)).code == 0
    result = cli("--db", str(demo_db_path), "import", str(out), "--json")
    assert result.code == 0, result.out + result.err
    report = json.loads(result.out)
    assert report["counts"]["offers"] == {"added": 0, "changed": 0, "unchanged": 20}, report["changes"]
