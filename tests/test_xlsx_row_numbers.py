"""Row and cell references no spreadsheet program writes are refused, naming the sheet, and nothing is imported:
a row that goes back was dropped without a word, a row numbered "inf" ended in an OverflowError naming nothing,
and a row numbered a billion made a billion empty rows (24 GiB) before the row limit was checked."""

from __future__ import annotations

import resource
import zipfile
from pathlib import Path

import pytest
from openpyxl import Workbook

from tests.conftest import Cli


def _cell(text: str, ref: str | None) -> str:
    at = f' r="{ref}"' if ref is not None else ""
    return f'<c{at} t="inlineStr"><is><t>{text}</t></is></c>'


ROWS = (
    f'<row r="1">{_cell("name", "A1")}{_cell("kind", "B1")}</row>'
    f'<row r="2">{_cell("FirstCo", "A2")}{_cell("lessor", "B2")}</row>'
    '<row r="{r}">' + _cell("OddCo", "{ref}") + _cell("lessor", None) + "</row>"
)


def _workbook(folder: Path, r: str, ref: str) -> Path:
    plain = folder / "plain.xlsx"
    book = Workbook()
    book.active.title = "Providers"
    book.active.append(["placeholder"])
    book.save(plain)
    out = folder / "providers.xlsx"
    with zipfile.ZipFile(plain) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                text = data.decode()
                head, rest = text.split("<sheetData>", 1)
                tail = rest.split("</sheetData>", 1)[1]
                text = head + "<sheetData>" + ROWS.format(r=r, ref=ref) + "</sheetData>" + tail
                data = text.encode()
            dst.writestr(item, data)
    return out


@pytest.mark.parametrize(
    ("r", "ref", "message"),
    [
        ("1", "A1", "row 1 comes after row 2 (rows out of order)"),
        ("-5", "A3", "row -5 comes after row 2 (rows out of order)"),
        ("inf", "A3", "row number 'inf' is not a row number"),
        ("nan", "A3", "row number 'nan' is not a row number"),
        ("abc", "A3", "row number 'abc' is not a row number"),
        ("1e400", "A3", "row number '1e400' is not a row number"),
        ("3", "8", "cell reference '8' is not a cell"),
        ("3", "a3", "cell reference 'a3' is not a cell"),
        ("1000000000", "A1000000000", "more than 1,048,575 rows"),
    ],
)
def test_a_row_or_cell_reference_no_program_writes_is_refused_by_sheet(
    cli: Cli, demo_db_path: Path, tmp_path: Path, r: str, ref: str, message: str
) -> None:
    book = _workbook(tmp_path, r, ref)
    before = cli("--db", str(demo_db_path), "providers", "--json").out
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = cli("--db", str(demo_db_path), "import", str(book))
    assert result.code == 2, result.err
    assert f"providers.xlsx › Providers: {message}" in result.err and "nothing was imported" in result.err
    assert cli("--db", str(demo_db_path), "providers", "--json").out == before
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak < 200 * 1024  # KiB: no row per gap


def test_rows_in_order_with_gaps_and_cells_without_references_are_read(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    book = _workbook(tmp_path, "7", "A7")  # rows 3 to 6 are absent: empty, as a spreadsheet shows them
    result = cli("--db", str(demo_db_path), "import", str(book))
    assert result.code == 0, result.err
    names = cli("--db", str(demo_db_path), "providers", "--json").out
    assert "FirstCo" in names and "OddCo" in names
