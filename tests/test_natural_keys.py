"""An offer's discounts and extra costs are matched by their natural key (``Entity.natural_key``) when a workbook
is imported; the forms refuse a second row with the same key, so every export imports back (a hostile pass found
two `other / per_month` extras that exported but stopped their own re-import)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import Cli, sql


def test_a_twin_is_refused_and_every_export_imports_back(cli: Cli, demo_db_path: Path, new_db, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = str(demo_db_path)
    first = cli("--db", db, "extra", "add", "1", "--kind", "support", "--basis", "per_month", "--amount", "100")
    assert first.code == 0, first.err
    before = sql(demo_db_path, "SELECT count(*) FROM extra_cost")
    twin = cli("--db", db, "extra", "add", "1", "--kind", "support", "--basis", "per_month", "--amount", "50")
    assert twin.code == 2 and "already has a support / per_month extra cost" in twin.err, twin.err
    assert sql(demo_db_path, "SELECT count(*) FROM extra_cost") == before
    other = cli("--db", db, "extra", "add", "1", "--kind", "support", "--basis", "per_hour", "--amount", "2")
    assert other.code == 0, other.err  # another basis: told apart
    assert cli("--db", db, "discount", "add", "1", "--kind", "volume", "--rate", "5", "--min-gpus", "16").code == 0
    again = cli("--db", db, "discount", "add", "1", "--kind", "volume", "--rate", "8", "--min-gpus", "16")
    assert again.code == 2 and "already has a volume / 16 discount" in again.err, again.err
    assert cli("--db", db, "discount", "add", "1", "--kind", "volume", "--rate", "8", "--min-gpus", "32").code == 0
    book = tmp_path / "all.xlsx"
    assert cli("--db", db, "export", str(book)).code == 0
    fresh = new_db("fresh.db")
    imported = cli("--db", str(fresh), "import", str(book), "--json")
    assert imported.code == 0, imported.err
    counts = json.loads(imported.out)["counts"]
    assert counts["extra costs"]["added"] == sql(demo_db_path, "SELECT count(*) FROM extra_cost")[0][0]
    assert counts["discounts"]["added"] == sql(demo_db_path, "SELECT count(*) FROM discount")[0][0]
