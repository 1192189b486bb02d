"""Issue 31, point 4: answer workbooks are read, never guessed. A formula cell with no saved value (as scripts
and some editors write them), text over a field's limit, and a hidden sheet that carries answers stop the
import with the cell named, and nothing changes; two answers for one offer in one import name both files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openpyxl import load_workbook

from quotetui.io.rfq_workbook import ANSWER_FIELDS, ANSWER_SHEET, DISCOUNT_SHEET, FIRST_ANSWER_ROW
from tests.conftest import Cli, dump
from tests.test_rfq_answers import ROWS, _filled, _sent


def _column(name: str) -> int:
    return next(i for i, f in enumerate(ANSWER_FIELDS, start=1) if f.name == name)


def _edited(book: Path, to: Path, edit: Any) -> Path:
    wb = load_workbook(book)
    edit(wb)
    wb.save(to)  # openpyxl writes formulas without a saved value, as scripts do
    return to


def test_a_formula_without_a_saved_value_stops_the_import_naming_the_cell(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    db = str(demo_db_path)
    filled = _filled(_sent(cli, demo_db_path, tmp_path), tmp_path / "filled.xlsx")
    before = dump(demo_db_path)

    def formulas(wb: Any) -> None:
        sheet = wb[ANSWER_SHEET]
        sheet.cell(FIRST_ANSWER_ROW, _column("lead_time_days"), "=1+13")
        sheet.cell(FIRST_ANSWER_ROW, _column("credits"), "=A1")
        wb[DISCOUNT_SHEET].append(["HGX H100 集群", "volume", "=0.1*2", None, 64, "no", "tiers"])

    answer = _edited(filled, tmp_path / "formulas.xlsx", formulas)
    result = cli("--db", db, "import", str(answer))
    assert result.code == 2 and "nothing was imported" in result.err, result.err
    assert result.err.count("a formula without a saved result") >= 3
    assert f"{ANSWER_SHEET} › row {FIRST_ANSWER_ROW}" in result.err and DISCOUNT_SHEET in result.err
    assert dump(demo_db_path) == before


def test_a_hidden_sheet_and_text_over_the_limit_stop_the_import(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    db = str(demo_db_path)
    filled = _filled(_sent(cli, demo_db_path, tmp_path), tmp_path / "filled.xlsx")
    before = dump(demo_db_path)

    def hide(wb: Any) -> None:
        wb[DISCOUNT_SHEET].append(["HGX H100 集群", "volume", "10%", None, 64, "no", "tiers"])
        wb[DISCOUNT_SHEET].sheet_state = "hidden"

    hidden = cli("--db", db, "import", str(_edited(filled, tmp_path / "hidden.xlsx", hide)))
    assert hidden.code == 2 and "hidden" in hidden.err and DISCOUNT_SHEET in hidden.err, hidden.err

    def long(wb: Any) -> None:
        wb[ANSWER_SHEET].cell(FIRST_ANSWER_ROW, _column("region"), "上海" * 5000)

    too_long = cli("--db", db, "import", str(_edited(filled, tmp_path / "long.xlsx", long)))
    assert too_long.code == 2 and f"row {FIRST_ANSWER_ROW}" in too_long.err, too_long.err
    assert dump(demo_db_path) == before


def test_two_answers_for_one_offer_in_one_import_name_both_files(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    db = str(demo_db_path)
    book = _sent(cli, demo_db_path, tmp_path)
    one = _filled(book, tmp_path / "one.xlsx")
    two = _filled(book, tmp_path / "two.xlsx", [{**ROWS[0], "amount": 90000}])
    before = dump(demo_db_path)
    result = cli("--db", db, "import", str(one), str(two))
    assert result.code == 2 and "one.xlsx" in result.err and "two.xlsx" in result.err, result.err
    assert dump(demo_db_path) == before


def test_a_hidden_row_or_column_that_carries_answers_stops_the_import(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    db = str(demo_db_path)
    filled = _filled(_sent(cli, demo_db_path, tmp_path), tmp_path / "filled.xlsx")
    before = dump(demo_db_path)

    def hide_row(wb: Any) -> None:
        wb[ANSWER_SHEET].row_dimensions[FIRST_ANSWER_ROW].hidden = True

    row = cli("--db", db, "import", str(_edited(filled, tmp_path / "row.xlsx", hide_row)))
    assert row.code == 2 and f"{ANSWER_SHEET} › row {FIRST_ANSWER_ROW}" in row.err, row.err
    assert "the row is hidden: unhide it if it should be imported" in row.err

    def hide_column(wb: Any) -> None:
        from openpyxl.utils import get_column_letter

        wb[ANSWER_SHEET].column_dimensions[get_column_letter(_column("lead_time_days"))].hidden = True

    column = cli("--db", db, "import", str(_edited(filled, tmp_path / "column.xlsx", hide_column)))
    assert column.code == 2 and "the column is hidden" in column.err, column.err
    assert dump(demo_db_path) == before
    assert cli("--db", db, "import", str(filled)).code == 0  # the same answers, all visible: imported
