"""Whatever a spreadsheet holds, the importer reports it with its place and writes nothing; well-formed
oddities (merged cells, the 1904 date system, dates typed as text, Chinese headers) import correctly."""

from __future__ import annotations

import io
import zipfile
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import Workbook
from openpyxl.utils.datetime import CALENDAR_MAC_1904

from quotetui.io.problems import ImportProblems
from quotetui.services.database import open_database
from quotetui.services.importing import import_files
from quotetui.store.engine import Database
from tests.conftest import Cli, copy_demo, dump

CORPUS = Path(__file__).parent / "fixtures" / "malformed"

# file -> (sheet, row, column starts with, reason contains); None where the problem is the whole file
EXPECTED: dict[str, tuple[str | None, int | None, str | None, str]] = {
    "01_not_a_zip.xlsx": (None, None, None, "not an .xlsx workbook"),
    "02_empty.xlsx": (None, None, None, "not an .xlsx workbook"),
    "03_truncated.xlsx": (None, None, None, "damaged or truncated"),
    "04_zip_bomb.xlsx": (None, None, None, "zip bomb"),
    "05_password_protected.xlsx": (None, None, None, "password-protected"),
    "06_zip_encrypted.xlsx": (None, None, None, "encrypted"),
    "07_a_word_document.xlsx": (None, None, None, "no xl/workbook.xml"),
    "08_garbled_sheet_xml.xlsx": (None, None, None, "cannot read the workbook"),
    "09_xml_entity_expansion.xlsx": (None, None, None, "declares entities"),
    "10_formula_without_saved_value.xlsx": ("Offers", 2, "column 'gpus_per_node' (D)", "formula without a saved"),
    "11_excel_error_value.xlsx": ("Offers", 2, "column 'gpus_per_node' (D)", "'#DIV/0!' is not a number"),
    "12_lying_dimension.xlsx": ("Offers", 2, "column 'gpus_per_node' (D)", "'eight' is not a number"),
    "13_nul_bytes.csv": (None, None, None, "NUL bytes"),
    "14_windows_1252.csv": (None, 2, None, "as GB18030/GBK it reads 'M黮ler GmbH', which is not Chinese"),
    "15_control_characters.csv": (None, 2, "column 'offer'", "a control character (BELL, U+0007)"),
    "16_huge_string.csv": (None, 2, "column 'offer'", "20,000 characters"),
    "17_field_over_csv_limit.csv": (None, 2, None, "not valid CSV"),
    "18_too_many_columns.csv": (None, 1, None, "250 columns"),
    "19_offers_missing_columns.csv": (None, 1, None, "missing columns gpu, billing"),
    "20_offers_bad_values.csv": (None, 3, "column 'billing'", "'weekly' is not one of"),
    "21_negotiation_text_dates.csv": (None, 2, "column 'quoted_at'", "'next tuesday' is not a date"),
    "22_negotiation_unknown_offer.csv": (None, 2, "column 'offer'", "no offer '8×H100 phantom'"),
    "23_fx_rates_same_currency.csv": (None, 2, "column 'quote'", "two different currencies"),
    "24_skypilot_bad_price.csv": (None, 2, "column 'Price'", "'free' is not a number"),
    "25_what_is_this.csv": (None, None, None, "cannot tell what this file holds"),
    "26_money_too_precise.csv": (None, 2, "column 'price'", "more than 6 decimal places"),
    "27_old_excel.xls": (None, None, None, "save as .xlsx"),
    "28_dimension_too_small.xlsx": ("Offers", 3, "column 'gpus_per_node' (D)", "'eight' is not a number"),
    "29_trailing_formula_without_value.xlsx": ("Offers", 2, "column 'billing' (E)", "formula without a saved"),
    "30_line_cut_short.csv": (None, 3, None, "6 cells where the header has 9: a line cut short"),
    "31_two_columns_for_one_field.csv": (None, 1, "column 'Price'", "'Price' and 'price' are both the column"),
    "32_utf8_and_gbk_lines.csv": (None, 3, None, "line 2 is UTF-8 text but line 3 is not"),
}


def test_the_corpus_is_complete() -> None:
    files = sorted(p.name for p in CORPUS.iterdir() if p.name[:2].isdigit())
    assert files == sorted(EXPECTED)
    assert len(files) >= 20


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_malformed_file_is_reported_in_place_and_nothing_changes(name: str, cli: Cli, demo_db_path: Path) -> None:
    sheet, row, column, reason = EXPECTED[name]
    before = dump(demo_db_path)
    result = cli("--db", str(demo_db_path), "import", str(CORPUS / name), "--json")
    assert result.code == 2, result.out + result.err
    import json

    problems = json.loads(result.out)["problems"]
    match = [p for p in problems if reason in p["reason"]]
    assert match, problems
    p = match[0]
    assert p["file"] == name
    assert p["sheet"] == sheet
    assert p["row"] == row
    assert (p["column"] or None) == column or (column and (p["column"] or "").startswith(column))
    assert dump(demo_db_path) == before


def test_all_problems_of_many_files_come_at_once(cli: Cli, demo_db_path: Path) -> None:
    names = ["04_zip_bomb.xlsx", "20_offers_bad_values.csv", "21_negotiation_text_dates.csv", "13_nul_bytes.csv"]
    result = cli("--db", str(demo_db_path), "import", *(str(CORPUS / n) for n in names))
    assert result.code == 2
    lines = result.err.splitlines()
    assert lines[0] == "quotetui: 8 problems; nothing was imported:"
    assert len(lines) == 9  # each problem on a line of its own, indented under the first
    assert all(line.startswith("  ") and line.count(".csv") + line.count(".xlsx") == 1 for line in lines[1:])
    for name in names:
        assert name in result.err


def test_no_xml_is_parsed_before_the_zip_is_checked(monkeypatch: pytest.MonkeyPatch, empty_db: Database) -> None:
    import openpyxl

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("load_workbook called on a zip bomb")

    monkeypatch.setattr(openpyxl, "load_workbook", refuse)
    with pytest.raises(ImportProblems, match="zip bomb"):
        import_files(empty_db, [CORPUS / "04_zip_bomb.xlsx"])


def test_defusedxml_is_what_openpyxl_parses_with() -> None:
    from openpyxl.xml import DEFUSEDXML

    assert DEFUSEDXML


# -- well-formed oddities ------------------------------------------------------------------------------
def _book_with_rounds(epoch_1904: bool = False) -> Workbook:
    book = Workbook()
    if epoch_1904:
        book.epoch = CALENDAR_MAC_1904
    sheet = book.active
    assert sheet is not None
    sheet.title = "谈判"  # the Chinese alias of the Negotiation sheet
    sheet.append(["备注", "币种", "价格", "单位", "期限", "日期", "谁出价", "轮次", "方案", "供应商"])  # any order
    sheet.append(
        ["first", "CNY", 170000, "node_month", 1, date(2026, 11, 30), "provider", 5, "8×H100 SXM5 整机", "一万网络"]
    )
    sheet.append(["second", "CNY", 165000, "node_month", 1, "2026年12月1日", "counter", 6, "8×H100 SXM5 整机", None])
    sheet.append(["third", "CNY", 166000, "node_month", 1, "2026/12/2", "final", 7, "8×H100 SXM5 整机", None])
    sheet.merge_cells("J2:J4")  # the provider written once for three rounds
    # dated after the demo's round 1 (2026-11-30 in Beijing) and not after today: rounds are dated in their order
    return book


@pytest.mark.parametrize("epoch_1904", [False, True])
def test_merged_cells_1904_dates_text_dates_and_chinese_headers(
    epoch_1904: bool, cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    path = tmp_path / "rounds.xlsx"
    _book_with_rounds(epoch_1904).save(path)
    if epoch_1904:
        with zipfile.ZipFile(path) as archive:
            assert b'date1904="1"' in archive.read("xl/workbook.xml")
    result = cli("--db", str(demo_db_path), "import", str(path))
    assert result.code == 0, result.err
    assert "revisions: 3 added" in result.out
    from sqlmodel import col, select

    from quotetui.store.models import Offer, QuoteRevision, RevisionPrice

    opened = open_database(str(demo_db_path))
    with opened.db.session() as session:
        rows = session.exec(
            select(QuoteRevision.seq, QuoteRevision.quoted_at, RevisionPrice.amount)
            .join(RevisionPrice, col(RevisionPrice.revision_id) == col(QuoteRevision.id))
            .join(Offer, col(Offer.id) == col(QuoteRevision.offer_id))
            .where(Offer.name == "8×H100 SXM5 整机", col(QuoteRevision.seq) >= 5)
            .order_by(col(QuoteRevision.seq))
        ).all()
    opened.db.dispose()
    assert [(s, d.date().isoformat()) for s, d, _ in rows] == [(5, "2026-11-30"), (6, "2026-12-01"), (7, "2026-12-02")]
    assert [p for _, _, p in rows] == [Decimal(170000), Decimal(165000), Decimal(166000)]  # exact


def test_csv_with_and_without_bom_and_extra_columns(cli: Cli, empty_db: Database, tmp_path: Path) -> None:
    body = "name,kind,colour\n蓝海算力,lessor,blue\n"
    for bom, name in ((True, "providers.csv"), (False, "供应商.csv")):
        path = tmp_path / name
        path.write_bytes(("\ufeff" if bom else "").encode() + body.encode())
        report = import_files(empty_db, [path])
        assert [w.reason for w in report.warnings] == ["ignored column colour"]
    assert report.counts["providers"].unchanged == 1  # the second file found the provider of the first


# -- fuzzing: the importer raises its own error or imports, never anything else --------------------------
@pytest.fixture(scope="module")
def fuzz_db(tmp_path_factory: pytest.TempPathFactory, demo_template: Path) -> Database:
    path = copy_demo(demo_template, tmp_path_factory.mktemp("fuzz") / "fuzz.db")
    return open_database(str(path)).db


def _valid_xlsx() -> bytes:
    buffer = io.BytesIO()
    _book_with_rounds().save(buffer)
    return buffer.getvalue()


VALID_XLSX = _valid_xlsx()


def _import_bytes(db: Database, folder: Path, name: str, data: bytes) -> None:
    path = folder / name
    path.write_bytes(data)
    try:
        import_files(db, [path], dry_run=True)
    except ImportProblems as exc:
        assert exc.problems and all(p.file == name for p in exc.problems)


FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@FUZZ
@given(flips=st.lists(st.tuples(st.integers(0, len(VALID_XLSX) - 1), st.integers(1, 255)), min_size=1, max_size=8))
def test_fuzzed_workbook_bytes(flips: list[tuple[int, int]], fuzz_db: Database, tmp_path: Path) -> None:
    data = bytearray(VALID_XLSX)
    for offset, xor in flips:
        data[offset] ^= xor
    _import_bytes(fuzz_db, tmp_path, "fuzzed.xlsx", bytes(data))


HEADERS = [
    "provider",
    "offer",
    "gpu",
    "gpus_per_node",
    "billing",
    "round",
    "mover",
    "quoted_at",
    "price",
    "unit",
    "currency",
    "term_months",
    "rate",
    "as_of",
    "base",
    "quote",
    "availability",
    "credits",
    "kind",
    "name",
    "metric",
    "value",
    "source",
]
CELL = st.one_of(
    st.sampled_from(["一万网络", "8×H100 SXM5 整机", "H100", "monthly", "node_month", "CNY", "USD", "list", "1", "0"]),
    st.sampled_from(["2026-11-02", "2026年11月2日", "-1", "1e400", "NaN", "99.9:10, 99:25", "15%", "=1+1", "9" * 30]),
    st.text(max_size=12),
    st.decimals(allow_nan=True, allow_infinity=True).map(str),
)


@FUZZ
@given(
    name=st.sampled_from(["offers", "negotiation", "providers", "sla", "fx rates", "benchmarks", "discounts", "x"]),
    header=st.lists(st.sampled_from(HEADERS), min_size=1, max_size=10, unique=True),
    rows=st.lists(st.lists(CELL, max_size=10), max_size=5),
)
def test_fuzzed_csv(name: str, header: list[str], rows: list[list[str]], fuzz_db: Database, tmp_path: Path) -> None:
    import csv

    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(header)
    writer.writerows(rows)
    _import_bytes(fuzz_db, tmp_path, f"{name}.csv", buffer.getvalue().encode("utf-8", "surrogatepass"))


def test_formula_cells_without_values_are_found_in_any_namespace_prefix() -> None:
    from quotetui.io.xlsx_read import _formula_cells

    xml = (
        b'<x:sheetData><x:row r="2"><x:c r="B2"><x:f>1+1</x:f></x:c><x:c r="C2"><x:f>2</x:f><x:v>2</x:v></x:c>'
        b'<x:c r="D2" s="1"/><x:c r="AA2"><x:f t="shared" si="0"/><x:v/></x:c></x:row></x:sheetData>'
    )
    assert _formula_cells(xml) == {(2, 1), (2, 26)}
    assert _formula_cells(xml.replace(b"x:", b"")) == {(2, 1), (2, 26)}


def test_a_line_break_in_a_file_name_cannot_forge_a_problem_line(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    forged = tmp_path / "a\nquotetui: 0 problems.csv"
    forged.write_bytes(b"")
    result = cli("--db", str(demo_db_path), "import", str(forged))
    assert result.code == 2
    assert result.err.splitlines() == [
        "quotetui: 1 problem; nothing was imported:",
        "  a␤quotetui: 0 problems.csv: the file is empty (0 bytes): nothing to import",
    ]
