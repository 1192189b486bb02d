"""``benchmarks/compare_export.py``, the check behind every export speed change: with the clock fixed, the same
database gives the same cells and bytes, and a moved figure is named."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.compare_export import FIXED_NOW, cells, diff, export, parts
from tests.conftest import BACKEND

pytestmark = pytest.mark.skipif(BACKEND == "postgres", reason="the script exports a SQLite file")


def test_two_exports_of_one_database_are_the_same_and_a_moved_figure_is_named(
    demo_db_path: Path, tmp_path: Path
) -> None:
    first = export(demo_db_path, tmp_path / "first.xlsx")
    second = export(demo_db_path, tmp_path / "second.xlsx")
    a, b = cells(first), cells(second)
    assert diff(a, b) == [] and parts(first) == parts(second)
    assert len(a["Summary"]) > 100 and a["Offers"][0][1] == "s"
    number = next(c for c in b["Offers"] if c[1] == "n")
    number[2] = repr(float(number[2]) + 0.01)
    (problem,) = diff(a, b)
    assert problem.startswith("Offers: [") and number[0] in problem


def test_the_clock_is_the_real_one_again_after_an_export(demo_db_path: Path, tmp_path: Path) -> None:
    import quotetui.services.export_data as export_data
    from quotetui.domain import timeutil

    export(demo_db_path, tmp_path / "book.xlsx")
    assert export_data.utcnow is timeutil.utcnow and export_data.utcnow() != FIXED_NOW
