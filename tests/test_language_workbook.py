"""The workbook in Chinese keeps its numbers as numbers (issue 35, point 3): the comparison workbook exported in
zh-CN with the 万 style has, cell for cell, the English workbook's numbers, formulas, dates and booleans with
the same number formats (``#,##0.00 "CNY"``: the spreadsheet writes the separators of its reader's locale,
which are zh-CN's too); only words change, and no amount becomes text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest
from conftest import Cli

Cells = dict[tuple[int, str], tuple[str, str, Any]]


def _cells(path: Path) -> tuple[list[str], Cells]:
    book = openpyxl.load_workbook(path)
    cells = {
        (n, c.coordinate): (c.data_type, c.number_format, c.value)
        for n, sheet in enumerate(book.worksheets)
        for row in sheet.iter_rows()
        for c in row
        if c.value is not None
    }
    return book.sheetnames, cells


@pytest.mark.parametrize(
    ("command", "shown_in_chinese"),
    [(("export",), "汇总"), (("award", "H100 256", "--include-market", "--out"), "Award 授标")],
    ids=["comparison", "award"],
)
def test_a_chinese_workbook_keeps_every_number_a_number(
    cli: Cli, demo_db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: tuple[str, ...],
    shown_in_chinese: str,
) -> None:  # fmt: skip
    db = ("--db", str(demo_db_path))
    need = ("--gpu", "H100 SXM5", "--gpus", "256", "--months", "12", "--start", "2027-01-01")
    assert cli(*db, "rfq", "new", "H100 256", *need).code == 0
    english, chinese = tmp_path / "en.xlsx", tmp_path / "zh.xlsx"
    assert cli(*db, *command, str(english)).code == 0
    config = tmp_path / "config.toml"
    config.write_text('money_style = "wan"\n', encoding="utf-8")
    monkeypatch.setenv("QUOTETUI_CONFIG", str(config))
    done = cli(*db, *command, str(chinese), "--lang", "zh-CN")
    assert done.code == 0, done.err
    en_tabs, en = _cells(english)
    zh_tabs, zh = _cells(chinese)
    assert shown_in_chinese in zh_tabs and len(zh_tabs) == len(en_tabs)
    numbers = {at: cell for at, cell in en.items() if cell[0] != "s"}  # numbers, formulas, dates, booleans
    assert len([c for c in numbers.values() if c[0] == "n"]) > 20
    assert {at: zh.get(at) for at in numbers} == numbers
    assert not any(c[0] != "s" for at, c in zh.items() if at not in numbers)  # nor a number where English has words
    assert not any("万" in str(c[1]) for c in zh.values())  # the 万 style is for people's text, not a cell's format
