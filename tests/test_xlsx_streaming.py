"""A workbook's sheets stream into the import one at a time: each sheet is handed over once its header is read,
its rows read as they are checked, and a later sheet is not read until then (a 100,000-offer workbook's cells are
never all held). A workbook damaged after the sheets already handed over is still refused whole."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

from openpyxl import Workbook

from quotetui.io.problems import Problem
from quotetui.io.table_model import Table
from quotetui.io.tables import read_file
from quotetui.io.xlsx_read import Streaming
from tests.conftest import Cli, dump


def _book(path: Path, sheets: dict[str, list[list[Any]]]) -> Path:
    book = Workbook()
    book.remove(book.active)
    for title, rows in sheets.items():
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append(row)
    book.save(path)
    return path


def test_each_sheet_is_handed_over_before_its_rows_and_the_next_sheet_are_read(tmp_path: Path) -> None:
    path = _book(tmp_path / "two.xlsx", {
        "Providers": [["name", "kind"], ["甲", "lessor"], ["乙", "lessor"], ["丙", "lessor"]],
        "FX": [["base", "quote", "rate"], ["USD", "CNY", "7.1"]],
    })  # fmt: skip
    read: list[int] = []
    seen: list[tuple[str | None, int, list[int], int]] = []

    def each(table: Table) -> bool:
        assert isinstance(table.rows, Streaming)
        before = len(read)
        numbers = [number for number, _ in table.rows]
        seen.append((table.sheet, before, numbers, len(read)))
        return True

    problems: list[Problem] = []
    tables = read_file(path, problems, tick=lambda: read.append(1), each=each)
    assert problems == []
    # (sheet, rows read when it was handed over, its row numbers, rows read once they were iterated)
    assert seen == [("Providers", 0, [2, 3, 4], 3), ("FX", 3, [2], 4)]
    assert [(t.sheet, t.header, t.rows) for t in tables] == [
        ("Providers", ["name", "kind"], []),  # taken: the rows are not kept
        ("FX", ["base", "quote", "rate"], []),
    ]


def test_a_sheet_not_taken_is_read_whole_as_without_a_consumer(tmp_path: Path) -> None:
    path = _book(tmp_path / "one.xlsx", {"Providers": [["name", "kind"], ["甲", "lessor"]]})
    tables = read_file(path, [], each=lambda table: False)
    assert [(t.sheet, t.rows) for t in tables] == [("Providers", [(2, ["甲", "lessor"])])]


def _damage_second_sheet(path: Path) -> Path:
    """The same workbook with its second sheet's XML cut in the middle of its rows."""
    damaged = path.with_name("damaged.xlsx")
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(damaged, "w") as target:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet2.xml":
                data = data[: data.index(b'<row r="3"')] + b'<row r="3"><c r="A3" t="s'
            target.writestr(item, data)
    return damaged


def test_a_workbook_damaged_after_a_sheet_was_taken_is_refused_whole(tmp_path: Path) -> None:
    path = _book(tmp_path / "two.xlsx", {
        "Providers": [["name", "kind"], ["甲", "lessor"]],
        "Offers": [["provider", "offer"], ["甲", "a"], ["甲", "b"], ["甲", "c"]],
    })  # fmt: skip
    damaged = _damage_second_sheet(path)
    problems: list[Problem] = []
    taken: list[str | None] = []

    def each(table: Table) -> bool:
        taken.append(table.sheet)
        list(table.rows)
        return True

    assert read_file(damaged, problems, each=each) == []
    assert taken == ["Providers", "Offers"]
    assert len(problems) == 1 and problems[0].file == "damaged.xlsx"
    said = 'cannot read the workbook: damaged or not Excel (the reader says "ExpatError: '
    assert problems[0].reason.startswith(said)


def test_the_import_of_a_damaged_workbook_writes_nothing(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    path = _book(tmp_path / "two.xlsx", {
        "Providers": [["name", "kind"], ["新的一家", "lessor"]],
        "Offers": [["provider", "offer", "gpu", "gpus_per_node", "billing"],
                   ["新的一家", "a", "H100 SXM5", 8, "monthly"], ["新的一家", "b", "H100 SXM5", 8, "monthly"]],
    })  # fmt: skip
    damaged = _damage_second_sheet(path)
    before = dump(demo_db_path)
    result = cli("--db", str(demo_db_path), "import", str(damaged), "--json")
    assert result.code == 2
    [problem] = json.loads(result.out)["problems"]
    assert problem["file"] == "damaged.xlsx" and problem["reason"].startswith("cannot read the workbook")
    assert dump(demo_db_path) == before
