"""The benchmark suite (``benchmarks/run.py``) runs both ways the README gives, and its table says what it
measured: before and after side by side, the ratio against the floor and the issue's target."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.run import _markdown, _table

ROOT = Path(__file__).resolve().parent.parent


def _row(side: str, ours: float, floor: float, mib: float | None = None) -> dict[str, object]:
    return {
        "measure": "rank all offers (cold)",
        "offers": 10_000,
        "side": side,
        "ours_s": ours,
        "floor_s": floor,
        "ours_mib": mib,
        "floor_mib": 40.0,
        "target": 1.5,
        "floor": "exact floor",
    }


def test_the_table_puts_before_and_after_side_by_side_with_their_ratios() -> None:
    table = _table([_row("before", 3.0, 1.5, 120.0), _row("after", 1.8, 1.2, 90.0)], ["before", "after"])
    head, line = table.splitlines()
    assert "before" in head and "quotetui" in head and "target" in head
    # before: 3.0 s, 3.0 / 1.5 = 2.00×; after: 1.8 s against 1.2 s = 1.50×, target ≤ 1.5×, memory 120 → 90 / 40
    assert "3.000s" in line and "2.00×" in line
    assert "1.800s" in line and "1.200s" in line and "1.50×" in line and "≤ 1.5×" in line
    assert "120 → 90 / 40" in line
    assert line.startswith("rank all offers (cold)") and "10,000" in line


def test_the_readme_table_is_the_same_figures_in_markdown() -> None:
    head, rule, line = _markdown([_row("before", 3.0, 1.5, 120.0), _row("after", 1.8, 1.2, 90.0)]).splitlines()
    assert head.startswith("| measure | offers | before | after | floor |") and rule.startswith("|---|")
    assert (
        line
        == "| rank all offers (cold) | 10,000 | 3.000 s | 1.800 s | 1.200 s | 2.00× → 1.50× | ≤ 1.5× | 120 → 90 / 40 |"
    )


def test_saved_figures_print_as_tables_without_measuring_again(tmp_path: Path) -> None:
    saved = tmp_path / "figures.json"
    saved.write_text(json.dumps([_row("before", 3.0, 1.5), _row("after", 1.8, 1.2)]))
    done = subprocess.run(
        [sys.executable, "benchmarks/run.py", "--table", str(saved), "--markdown"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "1.50×" in done.stdout and "| 2.00× → 1.50× |" in done.stdout


def test_a_measure_without_an_after_side_is_not_shown_as_a_result() -> None:
    assert len(_table([_row("before", 3.0, 1.5)], ["before", "after"]).splitlines()) == 1


@pytest.mark.parametrize("how", [["benchmarks/run.py"], ["-m", "benchmarks.run"]])
def test_the_suite_starts_as_a_script_and_as_a_module(how: list[str]) -> None:
    done = subprocess.run([sys.executable, *how, "--help"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "--before" in done.stdout and "--sizes" in done.stdout


def test_an_unknown_step_is_refused_by_name() -> None:
    done = subprocess.run(
        [sys.executable, "benchmarks/run.py", "--only", "rank,warp"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 2 and "warp" in done.stderr


def test_a_small_run_measures_ranking_against_its_floor(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "benchmarks/run.py", "--sizes", "30", "--runs", "1", "--only", "rank", "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    rows = json.loads(done.stdout[done.stdout.index("[\n") :])
    (row,) = rows
    assert row["measure"] == "rank all offers (cold)" and row["offers"] == 30 and row["side"] == "after"
    assert row["ours_s"] > 0 and row["floor_s"] > 0 and row["target"] == 1.5


def test_readme_gets_the_table_between_its_marks_and_nothing_else_changes(tmp_path: Path) -> None:
    from benchmarks.run import BEGIN, END, write_readme

    readme = tmp_path / "README.md"
    readme.write_text(f"# quotetui\n\nintro\n\n{BEGIN}\nold table\n{END}\n\nafter\n", encoding="utf-8")
    write_readme(readme, [_row("after", 1.8, 1.2, 90.0)], "--sizes 10000 --only rank --readme")
    text = readme.read_text(encoding="utf-8")
    assert text.startswith("# quotetui\n\nintro\n\n" + BEGIN) and text.endswith(END + "\n\nafter\n")
    assert "old table" not in text and "| rank all offers (cold) | 10,000 |" in text and "1.50×" in text
    assert "`python benchmarks/run.py --sizes 10000 --only rank --readme`" in text and "**Cold**" in text
    readme.write_text("no marks\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="needs the marks"):
        write_readme(readme, [_row("after", 1.8, 1.2, 90.0)], "")


def test_the_readme_has_the_benchmark_marks_once() -> None:
    from benchmarks.run import BEGIN, END

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert text.count(BEGIN) == 1 and text.count(END) == 1 and text.index(BEGIN) < text.index(END)
